#include "ucm_energy.h"

/* ---------------------------------------------------------------- coefficients
 * 45 nm, 1.0 V unless said; fJ, ps, um^2. One line per physical event; the
 * sense line's from its trim (SENSE_TIME, SENSE_CAP: the same capacitances
 * and voltage as the circuit, docs/unicaim.md).
 *
 * CAM search (dynamic pruning), per race over the valid rows
 *   E_SEARCH_BIT   0.2 fJ per cell bit searched: 2FeFET TCAM search energy
 *                  at 45 nm (the brief, SPEC section 4; Ni et al., Nature
 *                  Electronics 2, 2019).
 *   sense row      C_SL V_pre^2 per row: the line precharged again after a
 *                  full discharge (an upper bound; 20 fJ at the reset trim).
 *   E_IREF         10 fJ per search: IRef1's current DAC set for this k.
 *   T_SEARCH       T_PRECHARGE 1 ns + t_s (the race) + T_IREF 0.5 ns for IRef1
 *                  to settle. Assumption: the circuit the paper describes (a
 *                  sense line discharging slower the higher S, IRef1
 *                  programmed so that k rows win) selects the top k in ONE
 *                  race, IRef1 taken from a per-k calibration; rows whose
 *                  races tie at the cut are resolved in the same race. The
 *                  emulation's radix passes are not physical and not priced.
 * Charge-domain accumulation (static pruning)
 *   charge share   1/2 C_SL C_ACC / (C_SL + C_ACC) V_pre^2 per row per search:
 *                  the loss of sharing two capacitors whose voltages differ
 *                  by at most V_pre (3.3 fJ at the reset trim); in the
 *                  race's cycle (no latency).
 *   E_MIN_ROW      2 fJ per row per min-detect (FE-inverter chain); T_MIN 2 ns.
 * Digital accumulation (the project's ablation, unicaim+ digital=1)
 *   E_ACC_DIGITAL  10.1 pJ per add: a 32-bit add 0.1 pJ and a 32-bit read and
 *                  write of an 8 KB SRAM, 10 pJ (Horowitz, ISSCC 2014, 45 nm:
 *                  64-bit access of 8 KB 10 pJ); T_ACC_DIGITAL 1 ns each.
 * Current-domain CIM (exact scores)
 *   E_CELL_MAC     1 fJ per cell per query bit plane: ~1 uA for ~1 ns at 1 V.
 *   E_ADC_10B      2000 fJ per 10-bit SAR conversion: Walden FOM ~2 fJ per
 *                  conversion step x 2^10 (Murmann, ADC Performance Survey,
 *                  SAR converters in 40-65 nm); halved per bit fewer.
 *   T_ADC_STEP     1000 ps; a conversion round takes ADC_BITS + 1 steps (SAR).
 * Cell writes
 *   E_CELL_WRITE   1 fJ per FeFET programmed (HfO2 FeFET write energy of
 *                  order 1 fJ: Mulaosmanovic et al., IEEE EDL 2017 / the
 *                  FeFET literature's < 1 fJ per bit); T_WRITE 10 ns per row
 *                  (a write pulse; all cells of a row in parallel).
 * Area
 *   A_FEFET_CELL   0.10 um^2: a complementary FeFET pair (2 x ~25 F^2); it
 *                  holds 1 bit, or 3 bits as sign + 2-bit multi-level Vth.
 *   A_ADC          2000 um^2 per 10-bit SAR ADC at 45 nm (survey range). */
enum {
  E_SEARCH_BIT_X10 = 2, /* tenths of a fJ */
  E_IREF = 10,
  E_MIN_ROW = 2,
  T_MIN = 2000,
  E_ACC_DIGITAL = 10100,
  T_ACC_DIGITAL = 1000,
  E_CELL_WRITE = 1,
  T_WRITE = 10000,
  A_FEFET_CELL_X100 = 10, /* hundredths of um^2 */
  A_ADC = 2000,
};

/* T_ADC_STEP, E_ADC_10B, E_CELL_MAC, T_PRECHARGE, T_IREF: estimates within a
   range, not measurements (docs/unicaim.md's sensitivity table). */
const ucm_price_params_t ucm_price_defaults = {
    .adc_step_ps = 1000, .adc_10b_fj = 2000, .cell_mac_fj = 1, .precharge_ps = 1000, .iref_ps = 500};

static uint64_t adc_energy(uint32_t e10, uint32_t bits) {
  return bits >= 10 ? (uint64_t)e10 << (bits - 10) : (uint64_t)e10 >> (10 - bits);
}

ucm_cost_detail_t ucm_price_events(const uint32_t *d, const ucm_geom_t *g, const ucm_sense_t *trim) {
  return ucm_price_events_with(d, g, trim, &ucm_price_defaults);
}

ucm_cost_detail_t ucm_price_events_with(const uint32_t *d, const ucm_geom_t *g, const ucm_sense_t *trim,
                                        const ucm_price_params_t *p) {
  ucm_cost_detail_t c = {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
  const ucm_sense_t t = ucm_sense_resolved(trim);
  /* Per row in aJ (fF x mV^2 is 1e-21 J): small enough to multiply by 32-bit counts. */
  const uint64_t vpre2 = (uint64_t)t.vpre_mv * t.vpre_mv;
  const uint64_t sense_row_aj = t.csl_ff * vpre2 / 1000;
  const uint64_t share_row_aj = (uint64_t)t.csl_ff * t.cacc_ff * vpre2 / (2000ull * (t.csl_ff + t.cacc_ff));
  uint64_t rows_searched = d[UCM_CNT_EV_CELL_SEARCH] / g->dim;
  c.search.energy_fj = (uint64_t)d[UCM_CNT_EV_CELL_SEARCH] * g->cell_bits * E_SEARCH_BIT_X10 / 10 +
                       rows_searched * sense_row_aj / 1000 + (uint64_t)d[UCM_CNT_EV_SEARCH] * E_IREF;
  c.search.latency_ps = (uint64_t)d[UCM_CNT_EV_SEARCH] * (p->precharge_ps + t.ts_ps + p->iref_ps);
  c.acc_charge.energy_fj = (uint64_t)d[UCM_CNT_EV_ACC_CHARGE] * share_row_aj / 1000;
  c.acc_digital.energy_fj = (uint64_t)d[UCM_CNT_EV_ACC_DIGITAL] * E_ACC_DIGITAL;
  c.acc_digital.latency_ps = (uint64_t)d[UCM_CNT_EV_ACC_DIGITAL] * T_ACC_DIGITAL;
  c.min_detect.energy_fj = (uint64_t)d[UCM_CNT_EV_MIN_DETECT] * g->slots * E_MIN_ROW;
  c.min_detect.latency_ps = (uint64_t)d[UCM_CNT_EV_MIN_DETECT] * T_MIN;
  c.convert.energy_fj =
      (uint64_t)d[UCM_CNT_EV_ADC_CONV] * (adc_energy(p->adc_10b_fj, g->adc_bits) + (uint64_t)g->dim * p->cell_mac_fj);
  c.convert.latency_ps = (uint64_t)d[UCM_CNT_EV_ADC_ROUND] * (g->adc_bits + 1) * p->adc_step_ps;
  c.write.energy_fj = (uint64_t)d[UCM_CNT_EV_CELL_WRITE] * E_CELL_WRITE;
  c.write.latency_ps = (uint64_t)(d[UCM_CNT_EV_CELL_WRITE] / g->dim) * T_WRITE;
  const ucm_cost_t *part = &c.search;
  for (int i = 0; i < 6; i++) {
    c.total.energy_fj += part[i].energy_fj;
    c.total.latency_ps += part[i].latency_ps;
  }
  return c;
}

ucm_cost_t ucm_cost_of_events(const uint32_t *before, const uint32_t *after, const ucm_geom_t *g,
                              const ucm_sense_t *trim) {
  uint32_t d[UCM_COUNTERS];
  for (int i = 0; i < UCM_COUNTERS; i++) d[i] = after[i] - before[i];
  return ucm_price_events(d, g, trim).total;
}

void ucm_unpruned_events(uint32_t *d, const ucm_geom_t *g, uint32_t n, uint32_t queries, uint32_t writes) {
  for (int i = 0; i < UCM_COUNTERS; i++) d[i] = 0;
  uint32_t conversions = n * g->q_bits;
  d[UCM_CNT_EV_ADC_CONV] = conversions * queries;
  d[UCM_CNT_EV_ADC_ROUND] = (conversions + g->adc_count - 1) / g->adc_count * queries;
  d[UCM_CNT_EV_CELL_WRITE] = writes * g->dim;
}

uint64_t ucm_area_um2(const ucm_geom_t *g, uint32_t rows, uint32_t key_bits) {
  uint64_t cells_per_component = g->cell_bits >= key_bits ? 1 : (key_bits + g->cell_bits - 1) / g->cell_bits;
  return (uint64_t)rows * g->dim * cells_per_component * A_FEFET_CELL_X100 / 100 + (uint64_t)g->adc_count * A_ADC;
}
