/* The modeled cost of one token's attention scoring on the same array
   without pruning (every cached key kept and scored through the ADCs by
   every query head, ucm_energy.h), for the consoles' and the evaluation's
   "against unpruned" figures. */
#ifndef KV_COST_H
#define KV_COST_H

#include "kvcache.h"
#include "ucm_energy.h"

/* Position POS's forward pass: POS + 1 keys per bank, every query head of
   every layer scoring them, one key written per bank; on an array of GEOM
   (its adc_bits: the resolution in use). */
ucm_cost_t kv_unpruned_cost(const kv_cache_t *kv, int n_heads, int pos, const ucm_geom_t *geom);

#endif
