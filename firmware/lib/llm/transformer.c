#include "transformer.h"

#include <string.h>

#include "attention.h"
#include "fixmath.h"
#include "llm_kernels.h"
#include "ucx_dot.h"

const llm_kernels_t *llm_kernels;

/* ---------------------------------------------------------------- arena */
static size_t align4(size_t n) { return (n + 3) & ~(size_t)3; }

/* The state's buffers carved from ARENA, or only counted when ARENA is NULL:
   the one description of the layout, which llm_state_bytes and
   llm_state_init both run. Returns the bytes it takes. */
static size_t layout(llm_state_t *s, const llm_model_t *m, int batch, uint8_t *arena) {
  const size_t b = (size_t)batch, widest = (size_t)(m->dim > m->hidden_dim ? m->dim : m->hidden_dim);
  size_t at = 0;
#define CARVE(field, type, count)                                   \
  s->field = arena ? (type *)(void *)(arena + at) : NULL;           \
  at += align4(sizeof(type) * (size_t)(count))
  CARVE(x, int32_t, b * (size_t)m->dim);
  CARVE(xb, int32_t, b * (size_t)m->dim);
  CARVE(xb2, int32_t, b * (size_t)m->dim);
  CARVE(hb, int32_t, b * (size_t)m->hidden_dim);
  CARVE(hb2, int32_t, b * (size_t)m->hidden_dim);
  CARVE(q, int32_t, b * (size_t)m->dim);
  CARVE(k, int32_t, b * (size_t)m->kv_dim);
  CARVE(v, int32_t, b * (size_t)m->kv_dim);
  CARVE(att, int32_t, (size_t)m->n_heads * (size_t)m->seq_len);
  CARVE(logits, int32_t, b * (size_t)m->vocab_size);
  CARVE(xq8, int8_t, b * align4((size_t)m->dim)); /* matmul reads 4 at a time */
  CARVE(xq16, int16_t, b * align4(widest));
  CARVE(xsum, int32_t, b * (widest / LLM_GROUP));
#undef CARVE
  if (arena) kv_init(&s->kv, m->n_layers, m->n_kv_heads, m->head_size, m->seq_len, s->att, arena + at);
  return at + kv_bytes(m->n_layers, m->n_kv_heads, m->head_size, m->seq_len);
}

size_t llm_state_bytes(const llm_model_t *m, int batch) {
  llm_state_t counted;
  return layout(&counted, m, batch, NULL);
}

void llm_state_init(llm_state_t *s, const llm_model_t *m, void *arena, int batch) {
  memset(s, 0, sizeof *s);
  s->model = m;
  s->batch = batch;
  layout(s, m, batch, arena);
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
  if (big) { /* not unrolled: the 128 KiB builds are full, and the rest of a token outweighs it */
    uint32_t top = 0;
#pragma GCC unroll 1
    for (int i = 0; i < n; i++) top |= (uint32_t)(x[i] < 0 ? -x[i] : x[i]);
    while ((top >> pre) >= (1u << 25)) pre++;
    ss = 0;
#pragma GCC unroll 1
    for (int i = 0; i < n; i++) ss += (int64_t)(x[i] >> pre) * (x[i] >> pre);
  }
  const int fraction = 2 * (shift + pre);                    /* ss is Q(32 - fraction) */
  uint64_t mean = fx_div64_small((uint64_t)ss, (uint32_t)n) + (uint64_t)(eps >> fraction);
  uint32_t rms = fx_isqrt64(mean);                           /* Q(16 - shift - pre) */
  if (rms == 0) rms = 1;
  int64_t inv = fx_recip32(rms);
  /* |x >> pre| <= sqrt(n) * (rms + 1), so |t| < 2 * sqrt(n) in Q16: an int32
     for n <= 4096, and its product with the gain one 32 x 32. */
  for (int i = 0; i < n; i++) {
    int32_t t = (int32_t)(((int64_t)(x[i] >> pre) * inv) >> 16); /* Q16 */
    out[i] = (int32_t)(((int64_t)t * gain[i]) >> 16);
  }
}

/* max |x[i]| from the largest and the smallest: two tests a value, each
   rarely taken, where |x| took three instructions more (the quantisers
   read every vector with it). INT32_MIN counts as -INT32_MAX. */
static int32_t max_abs(const int32_t *x, int n) {
  int32_t hi = 0, lo = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > hi) hi = x[i];
    if (x[i] < lo) lo = x[i];
  }
  if (lo < -INT32_MAX) lo = -INT32_MAX;
  return -lo > hi ? -lo : hi;
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
   that BYTES folds away and the division by TOP is one by a constant. Q and
   X restrict: an int8 store may alias anything, and the loads would wait
   behind the stores, each value's load just before its product. */
static inline __attribute__((always_inline)) int32_t quantize(void *restrict q, int bytes,
                                                              const int32_t *restrict x, int n, int32_t top,
                                                              int shift) {
  for (int i = n; i & 3; i++) store_q(q, bytes, i, 0); /* the columns matmul pads */
  int32_t maxabs = max_abs(x, n);
  int64_t inv = maxabs ? (int64_t)fx_recip32((uint32_t)maxabs) * top : 0;
  if (inv <= INT32_MAX) /* two loops: the test stays out of the per-element work */
    for (int i = 0; i < n; i++) store_q(q, bytes, i, round_step32(x[i], (int32_t)inv));
  else
    for (int i = 0; i < n; i++) store_q(q, bytes, i, round_step(x[i], inv));
  /* ((int64_t)maxabs << shift) / top, truncated to int32, without a
     64-bit division: maxabs = whole * top + part. */
  const uint32_t whole = fx_div_const((uint32_t)maxabs, (uint32_t)top);
  const uint32_t part = (uint32_t)maxabs - whole * (uint32_t)top;
  return (int32_t)((whole << shift) + fx_div_const(part << shift, (uint32_t)top));
}

/* Queries and values: int8, Q24 scale. Matrix inputs: Q30 scale (a step of
   1/32767 of the largest value needs the extra precision), int8 where the
   input is RMS-normalised (q, k, v, w1, w3) or the attention's output (wo),
   four weights a packed dot product; int16 for the feed-forward's gated
   product (w2's input, with outliers) and the classifier's, where int8
   costs the agreement with fp32 most (docs/llm.md). */
static int32_t quantize8(int8_t *restrict q, const int32_t *restrict x, int n, int shift) {
  return quantize(q, 1, x, n, 127, shift);
}
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

/* OUT[k] for the N rows of a tile with sums ACC and scales SCALE, in
   64-bit arithmetic: the path for what the fast one cannot hold. */
static void __attribute__((noinline)) scale_rows(int32_t *out, const int32_t *acc, const int32_t *scale, int n,
                                                 int32_t xs) {
#pragma GCC unroll 1
  for (int k = 0; k < n; k++) out[k] = scale_row(acc[k], ((int64_t)scale[k] * xs) >> 14); /* Q24 * Q30 -> Q40 */
}

static inline uint32_t shl(int32_t v, int k) { return (uint32_t)v << k; }

/* A row's two 64-bit products, combined = (scale * xs) >> 14 and
   (acc * combined) >> 24, as the high words of products of operands
   shifted up by 18 and 8 bits in all: exact, as the shifts lose no bits,
   where the matrix's largest scale, XS and the accumulators' bound leave
   the room (stories260K's all do); scale_row otherwise. Chosen once a
   call: v << k stays an int32 (fx_headroom(v) >= k) for k = 0 or v <
   2^(31 - k), and the sums' bound, cols4 * 128 * 2^(7 or 15), has the
   headroom of cols4 less 14 or 22. */
typedef struct {
  int fast;
  int scale_shift, acc_shift, combined_shift;
  int32_t xs_shifted; /* xs << (18 - scale_shift) */
} row_scaling_t;

static inline int shift_fits(uint64_t v, int k) { return k == 0 || v < (uint64_t)1 << (31 - k); }

static row_scaling_t row_scaling(const llm_qmat_t *w, int bytes, int32_t xs) {
  row_scaling_t r;
  const uint64_t scale_bound = ((uint64_t)1 << (31 - w->scale_headroom)) - 1; /* >= every |scale| */
  const uint64_t xs_abs = xs < 0 ? -(uint64_t)xs : (uint64_t)xs;
  const int acc_room = w->cols_headroom - (bytes == 1 ? 14 : 22);
  r.scale_shift = w->scale_headroom < 18 ? w->scale_headroom : 18;
  r.acc_shift = acc_room < 0 ? 0 : acc_room > 8 ? 8 : acc_room;
  r.combined_shift = 8 - r.acc_shift;
  r.fast = shift_fits(xs_abs, 18 - r.scale_shift) &&
           shift_fits(((scale_bound * xs_abs) >> 14) + 1, r.combined_shift);
  r.xs_shifted = (int32_t)shl(xs, 18 - r.scale_shift);
  return r;
}

static inline int32_t scale_row_fast(const row_scaling_t *r, int32_t acc, int32_t scale) {
  const int32_t combined = fx_mulh((int32_t)shl(scale, r->scale_shift), r->xs_shifted);
  return fx_mulh((int32_t)shl(acc, r->acc_shift), (int32_t)shl(combined, r->combined_shift));
}

/* OUT[0..N) from a tile's sums: the fast scaling for whole tiles when it
   holds, the 64-bit path otherwise. */
static inline __attribute__((always_inline)) void scale_tile(int32_t *out, const row_scaling_t *rs, int32_t a0,
                                                              int32_t a1, int32_t a2, int32_t a3,
                                                              const int32_t *scale, int n, int32_t xs) {
  if (rs->fast && n == 4) {
    const int32_t s0 = scale[0], s1 = scale[1], s2 = scale[2], s3 = scale[3]; /* loaded ahead of their use */
    out[0] = scale_row_fast(rs, a0, s0);
    out[1] = scale_row_fast(rs, a1, s1);
    out[2] = scale_row_fast(rs, a2, s2);
    out[3] = scale_row_fast(rs, a3, s3);
  } else {
    const int32_t acc[4] = {a0, a1, a2, a3};
    scale_rows(out, acc, scale, n, xs);
  }
}

/* out = W x for x already quantised to XQ (int8 or int16 by BYTES) with
   scale XS (Q30), W with one scale per row; out is Q16. The combined row
   scale is Q40; acc * combined stays far inside int64 because it is the
   output (Q16, int32) times 2^24. Tiles of four rows by four columns a
   step (see llm_qmat_t), two tiles (eight rows) a pass while they last:
   a block's activations are loaded once for its eight rows, each row's
   word of weights goes to one packed dot product (int8 inputs) or two
   (int16); the sums stay in registers. Inline, so that BYTES folds away
   in each kernel. */
static inline __attribute__((always_inline)) void matmul(int32_t *out, const llm_qmat_t *w, const void *xq,
                                                          int bytes, int32_t xs) {
  const row_scaling_t rs = row_scaling(w, bytes, xs);
  const int8_t *wp = w->q;
  const int32_t *scale = w->scale;
  const int blocks = llm_qmat_cols4(w) / 4;
  const size_t tile_bytes = (size_t)blocks * 16;
  /* Row K of block WB (its word of weights) into ACC. */
#define ROW(acc, wb, k)                                                                              \
  acc = bytes == 1 ? ucx_dot4(acc, ucx_word((wb) + 4 * (k)), x0)                                     \
                   : ucx_dothi(ucx_dotlo(acc, ucx_word((wb) + 4 * (k)), x0), ucx_word((wb) + 4 * (k)), x1)
  /* Block B's activations: four columns. */
#define ACTIVATIONS(b)                                      \
  const uint8_t *xb = x + 4 * bytes * (b);                  \
  const uint32_t x0 = ucx_word(xb), x1 = bytes == 1 ? 0 : ucx_word(xb + 4)
  /* Block B of two tiles: WP's rows into a0..a3, WP2's into a4..a7. */
#define BLOCK2(b)                                                  \
  do {                                                             \
    ACTIVATIONS(b);                                                \
    const int8_t *wb = wp + 16 * (b), *wb2 = wp2 + 16 * (b);       \
    ROW(a0, wb, 0);                                                \
    ROW(a4, wb2, 0);                                               \
    ROW(a1, wb, 1);                                                \
    ROW(a5, wb2, 1);                                               \
    ROW(a2, wb, 2);                                                \
    ROW(a6, wb2, 2);                                               \
    ROW(a3, wb, 3);                                                \
    ROW(a7, wb2, 3);                                               \
  } while (0)
#define BLOCK(b)                            \
  do {                                      \
    ACTIVATIONS(b);                         \
    const int8_t *wb = wp + 16 * (b);       \
    ROW(a0, wb, 0);                         \
    ROW(a1, wb, 1);                         \
    ROW(a2, wb, 2);                         \
    ROW(a3, wb, 3);                         \
  } while (0)
  int g = 0;
  for (; g + 8 <= w->rows; g += 8, scale += 8, wp += tile_bytes) {
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    const uint8_t *x = xq;
    const int8_t *wp2 = wp + tile_bytes;
    /* Two blocks an iteration, the remainder first: the compiler's own
       unrolling peels and spills the sums. */
#pragma GCC unroll 1
    for (int b = 0; b < (blocks & 3); b++, wp += 16, wp2 += 16, x += 4 * bytes) BLOCK2(0);
#pragma GCC unroll 1
    for (const int8_t *end = wp + (size_t)(blocks & ~3) * 16; wp < end; wp += 64, wp2 += 64, x += 16 * bytes) {
      BLOCK2(0);
      BLOCK2(1);
      BLOCK2(2);
      BLOCK2(3);
    }
    scale_tile(out + g, &rs, a0, a1, a2, a3, scale, 4, xs);
    scale_tile(out + g + 4, &rs, a4, a5, a6, a7, scale + 4, 4, xs);
  }
  for (; g < w->rows; g += 4, scale += 4) { /* the last tile of an odd count */
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    const uint8_t *x = xq;
#pragma GCC unroll 1
    for (int b = 0; b < blocks; b++, wp += 16, x += 4 * bytes) BLOCK(0);
    scale_tile(out + g, &rs, a0, a1, a2, a3, scale, w->rows - g < 4 ? w->rows - g : 4, xs);
  }
#undef BLOCK
#undef BLOCK2
#undef ACTIVATIONS
#undef ROW
}
/* Without the first scheduling pass, as tile_groups: it hoists a block's
   sixteen loads and spills the sums around the loop. */
static void __attribute__((noinline, optimize("no-schedule-insns")))
matmul8(int32_t *out, const llm_qmat_t *w, const int8_t *xq, int32_t xs) {
  matmul(out, w, xq, 1, xs);
}
static void __attribute__((noinline, optimize("no-schedule-insns")))
matmul16(int32_t *out, const llm_qmat_t *w, const int16_t *xq, int32_t xs) {
  matmul(out, w, xq, 2, xs);
}

/* Groups of a tile a token's pass covers before the next token's: their
   codes (128 bytes a group) stay in the data cache for the batch. */
#define GROUP_CHUNK 4

/* ACC[k] += row k's scale * (codes . x) + offset * (sum of x) for COUNT
   groups of a 4-row tile: the codes at C (a group's 8 blocks of 4 rows x 4
   codes), the scale and offset pairs at P, the input's values at X and its
   group sums at SUM. A function of its own, called per tile and chunk, so
   that its loop keeps everything in registers. */
static void __attribute__((noinline, optimize("no-schedule-insns")))
tile_groups(int64_t acc[4], const int8_t *c, const int32_t *p, const int16_t *x, const int32_t *sum, int count) {
  int64_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  for (int j = 0; j < count; j++, p += 8) {
    int32_t d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (int blk = 0; blk < LLM_GROUP / 4; blk++, c += 16, x += 4) {
      const uint32_t x0 = ucx_word(x), x1 = ucx_word(x + 2);
      const uint32_t c0 = ucx_word(c), c1 = ucx_word(c + 4), c2 = ucx_word(c + 8), c3 = ucx_word(c + 12);
      d0 = ucx_dothi(ucx_dotlo(d0, c0, x0), c0, x1);
      d1 = ucx_dothi(ucx_dotlo(d1, c1, x0), c1, x1);
      d2 = ucx_dothi(ucx_dotlo(d2, c2, x0), c2, x1);
      d3 = ucx_dothi(ucx_dotlo(d3, c3, x0), c3, x1);
    }
    const int64_t s = sum[j];
    a0 += (int64_t)p[0] * d0 + p[1] * s;
    a1 += (int64_t)p[2] * d1 + p[3] * s;
    a2 += (int64_t)p[4] * d2 + p[5] * s;
    a3 += (int64_t)p[6] * d3 + p[7] * s;
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

/* The same for a grouped W (int16 inputs only) and N inputs at once: per
   group of LLM_GROUP columns a row's dot product with the codes, times the
   group's scale, plus the group's offset times the sum XSUM of the group's
   inputs; summed in int64 (Q24 scales times 24-bit dots), scaled once per
   row. A tile's codes are read for each input in turn, GROUP_CHUNK groups
   at a time, the later inputs from the cache: external memory is read once
   per batch. Input b is at xq + b * X_STRIDE (xsum + b * SUM_STRIDE), its
   output at out + b * OUT_STRIDE. */
static void matmul_grouped(int32_t *out, size_t out_stride, const llm_qmat_t *w, const int16_t *xq,
                           size_t x_stride, const int32_t *xsum, size_t sum_stride, const int32_t *xs, int n,
                           int out_shift) {
  if (llm_kernels && llm_kernels->matmul_grouped &&
      !llm_kernels->matmul_grouped(out, out_stride, w, xq, x_stride, xsum, sum_stride, xs, n, out_shift))
    return;
  const int groups = w->cols / LLM_GROUP;
  const int8_t *wp = w->q;
  const int32_t *sp = w->scale;
  int64_t acc[LLM_MAX_BATCH][4];
  for (int g = 0; g < w->rows; g += 4, wp += (size_t)groups * 4 * LLM_GROUP, sp += (size_t)groups * 8) {
    for (int b = 0; b < n; b++) acc[b][0] = acc[b][1] = acc[b][2] = acc[b][3] = 0;
    for (int j0 = 0; j0 < groups; j0 += GROUP_CHUNK) {
      const int chunk = groups - j0 < GROUP_CHUNK ? groups - j0 : GROUP_CHUNK;
      for (int b = 0; b < n; b++)
        tile_groups(acc[b], wp + (size_t)j0 * 4 * LLM_GROUP, sp + (size_t)j0 * 8,
                    xq + (size_t)b * x_stride + (size_t)j0 * LLM_GROUP, xsum + (size_t)b * sum_stride + (size_t)j0,
                    chunk);
    }
    /* acc is Q24 in the inputs' units; times xs (Q30) to Q(16 - out_shift). */
    for (int b = 0; b < n; b++)
      for (int k = 0; k < 4 && g + k < w->rows; k++)
        out[(size_t)b * out_stride + (size_t)(g + k)] = llm_mul_round_shift(acc[b][k], xs[b], 38 + out_shift);
  }
}

/* The matrix inputs of the batch: vector b of X (STRIDE apart, N long),
   quantised by bit WHICH of input16 to int8 or int16 (and, for grouped
   weights, summed per group), its scale in XS[b]. */
static void prepare_inputs(llm_state_t *s, unsigned which, const int32_t *x, size_t stride, int n, int count,
                           int32_t *xs) {
  const llm_model_t *m = s->model;
  const size_t q8 = align4((size_t)m->dim), q16 = align4((size_t)(m->dim > m->hidden_dim ? m->dim : m->hidden_dim));
  for (int b = 0; b < count; b++) {
    const int32_t *v = x + (size_t)b * stride;
    if (!(m->input16 & which)) {
      xs[b] = quantize_input8(s->xq8 + (size_t)b * q8, v, n);
      continue;
    }
    int16_t *q = s->xq16 + (size_t)b * q16;
    xs[b] = quantize_input16(q, v, n);
    if (m->embed.group)
      for (int j = 0; j < n / LLM_GROUP; j++) {
        int32_t sum = 0;
        for (int i = 0; i < LLM_GROUP; i++) sum += q[j * LLM_GROUP + i];
        s->xsum[(size_t)b * (q16 / LLM_GROUP) + (size_t)j] = sum;
      }
  }
}

/* OUT (vector b at out + b * STRIDE) = W x_b for the inputs prepare_inputs
   made (bit WHICH), Q(16 - OUT_SHIFT). */
static void matmul_inputs(llm_state_t *s, int32_t *out, size_t stride, const llm_qmat_t *w, unsigned which,
                          const int32_t *xs, int count, int out_shift) {
  const llm_model_t *m = s->model;
  const size_t q8 = align4((size_t)m->dim), q16 = align4((size_t)(m->dim > m->hidden_dim ? m->dim : m->hidden_dim));
  if (w->group) {
    matmul_grouped(out, stride, w, s->xq16, q16, s->xsum, q16 / LLM_GROUP, xs, count, out_shift);
    return;
  }
  for (int b = 0; b < count; b++) {
    int32_t *o = out + (size_t)b * stride;
    if (m->input16 & which) matmul16(o, w, s->xq16 + (size_t)b * q16, xs[b]);
    else matmul8(o, w, s->xq8 + (size_t)b * q8, xs[b]);
    for (int i = 0; out_shift && i < w->rows; i++) o[i] >>= out_shift; /* Q16 -> Q(16 - out_shift) */
  }
}

/* Head by head (N a multiple of HEAD_SIZE): a pair's angle without a
   remainder, a 35-cycle division on the core. */
static void rope(int32_t *v, int n, int head_size, const int16_t *cos_row, const int16_t *sin_row) {
  for (int32_t *head = v; head < v + n; head += head_size)
    for (int j = 0; j < head_size / 2; j++) {
      int32_t a = head[2 * j], b = head[2 * j + 1];
      head[2 * j] = (int32_t)(((int64_t)a * cos_row[j] - (int64_t)b * sin_row[j]) >> LLM_Q_ROPE);
      head[2 * j + 1] = (int32_t)(((int64_t)a * sin_row[j] + (int64_t)b * cos_row[j]) >> LLM_Q_ROPE);
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

/* Attention of the batch's token B (position POS): its key and value
   appended to the cache, its query heads over the cached positions. */
static void attend(llm_state_t *s, int l, int b, int pos, int32_t inv_sqrt_hs) {
  const llm_model_t *m = s->model;
  const int hs = m->head_size, kv_mul = m->n_heads / m->n_kv_heads;
  const int32_t *q = s->q + (size_t)b * (size_t)m->dim, *k = s->k + (size_t)b * (size_t)m->kv_dim;
  const int32_t *v = s->v + (size_t)b * (size_t)m->kv_dim;
  int32_t *out = s->xb + (size_t)b * (size_t)m->dim;
  /* Append this position's key (12-bit) and value (int8) per kv head. */
  for (int h = 0; h < m->n_kv_heads; h++) {
    int16_t kq[LLM_MAX_HEAD_SIZE];
    int8_t vq[LLM_MAX_HEAD_SIZE];
    int32_t ks = quantize(kq, 2, k + h * hs, hs, KV_KEY_MAX, 8);
    int32_t vs = quantize8(vq, v + h * hs, hs, 8);
    kv_store(&s->kv, l, h, pos, kq, ks, vq, vs);
  }
  /* The query heads that share a kv head (h, h+1.. use kv head h /
     kv_mul) attend together, up to ATTN_MAX_GROUP at a time: one sweep
     over the cached keys and values serves them all. */
  for (int kvh = 0; kvh < m->n_kv_heads; kvh++) {
    for (int h = kvh * kv_mul; h < (kvh + 1) * kv_mul;) {
      const int left = (kvh + 1) * kv_mul - h, group = left < ATTN_MAX_GROUP ? left : ATTN_MAX_GROUP;
      _Alignas(4) int8_t qq[ATTN_MAX_GROUP][LLM_MAX_HEAD_SIZE]; /* read a word at a time */
      int32_t head_factor[ATTN_MAX_GROUP], *outs[ATTN_MAX_GROUP];
      const int8_t *queries[ATTN_MAX_GROUP];
      for (int j = 0; j < group; j++) {
        int32_t qs = quantize8(qq[j], q + (h + j) * hs, hs, 8);
        /* score = dot * ks * qs / sqrt(hs); the per-head part once, Q24. */
        head_factor[j] = (int32_t)(((int64_t)qs * inv_sqrt_hs) >> 16);
        queries[j] = qq[j];
        outs[j] = out + (h + j) * hs;
      }
      kv_attend(&s->kv, l, kvh, pos, group, queries, head_factor, outs);
      h += group;
    }
  }
  kv_end_step(&s->kv, l, pos);
}

const int32_t *llm_forward_batch(llm_state_t *s, const int *tokens, int n, int pos, int all_logits) {
  const llm_model_t *m = s->model;
  const int dim = m->dim, kv_dim = m->kv_dim, hs = m->head_size, hidden = m->hidden_dim, rs = m->residual_shift;
  const size_t d = (size_t)dim, kd = (size_t)kv_dim, hd = (size_t)hidden;
  int32_t xs[LLM_MAX_BATCH];
  uint64_t mark = s->clock ? s->clock() : 0;

  for (int b = 0; b < n; b++) embed(m, s->x + b * d, tokens[b]);

  const int32_t inv_sqrt_hs = m->inv_sqrt_head_size;

  for (int l = 0; l < m->n_layers; l++) {
    const llm_layer_t *L = &m->layers[l];

    for (int b = 0; b < n; b++) rmsnorm(s->xb + b * d, s->x + b * d, L->rms_att, dim, m->norm_eps, rs);
    prepare_inputs(s, LLM_IN16_QKV, s->xb, d, dim, n, xs);
    phase(s, LLM_PHASE_OTHER, &mark);
    matmul_inputs(s, s->q, d, &L->wq, LLM_IN16_QKV, xs, n, 0);
    matmul_inputs(s, s->k, kd, &L->wk, LLM_IN16_QKV, xs, n, 0);
    matmul_inputs(s, s->v, kd, &L->wv, LLM_IN16_QKV, xs, n, 0);
    phase(s, LLM_PHASE_MATMUL, &mark);
    for (int b = 0; b < n; b++) {
      const int16_t *cos_row = m->rope_cos + (size_t)(pos + b) * (size_t)(hs / 2);
      const int16_t *sin_row = m->rope_sin + (size_t)(pos + b) * (size_t)(hs / 2);
      rope(s->q + b * d, dim, hs, cos_row, sin_row);
      rope(s->k + b * kd, kv_dim, hs, cos_row, sin_row);
    }
    /* Position by position, as one token at a time would: each (layer, kv
       head)'s cache sees the same stores and queries in the same order. */
    for (int b = 0; b < n; b++) attend(s, l, b, pos + b, inv_sqrt_hs);
    phase(s, LLM_PHASE_ATTENTION, &mark);

    prepare_inputs(s, LLM_IN16_WO, s->xb, d, dim, n, xs);
    phase(s, LLM_PHASE_OTHER, &mark);
    matmul_inputs(s, s->xb2, d, &L->wo, LLM_IN16_WO, xs, n, rs);
    phase(s, LLM_PHASE_MATMUL, &mark);
    for (size_t i = 0; i < (size_t)n * d; i++) s->x[i] += s->xb2[i];

    /* Feed-forward: w2(silu(w1 x) * w3 x). */
    for (int b = 0; b < n; b++) rmsnorm(s->xb + b * d, s->x + b * d, L->rms_ffn, dim, m->norm_eps, rs);
    prepare_inputs(s, LLM_IN16_W13, s->xb, d, dim, n, xs);
    phase(s, LLM_PHASE_OTHER, &mark);
    matmul_inputs(s, s->hb, hd, &L->w1, LLM_IN16_W13, xs, n, 0);
    matmul_inputs(s, s->hb2, hd, &L->w3, LLM_IN16_W13, xs, n, 0);
    phase(s, LLM_PHASE_MATMUL, &mark);
    fx_silu_gate(s->hb, s->hb2, (size_t)n * hd);
    prepare_inputs(s, LLM_IN16_W2, s->hb, hd, hidden, n, xs);
    phase(s, LLM_PHASE_OTHER, &mark);
    matmul_inputs(s, s->xb, d, &L->w2, LLM_IN16_W2, xs, n, rs);
    phase(s, LLM_PHASE_MATMUL, &mark);
    for (size_t i = 0; i < (size_t)n * d; i++) s->x[i] += s->xb[i];
  }

  /* The classifier for every position, or only the last. */
  const int first = all_logits ? 0 : n - 1, count = n - first;
  for (int b = 0; b < count; b++) rmsnorm(s->xb + b * d, s->x + (first + b) * d, m->rms_final, dim, m->norm_eps, rs);
  prepare_inputs(s, LLM_IN16_CLASSIFIER, s->xb, d, dim, count, xs);
  phase(s, LLM_PHASE_OTHER, &mark);
  matmul_inputs(s, s->logits, (size_t)m->vocab_size, &m->classifier, LLM_IN16_CLASSIFIER, xs, count, 0);
  phase(s, LLM_PHASE_MATMUL, &mark);
  return s->logits + (size_t)(count - 1) * (size_t)m->vocab_size;
}

const int32_t *llm_forward(llm_state_t *s, int token, int pos) { return llm_forward_batch(s, &token, 1, pos, 1); }
