/* A KV backend: where the cached keys live and how a step attends to every
   cached position. Two of them: dense (keys in RAM, software attention;
   backend_dense.c) and the array (the keys also in the block's banks,
   through the unicaim driver; backend_array.c, the only kv file that calls
   the driver). The cache (kvcache.c), the slot changes (kv_slots.c) and
   the attention pieces (kv_attend.c) reach the keys through these
   operations; a NULL one has nothing to do in that backend. Those that
   return an int return 0 or a driver error, which the caller notes. */
#ifndef KV_BACKEND_H
#define KV_BACKEND_H

#include "kv_types.h"

/* The backends' names in consoles and host tools ("kv NAME", "--kv NAME"). */
#define KV_BACKEND_DENSE "dense"
#define KV_BACKEND_UNICAIM "unicaim"

struct kv_backend_ops {
  /* The policy's settings applied (every sequence's start): the banks'
     steps set and the banks emptied. */
  int (*program)(kv_cache_t *kv);
  /* Pair H starts a sequence. */
  int (*reset_head)(kv_cache_t *kv, int h);
  /* POS's 12-bit key stored in SLOT of pair H (of LAYER). */
  int (*write_key)(kv_cache_t *kv, int layer, int h, int slot, int pos, const int16_t *key);
  /* SLOT of pair H emptied, or its protect bit set or cleared. */
  int (*drop)(kv_cache_t *kv, int h, int slot);
  int (*protect)(kv_cache_t *kv, int h, int slot, int on);
  /* The prompt's compression of (layer, kvh) is done. */
  void (*compressed)(kv_cache_t *kv, int layer, int kvh);
  /* Before exact scores of a list (not of a search): the query they use. */
  void (*prepare_exact)(kv_cache_t *kv, int layer, const int8_t *q);
  /* kv_exact_scores and kv_attend_cached (kv_attend.h). */
  int (*exact_scores)(kv_cache_t *kv, int layer, int kvh, const int8_t *q, int n, int searched);
  void (*attend_cached)(kv_cache_t *kv, int layer, int kvh, int count, const int8_t *const *q,
                        const int32_t *head_factor, int32_t *const *out, int32_t *score);
  /* Pair H's bank agrees with its table of USED positions (kv_check): 0. */
  int (*check)(kv_cache_t *kv, int h, int used);
};

extern const kv_backend_ops_t kv_backend_dense, kv_backend_array;

/* The cache onto BACKEND with SLOTS per pair: the policy kept if it fits
   them (else keeping everything), the cache emptied (kvcache.c). */
void kv_switch_backend(kv_cache_t *kv, const kv_backend_ops_t *backend, int slots);

#endif
