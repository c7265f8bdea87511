#include "kv_trace.h"

#include <stdio.h>

#include "kv_slots.h"

void kv_trace_step(kv_cache_t *kv, int pos, const int8_t *key, const int8_t *query, const kv_trace_scales_t *scales,
                   int attended) {
  const int hs = kv->head_size;
  int16_t cached[KV_MAX_HEAD_SIZE] = {0};
  int8_t value[KV_MAX_HEAD_SIZE] = {0};
  int32_t out[KV_MAX_HEAD_SIZE];
  int32_t *outs[1] = {out};
  const int32_t head_factor = scales ? scales->head_factor : attended ? 1 : 1 << 20;
  for (int i = 0; i < hs; i++) cached[i] = (int16_t)(key[i] * (1 << KV_KEY_INT8_SHIFT));
  if (attended) value[pos] = 127;
  kv_store(kv, 0, 0, pos, cached, scales ? scales->key_scale : 1 << 16, value, 1 << 24);
  kv_attend(kv, 0, 0, pos, 1, &query, &head_factor, outs);
  kv_end_step(kv, 0, pos);
  if (attended) {
    printf("ATTENDED %d:", pos);
    for (int p = 0; p <= pos; p++)
      if (out[p]) printf(" %d", p);
    printf("\n");
  }
  printf("KEPT %d:", pos);
  for (int p = 0; p <= pos; p++)
    if (kv_slot_holding(kv, 0, p) >= 0) printf(" %d", p);
  printf("\n");
}
