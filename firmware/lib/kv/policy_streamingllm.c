/* streamingllm (Xiao et al., ICLR 2024, "Efficient Streaming Language
   Models with Attention Sinks"): the first SINKS positions (the attention
   sinks, 4 in the paper) and the most recent budget - SINKS; the victim is
   the oldest position after the sinks. */
#include "kv_policy.h"
#include "kv_slots.h"

enum { SINKS };

static const kv_param_t params[] = {
    {"sinks", SINKS, 0, 65535, "attention sinks kept at the start (4; 1 below a budget of 9)"},
    {0, 0, 0, 0, 0},
};

static void defaults(kv_policy_t *p) {
  p->v[SINKS] = p->budget > 8 ? 4 : 1;
}

static const char *settle(kv_policy_t *p, int slots) {
  (void)slots;
  return kv_param_within_budget(p, "sinks", 0);
}

static int is_sink(const kv_cache_t *kv, int h, int slot, int pos) {
  (void)pos;
  return kv->slot_pos[kv_slots_of(kv, h) + (size_t)slot] < kv->policy.v[SINKS];
}

static int victim(kv_cache_t *kv, int layer, int kvh, int pos) {
  return kv_slot_lowest(kv, kv_head_of(kv, layer, kvh), 1, is_sink, pos);
}

static void must_keep(const kv_cache_t *kv, int h, int pos, int *lo, int *sinks) {
  (void)h;
  *sinks = kv->policy.v[SINKS];
  *lo = pos - (kv->capacity - kv->policy.v[SINKS]) + 1;
}

const kv_policy_ops_t kv_policy_streamingllm = {
    .name = "streamingllm",
    .summary = "attention sinks + the most recent (Xiao et al., ICLR 2024)",
    .params = params,
    .flags = KV_POLICY_PROMPT_ANY_BUDGET,
    .defaults = defaults,
    .settle = settle,
    .victim = victim,
    .must_keep = must_keep,
};
