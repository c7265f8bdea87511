/* The slot bookkeeping the cache and the policies share: where a (layer,
   kv head) pair's table, rows and pages are, which slot is free or holds a
   position, and the three changes a slot sees (placed, dropped, protected),
   which keep the block's bank in step with the table. */
#ifndef KV_SLOTS_H
#define KV_SLOTS_H

#include "kvcache.h"

enum {
  KV_SLOT_PINNED = 1,    /* chosen from the prompt, kept for good (SnapKV-style) */
  KV_SLOT_PROTECTED = 2, /* the bank's protect bit is set (min-detect skips it) */
  KV_SLOT_CRITICAL = 4,  /* protected for good by a score threshold */
};

/* The (layer, kv head) pair's index into the slot tables; also its bank. */
static inline int kv_head_of(const kv_cache_t *kv, int layer, int kvh) {
  return layer * kv->n_kv_heads + kvh;
}

/* Where pair H's row of a slot table starts. */
static inline size_t kv_slots_of(const kv_cache_t *kv, int h) {
  return (size_t)h * (size_t)kv->seq_len;
}

/* Keys, values and their scales are stored head by head ([layer][kv head]
   [slot]...): attention over one head reads each as one run of memory,
   which a cache in front of external memory streams. */

/* Where (layer, kvh)'s components of slot 0 start in keys/values; slot s is
   s * kv_stride further. */
static inline size_t kv_stride(const kv_cache_t *kv) {
  return (size_t)kv->head_size;
}
static inline size_t kv_base_of(const kv_cache_t *kv, int layer, int kvh) {
  return kv_slots_of(kv, kv_head_of(kv, layer, kvh)) * kv_stride(kv);
}
/* Where (layer, kvh)'s scale of slot SLOT is in key_scale / value_scale. */
static inline size_t kv_scale_at(const kv_cache_t *kv, int layer, int kvh, int slot) {
  return kv_slots_of(kv, kv_head_of(kv, layer, kvh)) + (size_t)slot;
}
/* (layer, kvh)'s key or value scales: slot s's is s further. */
static inline const int32_t *kv_scales_of(const kv_cache_t *kv, const int32_t *scales, int layer, int kvh) {
  return scales + kv_scale_at(kv, layer, kvh, 0);
}

/* Query head J's part of kv->kept. */
static inline uint16_t *kv_kept_of(const kv_cache_t *kv, int j) {
  return kv->kept + (size_t)j * (size_t)kv->seq_len;
}

/* Pages per (layer, kv head) at the smallest page size, and where page G of
   pair H starts in page_min / page_max. */
static inline size_t kv_pages_per_head(int seq_len) {
  return (size_t)seq_len / KV_PAGE_MIN + 1;
}
static inline size_t kv_page_of(const kv_cache_t *kv, int h, int g) {
  return ((size_t)h * kv_pages_per_head(kv->seq_len) + (size_t)g) * (size_t)kv->head_size;
}

static inline void kv_note_error(kv_cache_t *kv, int err) {
  if (err && !kv->error) kv->error = err;
}

/* Still reading the prompt: every position is kept (up to the slots). */
static inline int kv_in_prefill(const kv_cache_t *kv, int pos) {
  return pos < kv->prompt_len;
}

/* An empty slot of pair H (the one after the used ones unless a pruning
   left holes there). */
int kv_slot_free(const kv_cache_t *kv, int h);
/* The slot of pair H holding POS, or -1. */
int kv_slot_holding(const kv_cache_t *kv, int h, int pos);
/* Records POS in SLOT of pair H: score 0, no flags. The caller writes the
   key and value (and, on the block, the cells). */
void kv_slot_place(kv_cache_t *kv, int h, int slot, int pos);
/* Empties SLOT of pair H (the bank's slot too). */
void kv_slot_drop(kv_cache_t *kv, int h, int slot);
/* Sets or clears the protect bit of SLOT in pair H's bank and table. */
void kv_slot_protect(kv_cache_t *kv, int h, int slot, int on);
/* The slot of pair H, holding a position and allowed by SKIP (NULL: any),
   with the lowest score, older on ties; BY_AGE: the oldest. -1 if none. */
int kv_slot_lowest(const kv_cache_t *kv, int h, int by_age, int (*skip)(const kv_cache_t *, int h, int slot, int pos),
                   int pos);

/* The largest T with at least NEED of V[0..N) >= T; the chosen are those
   above T and the first *TIES equal to it. */
int32_t kv_top_threshold(const int32_t *v, int n, int need, int *ties);

#endif
