#include "ucm_energy.h"

/* ---------------------------------------------------------------- coefficients
 * 45 nm, 1.0 V unless said. fJ, ps, um^2.
 *
 * FeFET CAM (dynamic pruning)
 *   E_SEARCH_BIT   0.2 fJ per cell bit per search: 2FeFET TCAM search energy
 *                  at 45 nm (the project brief, SPEC section 4; Ni et al.,
 *                  Nature Electronics 2, 2019, 2FeFET TCAM).
 *   E_SENSE_ROW    5 fJ per row per search: match-line precharge and sense,
 *                  C_ML ~ 20 fF swung by 0.5 V (C V^2 estimate).
 *   T_SEARCH       2000 ps per search: 1 ns precharge + 1 ns race, the sense
 *                  lines discharging at rates set by S until IRef1 has let k
 *                  rows win (assumption; FeFET match lines evaluate in < 1 ns).
 *   A top-k is one search (the paper's O(1) selection). The emulation finds
 *   the race's outcome by radix selection over several passes; that is its
 *   own cost (the CYC_SEARCH counter), not the device's.
 * Charge-domain accumulation (static pruning)
 *   E_ACC_ROW      10 fJ per accumulator update: charge sharing onto
 *                  C_ACC = 10 fF at 1 V.
 *   E_MIN_ROW      2 fJ per row per min-detect (FE-INV chain); T_MIN 2000 ps.
 * Current-domain CIM (exact scores)
 *   E_CELL_MAC     1 fJ per cell per query bit plane: ~1 uA for ~1 ns at 1 V.
 *   E_ADC_10B      2000 fJ per 10-bit SAR conversion: Walden FOM ~2 fJ per
 *                  conversion step x 2^10 (Murmann, ADC Performance Survey,
 *                  SAR converters in 40-65 nm); scaled by 2 per extra bit.
 *   T_ADC_STEP     1000 ps; a conversion takes ADC_BITS + 1 steps (SAR, brief).
 *   A_ADC          2000 um^2 per 10-bit SAR ADC at 45 nm (survey range).
 * Cells
 *   A_FEFET_CELL   0.10 um^2: a complementary FeFET pair (2 x ~25 F^2, 45 nm);
 *                  it holds 1 bit, or 3 bits as sign + 2-bit multi-level Vth.
 *   A_SRAM_CELL    0.60 um^2: an 8T SRAM compute cell (6T 0.346 um^2 at 45 nm
 *                  plus read port and compute share); one bit per cell, so a
 *                  3-bit key element takes 3 cells and 3 weight slices.
 * Digital sorter (the sort-based baseline)
 *   E_CMP          100 fJ per compare-and-swap of 16-bit scores with register
 *                  access (Horowitz, ISSCC 2014, 45 nm: 32-bit add 0.1 pJ).
 *   T_CMP          1000 ps per comparator stage (1 GHz).
 *   SORT_UNITS     64 comparators working in parallel (matching ADC_COUNT).
 *   A_CMP          200 um^2 per comparator with its registers. */
enum {
  E_SEARCH_BIT_X10 = 2, /* tenths of a fJ */
  E_SENSE_ROW = 5,
  T_SEARCH = 2000,
  E_ACC_ROW = 10,
  E_MIN_ROW = 2,
  T_MIN = 2000,
  E_CELL_MAC = 1,
  E_ADC_10B = 2000,
  T_ADC_STEP = 1000,
  A_ADC = 2000,
  A_FEFET_CELL_X100 = 10, /* hundredths of um^2 */
  A_SRAM_CELL_X100 = 60,
  E_CMP = 100,
  T_CMP = 1000,
  SORT_UNITS = 64,
  A_CMP = 200,
};

static uint64_t ceil_div(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

static uint64_t adc_energy(uint32_t bits) {
  return bits >= 10 ? (uint64_t)E_ADC_10B << (bits - 10) : (uint64_t)E_ADC_10B >> (10 - bits);
}

static uint32_t log2_ceil(uint32_t n) {
  uint32_t b = 0;
  while ((1u << b) < n) b++;
  return b;
}

/* A search of rows x dim cells. */
static uint64_t search_energy(uint64_t rows, uint32_t dim, uint32_t cell_bits) {
  return rows * ((uint64_t)dim * cell_bits * E_SEARCH_BIT_X10 / 10 + E_SENSE_ROW);
}

/* Conversions through adc_count shared converters. */
static ucm_cost_t convert(uint64_t conversions, uint32_t dim, uint32_t adc_bits, uint32_t adc_count) {
  ucm_cost_t c = {0, 0, 0};
  c.energy_fj = conversions * (adc_energy(adc_bits) + (uint64_t)dim * E_CELL_MAC);
  c.latency_ps = ceil_div(conversions, adc_count) * (adc_bits + 1) * (uint64_t)T_ADC_STEP;
  return c;
}

ucm_cost_t ucm_step_topk_unicaim(const ucm_step_t *s) {
  ucm_cost_t c = {search_energy(s->n, s->dim, s->cell_bits), T_SEARCH, ucm_area_unicaim(s)};
  return c;
}

ucm_cost_t ucm_step_exact_unicaim(const ucm_step_t *s) {
  ucm_cost_t c = convert((uint64_t)s->k * s->q_bits, s->dim, s->adc_bits, s->adc_count);
  c.area_um2 = ucm_area_unicaim(s);
  return c;
}

/* Scores of every key on SRAM CIM: a multi-bit key element is bit-sliced
 * over cell_bits cells, each slice converted and shift-added. */
static ucm_cost_t sram_scores(const ucm_step_t *s) {
  return convert((uint64_t)s->n * s->q_bits * s->cell_bits, s->dim, s->adc_bits, s->adc_count);
}

ucm_cost_t ucm_step_topk_sort(const ucm_step_t *s) {
  uint64_t compares = (uint64_t)s->n * log2_ceil(s->n);
  ucm_cost_t c = {compares * E_CMP, ceil_div(compares, SORT_UNITS) * T_CMP,
                  ucm_area_sram_cim(s) + (uint64_t)SORT_UNITS * A_CMP};
  return c;
}

ucm_cost_t ucm_step_dense(const ucm_step_t *s) {
  ucm_cost_t c = sram_scores(s);
  c.area_um2 = ucm_area_sram_cim(s);
  return c;
}

uint64_t ucm_area_unicaim(const ucm_step_t *s) {
  return (uint64_t)s->n * s->dim * A_FEFET_CELL_X100 / 100 + (uint64_t)s->adc_count * A_ADC;
}

uint64_t ucm_area_sram_cim(const ucm_step_t *s) {
  return (uint64_t)s->n * s->dim * s->cell_bits * A_SRAM_CELL_X100 / 100 + (uint64_t)s->adc_count * A_ADC;
}

ucm_cost_t ucm_cost_of_counters(const uint32_t *before, const uint32_t *after, const ucm_geom_t *g) {
  uint32_t d[UCM_COUNTERS];
  for (int i = 0; i < UCM_COUNTERS; i++) d[i] = after[i] - before[i];
  ucm_cost_t c = {0, 0, 0};
  /* Each emulated search pass but the last (the read-out) is one analog
   * search at one reference current: passes = busy cycles / (rows + 1),
   * less each search's extra pipeline cycles. */
  uint32_t rows = g->slots / g->lanes;
  uint64_t passes = (d[UCM_CNT_CYC_SEARCH] - (uint64_t)d[UCM_CNT_EV_SEARCH] * UCM_SEARCH_EXTRA_CYCLES) / (rows + 1);
  uint64_t analog = passes > d[UCM_CNT_EV_SEARCH] ? passes - d[UCM_CNT_EV_SEARCH] : 0;
  uint64_t rows_searched =
      d[UCM_CNT_EV_SEARCH] ? d[UCM_CNT_EV_CELL_SEARCH] / g->dim / d[UCM_CNT_EV_SEARCH] : 0;
  c.energy_fj += analog * search_energy(rows_searched, g->dim, g->cell_bits);
  c.latency_ps += analog * T_SEARCH;
  c.energy_fj += (uint64_t)d[UCM_CNT_EV_ACC_UPDATE] * E_ACC_ROW;
  c.energy_fj += (uint64_t)d[UCM_CNT_EV_MIN_DETECT] * g->slots * E_MIN_ROW;
  c.latency_ps += (uint64_t)d[UCM_CNT_EV_MIN_DETECT] * T_MIN;
  c.energy_fj += (uint64_t)d[UCM_CNT_EV_ADC_CONV] * (adc_energy(g->adc_bits) + (uint64_t)g->dim * E_CELL_MAC);
  c.latency_ps += (uint64_t)d[UCM_CNT_EV_ADC_ROUND] * (g->adc_bits + 1) * T_ADC_STEP;
  return c;
}
