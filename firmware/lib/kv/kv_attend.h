/* Attention pieces the policies and the backends build their steps from:
   exact scores of selected slots, the softmax with the value sums, and
   attention over every cached position (the backend's: dense in software,
   or the block's top kv->top_k). */
#ifndef KV_ATTEND_H
#define KV_ATTEND_H

#include "attention.h"
#include "kvcache.h"

/* Exact scores of the N slots in kv->selected into kv->att, in the cached
   keys' units: from the block (after its search when SEARCHED, else for
   the list, with kv_prepare_exact's query) or, with KV_EXACT_DIGITAL or the
   dense backend, from the keys in RAM (kv_dots_selected). Returns 0 or a
   driver error. */
void kv_prepare_exact(kv_cache_t *kv, int layer, const int8_t *q);
int kv_exact_scores(kv_cache_t *kv, int layer, int kvh, const int8_t *q, int n, int searched);
void kv_dots_selected(kv_cache_t *kv, int layer, int kvh, const int8_t *q, int n);

/* Softmax over the N scores in kv->att of the slots kv->selected and the
   weighted sum of their values into OUT (none with OUT NULL). The
   probabilities (Q16) are added to SCORE (per slot) and written to PROB
   (per i); either may be NULL. */
void kv_softmax_values(kv_cache_t *kv, int layer, int kvh, int n, int32_t head_factor, int32_t *score, int32_t *prob,
                       int32_t *out);

/* Softmax of N scaled scores a[] (largest MAX) of slots 0..n-1, as
   kv_softmax_values computes it (attn_scores_group's output): the
   exponentials of the M positions it keeps in a[0..M), their slots in KEPT
   and how to weigh them in *WG (attn_values_weighed, attn_weigh); returns M. */
int kv_softmax_scaled(const kv_cache_t *kv, int layer, int kvh, int32_t *a, int n, int32_t max, int32_t head_factor,
                      int32_t *score, uint16_t *kept, attn_weigh_t *wg);

/* Every cached position of (layer, kvh): dense attention in software, or
   the block's top kv->top_k (0: all) by CAM search with exact scores. The
   probabilities are added to SCORE (per slot) when it is not NULL. With
   out[j] NULL no values are summed, and in software nothing is done
   unless SCORE wants the probabilities. */
void kv_attend_cached(kv_cache_t *kv, int layer, int kvh, int count, const int8_t *const *q,
                      const int32_t *head_factor, int32_t *const *out, int32_t *score);

/* An error's output: zeros (nothing with OUT NULL). */
void kv_attend_zero(int32_t *out, int n);

#endif
