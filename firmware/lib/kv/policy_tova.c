/* tova (Oren et al., 2024, "Transformers are Multi-State RNNs"): at each
   step the new position joins the full cache, the step attends, and the
   position with the lowest attention of that step, averaged over the
   layer's heads, leaves (the new one too, if it is the lowest): every KV
   head of a layer drops the same position (KV_POLICY_EVICT_AFTER_STEP). The
   layer's query heads all add their probabilities to KV head 0's score row:
   the layer's heads hold the same positions in the same slots (same start,
   same victims, same free slots), so that row scores the slots of every
   head. A bank with no slot to spare evicts as the position is stored:
   once KV head 0 has replaced its victim (score 0), the others find the
   same slot lowest in the row (it held the lowest score, or tied at 0 as
   the oldest). */
#include "kv_policy.h"
#include "kv_slots.h"

static int victim(kv_cache_t *kv, int layer, int kvh, int pos) {
  const int h = kv_head_of(kv, layer, kvh), h0 = kv_head_of(kv, layer, 0);
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  const int32_t *score = kv->slot_score + kv_slots_of(kv, h0);
  int best = -1;
  (void)pos;
  for (int s = 0; s < kv->slots; s++) {
    if (at[s] == KV_FREE) continue;
    if (best < 0 || score[s] < score[best] || (score[s] == score[best] && at[s] < at[best])) best = s;
  }
  return best;
}

/* The prompt's end, for every head of the layer at once (at its first):
   the same victims in each, by the layer's scores of the last prompt step. */
static void compress(kv_cache_t *kv, int layer, int kvh) {
  const int h0 = kv_head_of(kv, layer, 0);
  if (kvh != 0) return;
  while (kv->used[h0] > kv->prompt_keep) {
    int slot = victim(kv, layer, 0, kv->prompt_len);
    for (int k = 0; k < kv->n_kv_heads; k++) kv_slot_drop(kv, kv_head_of(kv, layer, k), slot);
    kv->evictions += (uint32_t)kv->n_kv_heads;
  }
}

/* KV head 0's row, restarted once per step (by the layer's first head);
   of the prompt only the last step counts (compress). */
static int32_t *score_row(kv_cache_t *kv, int layer, int kvh, int pos) {
  if (kv_in_prefill(kv, pos) && pos != kv->prompt_len - 1) return 0;
  const int h0 = kv_head_of(kv, layer, 0);
  int32_t *score = kv->slot_score + kv_slots_of(kv, h0);
  if (kvh == 0 && kv->scored_pos[h0] != pos) {
    for (int s = 0; s < kv->slots; s++) score[s] = 0;
    kv->scored_pos[h0] = pos;
  }
  return score;
}

const kv_policy_ops_t kv_policy_tova = {
    .name = "tova",
    .summary = "drops the lowest attention of the latest step, per layer (Oren et al., 2024)",
    .flags = KV_POLICY_STEP_SCORES | KV_POLICY_LAYER_SCORES | KV_POLICY_EVICT_AFTER_STEP | KV_POLICY_PROMPT_ANY_BUDGET,
    .compress = compress,
    .victim = victim,
    .score_row = score_row,
};
