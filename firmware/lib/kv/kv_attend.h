/* Attention pieces the policies build their steps from: a query into the
   block, exact scores of selected slots, the softmax with the value sums,
   and attention over every cached position (dense in software, or the
   block's top kv->top_k). */
#ifndef KV_ATTEND_H
#define KV_ATTEND_H

#include "kvcache.h"

/* Q as the drive of the bank's columns (kv_encode.c), into the block. */
void kv_load_query(kv_cache_t *kv, int layer, const int8_t *q);

/* Exact scores of the N slots in kv->selected into kv->att, in the cached
   keys' units: from the block (after ucm_search when SEARCHED, else for the
   list) or, with KV_EXACT_DIGITAL or the dense backend, from the keys in
   RAM. Returns 0 or a driver error. */
int kv_exact_scores(kv_cache_t *kv, int layer, int kvh, const int8_t *q, int n, int searched);

/* Softmax over the N scores in kv->att of the slots kv->selected and the
   weighted sum of their values into OUT (none with OUT NULL). The
   probabilities (Q16) are added to SCORE (per slot) and written to PROB
   (per i); either may be NULL. */
void kv_softmax_values(kv_cache_t *kv, int layer, int kvh, int n, int32_t head_factor, int32_t *score, int32_t *prob,
                       int32_t *out);

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
