/* llm_eval: the integer inference against the fp32 reference.
   usage: llm_eval MODEL.bin MODEL.ucm greedy N      -- fp32 greedy text (N tokens)
          llm_eval MODEL.bin MODEL.ucm agree SEQS LEN -- teacher-forced agreement
   "agree" samples SEQS sequences of LEN tokens from the fp32 model (seeds
   1..SEQS, temperature 1), feeds each to both models and reports how often the
   integer model's top-1 matches fp32's, and the perplexity ratio, as BENCH
   lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_file.h"
#include "llm_model.h"
#include "ref_fp32.h"
#include "tokenizer.h"
#include "transformer.h"

static int argmax_f(const float *x, int n) {
  int b = 0;
  for (int i = 1; i < n; i++) if (x[i] > x[b]) b = i;
  return b;
}

static int argmax_i(const int32_t *x, int n) {
  int b = 0;
  for (int i = 1; i < n; i++) if (x[i] > x[b]) b = i;
  return b;
}

/* log softmax(x)[k] */
static double logprob_f(const float *x, int n, int k) {
  double max = x[argmax_f(x, n)], sum = 0;
  for (int i = 0; i < n; i++) sum += exp(x[i] - max);
  return x[k] - max - log(sum);
}

static double logprob_i(const int32_t *x, int n, int k) {
  double max = x[argmax_i(x, n)] / 65536.0, sum = 0;
  for (int i = 0; i < n; i++) sum += exp(x[i] / 65536.0 - max);
  return x[k] / 65536.0 - max - log(sum);
}

static uint64_t rng_state;
static double uniform(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (double)((rng_state * 0x2545F4914F6CDD1Dull) >> 40) / 16777216.0;
}

static int sample_f(const float *x, int n) {
  double max = x[argmax_f(x, n)], sum = 0;
  for (int i = 0; i < n; i++) sum += exp(x[i] - max);
  double r = uniform() * sum;
  for (int i = 0; i < n; i++) {
    r -= exp(x[i] - max);
    if (r <= 0) return i;
  }
  return n - 1;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: llm_eval MODEL.bin MODEL.ucm greedy N | agree SEQS LEN\n");
    return 2;
  }
  ref_model_t ref;
  if (ref_open(&ref, argv[1])) return 2;
  size_t len = 0;
  void *image = host_read_file(argv[2], &len);
  if (!image) {
    fprintf(stderr, "llm_eval: cannot read %s\n", argv[2]);
    return 2;
  }
  llm_model_t model;
  const char *error;
  if (llm_model_open(&model, image, len, &error)) {
    fprintf(stderr, "llm_eval: %s\n", error);
    return 2;
  }
  char byte_buf[2];

  if (!strcmp(argv[3], "greedy")) {
    int n = atoi(argv[4]), token = LLM_TOKEN_BOS;
    for (int pos = 0; pos < n; pos++) {
      int next = argmax_f(ref_forward(&ref, token, pos), ref.vocab_size);
      const char *piece = model.token_strings + model.token_offset[next];
      if (token == LLM_TOKEN_BOS && piece[0] == ' ') piece++;
      fputs(piece, stdout);  /* byte tokens shown raw, as in the models README */
      token = next;
    }
    printf("\n");
    (void)byte_buf;
    return 0;
  }

  int seqs = atoi(argv[4]), L = argc > 5 ? atoi(argv[5]) : model.seq_len;
  if (L > model.seq_len) L = model.seq_len;
  int *seq = malloc(sizeof(int) * (size_t)(L + 1));
  llm_state_t state;
  llm_state_init(&state, &model, malloc(llm_state_bytes(&model)));
  long agree = 0, total = 0;
  double nll_ref = 0, nll_int = 0;
  for (int sidx = 1; sidx <= seqs; sidx++) {
    rng_state = (uint64_t)sidx * 0x9E3779B97F4A7C15ull;
    seq[0] = LLM_TOKEN_BOS;
    for (int pos = 0; pos < L; pos++) seq[pos + 1] = sample_f(ref_forward(&ref, seq[pos], pos), ref.vocab_size);
    for (int pos = 0; pos < L; pos++) {
      const float *lf = ref_forward(&ref, seq[pos], pos);
      const int32_t *li = llm_forward(&state, seq[pos], pos);
      agree += argmax_f(lf, ref.vocab_size) == argmax_i(li, model.vocab_size);
      total++;
      nll_ref -= logprob_f(lf, ref.vocab_size, seq[pos + 1]);
      nll_int -= logprob_i(li, model.vocab_size, seq[pos + 1]);
    }
  }
  printf("BENCH lm_int8_top1_vs_fp32 %.2f pct\n", 100.0 * (double)agree / (double)total);
  printf("BENCH lm_ppl_fp32 %.4f ppl\n", exp(nll_ref / (double)total));
  printf("BENCH lm_ppl_int8 %.4f ppl\n", exp(nll_int / (double)total));
  printf("BENCH lm_ppl_ratio_int8_vs_fp32 %.4f ratio\n", exp((nll_int - nll_ref) / (double)total));
  ref_close(&ref);
  return 0;
}
