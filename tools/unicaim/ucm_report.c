/* The modeled energy/latency report (make bench-model): the paper's
 * comparisons recomputed with firmware/lib/unicaim/ucm_energy.c, as BENCH
 * lines. The ADC saving is measured from event counters of the golden model
 * running real searches through the driver at the paper's array size.
 *
 *   model_topk_latency_ratio_n<N>, model_topk_energy_ratio_n<N>
 *       sort-based top-k selection (sorting the N scores) / UniCAIM CAM top-k
 *       (one search), N in 256..2048, 128-dim keys, 3-bit cells.
 *   model_adc_energy_saved_pct
 *       ADC energy of exact scores for the top 20% (80% pruning) against all
 *       576 keys, from the counters.
 *   model_aedp_ratio_<1b|3b>_p<50|80>
 *       area x energy x delay of one scoring step, dense SRAM CIM
 *       (TranCIM-like, every key scored) / UniCAIM (top-k + exact scores of
 *       the kept), 576 keys; _sort: against dense scoring followed by the
 *       sort-based top-k (CIMFormer-like). */
#include <stdio.h>
#include <stdlib.h>

#include "ucm.h"
#include "ucm_energy.h"

static double aedp(ucm_cost_t c) {
  return (double)c.area_um2 * (double)c.energy_fj * (double)c.latency_ps;
}

/* Two phases in sequence on one piece of hardware (the larger area). */
static ucm_cost_t add(ucm_cost_t a, ucm_cost_t b) {
  ucm_cost_t c = {a.energy_fj + b.energy_fj, a.latency_ps + b.latency_ps,
                  a.area_um2 > b.area_um2 ? a.area_um2 : b.area_um2};
  return c;
}

/* Exact-score ADC conversions with and without dynamic pruning, counted by
 * the golden model: 576 random keys, top 20% by CAM search, then exact. */
static int adc_saving(void) {
  ucm_geom_t g = {.banks = 1,
                  .slots = 576,
                  .dim = 128,
                  .cell_bits = 3,
                  .q_bits = 8,
                  .adc_bits = 10,
                  .adc_count = 64,
                  .lanes = 8};
  void *mem = malloc(ucm_model_bytes(&g));
  ucm_model_t model;
  ucm_t u;
  if (!mem || ucm_model_init(&model, &g, mem) || ucm_open_model(&u, &model)) return 1;
  ucm_config_t cfg = {.query_step = 24, .adc_gain = 1, .adc_shift = 3, .seed = 7};
  ucm_configure(&u, &cfg);
  ucm_set_step(&u, 0, 16);
  int8_t v[128];
  srand(1);
  for (unsigned s = 0; s < g.slots; s++) {
    for (unsigned d = 0; d < g.dim; d++) v[d] = (int8_t)(rand() & 0xFF);
    if (ucm_write_key(&u, 0, s, (uint16_t)s, v, 0)) return 1;
  }
  for (unsigned d = 0; d < g.dim; d++) v[d] = (int8_t)(rand() & 0xFF);
  ucm_load_query(&u, v);
  static uint16_t all[576];
  static int32_t scores[576];
  for (unsigned s = 0; s < g.slots; s++) all[s] = (uint16_t)s;
  ucm_counters_t c0, c1, c2;
  ucm_read_counters(&u, &c0);
  if (ucm_exact(&u, 0, all, g.slots, 0, scores)) return 1; /* dense: every key */
  ucm_read_counters(&u, &c1);
  unsigned k = g.slots / 5;
  int n = ucm_search(&u, 0, k, 0, 0, 0, 0);
  if (n != (int)k || ucm_exact_selected(&u, 0, k, 0, scores)) return 1;
  ucm_read_counters(&u, &c2);
  uint32_t dense = c1.v[UCM_CNT_EV_ADC_CONV] - c0.v[UCM_CNT_EV_ADC_CONV];
  uint32_t pruned = c2.v[UCM_CNT_EV_ADC_CONV] - c1.v[UCM_CNT_EV_ADC_CONV];
  ucm_cost_t e_dense = ucm_cost_of_counters(c0.v, c1.v, &g), e_pruned = ucm_cost_of_counters(c1.v, c2.v, &g);
  printf("BENCH model_adc_energy_saved_pct %.1f pct (%u vs %u conversions)\n",
         100.0 * (1.0 - (double)pruned / dense), pruned, dense);
  printf("BENCH model_step_energy_dense_576 %.1f pJ\n", e_dense.energy_fj / 1000.0);
  printf("BENCH model_step_energy_pruned_576 %.1f pJ (CAM search + exact of %u)\n",
         e_pruned.energy_fj / 1000.0, k);
  free(mem);
  return 0;
}

int main(void) {
  static const unsigned lengths[] = {256, 512, 1024, 2048};
  for (unsigned i = 0; i < 4; i++) {
    ucm_step_t s = {.n = lengths[i],
                    .dim = 128,
                    .k = lengths[i] / 5,
                    .cell_bits = 3,
                    .q_bits = 8,
                    .adc_bits = 10,
                    .adc_count = 64};
    ucm_cost_t ucm = ucm_step_topk_unicaim(&s), sort = ucm_step_topk_sort(&s);
    printf("BENCH model_topk_latency_ratio_n%u %.2f x (sort %.1f ns, CAM %.1f ns)\n", s.n,
           (double)sort.latency_ps / ucm.latency_ps, sort.latency_ps / 1e3, ucm.latency_ps / 1e3);
    printf("BENCH model_topk_energy_ratio_n%u %.2f x (sort %.1f pJ, CAM %.1f pJ)\n", s.n,
           (double)sort.energy_fj / ucm.energy_fj, sort.energy_fj / 1e3, ucm.energy_fj / 1e3);
  }
  if (adc_saving()) {
    fprintf(stderr, "ucm_report: golden-model run failed\n");
    return 1;
  }
  static const unsigned bits[] = {1, 3}, prune[] = {50, 80};
  for (unsigned b = 0; b < 2; b++) {
    for (unsigned p = 0; p < 2; p++) {
      ucm_step_t s = {.n = 576,
                      .dim = 128,
                      .k = 576 * (100 - prune[p]) / 100,
                      .cell_bits = bits[b],
                      .q_bits = 8,
                      .adc_bits = 10,
                      .adc_count = 64};
      ucm_cost_t ucm = add(ucm_step_topk_unicaim(&s), ucm_step_exact_unicaim(&s));
      ucm_cost_t dense = ucm_step_dense(&s), sort = add(dense, ucm_step_topk_sort(&s));
      printf("BENCH model_aedp_ratio_%ub_p%u %.1f x\n", bits[b], prune[p], aedp(dense) / aedp(ucm));
      printf("BENCH model_aedp_ratio_%ub_p%u_sort %.1f x\n", bits[b], prune[p], aedp(sort) / aedp(ucm));
    }
  }
  return 0;
}
