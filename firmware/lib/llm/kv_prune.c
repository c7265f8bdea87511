/* Which positions stay cached: each policy's eviction victim, and the
   prompt pruning of the policies that prune once the prompt is in. */
#include <string.h>

#include "kv_internal.h"

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

/* The slot to evict for position POS under the software policies: outside
   the sinks, the recent window and SnapKV's chosen positions, the oldest
   (StreamingLLM, SnapKV) or the lowest score, older first on ties. Fewer
   positions are protected than there are slots, so one exists. */
static int software_victim(const kv_cache_t *kv, int h, int pos) {
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  const int32_t *score = kv->slot_score + kv_slots_of(kv, h);
  const uint8_t *flags = kv->slot_flags + kv_slots_of(kv, h);
  const kv_policy_t *p = &kv->policy;
  int by_age = p->kind == KV_STREAMING || p->kind == KV_SNAPKV || p->kind == KV_HYBRID;
  int best = -1;
  for (int s = 0; s < kv->seq_len; s++) {
    if (at[s] == KV_FREE || at[s] < p->sinks || (p->kind == KV_H2O && at[s] >= pos - p->window) ||
        (flags[s] & KV_SLOT_PINNED))
      continue;
    if (best < 0 || (by_age ? at[s] < at[best]
                            : score[s] < score[best] || (score[s] == score[best] && at[s] < at[best])))
      best = s;
  }
  return best;
}

int kv_victim(kv_cache_t *kv, int h, int pos) {
  if (kv->policy.kind != KV_HYBRID) return software_victim(kv, h, pos);
  int slot = ucm_find_victim(kv->ucm, (unsigned)h); /* min-detect over the accumulators */
  if (slot >= 0 && slot < kv->seq_len && kv->slot_pos[kv_slots_of(kv, h) + (size_t)slot] != KV_FREE) return slot;
  kv_note_error(kv, slot < 0 ? slot : UCM_E_SLOT);
  return software_victim(kv, h, pos); /* the error is reported; the cache stays consistent */
}

/* Dense backend: close the holes the pruning left, keeping the order. */
static void compact(kv_cache_t *kv, int layer, int kvh) {
  const int hs = kv->head_size, nkv = kv->n_kv_heads, h = kv_head_of(kv, layer, kvh);
  uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  int32_t *score = kv->slot_score + kv_slots_of(kv, h);
  uint8_t *flags = kv->slot_flags + kv_slots_of(kv, h);
  int to = 0;
  for (int from = 0; from < kv->seq_len; from++) {
    if (at[from] == KV_FREE) continue;
    if (to != from) {
      size_t a = kv_row_of(kv, layer, to), b = kv_row_of(kv, layer, from);
      memcpy(kv->keys + a * (size_t)(nkv * hs) + (size_t)(kvh * hs),
             kv->keys + b * (size_t)(nkv * hs) + (size_t)(kvh * hs), sizeof *kv->keys * (size_t)hs);
      memcpy(kv->values + a * (size_t)(nkv * hs) + (size_t)(kvh * hs),
             kv->values + b * (size_t)(nkv * hs) + (size_t)(kvh * hs), (size_t)hs);
      kv->key_scale[a * (size_t)nkv + (size_t)kvh] = kv->key_scale[b * (size_t)nkv + (size_t)kvh];
      kv->value_scale[a * (size_t)nkv + (size_t)kvh] = kv->value_scale[b * (size_t)nkv + (size_t)kvh];
      at[to] = at[from];
      score[to] = score[from];
      flags[to] = flags[from];
      at[from] = KV_FREE;
      flags[from] = 0;
    }
    to++;
  }
}

/* SnapKV: the prompt's last WINDOW positions stay; of the others, those
   with the most attention from the window's queries, smoothed by a max over
   +-3 neighbours (SnapKV's pooling keeps phrases whole), are pinned. The
   prompt fills slots 0..used-1 in order. */
static void snapkv_prune(kv_cache_t *kv, int h) {
  const int used = kv->used[h], window = kv->policy.window, candidates = used - window;
  const int32_t *score = kv->slot_score + kv_slots_of(kv, h);
  int32_t *pooled = kv->sims;
  for (int s = 0; s < candidates; s++) {
    int32_t m = 0;
    for (int t = s - 3; t <= s + 3; t++)
      if (t >= 0 && t < used && score[t] > m) m = score[t];
    pooled[s] = m;
  }
  int ties;
  int32_t threshold = kv_top_threshold(pooled, candidates, kv->capacity - 1 - window, &ties);
  for (int s = 0; s < candidates; s++) {
    if (pooled[s] > threshold || (pooled[s] == threshold && ties-- > 0))
      kv->slot_flags[kv_slots_of(kv, h) + (size_t)s] |= KV_SLOT_PINNED;
    else
      kv_drop(kv, h, s);
  }
}

void kv_prune_prompt(kv_cache_t *kv, int layer, int kvh) {
  const int h = kv_head_of(kv, layer, kvh), before = kv->used[h];
  if (kv->policy.kind == KV_SNAPKV) {
    snapkv_prune(kv, h);
    if (kv->backend == KV_DENSE) compact(kv, layer, kvh);
    kv->evictions += (uint32_t)(before - kv->used[h]);
    return;
  }
  /* UniCAIM: evict by min-detect (lowest accumulated attention, the recent
     M and the critical protected) down to H + M - 1 positions. */
  while (kv->used[h] >= kv->capacity) {
    int slot = ucm_find_victim(kv->ucm, (unsigned)h);
    if (slot < 0 || slot >= kv->seq_len || kv->slot_pos[kv_slots_of(kv, h) + (size_t)slot] == KV_FREE) {
      kv_note_error(kv, slot < 0 ? slot : UCM_E_SLOT);
      return;
    }
    kv_drop(kv, h, slot);
    kv->evictions++;
  }
}
