/* snapkv (Li et al., NeurIPS 2024, "SnapKV: LLM Knows What You Are Looking
   for Before Generation"): compresses the prompt only. The prompt's last
   WINDOW positions (the observation window: a quarter of the budget, tuned
   on the development set; 32 in the paper, for budgets of 1-4k) stay; of the
   others, the budget - WINDOW with the most attention from the window's
   queries (summed over them and over the query heads sharing the KV head),
   max-pooled over KERNEL neighbours (7: phrases stay whole), are kept.
   Generated positions are all kept, as in the paper; CAP=1 is the
   project's budget-capped variant (the oldest not chosen from the prompt
   goes), named as such. */
#include <stdio.h>

#include "kv_policy.h"
#include "kv_slots.h"

enum { WINDOW, KERNEL, CAP };

static const kv_param_t params[] = {
    {"window", WINDOW, 1, 65535, "observation window: the prompt's last queries (a quarter of the budget)"},
    {"kernel", KERNEL, 1, 63, "max-pooling width over positions, odd (7)"},
    {"cap", CAP, 0, 1, "1: generated positions share the budget too (a project variant; 0)"},
    {0, 0, 0, 0, 0},
};

static void defaults(kv_policy_t *p) {
  p->v[WINDOW] = p->budget >= 8 ? p->budget / 4 : p->budget > 1 ? p->budget - 1 : 1;
  p->v[KERNEL] = 7;
}

static const char *settle(kv_policy_t *p, int slots) {
  static char why[48];
  const char *window = kv_param_within_budget(p, "window", 0);
  (void)slots;
  if (window || p->v[KERNEL] & 1) return window;
  snprintf(why, sizeof why, "kernel=%ld must be odd (1..63)", (long)p->v[KERNEL]);
  return why;
}

static int capacity(const kv_policy_t *p, int slots) {
  return p->v[CAP] ? p->budget : slots;
}

/* The window's queries score the prompt. */
static int32_t *score_row(kv_cache_t *kv, int layer, int kvh, int pos) {
  if (!kv_in_prefill(kv, pos) || pos < kv->prompt_len - kv->policy.v[WINDOW]) return 0;
  return kv->slot_score + kv_slots_of(kv, kv_head_of(kv, layer, kvh));
}

/* The prompt fills slots 0..used-1 in order: the window is the last
   WINDOW of them; the rest are candidates, pooled into kv->sims. */
static void compress(kv_cache_t *kv, int layer, int kvh) {
  const int h = kv_head_of(kv, layer, kvh), used = kv->used[h], window = kv->policy.v[WINDOW];
  const int half = kv->policy.v[KERNEL] / 2, candidates = used - window;
  const int32_t *score = kv->slot_score + kv_slots_of(kv, h);
  int32_t *pooled = kv->sims;
  for (int s = 0; s < candidates; s++) {
    int32_t m = 0;
    for (int t = s - half; t <= s + half; t++)
      if (t >= 0 && t < candidates && score[t] > m) m = score[t];
    pooled[s] = m;
  }
  int ties;
  int32_t threshold = kv_top_threshold(pooled, candidates, kv->prompt_keep - window, &ties);
  for (int s = 0; s < candidates; s++) {
    if (pooled[s] > threshold || (pooled[s] == threshold && ties-- > 0))
      kv->slot_flags[kv_slots_of(kv, h) + (size_t)s] |= KV_SLOT_PINNED;
    else
      kv_slot_drop(kv, h, s);
  }
  kv->evictions += (uint32_t)(used - kv->used[h]);
}

static int unpinned(const kv_cache_t *kv, int h, int slot, int pos) {
  (void)pos;
  return kv->slot_flags[kv_slots_of(kv, h) + (size_t)slot] & KV_SLOT_PINNED;
}

/* Only with CAP: the oldest not chosen from the prompt. */
static int victim(kv_cache_t *kv, int layer, int kvh, int pos) {
  return kv_slot_lowest(kv, kv_head_of(kv, layer, kvh), 1, unpinned, pos);
}

static void must_keep(const kv_cache_t *kv, int h, int pos, int *lo, int *sinks) {
  int pinned = 0;
  (void)sinks;
  for (int s = 0; s < kv->slots; s++) pinned += (kv->slot_flags[kv_slots_of(kv, h) + (size_t)s] & KV_SLOT_PINNED) != 0;
  *lo = pos - (kv->used[h] - pinned) + 1;
}

const kv_policy_ops_t kv_policy_snapkv = {
    .name = "snapkv",
    .summary = "the prompt compressed by its observation window's attention (Li et al., NeurIPS 2024)",
    .params = params,
    .defaults = defaults,
    .settle = settle,
    .capacity = capacity,
    .compress = compress,
    .victim = victim,
    .score_row = score_row,
    .must_keep = must_keep,
};
