#include "kvcache.h"

#include <string.h>

#include "attention.h"
#include "fixmath.h"
#include "llm_model.h"

static size_t row_of(const kv_cache_t *kv, int layer, int slot) {
  return (size_t)layer * (size_t)kv->seq_len + (size_t)slot;
}

/* The (layer, kv head) pair's index into the slot tables. */
static int head_of(const kv_cache_t *kv, int layer, int kvh) {
  return layer * kv->n_kv_heads + kvh;
}

/* Where pair H's row of a slot table starts. */
static size_t slots_of(const kv_cache_t *kv, int h) {
  return (size_t)h * (size_t)kv->seq_len;
}

static int scores_attention(const kv_cache_t *kv) {
  return kv->policy.kind == KV_H2O || kv->policy.kind == KV_TOVA;
}

const char *kv_policy_name(kv_policy_kind_t kind) {
  static const char *const names[] = {"dense", "streamingllm", "h2o", "tova"};
  return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

int kv_policy_make(kv_policy_t *p, const char *name, int budget, int extra) {
  *p = (kv_policy_t){.kind = KV_KEEP_ALL, .budget = budget};
  while (strcmp(name, kv_policy_name(p->kind)))
    if (++p->kind > KV_TOVA) return -1;
  if (p->kind == KV_STREAMING) p->sinks = extra >= 0 ? extra : 4;
  else if (p->kind == KV_H2O) p->window = extra >= 0 ? extra : budget / 2;
  else if (extra >= 0) return -1;
  return 0;
}

int kv_set_policy(kv_cache_t *kv, const kv_policy_t *policy) {
  int all = policy->kind == KV_KEEP_ALL || policy->budget <= 0 || policy->budget >= kv->seq_len;
  if (policy->sinks < 0 || policy->window < 0 || (!all && policy->sinks + policy->window >= policy->budget))
    return -1;
  kv->policy = *policy;
  kv->capacity = all ? kv->seq_len : policy->budget;
  for (int h = 0; h < kv->n_layers * kv->n_kv_heads; h++) kv->used[h] = 0;
  kv->evictions = 0;
  return 0;
}

/* The slot to evict for position POS: outside the sinks and the recent
   window, the oldest (StreamingLLM) or the lowest score, older first on
   ties. Fewer positions are protected than there are slots, so one exists. */
static int victim(const kv_cache_t *kv, int h, int pos) {
  const uint16_t *at = kv->slot_pos + slots_of(kv, h);
  const int32_t *score = kv->slot_score + slots_of(kv, h);
  const kv_policy_t *p = &kv->policy;
  int best = -1;
  for (int s = 0; s < kv->capacity; s++) {
    if (at[s] < p->sinks || at[s] >= pos - p->window) continue;
    if (best < 0 || (p->kind == KV_STREAMING ? at[s] < at[best]
                                             : score[s] < score[best] || (score[s] == score[best] && at[s] < at[best])))
      best = s;
  }
  return best;
}

int kv_check(kv_cache_t *kv, int pos) {
  int32_t *seen = kv->att; /* scratch: the slot holding each position, + 1 */
  for (int h = 0; h < kv->n_layers * kv->n_kv_heads; h++) {
    int used = kv->used[h], want = pos + 1 < kv->capacity ? pos + 1 : kv->capacity;
    if (used != want) return -1;
    const uint16_t *at = kv->slot_pos + slots_of(kv, h);
    for (int t = 0; t <= pos; t++) seen[t] = 0;
    for (int s = 0; s < used; s++) {
      if (at[s] > pos || seen[at[s]]) return -1;
      seen[at[s]] = s + 1;
    }
    if (kv->policy.kind == KV_KEEP_ALL) continue;
    for (int t = 0; t <= pos; t++) /* the sinks and the recent window stay */
      if ((t < kv->policy.sinks || t >= pos - kv->policy.window) && !seen[t]) return -1;
  }
  return 0;
}

void kv_use_dense(kv_cache_t *kv) {
  kv->backend = KV_DENSE;
}

int kv_use_unicaim(kv_cache_t *kv, ucm_t *ucm, unsigned top_k, int exact_ideal) {
  const ucm_geom_t *g = &ucm->geom;
  if (g->banks < (uint32_t)(kv->n_layers * kv->n_kv_heads) || g->slots < (uint32_t)kv->seq_len ||
      g->dim != (uint32_t)kv->head_size)
    return UCM_E_SLOT;
  ucm_config_t cfg = {.query_step = KV_UCM_QUERY_STEP, .adc_gain = 1, .seed = 1};
  ucm_configure(ucm, &cfg);
  for (int b = 0; b < kv->n_layers * kv->n_kv_heads; b++) {
    int err = ucm_set_step(ucm, (unsigned)b, KV_UCM_KEY_STEP);
    if (!err) err = ucm_reset_bank(ucm, (unsigned)b);
    if (err) return err;
  }
  kv->ucm = ucm;
  kv->top_k = top_k;
  kv->exact_ideal = exact_ideal;
  kv->error = 0;
  kv->backend = KV_UNICAIM;
  return UCM_OK;
}

void kv_store(kv_cache_t *kv, int layer, int kvh, int pos, const int8_t *key, int32_t key_scale,
              const int8_t *value, int32_t value_scale) {
  const int hs = kv->head_size, nkv = kv->n_kv_heads, h = head_of(kv, layer, kvh);
  const unsigned bank = (unsigned)h;
  if (pos == 0) { /* a new sequence */
    kv->used[h] = 0;
    if (kv->backend == KV_UNICAIM) {
      int err = ucm_reset_bank(kv->ucm, bank);
      if (err && !kv->error) kv->error = err;
    }
  }
  int slot;
  if (kv->used[h] < kv->capacity) {
    slot = kv->used[h]++;
  } else {
    slot = victim(kv, h, pos);
    kv->evictions++;
  }
  kv->slot_pos[slots_of(kv, h) + (size_t)slot] = (uint16_t)pos;
  kv->slot_score[slots_of(kv, h) + (size_t)slot] = 0;
  size_t row = row_of(kv, layer, slot);
  size_t at = row * (size_t)(nkv * hs) + (size_t)(kvh * hs);
  for (int i = 0; i < hs; i++) kv->values[at + (size_t)i] = value[i];
  kv->value_scale[row * (size_t)nkv + (size_t)kvh] = value_scale;
  kv->key_scale[row * (size_t)nkv + (size_t)kvh] = key_scale;
  if (kv->backend == KV_DENSE) {
    for (int i = 0; i < hs; i++) kv->keys[at + (size_t)i] = key[i];
  } else {
    int err = ucm_write_key(kv->ucm, bank, (unsigned)slot, (uint16_t)pos, key, 0);
    if (err && !kv->error) kv->error = err;
  }
}

/* Scores a[i] (dot products scaled by the key's own scale) -> probabilities
   times the value scale, Q16 per int8 value unit. rows[i] names a's position
   (NULL: position i). */
static void softmax_weights(const kv_cache_t *kv, int layer, int kvh, int32_t *a, const uint16_t *rows, int n,
                            int32_t head_factor, int32_t *score) {
  const size_t nkv = (size_t)kv->n_kv_heads;
  const int32_t *kscale = kv->key_scale + row_of(kv, layer, 0) * nkv + (size_t)kvh;
  const int32_t *vscale = kv->value_scale + row_of(kv, layer, 0) * nkv + (size_t)kvh;
  int32_t max = INT32_MIN;
  for (int i = 0; i < n; i++) {
    size_t t = rows ? rows[i] : (size_t)i;
    int32_t partial = (int32_t)(((int64_t)a[i] * kscale[t * nkv]) >> 16); /* Q8 */
    int32_t score = (int32_t)(((int64_t)partial * head_factor) >> 16);    /* Q16 */
    a[i] = score;
    if (score > max) max = score;
  }
  int64_t sum = 0;
  for (int i = 0; i < n; i++) {
    a[i] = fx_exp_neg(a[i] - max); /* the largest is 1.0 */
    sum += a[i];
  }
  int32_t inv = (int32_t)fx_recip32((uint32_t)sum); /* Q16; 1.0 <= sum < 2^25 */
  for (int i = 0; i < n; i++) {
    size_t t = rows ? rows[i] : (size_t)i;
    if (score) { /* the policy's attention record, saturating */
      int32_t p = (int32_t)(((int64_t)a[i] * inv) >> 16);
      score[t] = score[t] > INT32_MAX - p ? INT32_MAX : score[t] + p;
    }
    int32_t scale = (int32_t)(((int64_t)vscale[t * nkv] * inv) >> 16); /* Q24 */
    a[i] = (int32_t)(((int64_t)a[i] * scale) >> LLM_Q_SCALE);
  }
}

/* The policy's score row of (layer, kv head) for this step, NULL when the
   policy keeps none; TOVA's restarts at each new step. */
static int32_t *policy_scores(kv_cache_t *kv, int h, int pos) {
  if (!scores_attention(kv)) return 0;
  int32_t *score = kv->slot_score + slots_of(kv, h);
  if (kv->policy.kind == KV_TOVA && kv->scored_pos[h] != pos) {
    for (int s = 0; s < kv->used[h]; s++) score[s] = 0;
    kv->scored_pos[h] = pos;
  }
  return score;
}

static void attend_dense(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                         const int32_t *head_factor, int32_t *const *out) {
  const int hs = kv->head_size, h = head_of(kv, layer, kvh), n = kv->used[h];
  const size_t stride = (size_t)(kv->n_kv_heads * hs);
  const size_t base = row_of(kv, layer, 0) * stride + (size_t)(kvh * hs);
  int32_t *att[2] = {kv->att, kv->att + kv->seq_len};
  int32_t *score = policy_scores(kv, h, pos);
  if (count == 2)
    attn_dots2(att[0], att[1], q[0], q[1], kv->keys + base, stride, n, hs);
  else
    attn_dots(att[0], q[0], kv->keys + base, stride, n, hs);
  for (int j = 0; j < count; j++) softmax_weights(kv, layer, kvh, att[j], 0, n, head_factor[j], score);
  if (count == 2)
    attn_values2(out[0], out[1], att[0], att[1], kv->values + base, stride, n, hs);
  else
    attn_values(out[0], att[0], kv->values + base, stride, n, hs);
}

/* Through the block: the top-k slots by CAM search, their exact scores
   (eighths of a cell level: times the key step / 8 back to int8 units), then
   softmax and the selected values. */
static void attend_unicaim(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                           const int32_t *head_factor, int32_t *const *out) {
  const int hs = kv->head_size, h = head_of(kv, layer, kvh);
  const size_t stride = (size_t)(kv->n_kv_heads * hs);
  const size_t base = row_of(kv, layer, 0) * stride + (size_t)(kvh * hs);
  const unsigned bank = (unsigned)h, used = (unsigned)kv->used[h];
  unsigned k = kv->top_k && kv->top_k < used ? kv->top_k : used;
  int32_t *score = policy_scores(kv, h, pos);
  for (int j = 0; j < count; j++) {
    ucm_load_query(kv->ucm, q[j]);
    int n = ucm_search(kv->ucm, bank, k, 0, 0, kv->selected, 0);
    int err = n < 0 ? n : ucm_exact_selected(kv->ucm, bank, (unsigned)n, kv->exact_ideal, kv->att);
    if (err) {
      if (!kv->error) kv->error = err;
      for (int i = 0; i < hs; i++) out[j][i] = 0;
      continue;
    }
    for (int i = 0; i < n; i++) kv->att[i] *= KV_UCM_KEY_STEP / 8;
    softmax_weights(kv, layer, kvh, kv->att, kv->selected, n, head_factor[j], score);
    attn_values_rows(out[j], kv->att, kv->values + base, stride, kv->selected, n, hs);
  }
}

void kv_attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
               const int32_t *head_factor, int32_t *const *out) {
  if (kv->backend == KV_DENSE)
    attend_dense(kv, layer, kvh, pos, count, q, head_factor, out);
  else
    attend_unicaim(kv, layer, kvh, pos, count, q, head_factor, out);
}
