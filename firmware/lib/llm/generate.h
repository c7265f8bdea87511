/* The generation loop shared by the host runner and the firmware: feed the
   prompt (prefill), then sample until STEPS positions or a BOS token. */
#ifndef LLM_GENERATE_H
#define LLM_GENERATE_H

#include <stdint.h>

#include "sampler.h"
#include "transformer.h"

/* Called with each token after the first; nonzero stops the story there. */
typedef int (*llm_emit_fn)(int token, const char *text, void *ctx);

typedef struct {
  int prompt_tokens, generated;
  int stopped; /* the emit function asked to stop */
  uint64_t prefill_cycles, decode_cycles; /* from the state's clock, if any */
} llm_gen_stats_t;

/* PROMPT[0..N_PROMPT) must start with BOS; STEPS counts positions (prompt
   included), at most seq_len. Returns 0, or -1 for a bad prompt/steps. */
int llm_generate(llm_state_t *s, llm_sampler_t *sampler, const int *prompt, int n_prompt, int steps,
                 llm_emit_fn emit, void *ctx, llm_gen_stats_t *stats);

#endif
