/* llm_context: a saved context for the SoC's bench (firmware/lib/llm/llm_context.h).
   usage: llm_context MODEL.ucm POSITIONS OUT [--context N] [--portable]
          llm_context MODEL.ucm --check FILE [--context N]
   Decodes greedily from BOS over positions 0..POSITIONS-1, as the console's
   `bench` does (an end of story continues with EOS), writes the cache and
   the next token to OUT, then runs position POSITIONS and prints
   "TOKEN pos POSITIONS ID": the token `bench POSITIONS` ends on when it
   starts from OUT (or from BOS). --check restores FILE as the firmware
   does and prints its positions and next token, or the reason it is
   refused (status 1). --context N: the firmware build's context
   (LLM_MAX_CONTEXT), which sizes the cache; the integer engine with the
   host's vectorized kernels unless --portable (the same results). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_file.h"
#include "host_kernels.h"
#include "llm_context.h"
#include "sampler.h"

/* Restores the context at PATH into S; prints what it holds or why not. */
static int check(llm_state_t *s, const char *path) {
  size_t len;
  void *buf = host_read_file(path, &len);
  if (!buf) {
    fprintf(stderr, "llm_context: cannot read %s\n", path);
    return 1;
  }
  const char *error;
  int next, positions = llm_context_restore(s, buf, len, &next, &error);
  if (positions < 0) {
    fprintf(stderr, "llm_context: %s: %s\n", path, error);
    return 1;
  }
  printf("context: %d positions, next token %d\n", positions, next);
  return 0;
}

int main(int argc, char **argv) {
  int context = 0, portable = 0, bad = argc < 4;
  const int checking = !bad && !strcmp(argv[2], "--check");
  for (int i = 4; i < argc; i++) {
    if (!strcmp(argv[i], "--portable")) portable = 1;
    else if (i + 1 < argc && !strcmp(argv[i], "--context")) context = atoi(argv[++i]);
    else bad = 1;
  }
  const int positions = bad || checking ? 0 : atoi(argv[2]);
  if (bad || (!checking && positions < 1)) {
    fprintf(stderr, "usage: llm_context MODEL.ucm POSITIONS OUT [--context N] [--portable]\n"
                    "       llm_context MODEL.ucm --check FILE [--context N]\n");
    return 2;
  }
  if (!portable) host_kernels_install();
  llm_model_t model;
  if (host_open_model("llm_context", argv[1], &model)) return 2;
  if (context < 0 || context > model.seq_len) {
    fprintf(stderr, "llm_context: --context takes 1 to %d\n", model.seq_len);
    return 2;
  }
  if (context) model.seq_len = context;
  if (checking) {
    llm_state_t state;
    void *arena = malloc(llm_state_bytes(&model, 1));
    if (!arena) {
      fprintf(stderr, "llm_context: out of memory\n");
      return 2;
    }
    llm_state_init(&state, &model, arena, 1);
    return check(&state, argv[3]);
  }
  if (positions >= model.seq_len) {
    fprintf(stderr, "llm_context: POSITIONS takes 1 to %d (the context less one)\n", model.seq_len - 1);
    return 2;
  }
  llm_state_t state;
  void *arena = malloc(llm_state_bytes(&model, 1));
  int32_t *probs = malloc(sizeof(int32_t) * (size_t)model.vocab_size);
  uint16_t *order = malloc(sizeof(uint16_t) * (size_t)model.vocab_size);
  const size_t bytes = llm_context_bytes(&model, positions);
  void *out = malloc(bytes);
  if (!arena || !probs || !order || !out) {
    fprintf(stderr, "llm_context: out of memory\n");
    return 2;
  }
  llm_state_init(&state, &model, arena, 1);
  llm_sampler_t sampler;
  llm_sampler_init(&sampler, model.vocab_size, 0, 0, 1, probs, order);
  int token = model.bos;
  for (int pos = 0; pos <= positions; pos++) {
    if (pos == positions) {
      const char *error;
      if (llm_context_save(&state, positions, token, out, &error)) {
        fprintf(stderr, "llm_context: %s\n", error);
        return 1;
      }
    }
    token = llm_sample(&sampler, llm_forward(&state, token, pos));
    if (llm_is_stop(&model, token)) token = model.eos;
  }
  FILE *f = fopen(argv[3], "wb");
  if (!f || fwrite(out, 1, bytes, f) != bytes || fclose(f)) {
    fprintf(stderr, "llm_context: cannot write %s\n", argv[3]);
    return 1;
  }
  printf("TOKEN pos %d %d\n", positions, token);
  return 0;
}
