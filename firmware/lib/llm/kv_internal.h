/* Helpers shared by the KV cache's files (kvcache.c: layout and storage,
   kv_prune.c: which positions stay, kv_attend.c: attention). */
#ifndef LLM_KV_INTERNAL_H
#define LLM_KV_INTERNAL_H

#include "kvcache.h"

/* The (layer, kv head) pair's index into the slot tables; also its bank. */
static inline int kv_head_of(const kv_cache_t *kv, int layer, int kvh) {
  return layer * kv->n_kv_heads + kvh;
}

/* Where pair H's row of a slot table starts. */
static inline size_t kv_slots_of(const kv_cache_t *kv, int h) {
  return (size_t)h * (size_t)kv->seq_len;
}

/* Quest's pages per (layer, kv head) at the smallest page size, and where
   page G of pair H starts in page_min / page_max. */
static inline size_t kv_pages_per_head(int seq_len) {
  return (size_t)seq_len / KV_PAGE_MIN + 1;
}

static inline size_t kv_page_of(const kv_cache_t *kv, int h, int g) {
  return ((size_t)h * kv_pages_per_head(kv->seq_len) + (size_t)g) * (size_t)kv->head_size;
}

/* The row of (layer, slot) in the key, value and scale arrays. */
static inline size_t kv_row_of(const kv_cache_t *kv, int layer, int slot) {
  return (size_t)layer * (size_t)kv->seq_len + (size_t)slot;
}

static inline void kv_note_error(kv_cache_t *kv, int err) {
  if (err && !kv->error) kv->error = err;
}

/* The policy prunes the prompt only once it is in (SnapKV, UniCAIM). */
static inline int kv_prunes_prompt(const kv_cache_t *kv) {
  return kv->policy.kind == KV_SNAPKV || kv->policy.kind == KV_HYBRID;
}

/* Still reading the prompt of such a policy: every position is kept. */
static inline int kv_in_prefill(const kv_cache_t *kv, int pos) {
  return kv_prunes_prompt(kv) && pos < kv->prompt_len;
}

/* The layer's banks hold signs only (UniCAIM's binary layers). */
static inline int kv_binary_layer(const kv_cache_t *kv, int layer) {
  return kv->policy.kind == KV_HYBRID && (kv->policy.binary_layers >> layer & 1);
}

/* kv_encode.c: a 12-bit key as the int8 vectors of its bank's
   slices * head_size cells, and an int8 query as the drive of those
   columns (slices * head_size values). */
void kv_encode_key(const kv_cache_t *kv, int binary, const int16_t *key, int8_t *cells);
void kv_encode_query(const kv_cache_t *kv, int binary, const int8_t *q, int8_t *columns);

/* Empties slot SLOT of pair H (the block's slot too). */
void kv_drop(kv_cache_t *kv, int h, int slot);

/* kv_prune.c: the largest T with at least NEED of V[0..N) >= T; the
   chosen are those above T and the first *TIES equal to it. */
int32_t kv_top_threshold(const int32_t *v, int n, int need, int *ties);
/* kv_prune.c: the slot whose position makes room for POS. */
int kv_victim(kv_cache_t *kv, int h, int pos);
/* kv_prune.c: SnapKV's and UniCAIM's pruning of the prompt, leaving one
   slot free below the capacity for the first generated position. */
void kv_prune_prompt(kv_cache_t *kv, int layer, int kvh);

#endif
