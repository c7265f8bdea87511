/* Attention kernels shared by the transformer, the KV-cache backends and the
   block benchmark: int8 queries, int16 keys (12-bit in the cache), int8
   values, rows STRIDE elements apart, head size HS a multiple of 8. The dot
   kernels read queries, keys and values a word at a time (ucx_dot.h):
   queries and value rows 4-byte aligned, key rows at even elements of a
   4-byte aligned array. */
#ifndef ATTENTION_H
#define ATTENTION_H

#include <stddef.h>
#include <stdint.h>

#include "fixmath.h"

/* dots[t] = q . k_t for COUNT keys. */
void attn_dots(int32_t *dots, const int8_t *q, const int16_t *keys, size_t stride, int count, int hs);
/* Query heads that share a kv head (grouped-query attention) scored in one
   sweep over the keys: scores[j][t] = (q[j] . k_t) * kscale[t * kstride] >> 16
   for G of them (1 to ATTN_MAX_GROUP), max[j] their largest. */
#define ATTN_MAX_GROUP 3
void attn_scores_group(int32_t *const *scores, int32_t *max, const int8_t *const *q, int g, const int16_t *keys,
                       size_t stride, const int32_t *kscale, size_t kstride, int count, int hs);
/* dots[j] = q . k_rows[j]: the keys of selected positions. */
void attn_dots_rows(int32_t *dots, const int8_t *q, const int16_t *keys, size_t stride, const uint16_t *rows,
                    int count, int hs);
/* out[i] = sum_j w[j] * v_rows[j][i] >> SHIFT (rounded): the value rows of selected positions. */
void attn_values_rows(int32_t *out, const int32_t *w, const int8_t *values, size_t stride,
                      const uint16_t *rows, int count, int hs, int shift);
/* Softmax's last step for a kept position: its exponential E (Q16, before
   normalising) times its row's value scale and the sum's reciprocal INV_HI
   (Q16 in the high half), (e * ((scale << SHIFT) * inv >> 16)) >> 24, the
   weight the value sums take, Q(16 + SHIFT) per int8 value unit. */
typedef struct {
  const int32_t *scale; /* per row, >= 0, below 2^(32 - SHIFT) */
  uint32_t inv_hi;
  int shift;
} attn_weigh_t;
static inline int32_t attn_weight(uint32_t e, int32_t scale, uint32_t inv_hi, int shift) {
  return (int32_t)fx_mulhu(e << 8, fx_mulhu((uint32_t)scale << shift, inv_hi));
}
/* e[j] = attn_weight of e[j] and row rows[j]'s scale, for COUNT of them. */
void attn_weigh(int32_t *e, const uint16_t *rows, int count, const attn_weigh_t *wg);
/* attn_values_rows with the weights from exponentials E (attn_weight), each
   computed where its row is summed; E may hold the weights afterwards (a
   host kernel takes them so). */
void attn_values_weighed(int32_t *out, int32_t *e, const attn_weigh_t *wg, const int8_t *values, size_t stride,
                         const uint16_t *rows, int count, int hs);
/* out[j][i] = sum_t w[j][t] * v_t[i] >> shift[j] (rounded) for G heads (1 to
   ATTN_MAX_GROUP) over value rows 0..COUNT-1, int16 weights (4-byte aligned
   arrays): one sweep over the values serves the heads that share them. */
void attn_values_group(int32_t *const *out, const int16_t *const *w, const int *shift, int g, const int8_t *values,
                       size_t stride, int count, int hs);

/* Replacements a build may install for the kernels above (the host's
   vectorized ones, tools/llm/host_kernels.c): the same integer arithmetic,
   bit for bit (tests compare both); each returns 0, or nonzero for a shape
   it does not take (the portable kernel runs then). */
typedef struct {
  int (*attn_dots)(int32_t *dots, const int8_t *q, const int16_t *keys, size_t stride, int count, int hs);
  int (*attn_scores_group)(int32_t *const *scores, int32_t *max, const int8_t *const *q, int g,
                           const int16_t *keys, size_t stride, const int32_t *kscale, size_t kstride, int count,
                           int hs);
  int (*attn_values_rows)(int32_t *out, const int32_t *w, const int8_t *values, size_t stride,
                          const uint16_t *rows, int count, int hs, int shift);
  int (*attn_values_group)(int32_t *const *out, const int16_t *const *w, const int *shift, int g,
                           const int8_t *values, size_t stride, int count, int hs);
} attn_kernels_t;

/* NULL (the portable kernels) unless a host tool installed others. */
extern const attn_kernels_t *attn_kernels;

#endif
