/* The dense backend: the keys in RAM only, every step's attention over all
   of a pair's cached positions in software (the reference). */
#include "kv_backend.h"

#include <string.h>

#include "attention.h"
#include "kv_attend.h"
#include "kv_slots.h"

/* After the prompt's compression: the holes it left closed, keeping the
   order, so that the used slots are 0..used-1 (attend_dense reads them in
   one run). */
static void compact(kv_cache_t *kv, int layer, int kvh) {
  const int hs = kv->head_size, h = kv_head_of(kv, layer, kvh);
  uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  int32_t *score = kv->slot_score + kv_slots_of(kv, h);
  uint8_t *flags = kv->slot_flags + kv_slots_of(kv, h);
  const size_t stride = kv_stride(kv), base = kv_base_of(kv, layer, kvh);
  int to = 0;
  for (int from = 0; from < kv->slots; from++) {
    if (at[from] == KV_FREE) continue;
    if (to != from) {
      memcpy(kv->keys + base + (size_t)to * stride, kv->keys + base + (size_t)from * stride,
             sizeof *kv->keys * (size_t)hs);
      memcpy(kv->values + base + (size_t)to * stride, kv->values + base + (size_t)from * stride, (size_t)hs);
      size_t a = kv_scale_at(kv, layer, kvh, to), b = kv_scale_at(kv, layer, kvh, from);
      kv->key_scale[a] = kv->key_scale[b];
      kv->value_scale[a] = kv->value_scale[b];
      at[to] = at[from];
      score[to] = score[from];
      flags[to] = flags[from];
      at[from] = KV_FREE;
      flags[from] = 0;
    }
    to++;
  }
}

/* A head's value rows beyond which the data cache (soc_top's DcacheBytes)
   cannot hold them for the next head. */
#define KV_SWEEP_BYTES 8192

/* A head's weights (a[0..m) for slots kept[0..m)) as int16 for every slot
   0..n-1 in DENSE, 0 where it kept none; 0 if one does not fit int16. */
static int dense_weights(int16_t *dense, const int32_t *a, const uint16_t *kept, int m, int n) {
  for (int j = 0; j < m; j++)
    if ((uint32_t)a[j] > INT16_MAX) return 0;
  for (int i = 0; i < n; i++) dense[i] = 0;
  for (int j = 0; j < m; j++) dense[kept[j]] = (int16_t)a[j];
  return 1;
}

/* Dense backend: the used slots are 0..used-1 (the prompt compression
   closes its holes), read in one sweep for the COUNT query heads that
   share them: their dots scaled by the keys' scales in the keys' sweep.
   The value sums: each head over the positions it kept, or in one sweep
   over every position for the heads that keep many (attn_values_group,
   int16 weights) when the rows come from memory once for all of them
   instead of once a head. */
static void attend_dense(kv_cache_t *kv, int layer, int kvh, int count, const int8_t *const *q,
                         const int32_t *head_factor, int32_t *const *out, int32_t *score) {
  const int hs = kv->head_size, n = kv->used[kv_head_of(kv, layer, kvh)];
  const size_t stride = kv_stride(kv), base = kv_base_of(kv, layer, kvh);
  /* The heads' rows side by side, not seq_len apart: rows a multiple of the
     cache's size apart would evict each other in the direct-mapped cache
     at every position. */
  const size_t round = ((size_t)n + 15) & ~(size_t)15, span = round <= (size_t)kv->seq_len ? round : (size_t)n;
  const size_t weights_span = span + (span & 1); /* read a word at a time */
  int32_t *att[ATTN_MAX_GROUP] = {0}, max[ATTN_MAX_GROUP], *sums[ATTN_MAX_GROUP];
  const int16_t *weights[ATTN_MAX_GROUP];
  int kept_n[ATTN_MAX_GROUP], group_shift[ATTN_MAX_GROUP], grouped = 0;
  attn_weigh_t wg[ATTN_MAX_GROUP];
  for (int j = 0; j < count; j++) att[j] = kv->att + (size_t)j * span;
  attn_scores_group(att, max, q, count, kv->keys + base, stride, kv_scales_of(kv, kv->key_scale, layer, kvh), 1, n,
                    hs);
  for (int j = 0; j < count; j++)
    kept_n[j] = kv_softmax_scaled(kv, layer, kvh, att[j], n, max[j], head_factor[j], score, kv_kept_of(kv, j),
                                  &wg[j]);
  /* Values the data cache holds between heads are read from it again;
     those it cannot, from memory: there, one sweep for the heads that keep
     2/5 of the positions or more costs less than their own sums. */
  const int sweep = (size_t)n * (size_t)hs > KV_SWEEP_BYTES;
  for (int j = 0; j < count; j++) {
    if (!out[j]) continue;
    int16_t *dense = kv->weights + (size_t)j * weights_span;
    const uint16_t *kept = kv_kept_of(kv, j);
    if (!sweep || 5 * kept_n[j] < 2 * n) {
      attn_values_weighed(out[j], att[j], &wg[j], kv->values + base, stride, kept, kept_n[j], hs);
      continue;
    }
    attn_weigh(att[j], kept, kept_n[j], &wg[j]); /* the sweep takes the weights themselves */
    if (dense_weights(dense, att[j], kept, kept_n[j], n)) {
      sums[grouped] = out[j];
      weights[grouped] = dense;
      group_shift[grouped++] = wg[j].shift;
    } else {
      attn_values_rows(out[j], att[j], kv->values + base, stride, kept, kept_n[j], hs, wg[j].shift);
    }
  }
  if (grouped) attn_values_group(sums, weights, group_shift, grouped, kv->values + base, stride, n, hs);
}

static int exact_scores(kv_cache_t *kv, int layer, int kvh, const int8_t *q, int n, int searched) {
  (void)searched;
  kv_dots_selected(kv, layer, kvh, q, n);
  return 0;
}

/* Nothing to do without outputs unless SCORE wants the probabilities (a
   replayed prompt of a policy that does not observe them). */
static void attend_cached(kv_cache_t *kv, int layer, int kvh, int count, const int8_t *const *q,
                          const int32_t *head_factor, int32_t *const *out, int32_t *score) {
  int any = score != 0;
  for (int j = 0; j < count; j++) any |= out[j] != 0;
  if (any) attend_dense(kv, layer, kvh, count, q, head_factor, out, score);
}

const kv_backend_ops_t kv_backend_dense = {
    .compressed = compact,
    .exact_scores = exact_scores,
    .attend_cached = attend_cached,
};
