/* How keys and queries enter the array's columns (kv_encode.c). */
#ifndef KV_ENCODE_H
#define KV_ENCODE_H

#include "kvcache.h"

/* The layer's banks hold signs only (a policy's binary layers). */
static inline int kv_binary_layer(const kv_cache_t *kv, int layer) {
  return (int)(kv->binary_layers >> layer & 1);
}

/* A 12-bit key component as the array's int8 (rounded, within +-127): the
   first slice's cell value. */
static inline int8_t kv_key_int8(int32_t key) {
  int32_t k = (key + (1 << KV_KEY_INT8_SHIFT >> 1)) >> KV_KEY_INT8_SHIFT;
  return (int8_t)(k > 127 ? 127 : k < -127 ? -127 : k);
}

/* A 12-bit key as the int8 vectors of its bank's slices * head_size cells,
   and an int8 query as the drive of those columns (slices * head_size
   values); BINARY: a sign-only bank. */
void kv_encode_key(const kv_cache_t *kv, int binary, const int16_t *key, int8_t *cells);
void kv_encode_query(const kv_cache_t *kv, int binary, const int8_t *q, int8_t *columns);

#endif
