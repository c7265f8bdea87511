/* A scripted sequence through one (layer, kv head) of the cache: what the
   policies' references (tests/policy_reference.py) are compared with, on
   the host (tools/llm/kv_trace.c, the golden model) and on the SoC
   (tests/firmware/kv_trace, the block), by the same code. */
#ifndef KV_TRACE_H
#define KV_TRACE_H

#include "kvcache.h"

/* Position POS of the script: its int8 KEY (cached as the engine caches
   keys: 12-bit, scale 1) stored, its int8 query attending, then
   "KEPT pos: p p ..." printed (the positions held, ascending). The query's
   head factor makes a logit gap of one int8 unit product worth 2^-16 of
   weight, so a key the query does not point at gets exactly 0. ATTENDED
   (at most head_size positions): the attention is diffuse instead (every
   position a step reads gets a weight) and position p's value is component
   p alone, so "ATTENDED pos: p p ..." names the positions the step read
   (Quest's pages). SCALES (NULL: those above) gives the key's scale and
   the query's head factor instead. */
typedef struct {
  int32_t key_scale, head_factor;
} kv_trace_scales_t;
void kv_trace_step(kv_cache_t *kv, int pos, const int8_t *key, const int8_t *query, const kv_trace_scales_t *scales,
                   int attended);

#endif
