/* The key/value cache and attention over it, behind one interface with two
   backends: dense attention in software (the reference: every cached key
   scored against the query) and the UniCAIM array (keys in the block's
   cells, one bank per layer and KV head; CAM top-k, exact scores of the
   selected, softmax and values of the selected). Values stay in RAM either
   way. The block backend runs through the driver, so on the host it is the
   golden model and gives the same tokens as the SoC.

   A pruning policy (kv_policy.h; one file per policy, listed in
   kv_registry.c) decides which positions stay cached and which of them a
   step attends to. Each (layer, kv head) has a slot table (kv_slots.h): the
   position each slot holds (KV_FREE: none), a score, flags.

   Every policy handles the prompt the same way: the prompt is read whole
   (each prompt position is cached and attends to every earlier one); when
   the first generated position arrives, the policy compresses what the
   prompt left to its prompt budget; from then on each new position takes a
   free slot or evicts the policy's victim. */
#ifndef KV_KVCACHE_H
#define KV_KVCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "ucm.h"

#define KV_MAX_HEAD_SIZE 128

typedef enum { KV_DENSE, KV_UNICAIM } kv_backend_t;
/* The backends' names in consoles and host tools ("kv NAME", "--kv NAME"). */
#define KV_BACKEND_DENSE "dense"
#define KV_BACKEND_UNICAIM "unicaim"

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

typedef struct {
  kv_backend_t backend;
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
  /* UniCAIM backend. */
  ucm_t *ucm;
  unsigned top_k;     /* keys attended per step by policies without their own k (0: every cached key) */
  kv_exact_t exact;
  int slices;         /* cells per key component: the bank's DIM / head_size (kv_encode.c) */
  uint32_t binary_layers; /* layers whose banks hold signs only (set by the policy) */
  uint16_t *selected; /* scratch, seq_len */
  int32_t *sims;      /* scratch, seq_len: CAM similarities, pooled scores */
  uint16_t *addends;  /* scratch, seq_len: attention probabilities for ACC_ADD */
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

/* Bytes kv_init needs; kv_init lays the cache out in ARENA (4-byte aligned)
   with ATT as its scratch (seq_len per query head, two heads at least). */
size_t kv_bytes(int n_layers, int n_kv_heads, int head_size, int seq_len);
void kv_init(kv_cache_t *kv, int n_layers, int n_kv_heads, int head_size, int seq_len, int32_t *att,
             void *arena);

/* Cells per key component an array of geometry G gives this model (one
   bank per layer and KV head, 1 to KV_SLICES_MAX cells per component), or 0
   if it does not fit. A bank may hold fewer slots than the context: the
   policy must then fit its cache into them. */
int kv_block_slices(const ucm_geom_t *g, int n_layers, int n_kv_heads, int head_size);
/* Switch the cache to the block: checks its geometry (kv_block_slices),
   sets the steps, clears the banks, keeps the policy if it fits the banks
   (else falls back to keeping everything). Returns UCM_OK or a driver error. */
int kv_use_unicaim(kv_cache_t *kv, ucm_t *ucm, unsigned top_k, kv_exact_t exact);
/* Slots per bank a policy has on UCM's array (what kv_use_unicaim gives). */
int kv_unicaim_slots(const kv_cache_t *kv, const ucm_t *ucm);
/* The device settings kv_use_unicaim programs (a caller may change the
   non-idealities and ucm_configure them before a sequence). */
void kv_device_defaults(ucm_config_t *cfg);
/* Back to software attention; a policy that needs the block is replaced by
   keeping everything. */
void kv_use_dense(kv_cache_t *kv);

/* Sets the policy and empties the cache. Returns NULL, or a one-line reason
   (out of range for these slots, or needs the block backend) and leaves the
   cache as it was. */
const char *kv_set_policy(kv_cache_t *kv, const kv_policy_t *policy);

/* Starts a sequence whose first PROMPT_LEN positions are the prompt (the
   prefill, read whole; see above). */
void kv_begin(kv_cache_t *kv, int prompt_len);

/* Store position POS's quantised key (|key| <= KV_KEY_MAX) and value of
   (layer, kv head); position 0 starts a new sequence. When the slots are
   full the policy's victim makes room. */
void kv_store(kv_cache_t *kv, int layer, int kvh, int pos, const int16_t *key, int32_t key_scale,
              const int8_t *value, int32_t value_scale);

/* Attention of COUNT (1 to ATTN_MAX_GROUP) query heads sharing kv head KVH over the
   cached positions (up to pos): q[j] int8 with head_factor[j] = query scale / sqrt(head_size)
   (Q24); out[j] receives the weighted values (Q16), or with out[j] NULL
   (a prompt replayed into a policy, whose outputs nobody reads) only what
   the policy observes is computed: its scores, and the array's searches
   and reads, whose events the cost model counts. */
void kv_attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
               const int32_t *head_factor, int32_t *const *out);

/* The end of position POS's attention in LAYER (every query head has
   attended): a policy that evicts after the step (KV_POLICY_EVICT_AFTER_STEP)
   drops its victim from each of the layer's KV heads now. */
void kv_end_step(kv_cache_t *kv, int layer, int pos);

/* Invariants of the slot tables (and of the block's banks under the block
   backend): each (layer, kv head) holds exactly as many positions as the
   prompt rule and the policy's capacity give at POS, no position twice,
   none ahead of POS, the positions the policy must keep present, scores
   bounded by the attention they could have gathered from GROUP query heads
   per kv head, the banks agreeing with the tables. 0 when they hold (uses
   the attention scratch). */
int kv_check(kv_cache_t *kv, int pos, int group);

#endif
