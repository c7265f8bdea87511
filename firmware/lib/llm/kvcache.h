/* The key/value cache and attention over it, behind one interface with two
   backends: dense attention in software (the reference: every cached key
   scored against the query) and the UniCAIM array (keys in the block's
   cells, one bank per layer and KV head; CAM top-k, exact scores of the
   selected, softmax and values of the selected). Values stay in RAM either
   way. The block backend runs through the driver, so on the host it is the
   golden model and gives the same tokens as the SoC. */
#ifndef LLM_KVCACHE_H
#define LLM_KVCACHE_H

#include <stdint.h>

#include "ucm.h"

typedef enum { KV_DENSE, KV_UNICAIM } kv_backend_t;

typedef struct {
  kv_backend_t backend;
  int n_layers, n_kv_heads, head_size, seq_len;
  int8_t *keys, *values;            /* [layer][pos][kv_dim] (keys: dense only) */
  int32_t *key_scale, *value_scale; /* [layer][pos][kv_head], Q24 */
  int32_t *att;                     /* scratch, seq_len per query head */
  /* UniCAIM backend. */
  ucm_t *ucm;
  unsigned top_k;     /* keys attended per step (0: every cached key) */
  int exact_ideal;    /* exact scores without the ADC */
  uint16_t *selected; /* scratch, seq_len */
  int error;          /* first driver error, 0 if none */
} kv_cache_t;

/* Key quantisation step of the banks and the query's CAM step: int8 keys and
   queries span +-127, so 3-bit levels change every 32 and query levels every 48. */
#define KV_UCM_KEY_STEP 32
#define KV_UCM_QUERY_STEP 48

/* Switch the cache to the block: checks its geometry (one bank per layer and
   KV head, a slot per position, head_size cells), sets the steps, clears the
   banks. Returns UCM_OK or a driver error. */
int kv_use_unicaim(kv_cache_t *kv, ucm_t *ucm, unsigned top_k, int exact_ideal);
void kv_use_dense(kv_cache_t *kv);

/* Store position POS's quantised key and value of (layer, kv head). */
void kv_store(kv_cache_t *kv, int layer, int kvh, int pos, const int8_t *key, int32_t key_scale,
              const int8_t *value, int32_t value_scale);

/* Attention of COUNT (1 or 2) query heads sharing kv head KVH over positions
   0..pos: q[j] int8 with head_factor[j] = query scale / sqrt(head_size)
   (Q24); out[j] receives the weighted values (Q16). */
void kv_attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
               const int32_t *head_factor, int32_t *const *out);

#endif
