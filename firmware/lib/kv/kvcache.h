/* The key/value cache and attention over it, coordinated here for the
   transformer: the cache's state is kv_types.h; where the keys live and how
   a step attends to every cached position is the backend's (kv_backend.h):
   dense attention in software (the reference: every cached key scored
   against the query) or the UniCAIM array (keys in the block's cells, one
   bank per layer and KV head; CAM top-k, exact scores of the selected,
   softmax and values of the selected; kv_array.h). Values stay in RAM
   either way. The array backend runs through the driver, so on the host it
   is the golden model and gives the same tokens as the SoC. Dependencies
   run one way: llm -> kv (this) -> backend -> unicaim driver -> hal.

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

#include "kv_types.h"

/* Bytes kv_init needs; kv_init lays the cache out in ARENA (4-byte aligned)
   with ATT as its scratch (seq_len per query head, two heads at least). */
size_t kv_bytes(int n_layers, int n_kv_heads, int head_size, int seq_len);
void kv_init(kv_cache_t *kv, int n_layers, int n_kv_heads, int head_size, int seq_len, int32_t *att,
             void *arena);

/* Back to software attention; a policy that needs the block is replaced by
   keeping everything. (kv_use_unicaim, kv_array.h, moves the keys onto
   the array.) */
void kv_use_dense(kv_cache_t *kv);
/* Whether the keys are on the array. */
int kv_on_array(const kv_cache_t *kv);

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
