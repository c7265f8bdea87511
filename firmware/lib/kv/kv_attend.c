/* Attention over the cache: the pieces the policies' steps are made of, and
   kv_attend, which hands each step to its policy. */
#include "kv_attend.h"

#include "attention.h"
#include "fixmath.h"
#include "kv_backend.h"
#include "kv_policy.h"
#include "kv_slots.h"

void kv_attend_zero(int32_t *out, int n) {
  for (int i = 0; out && i < n; i++) out[i] = 0;
}

void kv_dots_selected(kv_cache_t *kv, int layer, int kvh, const int8_t *q, int n) {
  attn_dots_rows(kv->att, q, kv->keys + kv_base_of(kv, layer, kvh), kv_stride(kv), kv->selected, n, kv->head_size);
}

void kv_prepare_exact(kv_cache_t *kv, int layer, const int8_t *q) {
  if (kv->backend->prepare_exact) kv->backend->prepare_exact(kv, layer, q);
}

int kv_exact_scores(kv_cache_t *kv, int layer, int kvh, const int8_t *q, int n, int searched) {
  return kv->backend->exact_scores(kv, layer, kvh, q, n, searched);
}

/* The softmax's first pass: the exponentials kept so far, overwriting the
   scores they passed, their indices and their sum. */
typedef struct {
  int32_t *next;
  uint16_t *next_kept;
  uint32_t sum; /* <= 65535 positions of at most 1.0 */
} weights_t;

/* d << shift where it is written: GCC would shift every score, kept or not,
   before the test that keeps one. */
static inline uint32_t shift_left_here(uint32_t d, int shift) {
#if defined(__riscv)
  uint32_t r;
  __asm__ volatile("sll %0, %1, %2" : "=r"(r) : "r"(d), "r"(shift));
  return r;
#else
  return d << shift;
#endif
}

/* The exponential of the score at P, D below the largest. d * factor >>
   16 is one high-word product of D shifted up by D_SHIFT and the factor
   by 16 - D_SHIFT (FACTOR_SHIFTED), the shifts found for both to fit 32
   bits (softmax_body). */
static inline __attribute__((always_inline)) void keep_weight(weights_t *w, const int32_t *a, const int32_t *p,
                                                              uint32_t d, int d_shift, uint32_t factor_shifted) {
  uint32_t z = fx_mulhu(shift_left_here(d, d_shift), factor_shifted);
  int32_t e = fx_exp2_neg_coarse(z); /* the largest is 1.0; 0 just inside the cutoff (rare, and it adds 0) */
  *w->next_kept++ = (uint16_t)(p - a); /* first: the exponential is late, as a dot product is */
  *w->next++ = e;
  w->sum += (uint32_t)e;
}

/* Scores a[i] (dot products scaled by the key's own scale) -> the softmax's
   exponentials of the positions it keeps and how to weigh them (*WG,
   attn_weight: probabilities times the value scale, Q(16 + wg->shift) per
   int8 value unit, the shift giving the largest possible weight 15 bits
   (the packed value sums take 16-bit weights) as far as the sums stay
   inside int32 (value scales up to the head's largest, kv_store's
   value_scale_max); SmolLM2's small values in diffuse heads would
   otherwise keep a bit or two). rows[i] names a's slot (NULL: slot i).
   SCORE (per slot) gathers the probabilities for the policy, PROB (per i)
   receives them; either may be NULL. Most positions of a sharp head lie
   beyond the cutoff, where the weight is exactly 0 (stories260K: two
   thirds), so only the others go on: returns their count M, their
   exponentials in a[0..M) and their slots in kept[0..M). SCALED: a[] holds the scaled scores already and MAX their
   largest (attn_scores_group). Runs once per cached position and head, so
   the products that fit use one high-word multiply (the results are those
   of the plain 64-bit formulas), and it is inlined twice: for dense
   attention's scaled scores (ROWS and PROB NULL) and in general. */
static inline __attribute__((always_inline)) int softmax_body(const kv_cache_t *kv, int layer, int kvh, int32_t *a,
                                                              const uint16_t *rows, int n, int32_t head_factor,
                                                              int32_t *score, int32_t *prob, uint16_t *kept,
                                                              int scaled, int32_t max, attn_weigh_t *wg) {
  const int32_t *kscale = kv_scales_of(kv, kv->key_scale, layer, kvh);
  const int32_t *vscale = kv_scales_of(kv, kv->value_scale, layer, kvh);
  if (!scaled) {
    max = INT32_MIN;
    for (int i = 0; i < n; i++) {
      size_t t = rows ? rows[i] : (size_t)i;
      int32_t s = (int32_t)(((int64_t)a[i] * kscale[t]) >> 16); /* Q8, before the head factor */
      a[i] = s;
      if (s > max) max = s;
    }
  }
  /* exp(-(d * head_factor >> 16)) = 2^-(d * factor >> 16) with log2(e) in
     the factor; below 2^-17 it rounds to 0 in Q16, beyond d = 17 * 2^32 /
     factor: those positions are dropped with a compare. */
  const int64_t wide = ((int64_t)head_factor * FX_LOG2E) >> 16;
  const int32_t factor = wide > INT32_MAX ? INT32_MAX : wide < 0 ? 0 : (int32_t)wide;
  const uint64_t far = factor > 0 ? 17 * ((uint64_t)fx_recip32((uint32_t)factor) + 1) : UINT32_MAX;
  const uint32_t cutoff = far > UINT32_MAX ? UINT32_MAX : (uint32_t)far;
  /* d * factor >> 16 as one high-word product: the factor shifted up by
     as much of 16 as it takes, D by the rest, which D fits as d * factor <
     18 * 2^32 for every d that passes the cutoff. */
  const int room = fx_headroom((uint32_t)factor) + 1, factor_shift = room < 16 ? room : 16;
  const int d_shift = 16 - factor_shift;
  const uint32_t factor_shifted = (uint32_t)factor << factor_shift;
  weights_t kw = {a, kept, 0};
  /* Two scores an iteration, both loaded before either is tested: a
     load's value is not the next instruction's operand (a cycle's wait). */
  const int32_t *p = a, *end = a + n;
#pragma GCC unroll 1
  for (; p + 1 < end; p += 2) {
    uint32_t d0 = (uint32_t)max - (uint32_t)p[0], d1 = (uint32_t)max - (uint32_t)p[1];
    __asm__("" : "+r"(d0), "+r"(d1)); /* both computed here: GCC would sink the second load */
    if (d0 <= cutoff) keep_weight(&kw, a, p, d0, d_shift, factor_shifted);
    if (d1 <= cutoff) keep_weight(&kw, a, p + 1, d1, d_shift, factor_shifted);
  }
  if (p < end && (uint32_t)max - (uint32_t)*p <= cutoff)
    keep_weight(&kw, a, p, (uint32_t)max - (uint32_t)*p, d_shift, factor_shifted);
  const uint32_t sum = kw.sum;
  const int m = (int)(kw.next - a);
  if (prob)
    for (int i = 0; i < n; i++) prob[i] = 0;
  /* inv < 2^16 as sum >= 1.0, so e * inv < 2^32; scales are >= 0. The
     largest weight is at most vmax * inv >> 24 (e = 1.0) before the shift;
     the weights sum to vmax >> 8 at most, times 127 per value. */
  const uint32_t inv = fx_recip32(sum);
  const uint32_t vmax = (uint32_t)kv->value_scale_max[kv_head_of(kv, layer, kvh)];
  const uint64_t top = ((uint64_t)vmax * inv) >> 24;
  /* k: the largest up to 15 with top << k < 2^15 and vmax << k < 2^32 (0 if none) */
  const int top_room = fx_headroom(top) - 16, vmax_room = vmax >> 31 ? 0 : fx_headroom(vmax) + 1;
  int k = top_room < vmax_room ? top_room : vmax_room;
  k = k < 0 ? 0 : k > 15 ? 15 : k;
  *wg = (attn_weigh_t){vscale, inv << 16, k};
  if (!score && !prob && !rows) return m; /* dense attention: the value sums weigh */
  for (uint16_t *kp = kept, *kept_end = kept + m; kp < kept_end; kp++, a++) {
    const int i = *kp;
    const size_t t = rows ? rows[i] : (size_t)i;
    if (score || prob) {
      int32_t p = (int32_t)(((uint32_t)*a * inv) >> 16);
      if (score) score[t] = score[t] > INT32_MAX - p ? INT32_MAX : score[t] + p; /* saturating */
      if (prob) prob[i] = p;
    }
    if (rows) *kp = (uint16_t)t;
  }
  return m;
}

/* Without the scheduling after register allocation: it does not know that
   ucx.exp2's result is late and moves keep_weight's independent store
   ahead of it, where the exponential's store then waits a cycle. */
#define SOFTMAX_SCHEDULE __attribute__((optimize("no-schedule-insns2")))

static __attribute__((noinline)) SOFTMAX_SCHEDULE int softmax_weights(const kv_cache_t *kv, int layer, int kvh,
                                                                      int32_t *a, const uint16_t *rows, int n,
                                                                      int32_t head_factor, int32_t *score,
                                                                      int32_t *prob, uint16_t *kept, attn_weigh_t *wg) {
  return softmax_body(kv, layer, kvh, a, rows, n, head_factor, score, prob, kept, 0, 0, wg);
}

SOFTMAX_SCHEDULE int kv_softmax_scaled(const kv_cache_t *kv, int layer, int kvh, int32_t *a, int n, int32_t max,
                                       int32_t head_factor, int32_t *score, uint16_t *kept, attn_weigh_t *wg) {
  return softmax_body(kv, layer, kvh, a, 0, n, head_factor, score, 0, kept, 1, max, wg);
}

void kv_softmax_values(kv_cache_t *kv, int layer, int kvh, int n, int32_t head_factor, int32_t *score, int32_t *prob,
                       int32_t *out) {
  attn_weigh_t wg;
  if (!out && !score && !prob) return;
  int m = softmax_weights(kv, layer, kvh, kv->att, kv->selected, n, head_factor, score, prob, kv->kept, &wg);
  if (out)
    attn_values_weighed(out, kv->att, &wg, kv->values + kv_base_of(kv, layer, kvh), kv_stride(kv), kv->kept, m,
                        kv->head_size);
}

void kv_attend_cached(kv_cache_t *kv, int layer, int kvh, int count, const int8_t *const *q,
                      const int32_t *head_factor, int32_t *const *out, int32_t *score) {
  kv->backend->attend_cached(kv, layer, kvh, count, q, head_factor, out, score);
}

void kv_attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
               const int32_t *head_factor, int32_t *const *out) {
  const kv_policy_ops_t *ops = kv->policy.ops;
  if (ops->attend) {
    ops->attend(kv, layer, kvh, pos, count, q, head_factor, out);
    return;
  }
  int32_t *score = ops->score_row ? ops->score_row(kv, layer, kvh, pos) : 0;
  kv_attend_cached(kv, layer, kvh, count, q, head_factor, out, score);
}
