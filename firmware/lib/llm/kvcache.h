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

/* Which positions stay cached once a (layer, kv head) holds BUDGET of them;
   the new position takes the victim's slot. */
typedef enum {
  KV_KEEP_ALL,   /* dense: no eviction (budget ignored) */
  KV_STREAMING,  /* StreamingLLM: SINKS first positions + the most recent */
  KV_H2O,        /* heavy hitters: lowest accumulated attention outside the recent WINDOW */
  KV_TOVA,       /* lowest attention at the latest step */
} kv_policy_kind_t;

typedef struct {
  kv_policy_kind_t kind;
  int budget; /* slots per (layer, kv head); <= 0 or >= seq_len: all */
  int sinks;  /* positions 0..sinks-1 are never evicted */
  int window; /* the WINDOW most recent positions are never evicted (H2O) */
} kv_policy_t;

typedef struct {
  kv_backend_t backend;
  int n_layers, n_kv_heads, head_size, seq_len;
  int8_t *keys, *values;            /* [layer][slot][kv_dim] (keys: dense only) */
  int32_t *key_scale, *value_scale; /* [layer][slot][kv_head], Q24 */
  int32_t *att;                     /* scratch, seq_len per query head */
  /* Slots: [layer][kv_head][slot]; per (layer, kv head) the first USED hold positions. */
  kv_policy_t policy;
  int capacity;                /* slots in use at most */
  uint16_t *slot_pos;          /* position held */
  int32_t *slot_score;         /* H2O: attention summed over steps; TOVA: at the last step (Q16) */
  int32_t *used;               /* [layer][kv_head] */
  int32_t *scored_pos;         /* [layer][kv_head]: the step slot_score last restarted at (TOVA) */
  uint32_t evictions;
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

/* Sets the eviction policy and empties the cache. Returns 0, or -1 for
   parameters that leave nothing to evict (sinks + window >= budget). */
int kv_set_policy(kv_cache_t *kv, const kv_policy_t *policy);

/* "dense", "streamingllm", "h2o", "tova". */
const char *kv_policy_name(kv_policy_kind_t kind);

/* The policy named NAME (kv_policy_name's) with BUDGET slots and EXTRA sinks
   (StreamingLLM) or window (H2O); EXTRA < 0 takes the defaults, 4 sinks and
   a window of half the budget. Returns -1 for an unknown name or an EXTRA
   the policy has no use for. */
int kv_policy_make(kv_policy_t *p, const char *name, int budget, int extra);

/* Invariants of the slot tables: each (layer, kv head) holds at most
   capacity slots, no position twice, none ahead of POS, the sinks and the
   recent window kept.
   0 when they hold (uses the attention scratch). */
int kv_check(kv_cache_t *kv, int pos);

/* Store position POS's quantised key and value of (layer, kv head); position
   0 starts a new sequence. When the slots are full the policy's victim makes
   room. */
void kv_store(kv_cache_t *kv, int layer, int kvh, int pos, const int8_t *key, int32_t key_scale,
              const int8_t *value, int32_t value_scale);

/* Attention of COUNT (1 or 2) query heads sharing kv head KVH over the
   cached positions (up to pos): q[j] int8 with head_factor[j] = query scale / sqrt(head_size)
   (Q24); out[j] receives the weighted values (Q16). */
void kv_attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
               const int32_t *head_factor, int32_t *const *out);

#endif
