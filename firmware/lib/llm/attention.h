/* Attention kernels shared by the transformer, the KV-cache backends and the
   block benchmark: int8 queries, int16 keys (12-bit in the cache), int8
   values, rows STRIDE elements apart, head size HS a multiple of 8. The dot
   kernels read queries, keys and values a word at a time (llm_dot.h):
   queries and value rows 4-byte aligned, key rows at even elements of a
   4-byte aligned array. */
#ifndef LLM_ATTENTION_H
#define LLM_ATTENTION_H

#include <stddef.h>
#include <stdint.h>

/* dots[t] = q . k_t for COUNT keys. */
void attn_dots(int32_t *dots, const int8_t *q, const int16_t *keys, size_t stride, int count, int hs);
/* The same for two query heads sharing the keys (grouped-query attention). */
void attn_dots2(int32_t *dots_a, int32_t *dots_b, const int8_t *qa, const int8_t *qb, const int16_t *keys,
                size_t stride, int count, int hs);
/* attn_dots2's dots times each key's scale, (dot * kscale[t * kstride]) >> 16,
   and the two heads' largest in max[0], max[1]. */
void attn_scores2(int32_t *scores_a, int32_t *scores_b, int32_t *max, const int8_t *qa, const int8_t *qb,
                  const int16_t *keys, size_t stride, const int32_t *kscale, size_t kstride, int count, int hs);
/* out[i] = sum_t w[t] * v_t[i] >> SHIFT (rounded) for COUNT value rows. */
void attn_values(int32_t *out, const int32_t *w, const int8_t *values, size_t stride, int count, int hs, int shift);
/* dots[j] = q . k_rows[j]: the keys of selected positions. */
void attn_dots_rows(int32_t *dots, const int8_t *q, const int16_t *keys, size_t stride, const uint16_t *rows,
                    int count, int hs);
/* out[i] = sum_j w[j] * v_rows[j][i] >> SHIFT (rounded): the value rows of selected positions. */
void attn_values_rows(int32_t *out, const int32_t *w, const int8_t *values, size_t stride,
                      const uint16_t *rows, int count, int hs, int shift);

#endif
