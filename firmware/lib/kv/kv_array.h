/* The array backend (backend_array.c): the cache's keys in the UniCAIM
   block's banks, one per layer and KV head, through the unicaim driver
   (ucm.h), which is the block on the SoC and its golden model on the host.
   Switching to it, and the array's operations the policies that run on it
   (KV_POLICY_ARRAY) build their steps from. */
#ifndef KV_ARRAY_H
#define KV_ARRAY_H

#include "kvcache.h"
#include "ucm.h"

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

/* Q (of head factor HEAD_FACTOR, for (LAYER, KVH)'s bank) as the drive of
   the bank's columns (kv_encode.c), into the block. */
void kv_load_query(kv_cache_t *kv, int layer, int kvh, const int8_t *q, int32_t head_factor);
/* CAM search of the loaded query in pair H's bank (ucm_search): up to K
   slots into kv->selected, their similarities into SIMS (may be NULL). The
   count, or a driver error (< 0). */
int kv_array_search(kv_cache_t *kv, int h, unsigned k, unsigned flags, int32_t *sims);
/* Min-detect over pair H's accumulators: the slot, or a driver error. */
int kv_array_victim(kv_cache_t *kv, int h);
/* Digital accumulation: kv->addends[i] onto the accumulator of slot
   kv->selected[i], for N of them. */
int kv_array_accumulate(kv_cache_t *kv, int h, int n);
/* How searches accumulate, and a new key's accumulator. */
int kv_array_set_accumulation(kv_cache_t *kv, const ucm_accumulation_t *a, uint32_t acc_init);

#endif
