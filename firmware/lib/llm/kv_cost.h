/* The modeled cost of one token's attention scoring on the dense baseline
   the paper compares UniCAIM with (TranCIM-like current-domain scoring of
   every cached key, ucm_energy.h), for the consoles' and the evaluation's
   "against dense" figures. */
#ifndef LLM_KV_COST_H
#define LLM_KV_COST_H

#include "kvcache.h"
#include "ucm_energy.h"

/* Every query head of every layer scores all POS + 1 positions on an array
   of GEOM's cell bits, query bits and converters. */
ucm_cost_t kv_dense_cost(const kv_cache_t *kv, int n_heads, int pos, const ucm_geom_t *geom);

#endif
