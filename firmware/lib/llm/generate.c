#include "generate.h"

#include "tokenizer.h"

int llm_generate(llm_state_t *s, llm_sampler_t *sampler, const int *prompt, int n_prompt, int steps,
                 llm_emit_fn emit, void *ctx, llm_gen_stats_t *stats) {
  const llm_model_t *m = s->model;
  stats->prompt_tokens = n_prompt;
  stats->generated = stats->stopped = 0;
  stats->prefill_cycles = stats->decode_cycles = 0;
  if (n_prompt < 1 || n_prompt > steps || steps > m->seq_len) return -1;
  for (int i = 0; i < n_prompt; i++) {
    if (prompt[i] < 0 || prompt[i] >= m->vocab_size) return -1;
  }
  kv_begin(&s->kv, n_prompt);
  int token = prompt[0];
  char piece[LLM_DECODE_BYTES];
  for (int pos = 0; pos < steps; pos++) {
    uint64_t t0 = s->clock ? s->clock() : 0;
    const int32_t *logits = llm_forward(s, token, pos);
    int next = pos + 1 < n_prompt ? prompt[pos + 1] : llm_sample(sampler, logits);
    uint64_t dt = s->clock ? s->clock() - t0 : 0;
    if (pos + 1 < n_prompt) {
      stats->prefill_cycles += dt;
    } else {
      stats->decode_cycles += dt;
      stats->generated++;
    }
    if (pos + 1 >= n_prompt && llm_is_stop(m, next)) break; /* a prompt may hold stop tokens (a chat's turns) */
    if (emit(next, llm_decode(m, token, next, piece), ctx)) {
      stats->stopped = 1;
      break;
    }
    token = next;
  }
  return 0;
}
