/* The slot tables' changes, kept in step with the block's banks. */
#include "kv_slots.h"

#include "kv_backend.h"

int kv_slot_free(const kv_cache_t *kv, int h) {
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  int s = kv->used[h];
  if (s < kv->slots && at[s] == KV_FREE) return s;
  for (s = 0; s < kv->slots && at[s] != KV_FREE; s++) continue;
  return s;
}

int kv_slot_holding(const kv_cache_t *kv, int h, int pos) {
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  for (int s = 0; s < kv->slots; s++)
    if (at[s] == (uint16_t)pos) return s;
  return -1;
}

void kv_slot_place(kv_cache_t *kv, int h, int slot, int pos) {
  size_t at = kv_slots_of(kv, h) + (size_t)slot;
  kv->slot_pos[at] = (uint16_t)pos;
  kv->slot_score[at] = 0;
  kv->slot_flags[at] = 0;
  kv->used[h]++;
}

void kv_slot_drop(kv_cache_t *kv, int h, int slot) {
  size_t at = kv_slots_of(kv, h) + (size_t)slot;
  kv->slot_pos[at] = KV_FREE;
  kv->slot_flags[at] = 0;
  kv->used[h]--;
  if (kv->backend->drop) kv_note_error(kv, kv->backend->drop(kv, h, slot));
}

void kv_slot_protect(kv_cache_t *kv, int h, int slot, int on) {
  uint8_t *flags = kv->slot_flags + kv_slots_of(kv, h) + (size_t)slot;
  *flags = (uint8_t)(on ? *flags | KV_SLOT_PROTECTED : *flags & ~KV_SLOT_PROTECTED);
  if (kv->backend->protect) kv_note_error(kv, kv->backend->protect(kv, h, slot, on));
}

int kv_slot_lowest(const kv_cache_t *kv, int h, int by_age, int (*skip)(const kv_cache_t *, int h, int slot, int pos),
                   int pos) {
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  const int32_t *score = kv->slot_score + kv_slots_of(kv, h);
  int best = -1;
  for (int s = 0; s < kv->slots; s++) {
    if (at[s] == KV_FREE || (skip && skip(kv, h, s, pos))) continue;
    if (best < 0 || (by_age ? at[s] < at[best]
                            : score[s] < score[best] || (score[s] == score[best] && at[s] < at[best])))
      best = s;
  }
  return best;
}

int32_t kv_top_threshold(const int32_t *v, int n, int need, int *ties) {
  int32_t lo = INT32_MAX, hi = INT32_MIN;
  for (int i = 0; i < n; i++) {
    if (v[i] < lo) lo = v[i];
    if (v[i] > hi) hi = v[i];
  }
  while (lo < hi) { /* the largest T with at least NEED values >= T */
    int32_t mid = (int32_t)(((int64_t)lo + hi + 1) >> 1);
    int count = 0;
    for (int i = 0; i < n; i++) count += v[i] >= mid;
    if (count >= need) lo = mid;
    else hi = mid - 1;
  }
  int above = 0;
  for (int i = 0; i < n; i++) above += v[i] > lo;
  *ties = need - above;
  return lo;
}
