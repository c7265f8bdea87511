#include "kv_cost.h"

ucm_cost_t kv_dense_cost(const kv_cache_t *kv, int n_heads, int pos, const ucm_geom_t *geom) {
  ucm_step_t step = {.n = (uint32_t)pos + 1, .dim = (uint32_t)kv->head_size, .k = (uint32_t)pos + 1,
                     .cell_bits = geom->cell_bits, .q_bits = geom->q_bits, .adc_bits = geom->adc_bits,
                     .adc_count = geom->adc_count};
  ucm_cost_t one = ucm_step_dense(&step);
  uint64_t scorings = (uint64_t)kv->n_layers * (uint64_t)n_heads;
  ucm_cost_t c = {one.energy_fj * scorings, one.latency_ps * scorings, one.area_um2};
  return c;
}
