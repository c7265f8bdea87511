/* h2o (Zhang et al., NeurIPS 2023, "H2O: Heavy-Hitter Oracle"): the WINDOW
   most recent positions and the heavy hitters, the positions with the most
   attention summed over every step so far (prompt queries included); the
   victim is the lowest sum outside the window, older first on ties. Scores
   are per KV head, summed over the query heads that share it. The window
   is a quarter of the budget, tuned on the development set (the paper's
   equal split loses 20 points of retrieval there for 2 of stories260K's). */
#include "kv_policy.h"
#include "kv_slots.h"

enum { WINDOW };

static const kv_param_t params[] = {
    {"window", WINDOW, 0, 65535, "recent positions always kept (a quarter of the budget)"},
    {0, 0, 0, 0, 0},
};

static void defaults(kv_policy_t *p) {
  p->v[WINDOW] = p->budget / 4;
}

static const char *settle(kv_policy_t *p, int slots) {
  (void)slots;
  return kv_param_within_budget(p, "window", 0);
}

static int recent(const kv_cache_t *kv, int h, int slot, int pos) {
  return kv->slot_pos[kv_slots_of(kv, h) + (size_t)slot] >= pos - kv->policy.v[WINDOW];
}

static int victim(kv_cache_t *kv, int layer, int kvh, int pos) {
  return kv_slot_lowest(kv, kv_head_of(kv, layer, kvh), 0, recent, pos);
}

static int32_t *score_row(kv_cache_t *kv, int layer, int kvh, int pos) {
  (void)pos;
  return kv->slot_score + kv_slots_of(kv, kv_head_of(kv, layer, kvh));
}

static void must_keep(const kv_cache_t *kv, int h, int pos, int *lo, int *sinks) {
  (void)h;
  (void)sinks;
  *lo = pos - kv->policy.v[WINDOW];
}

const kv_policy_ops_t kv_policy_h2o = {
    .name = "h2o",
    .summary = "heavy hitters by summed attention + the most recent (Zhang et al., NeurIPS 2023)",
    .params = params,
    .flags = KV_POLICY_PROMPT_ANY_BUDGET,
    .defaults = defaults,
    .settle = settle,
    .victim = victim,
    .score_row = score_row,
    .must_keep = must_keep,
};
