/* llm_score: the integer engine, teacher-forced over given token sequences.
   usage: llm_score MODEL.ucm SEQUENCES [--batch N] [--portable]
   SEQUENCES has one sequence per line, token ids separated by spaces. For
   every position of each, prints "SCORE seq pos top1 logprob", top1 the
   integer logits' argmax and logprob the log-softmax (natural log, from the
   Q16 logits in double) of the next token of the sequence (0 at the last
   position). tools/llm/agree_gguf.py compares them with its fp32 reference,
   which shares no code with this engine. Positions are read --batch N at a
   time (default the most, LLM_MAX_BATCH) with the host's vectorized kernels
   (host_kernels.c) unless --portable: the same logits either way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_file.h"
#include "host_kernels.h"
#include "llm_model.h"
#include "logits.h"
#include "transformer.h"

/* The next line's token ids into IDS (room for MAX); -1 at the end of the file. */
static int read_sequence(FILE *f, int *ids, int max, int vocab) {
  int n = 0, c;
  long v = -1;
  while ((c = fgetc(f)) != EOF && c != '\n') {
    if (c >= '0' && c <= '9') {
      v = (v < 0 ? 0 : v * 10) + (c - '0');
      if (v >= vocab) return -2;
    } else if (c == ' ') {
      if (v >= 0) {
        if (n == max) return -2;
        ids[n++] = (int)v;
      }
      v = -1;
    } else {
      return -2;
    }
  }
  if (v >= 0) {
    if (n == max) return -2;
    ids[n++] = (int)v;
  }
  return c == EOF && n == 0 ? -1 : n;
}

int main(int argc, char **argv) {
  int batch = LLM_MAX_BATCH, portable = 0;
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[i], "--portable")) portable = 1;
    else if (i + 1 < argc && !strcmp(argv[i], "--batch")) batch = atoi(argv[++i]);
    else batch = 0;
  }
  if (argc < 3 || batch < 1 || batch > LLM_MAX_BATCH) {
    fprintf(stderr, "usage: llm_score MODEL.ucm SEQUENCES [--batch 1..%d] [--portable]\n", LLM_MAX_BATCH);
    return 2;
  }
  if (!portable) host_kernels_install();
  llm_model_t model;
  if (host_open_model("llm_score", argv[1], &model)) return 2;
  FILE *f = fopen(argv[2], "r");
  if (!f) {
    fprintf(stderr, "llm_score: cannot read %s\n", argv[2]);
    return 2;
  }
  llm_state_t state;
  llm_state_init(&state, &model, malloc(llm_state_bytes(&model, batch)), batch);
  int *ids = malloc(sizeof(int) * (size_t)model.seq_len);
  double *lp = malloc(sizeof(double) * (size_t)model.vocab_size);
  for (int seq = 0;; seq++) {
    int n = read_sequence(f, ids, model.seq_len, model.vocab_size);
    if (n == -1) break;
    if (n < 0) {
      fprintf(stderr, "llm_score: %s line %d: not token ids below %d, at most %d of them\n", argv[2], seq + 1,
              model.vocab_size, model.seq_len);
      return 2;
    }
    kv_begin(&state.kv, n);
    for (int pos = 0; pos < n; pos += batch) {
      int count = n - pos < batch ? n - pos : batch;
      llm_forward_batch(&state, ids + pos, count, pos, 1);
      for (int i = pos; i < pos + count; i++) {
        const int32_t *logits = state.logits + (size_t)(i - pos) * (size_t)model.vocab_size;
        if (i + 1 < n) logits_log_softmax(logits, model.vocab_size, lp);
        printf("SCORE %d %d %d %.6f\n", seq, i, logits_argmax(logits, model.vocab_size),
               i + 1 < n ? lp[ids[i + 1]] : 0.0);
      }
    }
  }
  fclose(f);
  return 0;
}
