/* The paper's comparison recomputed (make bench-ucm): one decode step of
 * one 128-dim attention head with N = 256..2048 cached tokens, UniCAIM
 * against the designs of ucm_baselines.h. UniCAIM's figures are its
 * counted device events (the golden model running the step through the
 * driver, priced by ucm_energy.c); the baselines' are their own operation
 * counts. Static pruning holds UniCAIM's cache at the paper's H + M = 576
 * rows (fewer tokens: all of them); every design keeps k = a fifth of its
 * cache for exact attention (the paper's 81% ADC saving). Key writes are
 * left out on every side.
 *
 * usage: ucm_report [CSV]   -- BENCH lines; the table as CSV too
 *        ucm_report --example  -- the worked example of docs/unicaim.md:
 *                                 fixed event counts on the paper's array at
 *                                 the reset trim, priced part by part
 *        ucm_report --sensitivity  -- the n = 2048 ratios with each
 *                                 coefficient without a primary source
 *                                 across its range (a Markdown table), their
 *                                 extremes, and the fewest changes that give
 *                                 the paper's 16.7x latency
 *
 *   model_overall_latency_ratio_n<N>, model_energy_ratio_n<N>
 *       the sort-based CIM baseline (CIMFormer-like) / UniCAIM 3-bit
 *   model_<latency|energy|aedp3b|aedp1b|area3b>_ratio_<baseline>_n<N>
 *       every baseline / UniCAIM (3-bit cells, or 1-bit: three per component)
 *   model_adc_energy_saved_pct
 *       ADC energy of exact scores for the top fifth against all 576 keys */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucm.h"
#include "ucm_arrays.h"
#include "ucm_baselines.h"
#include "ucm_energy.h"

enum { DIM = UCM_PAPER_DIM, CACHE = UCM_PAPER_SLOTS }; /* arrays.toml [paper] */

typedef struct {
  ucm_cost_t step;
  uint64_t area_um2;
  uint32_t conversions;
} ucm_run_t;

static uint32_t rng = 2026;

static int8_t rnd8(void) {
  rng = rng * 1664525u + 1013904223u;
  return (int8_t)(rng >> 24);
}

/* The array's side of a sensitivity row: its coefficients, the query's bit
   planes and how its converters reach the rows (MUX: fixed groups of
   CACHE / adc_count consecutive rows per ADC, the paper's MUX, instead of
   any converter for any row). */
typedef struct {
  ucm_price_params_t price;
  uint32_t q_bits;
  int mux;
} array_choice_t;

static array_choice_t array_defaults(void) {
  const array_choice_t a = {ucm_price_defaults, UCM_PAPER_Q_BITS, 0};
  return a;
}

/* Conversion rounds when each converter serves a fixed group of rows: the
   busiest group's selected keys, a round per key and query bit plane. */
static uint32_t mux_rounds(const uint16_t *selected, uint32_t k, const ucm_geom_t *g) {
  static uint32_t in_group[UCM_PAPER_ADC_COUNT];
  const uint32_t rows_per_adc = (g->slots + g->adc_count - 1) / g->adc_count;
  uint32_t busiest = 0;
  memset(in_group, 0, sizeof in_group);
  for (uint32_t i = 0; i < k; i++) {
    uint32_t n = ++in_group[selected[i] / rows_per_adc];
    if (n > busiest) busiest = n;
  }
  return busiest * g->q_bits;
}

/* One step on the golden model: ROWS keys cached, a CAM search for the top
   K with charge accumulation, exact scores of those K (ALL: of every row,
   no search), and a min-detect when the cache is full (N > ROWS); priced
   with CHOICE's coefficients. */
static int unicaim_step_with(uint32_t cell_bits, uint32_t n, int all, const array_choice_t *choice, ucm_run_t *run) {
  uint32_t rows = n < CACHE ? n : CACHE, k = rows / 5;
  ucm_geom_t g = UCM_ARRAY_PAPER;
  g.slots = CACHE;
  g.dim = DIM * (cell_bits == 1 ? 3 : 1);
  g.cell_bits = cell_bits;
  g.q_bits = choice->q_bits;
  void *mem = malloc(ucm_model_bytes(&g));
  ucm_model_t model;
  ucm_t u;
  if (!mem || ucm_model_init(&model, &g, mem) || ucm_open_model(&u, &model)) return -1;
  ucm_config_t cfg = {.query_step = 24, .accumulation = {.linear = 1, .alpha = 4}, .adc_gain = 1, .adc_shift = 3, .seed = 7};
  ucm_configure(&u, &cfg);
  ucm_set_step(&u, 0, 16);
  static int8_t v[3 * DIM];
  for (uint32_t s = 0; s < rows; s++) {
    for (uint32_t d = 0; d < g.dim; d++) v[d] = rnd8();
    if (ucm_write_key(&u, 0, s, (uint16_t)s, v, 0)) return -1;
  }
  for (uint32_t d = 0; d < g.dim; d++) v[d] = rnd8();
  ucm_load_query(&u, v);
  static uint16_t every[CACHE], selected[CACHE];
  static int32_t scores[CACHE];
  for (uint32_t s = 0; s < rows; s++) every[s] = (uint16_t)s;
  ucm_counters_t before, after;
  ucm_read_counters(&u, &before);
  if (all) {
    if (ucm_exact(&u, 0, every, rows, 0, scores)) return -1;
  } else {
    if (ucm_search(&u, 0, k, UCM_SEARCH_ACCUMULATE, 0, selected, 0) != (int)k ||
        ucm_exact_selected(&u, 0, k, 0, scores))
      return -1;
    if (n > rows && ucm_find_victim(&u, 0) < 0) return -1;
  }
  ucm_read_counters(&u, &after);
  uint32_t d[UCM_COUNTERS];
  for (int i = 0; i < UCM_COUNTERS; i++) d[i] = after.v[i] - before.v[i];
  if (choice->mux && !all) d[UCM_CNT_EV_ADC_ROUND] = mux_rounds(selected, k, &g);
  ucm_sense_t trim;
  ucm_read_sense(&u, &trim);
  run->step = ucm_price_events_with(d, &g, &trim, &choice->price).total;
  run->area_um2 = ucm_area_um2(&g, CACHE < n ? CACHE : n, 1);
  run->conversions = d[UCM_CNT_EV_ADC_CONV];
  free(mem);
  return 0;
}

static int unicaim_step(uint32_t cell_bits, uint32_t n, int all, ucm_run_t *run) {
  const array_choice_t defaults = array_defaults();
  return unicaim_step_with(cell_bits, n, all, &defaults, run);
}

static double ratio(uint64_t a, uint64_t b) {
  return b ? (double)a / (double)b : 0;
}

static double aedp(ucm_cost_t c, uint64_t area) {
  return (double)area * (double)c.energy_fj * (double)c.latency_ps;
}

/* One decode step's events, counted by hand: a search with charge sharing
   over 576 rows of 128 cells, exact scores of 115 keys (8 planes each, 64
   converters), a min-detect and one key written. */
static void worked_example(void) {
  uint32_t d[UCM_COUNTERS] = {0};
  d[UCM_CNT_EV_SEARCH] = 1;
  d[UCM_CNT_EV_CELL_SEARCH] = CACHE * DIM;
  d[UCM_CNT_EV_ACC_CHARGE] = CACHE;
  d[UCM_CNT_EV_ADC_CONV] = 115 * 8;
  d[UCM_CNT_EV_ADC_ROUND] = (115 * 8 + 63) / 64;
  d[UCM_CNT_EV_MIN_DETECT] = 1;
  d[UCM_CNT_EV_CELL_WRITE] = DIM;
  ucm_geom_t g = UCM_ARRAY_PAPER;
  const ucm_sense_t reset = {0, 0, 0, 0};
  ucm_cost_detail_t c = ucm_price_events(d, &g, &reset);
  const char *names[] = {"search", "acc_charge", "acc_digital", "min_detect", "convert", "write", "total"};
  const ucm_cost_t *part = &c.search;
  for (int i = 0; i < 7; i++)
    printf("EXAMPLE %s %llu fJ %llu ps\n", names[i], (unsigned long long)part[i].energy_fj,
           (unsigned long long)part[i].latency_ps);
}

/* ---------------------------------------------------------------- sensitivity */

/* One coefficient without a primary source, at one value of its range. */
typedef struct {
  const char *name, *value;
  void (*set)(array_choice_t *a, ucm_baseline_params_t *b, uint32_t v);
  uint32_t v;
} choice_t;

static void set_adc_step(array_choice_t *a, ucm_baseline_params_t *b, uint32_t v) { (void)b, a->price.adc_step_ps = v; }
static void set_adc_energy(array_choice_t *a, ucm_baseline_params_t *b, uint32_t v) { (void)b, a->price.adc_10b_fj = v; }
static void set_cell_mac(array_choice_t *a, ucm_baseline_params_t *b, uint32_t v) { (void)b, a->price.cell_mac_fj = v; }
static void set_precharge(array_choice_t *a, ucm_baseline_params_t *b, uint32_t v) { (void)b, a->price.precharge_ps = v; }
static void set_q_bits(array_choice_t *a, ucm_baseline_params_t *b, uint32_t v) { (void)b, a->q_bits = v; }
static void set_mux(array_choice_t *a, ucm_baseline_params_t *b, uint32_t v) { (void)b, a->mux = (int)v; }
static void set_engines(array_choice_t *a, ucm_baseline_params_t *b, uint32_t v) { (void)a, b->engines = v; }
static void set_topk(array_choice_t *a, ucm_baseline_params_t *b, uint32_t v) { (void)a, b->topk = (ucm_topk_hw_t)v; }
static void set_dcim(array_choice_t *a, ucm_baseline_params_t *b, uint32_t v) { (void)a, b->dcim_mac_x100 = v; }

/* Each coefficient's plausible range, the model's value first. */
static const choice_t choices[] = {
    {"SAR step (ps)", "1000 (model)", set_adc_step, 1000},
    {"SAR step (ps)", "250", set_adc_step, 250},
    {"SAR step (ps)", "4000", set_adc_step, 4000},
    {"10-bit conversion (fJ)", "2000 (model)", set_adc_energy, 2000},
    {"10-bit conversion (fJ)", "500", set_adc_energy, 500},
    {"10-bit conversion (fJ)", "8000", set_adc_energy, 8000},
    {"cell current per plane (fJ)", "1 (model)", set_cell_mac, 1},
    {"cell current per plane (fJ)", "5", set_cell_mac, 5},
    {"precharge (ps)", "1000 (model)", set_precharge, 1000},
    {"precharge (ps)", "5000", set_precharge, 5000},
    {"query bit planes", "8 (model)", set_q_bits, 8},
    {"query bit planes", "4", set_q_bits, 4},
    {"ADCs to rows", "any row (model)", set_mux, 0},
    {"ADCs to rows", "fixed groups of 9 (MUX)", set_mux, 1},
    {"baseline engines", "64 (model)", set_engines, 64},
    {"baseline engines", "16", set_engines, 16},
    {"baseline engines", "256", set_engines, 256},
    {"baseline top-k", "sort spread evenly (model)", set_topk, UCM_TOPK_SPREAD},
    {"baseline top-k", "bitonic network", set_topk, UCM_TOPK_BITONIC},
    {"baseline MAC energy", "CIMFormer 28 nm (model)", set_dcim, 100},
    {"baseline MAC energy", "scaled to 45 nm (x2.6)", set_dcim, 260},
};
enum { CHOICES = sizeof choices / sizeof choices[0] };

/* CIMFormer / UniCAIM (3-bit) at N with the choices in MASK applied. */
static int ratios_with(uint32_t n, uint32_t mask, double *latency, double *energy) {
  array_choice_t a = array_defaults();
  ucm_baseline_params_t b = ucm_baseline_defaults;
  for (int i = 0; i < CHOICES; i++)
    if (mask >> i & 1) choices[i].set(&a, &b, choices[i].v);
  ucm_run_t u;
  if (unicaim_step_with(3, n, 0, &a, &u)) return -1;
  ucm_step_t s = {n, DIM, n / 5};
  ucm_cost_t c = ucm_baseline_step_with(UCM_BASE_CIMFORMER, &s, &b);
  *latency = ratio(c.latency_ps, u.step.latency_ps);
  *energy = ratio(c.energy_fj, u.step.energy_fj);
  return 0;
}

/* The n = 2048 ratios with each coefficient across its range (the others
   at the model's values), their extremes, and the fewest coefficients the
   paper's 16.7x latency needs (every combination of one value each). */
static int sensitivity(void) {
  const uint32_t n = 2048;
  double lat0, en0, lat_lo, lat_hi, en_lo, en_hi;
  if (ratios_with(n, 0, &lat0, &en0)) return 1;
  lat_lo = lat_hi = lat0, en_lo = en_hi = en0;
  printf("| coefficient | value | latency ratio | energy ratio |\n|---|---|---|---|\n");
  for (int i = 0; i < CHOICES; i++) {
    double lat, en;
    if (ratios_with(n, 1u << i, &lat, &en)) return 1;
    printf("| %s | %s | %.2f | %.2f |\n", choices[i].name, choices[i].value, lat, en);
    lat_lo = lat < lat_lo ? lat : lat_lo, lat_hi = lat > lat_hi ? lat : lat_hi;
    en_lo = en < en_lo ? en : en_lo, en_hi = en > en_hi ? en : en_hi;
  }
  /* Combinations: one value per coefficient (its first row is the model's). */
  int first[CHOICES], groups = 0;
  for (int i = 0; i < CHOICES; i++)
    if (!i || strcmp(choices[i].name, choices[i - 1].name)) first[groups++] = i;
  /* Every combination that reaches it with the fewest changes. */
  enum { MAX_WAYS = 16 };
  uint32_t ways[MAX_WAYS];
  double way_lat[MAX_WAYS], way_en[MAX_WAYS];
  int fewest = groups + 1, n_ways = 0;
  for (uint64_t combo = 0;; combo++) {
    uint64_t c = combo;
    uint32_t mask = 0;
    int changed = 0;
    for (int gi = 0; gi < groups; gi++) {
      int end = gi + 1 < groups ? first[gi + 1] : CHOICES, values = end - first[gi];
      int pick = (int)(c % (uint64_t)values);
      c /= (uint64_t)values;
      if (pick) mask |= 1u << (first[gi] + pick), changed++;
    }
    if (c) break; /* every combination seen */
    if (changed > fewest) continue;
    double lat, en;
    if (ratios_with(n, mask, &lat, &en)) return 1;
    if (lat < 16.7) continue;
    if (changed < fewest) fewest = changed, n_ways = 0;
    if (n_ways < MAX_WAYS) ways[n_ways] = mask, way_lat[n_ways] = lat, way_en[n_ways++] = en;
  }
  printf("\nBENCH model_overall_latency_ratio_n2048_range %.2f x (%.2f..%.2f over the table's ranges)\n", lat0,
         lat_lo, lat_hi);
  printf("BENCH model_energy_ratio_n2048_range %.2f x (%.2f..%.2f over the table's ranges)\n", en0, en_lo, en_hi);
  if (!n_ways) printf("PAPER no combination of the table's values reaches 16.7x latency\n");
  for (int w = 0; w < n_ways; w++) {
    printf("PAPER 16.7x latency with %d change%s (%.2f x latency, %.2f x energy):", fewest, fewest > 1 ? "s" : "",
           way_lat[w], way_en[w]);
    for (int i = 0; i < CHOICES; i++)
      if (ways[w] >> i & 1) printf(" %s %s;", choices[i].name, choices[i].value);
    printf("\n");
  }
  return 0;
}

int main(int argc, char **argv) {
  static const uint32_t lengths[] = {256, 512, 1024, 2048};
  if (argc == 2 && !strcmp(argv[1], "--example")) {
    worked_example();
    return 0;
  }
  if (argc == 2 && !strcmp(argv[1], "--sensitivity")) return sensitivity();
  FILE *csv = argc > 1 ? fopen(argv[1], "w") : NULL;
  if (argc > 2 || (argc == 2 && !csv)) {
    fprintf(stderr, argc > 2 ? "usage: ucm_report [CSV]\n" : "ucm_report: cannot write %s\n", argv[1]);
    return 2;
  }
  if (csv) fprintf(csv, "n,design,energy_pj,latency_ns,area_um2,energy_ratio,latency_ratio,aedp_ratio_3b,aedp_ratio_1b\n");
  for (unsigned i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
    uint32_t n = lengths[i];
    ucm_run_t u3, u1;
    if (unicaim_step(3, n, 0, &u3) || unicaim_step(1, n, 0, &u1)) {
      fprintf(stderr, "ucm_report: golden-model run failed\n");
      return 1;
    }
    printf("BENCH model_unicaim_step_energy_n%u %.1f pJ (3-bit cells; 1-bit: %.1f)\n", n, u3.step.energy_fj / 1e3,
           u1.step.energy_fj / 1e3);
    printf("BENCH model_unicaim_step_latency_n%u %.1f ns\n", n, u3.step.latency_ps / 1e3);
    if (csv)
      fprintf(csv, "%u,unicaim,%.1f,%.1f,%llu,1,1,1,1\n", n, u3.step.energy_fj / 1e3, u3.step.latency_ps / 1e3,
              (unsigned long long)u3.area_um2);
    ucm_step_t s = {n, DIM, n / 5};
    for (int b = 0; b < UCM_BASELINES; b++) {
      ucm_cost_t c = ucm_baseline_step((ucm_baseline_t)b, &s);
      uint64_t area = ucm_baseline_area((ucm_baseline_t)b, &s);
      const char *name = ucm_baseline_name((ucm_baseline_t)b);
      double e = ratio(c.energy_fj, u3.step.energy_fj), t = ratio(c.latency_ps, u3.step.latency_ps);
      double a3 = aedp(c, area) / aedp(u3.step, u3.area_um2), a1 = aedp(c, area) / aedp(u1.step, u1.area_um2);
      printf("BENCH model_energy_ratio_%s_n%u %.2f x (%.1f pJ)\n", name, n, e, c.energy_fj / 1e3);
      printf("BENCH model_latency_ratio_%s_n%u %.2f x (%.1f ns)\n", name, n, t, c.latency_ps / 1e3);
      printf("BENCH model_aedp3b_ratio_%s_n%u %.1f x\n", name, n, a3);
      printf("BENCH model_aedp1b_ratio_%s_n%u %.1f x\n", name, n, a1);
      printf("BENCH model_area3b_ratio_%s_n%u %.2f x\n", name, n, ratio(area, u3.area_um2));
      if (b == UCM_BASE_CIMFORMER) {
        printf("BENCH model_overall_latency_ratio_n%u %.2f x\n", n, t);
        printf("BENCH model_energy_ratio_n%u %.2f x\n", n, e);
      }
      if (csv)
        fprintf(csv, "%u,%s,%.1f,%.1f,%llu,%.3f,%.3f,%.2f,%.2f\n", n, name, c.energy_fj / 1e3, c.latency_ps / 1e3,
                (unsigned long long)area, e, t, a3, a1);
    }
  }
  ucm_run_t all, pruned;
  if (unicaim_step(3, CACHE, 1, &all) || unicaim_step(3, CACHE, 0, &pruned)) return 1;
  printf("BENCH model_adc_energy_saved_pct %.1f pct (%u vs %u conversions, top %u of %u)\n",
         100.0 * (1.0 - (double)pruned.conversions / all.conversions), pruned.conversions, all.conversions,
         CACHE / 5, CACHE);
  if (csv) fclose(csv);
  return 0;
}
