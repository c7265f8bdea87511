/* The key/value cache's state (kvcache.h coordinates it): the cached keys,
   values and scales, the slot tables, the policy with its settings, the
   backend and the scratch attention uses. kv_slots.h says where things are
   in it. */
#ifndef KV_TYPES_H
#define KV_TYPES_H

#include <stddef.h>
#include <stdint.h>

#define KV_MAX_HEAD_SIZE 128

/* Where the block backend's exact scores of the selected come from. */
typedef enum {
  KV_EXACT_ADC,     /* the current-domain mode: cells, bit-serial query, ADCs */
  KV_EXACT_CELLS,   /* the block's ideal mode: cells, no ADC */
  KV_EXACT_DIGITAL, /* the keys in RAM (the paper's accuracy setting: only the selection is analog) */
} kv_exact_t;

/* A policy with its parameters (kv_policy.h). */
#define KV_PARAMS_MAX 20
typedef struct kv_policy_ops kv_policy_ops_t;
typedef struct {
  const kv_policy_ops_t *ops;
  int budget;                /* positions cached (ops' own reading); 0 for the keep-everything policy */
  int32_t v[KV_PARAMS_MAX];  /* parameters, indexed by the policy's own enum */
} kv_policy_t;

#define KV_FREE 0xFFFFu /* slot_pos of an empty slot */
#define KV_PAGE_MIN 8   /* smallest Quest-style page (sizes the page bounds) */

struct ucm;
typedef struct kv_backend_ops kv_backend_ops_t;

typedef struct {
  const kv_backend_ops_t *backend; /* kv_backend.h: dense in RAM, or the array */
  int n_layers, n_kv_heads, head_size, seq_len;
  int slots;                        /* usable slots per (layer, kv head): seq_len, or a smaller bank's */
  int16_t *keys;                    /* [layer][kv_head][slot][head_size], 12-bit (kv_slots.h) */
  int8_t *values;                   /* [layer][kv_head][slot][head_size] */
  int32_t *key_scale, *value_scale; /* [layer][kv_head][slot], Q24 */
  int32_t *value_scale_max;          /* [layer][kv_head]: the largest value scale stored this sequence */
  int32_t *att;                     /* scratch, seq_len per query head */
  kv_policy_t policy;
  int capacity;    /* positions held at most while generating */
  int prompt_keep; /* positions the prompt compression keeps */
  int prompt_len;  /* positions before the first generated one (kv_begin) */
  /* Slot tables, [layer][kv_head][slot] (kv_slots.h). */
  uint16_t *slot_pos;  /* position held, or KV_FREE */
  int32_t *slot_score; /* the policy's score (Q16 attention; see its file) */
  uint8_t *slot_flags; /* KV_SLOT_* */
  int32_t *used;       /* [layer][kv_head]: slots holding a position */
  int32_t *scored_pos; /* [layer][kv_head]: the step the score row last restarted at */
  int32_t *page_min, *page_max; /* paged policies: [layer][kv_head][page][head_size], Q16 key bounds */
  uint32_t evictions;
  /* The array backend (kv_array.h). */
  struct ucm *ucm;
  unsigned top_k;     /* keys attended per step by policies without their own k (0: every cached key) */
  kv_exact_t exact;
  int slices;         /* cells per key component: the bank's DIM / head_size (kv_encode.c) */
  uint32_t binary_layers; /* layers whose banks hold signs only (set by the policy) */
  /* Per-token normalisation (0), or (1, set by the policy) keys and queries
     at their bank's trimmed scale: bank_scale[2 h] the key scale and
     [2 h + 1] the query's head factor its full drive stands for (NULL: no
     trim). query_factor: the loaded query's head factor (0: unscaled). */
  int bank_scaled;
  const int32_t *bank_scale;
  int32_t query_factor;
  uint16_t *selected; /* scratch, seq_len */
  int32_t *sims;      /* scratch, seq_len: CAM similarities, pooled scores */
  uint16_t *addends;  /* scratch, seq_len: attention probabilities for ACC_ADD */
  uint16_t *pos_score; /* seq_len, cleared each sequence: a policy's score of a position over every bank */
  uint16_t *kept;     /* scratch, ATTN_MAX_GROUP x seq_len: per query head, the slots its softmax left a weight */
  int16_t *weights;   /* scratch, ATTN_MAX_GROUP x (seq_len + 1): per query head, every slot's weight (dense) */
  int error;          /* first driver error, 0 if none */
} kv_cache_t;

/* Keys are cached at 12 bits, values and queries at 8: stories260K's
   attention is sharp (8-wide heads), and int8 keys alone cost it two points
   of top-1 agreement with fp32 (llm_eval rounded) where 12-bit keys cost
   half a point. A key spans +-KV_KEY_MAX, so that the block's int8 key, the
   cached one shifted right by KV_KEY_INT8_SHIFT (rounded), spans +-127. */
#define KV_KEY_INT8_SHIFT 4
#define KV_KEY_MAX (127 << KV_KEY_INT8_SHIFT)

/* Key quantisation step of the banks and the query's CAM step: int8 keys and
   queries span +-127, so 3-bit levels change every 32 and query levels every 48. */
#define KV_UCM_KEY_STEP 32
#define KV_UCM_QUERY_STEP 48

/* Cells per key component the block backend uses at most, and the weight
   of each slice against the next (kv_encode.c). */
#define KV_SLICES_MAX 3
#define KV_SLICE_RADIX 4

#endif
