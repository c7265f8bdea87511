/* The integer Llama-2 forward pass (RMSNorm, RoPE, grouped-query attention,
   SiLU-gated FFN), after llama2.c's run.c: plain structs, no hidden
   allocation -- the caller hands in one arena. Activations are int32 Q16,
   the residual stream Q(16 - residual_shift); matrix inputs are quantised
   per vector to int8 or int16 (the image says which), queries and values to
   int8, keys to 12 bits, with one Q24 scale per (layer, position, kv head)
   in the key/value cache, reached through the
   kv-cache interface so that attention can run elsewhere (the UniCAIM block). */
#ifndef LLM_TRANSFORMER_H
#define LLM_TRANSFORMER_H

#include <stddef.h>
#include <stdint.h>

#include "kvcache.h"
#include "llm_model.h"

/* Cycle accounting hooks (no-ops on the host unless set). */
typedef enum { LLM_PHASE_MATMUL, LLM_PHASE_ATTENTION, LLM_PHASE_OTHER, LLM_PHASES } llm_phase_t;

typedef struct {
  const llm_model_t *model;
  int32_t *x, *xb, *xb2, *hb, *hb2, *q, *k, *v, *att, *logits; /* Q16 */
  int8_t *xq8;                                                /* quantised matmul inputs */
  int16_t *xq16;
  int32_t *xsum;                                              /* xq16's sums per group (grouped weights) */
  int batch;                          /* tokens a forward pass takes at most (buffers are [batch][...]) */
  kv_cache_t kv;                      /* dense by default; kv_use_unicaim switches */
  uint64_t (*clock)(void);            /* cycle counter, or NULL */
  uint64_t phase_cycles[LLM_PHASES];
} llm_state_t;

/* Tokens one forward pass takes at most. */
#define LLM_MAX_BATCH 16

/* Bytes of arena the model needs for passes of up to BATCH tokens. */
size_t llm_state_bytes(const llm_model_t *m, int batch);
/* Carves the state out of ARENA (at least llm_state_bytes, 4-byte aligned). */
void llm_state_init(llm_state_t *s, const llm_model_t *m, void *arena, int batch);
/* Runs TOKEN at position POS (0 <= pos < seq_len); returns the logits (Q16). */
const int32_t *llm_forward(llm_state_t *s, int token, int pos);
/* Runs TOKENS[0..N) at positions POS.. (N <= the state's batch) in one pass:
   each matrix is read once for the N tokens (a prompt's prefill). With
   ALL_LOGITS, position POS + i's logits are at s->logits + i * vocab_size,
   else the last's at s->logits. Returns the last position's logits. The
   same results as N calls of llm_forward, but for the array's read noise,
   whose draws follow the order of the searches. */
const int32_t *llm_forward_batch(llm_state_t *s, const int *tokens, int n, int pos, int all_logits);

#endif
