/* The key/value cache and attention over it, behind one interface with two
   backends: dense attention in software (the reference: every cached key
   scored against the query) and the UniCAIM array (keys in the block's
   cells, one bank per layer and KV head; CAM top-k, exact scores of the
   selected, softmax and values of the selected). Values stay in RAM either
   way. The block backend runs through the driver, so on the host it is the
   golden model and gives the same tokens as the SoC.

   A pruning policy (kv_policy.c) decides which positions stay cached and
   which of them a step attends to. Each (layer, kv head) has a slot table:
   the position each slot holds (KV_FREE: none), a score, flags. */
#ifndef LLM_KVCACHE_H
#define LLM_KVCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "ucm.h"

typedef enum { KV_DENSE, KV_UNICAIM } kv_backend_t;

/* Where the block backend's exact scores of the selected come from. */
typedef enum {
  KV_EXACT_ADC,     /* the current-domain mode: cells, bit-serial query, ADCs */
  KV_EXACT_CELLS,   /* the block's ideal mode: cells, no ADC */
  KV_EXACT_DIGITAL, /* the keys in RAM (the paper's accuracy setting: only the selection is analog) */
} kv_exact_t;

typedef enum {
  KV_KEEP_ALL,  /* dense: no eviction (budget ignored) */
  KV_STREAMING, /* StreamingLLM: SINKS first positions + the most recent */
  KV_H2O,       /* heavy hitters: lowest accumulated attention outside the recent WINDOW */
  KV_TOVA,      /* lowest attention at the latest step */
  KV_SNAPKV,    /* the prompt pruned once by the attention of its last WINDOW queries; then a sliding window */
  KV_QUEST,     /* nothing evicted; each step attends to the BUDGET/PAGE pages with the highest key bound */
  KV_HYBRID,    /* UniCAIM ("unicaim"): prompt pruned by accumulated attention, CAM top-k, min-detect */
  KV_POLICIES
} kv_policy_kind_t;

typedef struct {
  kv_policy_kind_t kind;
  int budget;  /* slots per (layer, kv head) (Quest: positions attended); <= 0 or >= seq_len: all */
  int sinks;   /* StreamingLLM: positions 0..sinks-1 are never evicted */
  int window;  /* H2O: recent positions never evicted; SnapKV: the observation window */
  int page;    /* Quest: positions per page */
  int reserve; /* UniCAIM M: the most recent positions are protected while they gather attention */
  int top_k;   /* UniCAIM k: keys attended per decode step (0: all cached) */
  int adapt;   /* UniCAIM adaptive k: of the k, those within ADAPT similarity units of the best, at
                  least the best quarter (0: all k) */
  int protect; /* UniCAIM: an attention probability (Q16) that protects a token for good (0: off) */
  int spare;   /* UniCAIM: slots kept for the protected tokens (at most this many are protected) */
  int observe; /* UniCAIM: only the prompt's last OBSERVE queries feed the accumulators (0: all) */
  int question; /* UniCAIM: only the prompt's last QUESTION queries and the generated ones mark
                   critical tokens (0: every query) -- the question knows what matters; the bulk
                   of the prompt would spend the spare slots early */
  int span;    /* UniCAIM: a critical token protects the SPAN positions after it too (what an
                  induction head reads next: the rest of a needle) */
  uint32_t binary_layers; /* UniCAIM: layers whose banks saturate every cell (1-bit-like, sign only) */
} kv_policy_t;

#define KV_FREE 0xFFFFu /* slot_pos of an empty slot */
#define KV_PAGE_MIN 4   /* smallest Quest page (sizes the page bounds) */

typedef struct {
  kv_backend_t backend;
  int n_layers, n_kv_heads, head_size, seq_len;
  int16_t *keys;                    /* [layer][slot][kv_dim], 12-bit */
  int8_t *values;                   /* [layer][slot][kv_dim] */
  int32_t *key_scale, *value_scale; /* [layer][slot][kv_head], Q24 */
  int32_t *att;                     /* scratch, seq_len per query head */
  kv_policy_t policy;
  int capacity;        /* slots in use at most once the prompt is in */
  int prompt_len;      /* positions before the first generated one (kv_begin) */
  /* Slot tables, [layer][kv_head][slot]. */
  uint16_t *slot_pos;  /* position held, or KV_FREE */
  int32_t *slot_score; /* H2O, SnapKV: attention summed over steps; TOVA: at the last step (Q16) */
  uint8_t *slot_flags; /* KV_SLOT_* */
  int32_t *used;       /* [layer][kv_head]: slots holding a position */
  int32_t *scored_pos; /* [layer][kv_head]: the step slot_score last restarted at (TOVA) */
  int16_t *page_min, *page_max; /* Quest: [layer][kv_head][page][head_size] key bounds */
  uint32_t evictions;
  /* UniCAIM backend. */
  ucm_t *ucm;
  unsigned top_k;     /* keys attended per step under the other policies (0: every cached key) */
  kv_exact_t exact;
  int slices;         /* cells per key component: the bank's DIM / head_size (kv_encode.c) */
  uint16_t *selected; /* scratch, seq_len */
  int32_t *sims;      /* scratch, seq_len: CAM similarities */
  uint16_t *addends;  /* scratch, seq_len: attention probabilities for the accumulators */
  uint16_t *kept;     /* scratch, 2 x seq_len: the slots a step's softmax left a weight */
  int error;          /* first driver error, 0 if none */
} kv_cache_t;

enum {
  KV_SLOT_PINNED = 1,   /* SnapKV: chosen from the prompt, kept for good */
  KV_SLOT_CRITICAL = 2, /* UniCAIM: protected by the attention threshold */
};

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
   bank per layer and KV head, a slot per position, 1 to KV_SLICES_MAX cells
   per component), or 0 if it does not fit. */
int kv_block_slices(const ucm_geom_t *g, int n_layers, int n_kv_heads, int head_size, int seq_len);
/* Switch the cache to the block: checks its geometry (kv_block_slices),
   sets the steps, clears the banks. Returns UCM_OK or a driver error. */
int kv_use_unicaim(kv_cache_t *kv, ucm_t *ucm, unsigned top_k, kv_exact_t exact);
/* The device settings kv_use_unicaim programs (a caller may change the
   non-idealities and ucm_configure them before a sequence). */
void kv_device_defaults(ucm_config_t *cfg);
/* Back to software attention; a policy that needs the block becomes dense. */
void kv_use_dense(kv_cache_t *kv);

/* Sets the policy and empties the cache. Returns 0; -1 for parameters that
   leave nothing to evict; -2 for UniCAIM without the block backend. */
int kv_set_policy(kv_cache_t *kv, const kv_policy_t *policy);

/* "dense", "streamingllm", "h2o", "tova", "snapkv", "quest", "unicaim". */
const char *kv_policy_name(kv_policy_kind_t kind);

/* The policy named NAME with BUDGET slots and its defaults: 4 sinks, an H2O
   window of half the budget, a SnapKV window of an eighth (4..32), pages of
   16 (at most budget / 2), UniCAIM M of half the budget, k of half the
   budget, threshold protection at probability 0.5 of a token and the 6
   after it into spare slots of a tenth (the brief's 5-10%), marked by the
   prompt's last 16 queries and the generated ones. Returns -1 for
   an unknown name. */
int kv_policy_make(kv_policy_t *p, const char *name, int budget);
/* Sets one parameter from "KEY=VALUE" (sinks, window, page, m, k, adapt,
   protect (per mille), spare, observe, question, span, binary (layer bit mask)); -1 for a key the policy has
   no use for or a value out of range. */
int kv_policy_param(kv_policy_t *p, const char *assignment);
/* The policy from words: NAME [BUDGET (1..MAX_BUDGET) [KEY=VALUE...]]
   ("dense" alone). -1 for anything else. */
int kv_policy_parse(kv_policy_t *p, int argc, char *const *argv, int max_budget);
/* One line describing the policy (for consoles and logs). */
void kv_policy_describe(const kv_policy_t *p, char *out, size_t size);

/* Starts a sequence whose first PROMPT_LEN positions are the prompt (the
   prefill): SnapKV and UniCAIM keep every prompt position until the first
   generated one, then prune to their budget. */
void kv_begin(kv_cache_t *kv, int prompt_len);

/* Invariants of the slot tables (and of the block's banks under the block
   backend): each (layer, kv head) holds as many positions as the policy
   allows at POS, no position twice, none ahead of POS, the protected ones
   (sinks, recent windows) kept, scores bounded by the attention they could
   have gathered from GROUP query heads per kv head. 0 when they hold (uses
   the attention scratch). */
int kv_check(kv_cache_t *kv, int pos, int group);

/* Store position POS's quantised key (|key| <= KV_KEY_MAX) and value of
   (layer, kv head); position 0 starts a new sequence. When the slots are
   full the policy's victim makes room. */
void kv_store(kv_cache_t *kv, int layer, int kvh, int pos, const int16_t *key, int32_t key_scale,
              const int8_t *value, int32_t value_scale);

/* Attention of COUNT (1 or 2) query heads sharing kv head KVH over the
   cached positions (up to pos): q[j] int8 with head_factor[j] = query scale / sqrt(head_size)
   (Q24); out[j] receives the weighted values (Q16). */
void kv_attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
               const int32_t *head_factor, int32_t *const *out);

#endif
