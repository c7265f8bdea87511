#include "kv_cost.h"

ucm_cost_t kv_unpruned_cost(const kv_cache_t *kv, int n_heads, int pos, const ucm_geom_t *geom) {
  uint32_t d[UCM_COUNTERS];
  ucm_unpruned_events(d, geom, (uint32_t)pos + 1, (uint32_t)(kv->n_layers * n_heads),
                      (uint32_t)(kv->n_layers * kv->n_kv_heads));
  const ucm_sense_t no_search = {0, 0, 0, 0}; /* it searches nothing: the trim prices nothing */
  return ucm_price_events(d, geom, &no_search).total;
}
