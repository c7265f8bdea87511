/* quest (Tang et al., ICML 2024, "Quest: Query-Aware Sparsity for Efficient
   Long-Context LLM Inference"): nothing is evicted; each decode step
   attends to the budget / PAGE pages (8 positions, tuned on the development
   set; 16 in the paper) whose key
   bounds give the query the highest possible score,
   sum_i max(q_i * min_i, q_i * max_i), the newest page always among them.
   The bounds are the per-page minimum and maximum of the real key values
   (the cached 12-bit keys times their own scales), so they bound the real
   scores. The prompt is read with full attention, as in the paper. */
#include "kv_attend.h"
#include "kv_policy.h"
#include "kv_slots.h"

enum { PAGE };

static const kv_param_t params[] = {
    {"page", PAGE, KV_PAGE_MIN, 65535, "positions per page (8, at most the budget)"},
    {0, 0, 0, 0, 0},
};

static void defaults(kv_policy_t *p) {
  p->v[PAGE] = KV_PAGE_MIN;
}

static const char *settle(kv_policy_t *p, int slots) {
  (void)slots;
  return kv_param_within_budget(p, "page", 1);
}

static int capacity(const kv_policy_t *p, int slots) {
  (void)p;
  return slots;
}

static int prompt_keep(const kv_policy_t *p, int slots) {
  (void)p;
  return slots;
}

/* Widen the bounds of POS's page by KEY (real values, Q16). */
static void stored(kv_cache_t *kv, int layer, int kvh, int pos, int slot, const int16_t *key, int32_t key_scale) {
  const int hs = kv->head_size, page = kv->policy.v[PAGE];
  size_t at = kv_page_of(kv, kv_head_of(kv, layer, kvh), pos / page);
  int32_t *lo = kv->page_min + at, *hi = kv->page_max + at;
  (void)slot;
  for (int i = 0; i < hs; i++) {
    int32_t real = (int32_t)(((int64_t)key[i] * key_scale) >> 8); /* Q24 scale of the 12-bit key -> Q16 */
    if (pos % page == 0 || real < lo[i]) lo[i] = real;
    if (pos % page == 0 || real > hi[i]) hi[i] = real;
  }
}

/* The pages with the highest bound, BUDGET / PAGE of them, the newest
   always; their slots (= positions: nothing is evicted) into kv->selected
   in order. Returns how many. */
static int select_pages(kv_cache_t *kv, int h, int pos, const int8_t *q) {
  const int hs = kv->head_size, page = kv->policy.v[PAGE], pages = pos / page + 1;
  int32_t *bound = kv->sims;
  for (int g = 0; g < pages; g++) {
    const int32_t *lo = kv->page_min + kv_page_of(kv, h, g), *hi = kv->page_max + kv_page_of(kv, h, g);
    int64_t b = 0;
    for (int i = 0; i < hs; i++) b += q[i] >= 0 ? (int64_t)q[i] * hi[i] : (int64_t)q[i] * lo[i];
    b >>= 8; /* ranked in 32 bits, saturated (no real key comes near) */
    bound[g] = b >= INT32_MAX ? INT32_MAX - 1 : b < INT32_MIN ? INT32_MIN : (int32_t)b;
  }
  bound[pages - 1] = INT32_MAX;
  int ties, n = 0;
  int32_t threshold = kv_top_threshold(bound, pages, kv->policy.budget / page, &ties);
  for (int g = 0; g < pages; g++) {
    if (bound[g] < threshold || (bound[g] == threshold && ties-- <= 0)) continue;
    for (int t = g * page; t < (g + 1) * page && t <= pos; t++) kv->selected[n++] = (uint16_t)t;
  }
  return n;
}

static void attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                   const int32_t *head_factor, int32_t *const *out) {
  if (kv_in_prefill(kv, pos) || pos < kv->policy.budget) {
    kv_attend_cached(kv, layer, kvh, count, q, head_factor, out, 0);
    return;
  }
  const int h = kv_head_of(kv, layer, kvh);
  for (int j = 0; j < count; j++) {
    int n = select_pages(kv, h, pos, q[j]);
    kv_prepare_exact(kv, layer, q[j]);
    int err = kv_exact_scores(kv, layer, kvh, q[j], n, 0);
    if (err) {
      kv_note_error(kv, err);
      kv_attend_zero(out[j], kv->head_size);
      continue;
    }
    kv_softmax_values(kv, layer, kvh, n, head_factor[j], 0, 0, out[j]);
  }
}

const kv_policy_ops_t kv_policy_quest = {
    .name = "quest",
    .summary = "no eviction; each step attends to the pages with the highest key bound (Tang et al., ICML 2024)",
    .params = params,
    .flags = KV_POLICY_PROMPT_ANY_BUDGET,
    .defaults = defaults,
    .settle = settle,
    .prompt_keep = prompt_keep,
    .capacity = capacity,
    .stored = stored,
    .attend = attend,
};
