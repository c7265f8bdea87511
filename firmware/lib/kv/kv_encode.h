/* How keys and queries enter the array's columns (kv_encode.c). */
#ifndef KV_ENCODE_H
#define KV_ENCODE_H

#include "kvcache.h"

/* The layer's banks hold signs only (a policy's binary layers). */
static inline int kv_binary_layer(const kv_cache_t *kv, int layer) {
  return (int)(kv->binary_layers >> layer & 1);
}

/* A 12-bit key as the int8 vectors of its bank's slices * head_size cells,
   and an int8 query as the drive of those columns (slices * head_size
   values); BINARY: a sign-only bank. */
void kv_encode_key(const kv_cache_t *kv, int binary, const int16_t *key, int8_t *cells);
void kv_encode_query(const kv_cache_t *kv, int binary, const int8_t *q, int8_t *columns);

#endif
