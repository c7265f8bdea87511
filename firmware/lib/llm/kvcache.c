#include "kvcache.h"

#include "attention.h"
#include "fixmath.h"
#include "llm_model.h"

static size_t row_of(const kv_cache_t *kv, int layer, int pos) {
  return (size_t)layer * (size_t)kv->seq_len + (size_t)pos;
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
  const int hs = kv->head_size, nkv = kv->n_kv_heads;
  size_t row = row_of(kv, layer, pos);
  size_t at = row * (size_t)(nkv * hs) + (size_t)(kvh * hs);
  for (int i = 0; i < hs; i++) kv->values[at + (size_t)i] = value[i];
  kv->value_scale[row * (size_t)nkv + (size_t)kvh] = value_scale;
  kv->key_scale[row * (size_t)nkv + (size_t)kvh] = key_scale;
  if (kv->backend == KV_DENSE) {
    for (int i = 0; i < hs; i++) kv->keys[at + (size_t)i] = key[i];
  } else {
    int err = ucm_write_key(kv->ucm, (unsigned)(layer * nkv + kvh), (unsigned)pos, (uint16_t)pos, key, 0);
    if (err && !kv->error) kv->error = err;
  }
}

/* Scores a[i] (dot products scaled by the key's own scale) -> probabilities
   times the value scale, Q16 per int8 value unit. rows[i] names a's position
   (NULL: position i). */
static void softmax_weights(const kv_cache_t *kv, int layer, int kvh, int32_t *a, const uint16_t *rows, int n,
                            int32_t head_factor) {
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
    int32_t scale = (int32_t)(((int64_t)vscale[t * nkv] * inv) >> 16); /* Q24 */
    a[i] = (int32_t)(((int64_t)a[i] * scale) >> LLM_Q_SCALE);
  }
}

static void attend_dense(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                         const int32_t *head_factor, int32_t *const *out) {
  const int hs = kv->head_size;
  const size_t stride = (size_t)(kv->n_kv_heads * hs);
  const size_t base = row_of(kv, layer, 0) * stride + (size_t)(kvh * hs);
  int32_t *att[2] = {kv->att, kv->att + kv->seq_len};
  if (count == 2)
    attn_dots2(att[0], att[1], q[0], q[1], kv->keys + base, stride, pos + 1, hs);
  else
    attn_dots(att[0], q[0], kv->keys + base, stride, pos + 1, hs);
  for (int j = 0; j < count; j++) softmax_weights(kv, layer, kvh, att[j], 0, pos + 1, head_factor[j]);
  if (count == 2)
    attn_values2(out[0], out[1], att[0], att[1], kv->values + base, stride, pos + 1, hs);
  else
    attn_values(out[0], att[0], kv->values + base, stride, pos + 1, hs);
}

/* Through the block: the top-k positions by CAM search, their exact scores
   (eighths of a cell level: times the key step / 8 back to int8 units), then
   softmax and the selected values. */
static void attend_unicaim(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                           const int32_t *head_factor, int32_t *const *out) {
  const int hs = kv->head_size;
  const size_t stride = (size_t)(kv->n_kv_heads * hs);
  const size_t base = row_of(kv, layer, 0) * stride + (size_t)(kvh * hs);
  const unsigned bank = (unsigned)(layer * kv->n_kv_heads + kvh);
  unsigned k = kv->top_k && kv->top_k < (unsigned)(pos + 1) ? kv->top_k : (unsigned)(pos + 1);
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
    softmax_weights(kv, layer, kvh, kv->att, kv->selected, n, head_factor[j]);
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
