#include "transformer.h"

#include <string.h>

#include "fixmath.h"
#include "llm_dot.h"

/* ---------------------------------------------------------------- arena */
static size_t align4(size_t n) { return (n + 3) & ~(size_t)3; }

/* The state's buffers carved from ARENA, or only counted when ARENA is NULL:
   the one description of the layout, which llm_state_bytes and
   llm_state_init both run. Returns the bytes it takes. */
static size_t layout(llm_state_t *s, const llm_model_t *m, uint8_t *arena) {
  size_t at = 0;
#define CARVE(field, type, count)                                   \
  s->field = arena ? (type *)(void *)(arena + at) : NULL;           \
  at += align4(sizeof(type) * (size_t)(count))
  CARVE(x, int32_t, m->dim);
  CARVE(xb, int32_t, m->dim);
  CARVE(xb2, int32_t, m->dim);
  CARVE(hb, int32_t, m->hidden_dim);
  CARVE(hb2, int32_t, m->hidden_dim);
  CARVE(q, int32_t, m->dim);
  CARVE(k, int32_t, m->kv_dim);
  CARVE(v, int32_t, m->kv_dim);
  CARVE(att, int32_t, (size_t)m->n_heads * (size_t)m->seq_len);
  CARVE(logits, int32_t, m->vocab_size);
  CARVE(xq8, int8_t, align4((size_t)m->dim)); /* matmul reads 4 at a time */
  CARVE(xq16, int16_t, align4((size_t)(m->dim > m->hidden_dim ? m->dim : m->hidden_dim)));
  CARVE(xsum, int32_t, (m->dim > m->hidden_dim ? m->dim : m->hidden_dim) / LLM_GROUP);
#undef CARVE
  if (arena) kv_init(&s->kv, m->n_layers, m->n_kv_heads, m->head_size, m->seq_len, s->att, arena + at);
  return at + kv_bytes(m->n_layers, m->n_kv_heads, m->head_size, m->seq_len);
}

size_t llm_state_bytes(const llm_model_t *m) {
  llm_state_t counted;
  return layout(&counted, m, NULL);
}

void llm_state_init(llm_state_t *s, const llm_model_t *m, void *arena) {
  memset(s, 0, sizeof *s);
  s->model = m;
  layout(s, m, arena);
}

/* ---------------------------------------------------------------- pieces */
static void phase(llm_state_t *s, llm_phase_t ph, uint64_t *mark) {
  if (!s->clock) return;
  uint64_t now = s->clock();
  s->phase_cycles[ph] += now - *mark;
  *mark = now;
}

/* RMSNorm of X (the residual stream, Q(16 - SHIFT)) into OUT (Q16), EPS in
   Q32. The sum of squares stays inside int64 while every |x| < 2^25 (n <=
   4096); a vector with larger values (SmolLM2's massive activations) is
   summed shifted down by PRE bits, which the normalisation cancels. */
static void rmsnorm(int32_t *out, const int32_t *x, const int32_t *gain, int n, int32_t eps, int shift) {
  int64_t ss = 0;
  uint32_t big = 0;
  for (int i = 0; i < n; i++) {
    ss += (int64_t)x[i] * x[i];
    big |= ((uint32_t)x[i] + (1u << 25)) >> 26;
  }
  int pre = 0;
  if (big) {
    uint32_t top = 0;
    for (int i = 0; i < n; i++) top |= (uint32_t)(x[i] < 0 ? -x[i] : x[i]);
    while ((top >> pre) >= (1u << 25)) pre++;
    ss = 0;
    for (int i = 0; i < n; i++) ss += (int64_t)(x[i] >> pre) * (x[i] >> pre);
  }
  const int fraction = 2 * (shift + pre);                    /* ss is Q(32 - fraction) */
  uint64_t mean = (uint64_t)(ss / n) + (uint64_t)(eps >> fraction);
  uint32_t rms = fx_isqrt64(mean);                           /* Q(16 - shift - pre) */
  if (rms == 0) rms = 1;
  int64_t inv = fx_recip32(rms);
  for (int i = 0; i < n; i++) {
    int64_t t = ((int64_t)(x[i] >> pre) * inv) >> 16;        /* Q16 */
    out[i] = (int32_t)((t * gain[i]) >> 16);
  }
}

static int32_t max_abs(const int32_t *x, int n) {
  int32_t m = 0;
  for (int i = 0; i < n; i++) {
    int32_t a = x[i] < 0 ? -x[i] : x[i];
    if (a > m) m = a;
  }
  return m;
}

/* round(x * top / maxabs) from INV = top * 2^32 / maxabs: one high-word
   product (and the low word's top bit for the rounding) while INV fits 32
   bits, which it does unless maxabs is tiny; the same result either way. */
static inline int32_t round_step(int32_t x, int64_t inv) {
  return (int32_t)(((int64_t)x * inv + ((int64_t)1 << 31)) >> 32);
}

static inline int32_t round_step32(int32_t x, int32_t inv) {
  return fx_mulh(x, inv) + (int32_t)((uint32_t)x * (uint32_t)inv >> 31);
}

static inline void store_q(void *q, int bytes, int i, int32_t v) {
  if (bytes == 1) ((int8_t *)q)[i] = (int8_t)v;
  else ((int16_t *)q)[i] = (int16_t)v;
}

/* Quantises N Q16 values to integers in [-TOP, TOP], int8 or int16 by
   BYTES; returns the scale in Q(16 + SHIFT) (real = q * scale). Inline, so
   that BYTES folds away and the division by TOP is one by a constant. */
static inline __attribute__((always_inline)) int32_t quantize(void *q, int bytes, const int32_t *x, int n,
                                                              int32_t top, int shift) {
  for (int i = n; i & 3; i++) store_q(q, bytes, i, 0); /* the columns matmul pads */
  int32_t maxabs = max_abs(x, n);
  int64_t inv = maxabs ? (int64_t)fx_recip32((uint32_t)maxabs) * top : 0;
  if (inv <= INT32_MAX) /* two loops: the test stays out of the per-element work */
    for (int i = 0; i < n; i++) store_q(q, bytes, i, round_step32(x[i], (int32_t)inv));
  else
    for (int i = 0; i < n; i++) store_q(q, bytes, i, round_step(x[i], inv));
  return (int32_t)(((int64_t)maxabs << shift) / top);
}

/* Queries and values: int8, Q24 scale. Matrix inputs: Q30 scale (a step of
   1/32767 of the largest value needs the extra precision), int8 where the
   input is RMS-normalised (q, k, v, w1, w3) or the attention's output (wo),
   four weights a packed dot product; int16 for the feed-forward's gated
   product (w2's input, with outliers) and the classifier's, where int8
   costs the agreement with fp32 most (docs/llm.md). */
static int32_t quantize8(int8_t *q, const int32_t *x, int n, int shift) { return quantize(q, 1, x, n, 127, shift); }
static int32_t quantize_input8(int8_t *q, const int32_t *x, int n) { return quantize8(q, x, n, 14); }
static int32_t quantize_input16(int16_t *q, const int32_t *x, int n) { return quantize(q, 2, x, n, 32767, 14); }

/* (acc * combined) >> 24 as the 64-bit formula gives it, from one 32 x 32
   product when COMBINED fits 32 bits (unless a row's weights or the input
   are huge): the high word shifted up, the low word's top byte below. */
static inline int32_t scale_row(int32_t acc, int64_t combined) {
  if (combined != (int32_t)combined) return (int32_t)(((int64_t)acc * combined) >> 24);
  uint32_t lo = (uint32_t)acc * (uint32_t)combined;
  return (int32_t)((uint32_t)fx_mulh(acc, (int32_t)combined) << 8 | lo >> 24);
}

/* out = W x for x already quantised to XQ (int8 or int16 by BYTES) with
   scale XS (Q30), W with one scale per row; out is Q(16 - OUT_SHIFT). The
   combined row scale is Q40; acc * combined stays far inside int64 because
   it is the output (int32) times 2^24. A tile of four rows by four columns
   a step (see llm_qmat_t): the tile's activations are loaded once for its
   rows, each row's word of weights goes to one packed dot product (int8
   inputs) or two (int16). Inline, so that BYTES folds away in each kernel. */
static inline __attribute__((always_inline)) void matmul(int32_t *out, const llm_qmat_t *w, const void *xq,
                                                          int bytes, int32_t xs, int out_shift) {
  const int blocks = llm_qmat_cols4(w) / 4;
  const int8_t *wp = w->q;
  for (int g = 0; g < w->rows; g += 4) {
    int32_t acc[4] = {0, 0, 0, 0};
    const uint8_t *x = xq;
    for (int b = 0; b < blocks; b++, wp += 16, x += 4 * bytes) {
      const uint32_t x0 = llm_word(x), x1 = bytes == 1 ? 0 : llm_word(x + 4);
#define ROW(k)                                                                                     \
  acc[k] = bytes == 1 ? llm_dot4(acc[k], llm_word(wp + 4 * k), x0)                                 \
                      : llm_dothi(llm_dotlo(acc[k], llm_word(wp + 4 * k), x0), llm_word(wp + 4 * k), x1)
      ROW(0);
      ROW(1);
      ROW(2);
      ROW(3);
#undef ROW
    }
    for (int k = 0; k < 4 && g + k < w->rows; k++)
      out[g + k] = scale_row(acc[k], ((int64_t)w->scale[g + k] * xs) >> (14 + out_shift)); /* Q24 * Q30 -> Q40 */
  }
}
static void matmul8(int32_t *out, const llm_qmat_t *w, const int8_t *xq, int32_t xs, int out_shift) {
  matmul(out, w, xq, 1, xs, out_shift);
}
static void matmul16(int32_t *out, const llm_qmat_t *w, const int16_t *xq, int32_t xs, int out_shift) {
  matmul(out, w, xq, 2, xs, out_shift);
}

/* round(ACC * XS / 2^SHIFT) for 32 < SHIFT < 64, exactly, from 64-bit
   pieces (the product needs up to 96 bits): the low word's product goes
   in with its high part, the rounding half above the discarded 32 bits. */
static int32_t mul_round_shift(int64_t acc, int32_t xs, int shift) {
  int64_t hi = (acc >> 32) * xs;                                   /* times 2^32 */
  int64_t lo = (int64_t)(uint32_t)acc * xs;
  int64_t sum = hi + (lo >> 32) + ((int64_t)1 << (shift - 33));   /* in units of 2^32 */
  return (int32_t)(sum >> (shift - 32));
}

/* The same for a grouped W (int16 inputs only): per group of LLM_GROUP
   columns a row's dot product with the codes, times the group's scale,
   plus the group's offset times the sum XSUM of the group's inputs; summed
   in int64 (Q24 scales times 24-bit dots), scaled once per row. */
static void matmul_grouped(int32_t *out, const llm_qmat_t *w, const int16_t *xq, const int32_t *xsum, int32_t xs,
                           int out_shift) {
  const int groups = w->cols / LLM_GROUP;
  const int8_t *wp = w->q;
  const int32_t *sp = w->scale;
  for (int g = 0; g < w->rows; g += 4) {
    int64_t acc[4] = {0, 0, 0, 0};
    const int16_t *x = xq;
    for (int j = 0; j < groups; j++, sp += 8) {
      int32_t dot[4] = {0, 0, 0, 0};
      for (int b = 0; b < LLM_GROUP / 4; b++, wp += 16, x += 4) {
        const uint32_t x0 = llm_word(x), x1 = llm_word(x + 2);
        for (int k = 0; k < 4; k++) dot[k] = llm_dothi(llm_dotlo(dot[k], llm_word(wp + 4 * k), x0), llm_word(wp + 4 * k), x1);
      }
      for (int k = 0; k < 4; k++) acc[k] += (int64_t)sp[2 * k] * dot[k] + (int64_t)sp[2 * k + 1] * xsum[j];
    }
    /* acc is Q24 in the inputs' units; times xs (Q30) to Q(16 - out_shift). */
    for (int k = 0; k < 4 && g + k < w->rows; k++) out[g + k] = mul_round_shift(acc[k], xs, 38 + out_shift);
  }
}

/* A matrix input (bit WHICH of input16): quantised to int8 or int16 (and,
   for grouped weights, summed per group); returns its scale. */
static int32_t prepare_input(llm_state_t *s, unsigned which, const int32_t *x, int n) {
  const llm_model_t *m = s->model;
  if (!(m->input16 & which)) return quantize_input8(s->xq8, x, n);
  int32_t xs = quantize_input16(s->xq16, x, n);
  if (m->embed.group)
    for (int j = 0; j < n / LLM_GROUP; j++) {
      int32_t sum = 0;
      for (int i = 0; i < LLM_GROUP; i++) sum += s->xq16[j * LLM_GROUP + i];
      s->xsum[j] = sum;
    }
  return xs;
}

/* out = W x for the input prepare_input made (bit WHICH), Q(16 - OUT_SHIFT). */
static void matmul_input(llm_state_t *s, int32_t *out, const llm_qmat_t *w, unsigned which, int32_t xs,
                         int out_shift) {
  if (w->group) matmul_grouped(out, w, s->xq16, s->xsum, xs, out_shift);
  else if (s->model->input16 & which) matmul16(out, w, s->xq16, xs, out_shift);
  else matmul8(out, w, s->xq8, xs, out_shift);
}

static void rope(int32_t *v, int n, int head_size, const int16_t *cos_row, const int16_t *sin_row) {
  for (int i = 0; i < n; i += 2) {
    int j = (i % head_size) / 2;
    int32_t a = v[i], b = v[i + 1];
    v[i] = (int32_t)(((int64_t)a * cos_row[j] - (int64_t)b * sin_row[j]) >> LLM_Q_ROPE);
    v[i + 1] = (int32_t)(((int64_t)a * sin_row[j] + (int64_t)b * cos_row[j]) >> LLM_Q_ROPE);
  }
}

/* ---------------------------------------------------------------- forward */
/* Row TOKEN of the embedding, dequantised into the residual stream X. */
static void embed(const llm_model_t *m, int32_t *x, int token) {
  const llm_qmat_t *e = &m->embed;
  const int shift = 8 + m->residual_shift; /* Q24 -> Q(16 - residual_shift) */
  for (int i = 0; i < m->dim; i++) {
    int64_t v = e->group ? (int64_t)llm_qmat_at(e, token, i) * llm_qmat_group(e, token, i / LLM_GROUP, 0) +
                               llm_qmat_group(e, token, i / LLM_GROUP, 1)
                         : (int64_t)llm_qmat_at(e, token, i) * e->scale[token];
    x[i] = (int32_t)(v >> shift);
  }
}

const int32_t *llm_forward(llm_state_t *s, int token, int pos) {
  const llm_model_t *m = s->model;
  const int dim = m->dim, kv_dim = m->kv_dim, hs = m->head_size, hidden = m->hidden_dim;
  const int kv_mul = m->n_heads / m->n_kv_heads, rs = m->residual_shift;
  uint64_t mark = s->clock ? s->clock() : 0;

  embed(m, s->x, token);

  /* 1/sqrt(head_size) in Q16. */
  const int32_t inv_sqrt_hs = (int32_t)(((int64_t)1 << 32) / fx_isqrt64((uint64_t)hs << 32));
  const int16_t *cos_row = m->rope_cos + (size_t)pos * (size_t)(hs / 2);
  const int16_t *sin_row = m->rope_sin + (size_t)pos * (size_t)(hs / 2);

  for (int l = 0; l < m->n_layers; l++) {
    const llm_layer_t *L = &m->layers[l];

    rmsnorm(s->xb, s->x, L->rms_att, dim, m->norm_eps, rs);
    int32_t xs = prepare_input(s, LLM_IN16_QKV, s->xb, dim);
    phase(s, LLM_PHASE_OTHER, &mark);
    matmul_input(s, s->q, &L->wq, LLM_IN16_QKV, xs, 0);
    matmul_input(s, s->k, &L->wk, LLM_IN16_QKV, xs, 0);
    matmul_input(s, s->v, &L->wv, LLM_IN16_QKV, xs, 0);
    phase(s, LLM_PHASE_MATMUL, &mark);
    rope(s->q, dim, hs, cos_row, sin_row);
    rope(s->k, kv_dim, hs, cos_row, sin_row);

    /* Append this position's key (12-bit) and value (int8) per kv head. */
    for (int h = 0; h < m->n_kv_heads; h++) {
      int16_t kq[LLM_MAX_HEAD_SIZE];
      int8_t vq[LLM_MAX_HEAD_SIZE];
      int32_t ks = quantize(kq, 2, s->k + h * hs, hs, KV_KEY_MAX, 8);
      int32_t vs = quantize8(vq, s->v + h * hs, hs, 8);
      kv_store(&s->kv, l, h, pos, kq, ks, vq, vs);
    }

    /* Attention through the KV cache, query heads two at a time where they
       share a kv head (heads h, h+1.. use kv head h / kv_mul). */
    for (int kvh = 0; kvh < m->n_kv_heads; kvh++) {
      for (int h = kvh * kv_mul; h < (kvh + 1) * kv_mul;) {
        int pair = (h + 1 < (kvh + 1) * kv_mul) ? 2 : 1;
        _Alignas(4) int8_t qq[2][LLM_MAX_HEAD_SIZE]; /* read a word at a time */
        int32_t head_factor[2];
        for (int j = 0; j < pair; j++) {
          int32_t qs = quantize8(qq[j], s->q + (h + j) * hs, hs, 8);
          /* score = dot * ks * qs / sqrt(hs); the per-head part once, Q24. */
          head_factor[j] = (int32_t)(((int64_t)qs * inv_sqrt_hs) >> 16);
        }
        const int8_t *queries[2] = {qq[0], qq[1]};
        int32_t *outs[2] = {s->xb + h * hs, s->xb + (h + 1) * hs};
        kv_attend(&s->kv, l, kvh, pos, pair, queries, head_factor, outs);
        h += pair;
      }
    }
    phase(s, LLM_PHASE_ATTENTION, &mark);

    xs = prepare_input(s, LLM_IN16_WO, s->xb, dim);
    phase(s, LLM_PHASE_OTHER, &mark);
    matmul_input(s, s->xb2, &L->wo, LLM_IN16_WO, xs, rs);
    phase(s, LLM_PHASE_MATMUL, &mark);
    for (int i = 0; i < dim; i++) s->x[i] += s->xb2[i];

    /* Feed-forward: w2(silu(w1 x) * w3 x). */
    rmsnorm(s->xb, s->x, L->rms_ffn, dim, m->norm_eps, rs);
    xs = prepare_input(s, LLM_IN16_W13, s->xb, dim);
    phase(s, LLM_PHASE_OTHER, &mark);
    matmul_input(s, s->hb, &L->w1, LLM_IN16_W13, xs, 0);
    matmul_input(s, s->hb2, &L->w3, LLM_IN16_W13, xs, 0);
    phase(s, LLM_PHASE_MATMUL, &mark);
    for (int i = 0; i < hidden; i++) s->hb[i] = fx_mul_shift(fx_silu(s->hb[i]), s->hb2[i], 16);
    xs = prepare_input(s, LLM_IN16_W2, s->hb, hidden);
    phase(s, LLM_PHASE_OTHER, &mark);
    matmul_input(s, s->xb, &L->w2, LLM_IN16_W2, xs, rs);
    phase(s, LLM_PHASE_MATMUL, &mark);
    for (int i = 0; i < dim; i++) s->x[i] += s->xb[i];
  }

  rmsnorm(s->xb, s->x, m->rms_final, dim, m->norm_eps, rs);
  int32_t xs = prepare_input(s, LLM_IN16_CLASSIFIER, s->xb, dim);
  phase(s, LLM_PHASE_OTHER, &mark);
  matmul_input(s, s->logits, &m->classifier, LLM_IN16_CLASSIFIER, xs, 0);
  phase(s, LLM_PHASE_MATMUL, &mark);
  return s->logits;
}
