#include "attention.h"

#include "llm_dot.h"
#include "llm_kernels.h"

const llm_kernels_t *llm_kernels;

/* Rows a kernel takes through all of a head's components before the next
   rows: the kernels hold eight components of the query (or the sums) in
   registers and sweep the rows once per eight, so a block's keys (16 x 128
   bytes for SmolLM2) or values stay in the 8 KB data cache between sweeps
   and cross the external memory's port once; a sweep over all the rows
   would fetch every row's line again for each eight components. A head of
   eight components (stories260K) is one sweep: its rows go in one block,
   which saves the sums' reload between blocks. */
#define ATTN_BLOCK 16

static inline int attn_block_end(int t, int count, int hs) {
  return hs <= 8 || count - t < ATTN_BLOCK ? count : t + ATTN_BLOCK;
}

/* dots[t] = q . k_t for COUNT keys STRIDE elements apart (head size HS, a
   multiple of 8): eight query values (two words) stay in registers while
   a block of keys streams past, four key elements a packed dot-product pair. */
void attn_dots(int32_t *dots, const int8_t *q, const int16_t *keys, size_t stride, int count, int hs) {
  if (llm_kernels && llm_kernels->attn_dots && !llm_kernels->attn_dots(dots, q, keys, stride, count, hs)) return;
  for (int t0 = 0, end; t0 < count; t0 = end) {
    end = attn_block_end(t0, count, hs);
    for (int c = 0; c < hs; c += 8) {
      const uint32_t q03 = llm_word(q + c), q47 = llm_word(q + c + 4);
      const int16_t *k = keys + (size_t)t0 * stride + c;
      for (int t = t0; t < end; t++, k += stride) {
        int32_t d = c ? dots[t] : 0;
        d = llm_dothi(llm_dotlo(d, q03, llm_word(k)), q03, llm_word(k + 2));
        dots[t] = llm_dothi(llm_dotlo(d, q47, llm_word(k + 4)), q47, llm_word(k + 6));
      }
    }
  }
}

/* Two value rows' bytes interleaved for the packed dot products: LO gets
   components 0 and 2 of the four in A (row 0) and B (row 1) as
   {a0, b0, a2, b2}, HI components 1 and 3 as {a1, b1, a3, b3}; dotlo /
   dothi against both rows' weights (int16 halves) then add components 0 / 2
   (1 / 3) of both rows. */
#define LLM_EVEN_BYTES 0x00FF00FFu
static inline uint32_t llm_pair_lo(uint32_t a, uint32_t b) {
  return (a & LLM_EVEN_BYTES) | (b & LLM_EVEN_BYTES) << 8;
}
static inline uint32_t llm_pair_hi(uint32_t a, uint32_t b) {
  return (a >> 8 & LLM_EVEN_BYTES) | (b & ~LLM_EVEN_BYTES);
}

/* acc[i] += wt * v[i] for eight components: one row of the plain path. */
static inline __attribute__((always_inline)) void values_add(int32_t *acc, int32_t wt, const int8_t *v) {
  for (int i = 0; i < 8; i++) acc[i] += wt * v[i];
}

/* out[i] = sum_t w[t] * v_t[i] >> SHIFT (rounded) for COUNT int8 value rows STRIDE bytes apart
   (4-byte aligned), rows 0, 1, ... or, given ROWS, rows[0], rows[1], ...:
   eight sums stay in registers while a block of rows streams past (out
   holds them between blocks), two rows at a time through the packed dot
   products when both weights fit int16 (probabilities times value scales
   do, unless values reach +-64), else one at a time. Inlined into both
   callers with GATHER (ROWS given) constant. */
static inline __attribute__((always_inline)) void values_sum(int32_t *out, const int32_t *w, const int8_t *values,
                                                             size_t stride, const uint16_t *rows, int gather,
                                                             int count, int hs, int shift) {
  const int32_t half = shift ? 1 << (shift - 1) : 0;
  int t0 = 0;
  do {
    const int end = attn_block_end(t0, count, hs);
    for (int c = 0; c < hs; c += 8) {
      int32_t acc[8];
      for (int i = 0; i < 8; i++) acc[i] = t0 ? out[c + i] : 0;
      int t = t0;
      for (; t + 1 < end; t += 2) {
        const int32_t w0 = w[t], w1 = w[t + 1];
        const int8_t *v = values + (gather ? rows[t] : (size_t)t) * stride + c;
        const int8_t *u = values + (gather ? rows[t + 1] : (size_t)t + 1) * stride + c;
        if (((uint32_t)(w0 + 0x8000) | (uint32_t)(w1 + 0x8000)) >= 0x10000) {
          values_add(acc, w0, v);
          values_add(acc, w1, u);
          continue;
        }
        const uint32_t wp = ((uint32_t)w0 & 0xFFFF) | (uint32_t)w1 << 16;
        for (int h = 0; h < 8; h += 4) {
          const uint32_t vw = llm_word(v + h), uw = llm_word(u + h);
          const uint32_t lo = llm_pair_lo(vw, uw), hi = llm_pair_hi(vw, uw);
          acc[h] = llm_dotlo(acc[h], lo, wp);
          acc[h + 2] = llm_dothi(acc[h + 2], lo, wp);
          acc[h + 1] = llm_dotlo(acc[h + 1], hi, wp);
          acc[h + 3] = llm_dothi(acc[h + 3], hi, wp);
        }
      }
      if (t < end) values_add(acc, w[t], values + (gather ? rows[t] : (size_t)t) * stride + c);
      if (end < count)
        for (int i = 0; i < 8; i++) out[c + i] = acc[i];
      else
        for (int i = 0; i < 8; i++) out[c + i] = (int32_t)((uint32_t)acc[i] + (uint32_t)half) >> shift;
    }
    t0 = end;
  } while (t0 < count);
}

void attn_values(int32_t *out, const int32_t *w, const int8_t *values, size_t stride, int count, int hs, int shift) {
  values_sum(out, w, values, stride, 0, 0, count, hs, shift);
}

/* Two query heads that share these keys (grouped-query attention): each key
   word is loaded once for both, a block of keys at a time. With KSCALE, the
   last sweep over a block scales each dot by its key's scale,
   (dot * KSCALE[t * KSTRIDE]) >> 16, and the heads' maxima go to MAX.
   Inlined into both callers. */
static inline __attribute__((always_inline)) void dots2_body(int32_t *dots_a, int32_t *dots_b, int32_t *max,
                                                             const int8_t *qa, const int8_t *qb,
                                                             const int16_t *keys, size_t stride,
                                                             const int32_t *kscale, size_t kstride, int count,
                                                             int hs) {
  int32_t max_a = INT32_MIN, max_b = INT32_MIN;
  for (int t0 = 0, end; t0 < count; t0 = end) {
    end = attn_block_end(t0, count, hs);
    for (int c = 0; c < hs; c += 8) {
      const int scale = kscale && c + 8 == hs;
      const uint32_t a03 = llm_word(qa + c), a47 = llm_word(qa + c + 4);
      const uint32_t b03 = llm_word(qb + c), b47 = llm_word(qb + c + 4);
      const int16_t *k = keys + (size_t)t0 * stride + c;
      for (int t = t0; t < end; t++, k += stride) {
        const uint32_t k01 = llm_word(k), k23 = llm_word(k + 2), k45 = llm_word(k + 4), k67 = llm_word(k + 6);
        int32_t da = c ? dots_a[t] : 0, db = c ? dots_b[t] : 0;
        da = llm_dothi(llm_dotlo(da, a03, k01), a03, k23);
        db = llm_dothi(llm_dotlo(db, b03, k01), b03, k23);
        da = llm_dothi(llm_dotlo(da, a47, k45), a47, k67);
        db = llm_dothi(llm_dotlo(db, b47, k45), b47, k67);
        if (scale) {
          const int64_t ks = kscale[(size_t)t * kstride];
          da = (int32_t)((da * ks) >> 16);
          db = (int32_t)((db * ks) >> 16);
          if (da > max_a) max_a = da;
          if (db > max_b) max_b = db;
        }
        dots_a[t] = da;
        dots_b[t] = db;
      }
    }
  }
  if (kscale) {
    max[0] = max_a;
    max[1] = max_b;
  }
}

void attn_dots2(int32_t *dots_a, int32_t *dots_b, const int8_t *qa, const int8_t *qb, const int16_t *keys,
                size_t stride, int count, int hs) {
  dots2_body(dots_a, dots_b, 0, qa, qb, keys, stride, 0, 0, count, hs);
}

/* Head size 8 (stories260K) compiles to one pass without the tests. */
void attn_scores2(int32_t *scores_a, int32_t *scores_b, int32_t *max, const int8_t *qa, const int8_t *qb,
                  const int16_t *keys, size_t stride, const int32_t *kscale, size_t kstride, int count, int hs) {
  if (llm_kernels && llm_kernels->attn_scores2 &&
      !llm_kernels->attn_scores2(scores_a, scores_b, max, qa, qb, keys, stride, kscale, kstride, count, hs))
    return;
  if (hs == 8)
    dots2_body(scores_a, scores_b, max, qa, qb, keys, stride, kscale, kstride, count, 8);
  else
    dots2_body(scores_a, scores_b, max, qa, qb, keys, stride, kscale, kstride, count, hs);
}

void attn_values_rows(int32_t *out, const int32_t *w, const int8_t *values, size_t stride,
                      const uint16_t *rows, int count, int hs, int shift) {
  if (llm_kernels && llm_kernels->attn_values_rows &&
      !llm_kernels->attn_values_rows(out, w, values, stride, rows, count, hs, shift))
    return;
  values_sum(out, w, values, stride, rows, 1, count, hs, shift);
}

void attn_dots_rows(int32_t *dots, const int8_t *q, const int16_t *keys, size_t stride, const uint16_t *rows,
                    int count, int hs) {
  for (int j = 0; j < count; j++) attn_dots(dots + j, q, keys + rows[j] * stride, stride, 1, hs);
}
