#include "attention.h"

#include "ucx_dot.h"

const attn_kernels_t *attn_kernels;

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
  if (attn_kernels && attn_kernels->attn_dots && !attn_kernels->attn_dots(dots, q, keys, stride, count, hs)) return;
  for (int t0 = 0, end; t0 < count; t0 = end) {
    end = attn_block_end(t0, count, hs);
    for (int c = 0; c < hs; c += 8) {
      const uint32_t q03 = ucx_word(q + c), q47 = ucx_word(q + c + 4);
      const int16_t *k = keys + (size_t)t0 * stride + c;
      for (int t = t0; t < end; t++, k += stride) {
        int32_t d = c ? dots[t] : 0;
        d = ucx_dothi(ucx_dotlo(d, q03, ucx_word(k)), q03, ucx_word(k + 2));
        dots[t] = ucx_dothi(ucx_dotlo(d, q47, ucx_word(k + 4)), q47, ucx_word(k + 6));
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
   (4-byte aligned), rows[0], rows[1], ...: eight sums stay in registers
   while a block of rows streams past (out holds them between blocks), a
   row's word of values through four packed dot products when its weight
   fits int16 (probabilities times value scales do, unless values reach
   +-64), else multiplied out. With WG, w[] holds exponentials and each
   row's weight is formed here (a pass over the weights less). Inlined with
   WG's NULL-ness constant. */
static inline __attribute__((always_inline)) void values_sum(int32_t *out, const int32_t *w, const attn_weigh_t *wg,
                                                             const int8_t *values, size_t stride,
                                                             const uint16_t *rows, int count, int hs, int shift) {
  const int32_t half = shift ? 1 << (shift - 1) : 0;
  const int32_t *scale = wg ? wg->scale : 0;
  const uint32_t inv_hi = wg ? wg->inv_hi : 0;
  const int scale_shift = wg ? wg->shift : 0;
  int t0 = 0;
  do {
    const int end = attn_block_end(t0, count, hs);
    for (int c = 0; c < hs; c += 8) {
      int32_t acc[8];
      for (int i = 0; i < 8; i++) acc[i] = t0 ? out[c + i] : 0;
      const int8_t *values_c = values + c;
      __asm__("" : "+r"(values_c)); /* one add a row: GCC would add C and VALUES to each row's offset */
#pragma GCC unroll 1
      for (int t = t0; t < end; t++) {
        const unsigned r = rows[t];
        const int32_t wt = wg ? attn_weight((uint32_t)w[t], scale[r], inv_hi, scale_shift) : w[t];
        const int8_t *v = values_c + r * stride;
        /* Formed weights are >= 0: below 2^15 one compare, and the weight is
           its own {w, 0}. */
        if (wg ? (uint32_t)wt >= 0x8000 : (uint32_t)(wt + 0x8000) >= 0x10000) {
          values_add(acc, wt, v);
          continue;
        }
        /* The weight as {w, 0} and {0, w}: dotlo adds component 0 or 1 of
           a word times w, dothi component 2 or 3. */
        const uint32_t w_hi = (uint32_t)wt << 16, w_lo = wg ? (uint32_t)wt : w_hi >> 16;
        for (int h = 0; h < 8; h += 4) {
          const uint32_t vw = ucx_word(v + h);
          acc[h] = ucx_dotlo(acc[h], vw, w_lo);
          acc[h + 1] = ucx_dotlo(acc[h + 1], vw, w_hi);
          acc[h + 2] = ucx_dothi(acc[h + 2], vw, w_lo);
          acc[h + 3] = ucx_dothi(acc[h + 3], vw, w_hi);
        }
      }
      if (end < count)
        for (int i = 0; i < 8; i++) out[c + i] = acc[i];
      else
        for (int i = 0; i < 8; i++) out[c + i] = (int32_t)((uint32_t)acc[i] + (uint32_t)half) >> shift;
    }
    t0 = end;
  } while (t0 < count);
}

/* G query heads that share these keys (grouped-query attention): each key
   word is loaded once for all of them, a block of keys at a time; the last
   sweep over a block scales each dot by its key's scale, (dot *
   KSCALE[t * KSTRIDE]) >> 16, and keeps the heads' maxima. Inlined with G
   (and HS 8) constant. With FAST (stories260K's specialisation) the
   scaling is one high-word product of the dot shifted up by DOT_SHIFT and
   the scale by 16 - DOT_SHIFT (exact: no bit is lost) for the scales below
   SCALE_LIMIT, the 64-bit product else; without FAST always the latter
   (the 128 KiB builds cannot hold a second copy of the loop). FAST needs
   HS 8: one sweep. The build's
   loop unrolling is off here: it doubles the code and saves nothing. */
static inline __attribute__((always_inline)) void scores_group_body(int32_t *const *scores, int32_t *max,
                                                                    const int8_t *const *q, const int g,
                                                                    const int16_t *keys, size_t stride,
                                                                    const int32_t *kscale, size_t kstride, int count,
                                                                    int hs, const int fast) {
  /* The maxima as scalars: an array of them lived on the stack, a load and
     a store a key and head. */
  _Static_assert(ATTN_MAX_GROUP == 3, "one top a head of the group");
  int32_t top0 = INT32_MIN, top1 = INT32_MIN, top2 = INT32_MIN;
  int dot_shift = 0; /* |dot| <= hs * 2^22 (int8 query, int16 key) */
  while (dot_shift < 16 && ((uint64_t)hs << (22 + dot_shift + 1)) < ((uint64_t)1 << 31)) dot_shift++;
  const uint32_t scale_limit = 1u << (15 + dot_shift);
  for (int t0 = 0, end; t0 < count; t0 = end) {
    end = attn_block_end(t0, count, hs);
#pragma GCC unroll 1
    for (int c = 0; c < hs; c += 8) {
      const int last = c + 8 == hs;
      uint32_t q03[ATTN_MAX_GROUP], q47[ATTN_MAX_GROUP];
      for (int j = 0; j < g; j++) {
        q03[j] = ucx_word(q[j] + c);
        q47[j] = ucx_word(q[j] + c + 4);
      }
      const int16_t *k = keys + (size_t)t0 * stride + c;
#pragma GCC unroll 1
      for (int t = t0; t < end; t++, k += stride) {
        const uint32_t k01 = ucx_word(k), k23 = ucx_word(k + 2), k45 = ucx_word(k + 4), k67 = ucx_word(k + 6);
        const int32_t ks = last ? kscale[(size_t)t * kstride] : 0;
        const int narrow = fast && (uint32_t)ks < scale_limit;
        const int32_t ks_shifted = (int32_t)((uint32_t)ks << (16 - dot_shift));
        int32_t d[ATTN_MAX_GROUP];
        /* The heads' chains interleaved: a dot's result is not the next
           instruction's operand (the core waits a cycle for it). With FAST
           the one sweep's sums start from zero (ucx.dotloz). */
        if (fast) {
          for (int j = 0; j < g; j++) d[j] = ucx_dotloz(q03[j], k01);
        } else {
          for (int j = 0; j < g; j++) d[j] = c ? scores[j][t] : 0; /* all read before any is written */
          for (int j = 0; j < g; j++) d[j] = ucx_dotlo(d[j], q03[j], k01);
        }
        for (int j = 0; j < g; j++) d[j] = ucx_dothi(d[j], q03[j], k23);
        for (int j = 0; j < g; j++) d[j] = ucx_dotlo(d[j], q47[j], k45);
        for (int j = 0; j < g; j++) d[j] = ucx_dothi(d[j], q47[j], k67);
        for (int j = 0; last && j < g; j++)
          d[j] = __builtin_expect(narrow, 1) ? fx_mulh((int32_t)((uint32_t)d[j] << dot_shift), ks_shifted)
                                             : (int32_t)(((int64_t)d[j] * ks) >> 16);
        if (last) {
          top0 = d[0] > top0 ? d[0] : top0;
          if (g > 1) top1 = d[1] > top1 ? d[1] : top1;
          if (g > 2) top2 = d[2] > top2 ? d[2] : top2;
        }
        for (int j = 0; j < g; j++) scores[j][t] = d[j];
      }
    }
  }
  max[0] = top0;
  if (g > 1) max[1] = top1;
  if (g > 2) max[2] = top2;
}

void attn_scores_group(int32_t *const *scores, int32_t *max, const int8_t *const *q, int g, const int16_t *keys,
                       size_t stride, const int32_t *kscale, size_t kstride, int count, int hs) {
  if (attn_kernels && attn_kernels->attn_scores_group &&
      !attn_kernels->attn_scores_group(scores, max, q, g, keys, stride, kscale, kstride, count, hs))
    return;
  if (g == 2 && hs == 8) { /* stories260K: one pass without the tests */
    scores_group_body(scores, max, q, 2, keys, stride, kscale, kstride, count, 8, 1);
    return;
  }
  /* Fewer heads than the group run as the group with head 0 repeated (the
     same results written again; each sweep reads all heads' sums before it
     writes any): one copy of the loop. */
  int32_t *group_scores[ATTN_MAX_GROUP], group_max[ATTN_MAX_GROUP];
  const int8_t *group_q[ATTN_MAX_GROUP];
  for (int j = 0; j < ATTN_MAX_GROUP; j++) {
    group_scores[j] = scores[j < g ? j : 0];
    group_q[j] = q[j < g ? j : 0];
  }
  scores_group_body(group_scores, group_max, group_q, ATTN_MAX_GROUP, keys, stride, kscale, kstride, count, hs, 0);
  for (int j = 0; j < g; j++) max[j] = group_max[j];
}

/* G heads' value sums over the pairs of rows 0..COUNT-1 (an odd count's last
   row left out) into OUT, four components a sweep (a block of rows stays in
   the cache between sweeps): each pair of value words is loaded and
   interleaved once for all the heads, whose int16 weights of the two rows
   are one word. Inlined with G constant; the loops
   are not unrolled (as in scores_group_body). */
static inline __attribute__((always_inline)) void values_group_body(int32_t *const *out, const int16_t *const *w,
                                                                    const int g, const int8_t *values,
                                                                    size_t stride, int count, int hs) {
  for (int t0 = 0, end; t0 < count; t0 = end) {
    end = attn_block_end(t0, count, hs); /* even but at the end: the weights' words stay aligned */
#pragma GCC unroll 1
    for (int c = 0; c < hs; c += 4) {
      int32_t acc[ATTN_MAX_GROUP][4];
      for (int j = 0; j < g; j++)
        for (int i = 0; i < 4; i++) acc[j][i] = t0 ? out[j][c + i] : 0;
      const int8_t *v = values + (size_t)t0 * stride + c;
#pragma GCC unroll 1
      for (int t = t0; t + 1 < end; t += 2, v += 2 * stride) {
        const uint32_t vw = ucx_word(v), uw = ucx_word(v + stride);
        const uint32_t lo = llm_pair_lo(vw, uw), hi = llm_pair_hi(vw, uw);
        for (int j = 0; j < g; j++) {
          const uint32_t wp = ucx_word(w[j] + t);
          acc[j][0] = ucx_dotlo(acc[j][0], lo, wp);
          acc[j][2] = ucx_dothi(acc[j][2], lo, wp);
          acc[j][1] = ucx_dotlo(acc[j][1], hi, wp);
          acc[j][3] = ucx_dothi(acc[j][3], hi, wp);
        }
      }
      for (int j = 0; j < g; j++)
        for (int i = 0; i < 4; i++) out[j][c + i] = acc[j][i];
    }
  }
}

void attn_values_group(int32_t *const *out, const int16_t *const *w, const int *shift, int g, const int8_t *values,
                       size_t stride, int count, int hs) {
  if (attn_kernels && attn_kernels->attn_values_group &&
      !attn_kernels->attn_values_group(out, w, shift, g, values, stride, count, hs))
    return;
  int32_t *group_out[ATTN_MAX_GROUP];
  const int16_t *group_w[ATTN_MAX_GROUP];
  for (int j = 0; j < ATTN_MAX_GROUP; j++) { /* as attn_scores_group: head 0 repeated (a block's sums are
                                                 all read before any is written) */
    group_out[j] = out[j < g ? j : 0];
    group_w[j] = w[j < g ? j : 0];
  }
  values_group_body(group_out, group_w, ATTN_MAX_GROUP, values, stride, count, hs);
  const int8_t *last = count & 1 ? values + (size_t)(count - 1) * stride : 0; /* left out above */
  for (int j = 0; j < g; j++) {
    const uint32_t half = shift[j] ? 1u << (shift[j] - 1) : 0;
    for (int i = 0; i < hs; i++) {
      uint32_t sum = count ? (uint32_t)out[j][i] : 0;
      if (last) sum += (uint32_t)(w[j][count - 1] * last[i]);
      out[j][i] = (int32_t)(sum + half) >> shift[j];
    }
  }
}

void attn_values_rows(int32_t *out, const int32_t *w, const int8_t *values, size_t stride,
                      const uint16_t *rows, int count, int hs, int shift) {
  if (attn_kernels && attn_kernels->attn_values_rows &&
      !attn_kernels->attn_values_rows(out, w, values, stride, rows, count, hs, shift))
    return;
  values_sum(out, w, 0, values, stride, rows, count, hs, shift);
}

void attn_weigh(int32_t *e, const uint16_t *rows, int count, const attn_weigh_t *wg) {
  for (int j = 0; j < count; j++) e[j] = attn_weight((uint32_t)e[j], wg->scale[rows[j]], wg->inv_hi, wg->shift);
}

void attn_values_weighed(int32_t *out, int32_t *e, const attn_weigh_t *wg, const int8_t *values, size_t stride,
                         const uint16_t *rows, int count, int hs) {
  if (attn_kernels && attn_kernels->attn_values_rows) { /* the host's kernel takes weights */
    attn_weigh(e, rows, count, wg);
    attn_values_rows(out, e, values, stride, rows, count, hs, wg->shift);
    return;
  }
  values_sum(out, e, wg, values, stride, rows, count, hs, wg->shift);
}

void attn_dots_rows(int32_t *dots, const int8_t *q, const int16_t *keys, size_t stride, const uint16_t *rows,
                    int count, int hs) {
  for (int j = 0; j < count; j++) attn_dots(dots + j, q, keys + rows[j] * stride, stride, 1, hs);
}
