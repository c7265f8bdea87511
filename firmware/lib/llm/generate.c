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
  char piece[LLM_DECODE_BYTES];
  /* Prefill: the prompt but its last token, up to the state's batch a
     pass, echoed as it goes. */
  int pos = 0;
  while (pos + 1 < n_prompt) {
    int count = n_prompt - 1 - pos < s->batch ? n_prompt - 1 - pos : s->batch;
    uint64_t t0 = s->clock ? s->clock() : 0;
    llm_forward_batch(s, prompt + pos, count, pos, 0);
    stats->prefill_cycles += s->clock ? s->clock() - t0 : 0;
    for (int i = pos; i < pos + count; i++) {
      if (emit(prompt[i + 1], llm_decode(m, prompt[i], prompt[i + 1], piece), ctx)) {
        stats->stopped = 1;
        return 0;
      }
    }
    pos += count;
  }
  /* Decode: from the prompt's last token, one position a pass. A prompt may
     hold stop tokens (a chat's turns); a generated one ends the text. */
  int token = prompt[n_prompt - 1];
  for (; pos < steps; pos++) {
    uint64_t t0 = s->clock ? s->clock() : 0;
    int next = llm_sample(sampler, llm_forward(s, token, pos));
    stats->decode_cycles += s->clock ? s->clock() - t0 : 0;
    stats->generated++;
    if (llm_is_stop(m, next)) break;
    if (emit(next, llm_decode(m, token, next, piece), ctx)) {
      stats->stopped = 1;
      break;
    }
    token = next;
  }
  return 0;
}
