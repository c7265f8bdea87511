/* llm_eval: the integer inference against the fp32 reference.
   usage: llm_eval MODEL.bin MODEL.ucm greedy N      -- fp32 greedy text (N tokens)
          llm_eval MODEL.bin MODEL.ucm agree SEQS LEN [FIRST]
                                                      -- teacher-forced agreement
          llm_eval MODEL.bin MODEL.ucm tasks FILE     -- retrieval exact-match
          llm_eval MODEL.bin MODEL.ucm rounded SEQS LEN QBITS KBITS VBITS
                                                      -- fp32 vs fp32 with rounded q/k/v
   "agree" samples SEQS sequences of LEN tokens from the fp32 model (seeds
   FIRST.. FIRST+SEQS-1, FIRST 1 if not given; temperature 1), feeds each to
   both models and reports how often the integer model's top-1 matches
   fp32's with a 95% interval (bootstrap over sequences: a sequence's tokens
   are not independent), and the perplexity ratio, as BENCH lines. Seeds
   1..16 are the development set the integer path was tuned on, 17.. the
   test set `make bench` reports.  "tasks" reads tools/retrieval/tasks.py's held-out file and reports
   exact-match accuracy of both models per task kind and needle depth. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_file.h"
#include "llm_model.h"
#include "logits.h"
#include "ref_fp32.h"
#include "task_file.h"
#include "tokenizer.h"
#include "transformer.h"

/* The reference reads llama2.c checkpoints, whose sequences start with BOS. */
#define LLAMA2C_BOS 1

static int argmax_f(const float *x, int n) {
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

static int greedy_text(ref_model_t *ref, const llm_model_t *model, int n) {
  int token = model->bos;
  for (int pos = 0; pos < n; pos++) {
    int next = argmax_f(ref_forward(ref, token, pos), ref->vocab_size);
    const char *piece = model->token_strings + model->token_offset[next];
    if (token == model->bos && piece[0] == ' ') piece++;
    fputs(piece, stdout); /* byte tokens shown raw, as in the models README */
    token = next;
  }
  printf("\n");
  return 0;
}

/* Sequence SIDX of the evaluation is sampled from the fp32 model as it is
   scored: each position's fp32 logits both pick the next token and serve as
   the yardstick there. Returns the first token. */
static int start_sequence(int sidx) {
  rng_state = (uint64_t)sidx * 0x9E3779B97F4A7C15ull;
  return LLAMA2C_BOS;
}

/* The 2.5% and 97.5% points of the agreement (percent) over RESAMPLES
   resamplings of the N sequences with replacement (per-sequence counts). */
static void bootstrap_interval(const long *agree, const long *total, int n, double *low, double *high) {
  enum { RESAMPLES = 2000 };
  static double pct[RESAMPLES];
  rng_state = 0x5EEDu;
  for (int r = 0; r < RESAMPLES; r++) {
    long a = 0, t = 0;
    for (int i = 0; i < n; i++) {
      int pick = (int)(uniform() * n);
      a += agree[pick];
      t += total[pick];
    }
    pct[r] = 100.0 * (double)a / (double)t;
  }
  for (int i = 1; i < RESAMPLES; i++) /* insertion sort: 2000 values */
    for (int j = i; j > 0 && pct[j - 1] > pct[j]; j--) {
      double x = pct[j];
      pct[j] = pct[j - 1];
      pct[j - 1] = x;
    }
  *low = pct[RESAMPLES / 40];
  *high = pct[RESAMPLES - 1 - RESAMPLES / 40];
}

static int agreement(ref_model_t *ref, const llm_model_t *model, int seqs, int len, int first) {
  if (len > model->seq_len) len = model->seq_len;
  if (seqs < 1 || len < 1 || first < 1) {
    fprintf(stderr, "llm_eval: agree needs SEQS >= 1, LEN >= 1, FIRST >= 1\n");
    return 2;
  }
  llm_state_t state;
  llm_state_init(&state, model, malloc(llm_state_bytes(model, 1)), 1);
  double *lp = malloc(sizeof(double) * (size_t)model->vocab_size);
  long *seq_agree = calloc((size_t)seqs, sizeof(long)), *seq_total = calloc((size_t)seqs, sizeof(long));
  long agree = 0, total = 0;
  double nll_ref = 0, nll_int = 0;
  for (int i = 0; i < seqs; i++) {
    int token = start_sequence(first + i);
    for (int pos = 0; pos < len; pos++) {
      const float *lf = ref_forward(ref, token, pos);
      const int32_t *li = llm_forward(&state, token, pos);
      const int next = sample_f(lf, ref->vocab_size);
      seq_agree[i] += argmax_f(lf, ref->vocab_size) == logits_argmax(li, model->vocab_size);
      seq_total[i]++;
      nll_ref -= logprob_f(lf, ref->vocab_size, next);
      logits_log_softmax(li, model->vocab_size, lp);
      nll_int -= lp[next];
      token = next;
    }
    agree += seq_agree[i];
    total += seq_total[i];
  }
  double low, high;
  bootstrap_interval(seq_agree, seq_total, seqs, &low, &high);
  printf("BENCH lm_int8_top1_vs_fp32 %.2f pct (seeds %d-%d)\n", 100.0 * (double)agree / (double)total, first,
         first + seqs - 1);
  printf("BENCH lm_int8_top1_vs_fp32_ci95_low %.2f pct\n", low);
  printf("BENCH lm_int8_top1_vs_fp32_ci95_high %.2f pct\n", high);
  printf("BENCH lm_ppl_fp32 %.4f ppl\n", exp(nll_ref / (double)total));
  printf("BENCH lm_ppl_int8 %.4f ppl\n", exp(nll_int / (double)total));
  printf("BENCH lm_ppl_ratio_int8_vs_fp32 %.4f ratio\n", exp((nll_int - nll_ref) / (double)total));
  free(seq_agree);
  free(seq_total);
  free(lp);
  return 0;
}

/* Where the integer path's disagreement comes from: the fp32 model against
   itself with only its queries, keys or values rounded as the integer path
   stores them (Q_BITS, K_BITS, V_BITS; 0 = exact), on the same sequences as
   "agree". */
static int agreement_rounded(ref_model_t *ref, const char *path, int seqs, int len, int q_bits, int k_bits,
                             int v_bits) {
  const int bits[3] = {q_bits, k_bits, v_bits};
  for (int i = 0; i < 3; i++) {
    if (bits[i] < 0 || bits[i] == 1 || bits[i] > 24) {
      fprintf(stderr, "llm_eval: rounding to %d bits: 0 (exact) or 2..24\n", bits[i]);
      return 2;
    }
  }
  ref_model_t rounded;
  if (ref_open(&rounded, path)) return 2;
  rounded.q_bits = q_bits;
  rounded.k_bits = k_bits;
  rounded.v_bits = v_bits;
  if (len > ref->seq_len) len = ref->seq_len;
  long agree = 0, total = 0;
  for (int sidx = 1; sidx <= seqs; sidx++) {
    int token = start_sequence(sidx);
    for (int pos = 0; pos < len; pos++) {
      const float *lf = ref_forward(ref, token, pos);
      agree += argmax_f(lf, ref->vocab_size) == argmax_f(ref_forward(&rounded, token, pos), ref->vocab_size);
      total++;
      token = sample_f(lf, ref->vocab_size);
    }
  }
  printf("BENCH lm_fp32_top1_q%d_k%d_v%d %.2f pct\n", q_bits, k_bits, v_bits, 100.0 * (double)agree / (double)total);
  ref_close(&rounded);
  return 0;
}

/* Exact match, teacher-forced: an answer counts when every one of its tokens
   is the model's argmax after the true prefix -- exactly when greedy decoding
   from the question would produce it. */
enum { MAX_KINDS = 8, DEPTH_BINS = 10 };
typedef struct {
  char name[16];
  long hit[2][DEPTH_BINS], total[DEPTH_BINS];
} kind_stats_t;

static int retrieval_tasks(ref_model_t *ref, const llm_model_t *model, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "llm_eval: cannot read %s\n", path);
    return 2;
  }
  retr_task_t task;
  task.tokens = malloc(sizeof(int) * (size_t)model->seq_len);
  unsigned char *wrong = malloc((size_t)model->seq_len);
  llm_state_t state;
  llm_state_init(&state, model, malloc(llm_state_bytes(model, 1)), 1);
  kind_stats_t kinds[MAX_KINDS];
  int n_kinds = 0, line = 0, got;
  while ((got = task_file_next(f, path, &line, &task, model->seq_len, model->vocab_size)) == 1) {
    int k = 0;
    while (k < n_kinds && strcmp(kinds[k].name, task.kind)) k++;
    if (k == n_kinds) {
      if (n_kinds == MAX_KINDS) return 2;
      memset(&kinds[k], 0, sizeof kinds[k]);
      snprintf(kinds[k].name, sizeof kinds[k].name, "%s", task.kind);
      n_kinds++;
    }
    int bin = (int)(task.depth * DEPTH_BINS);
    bin = bin < 0 ? 0 : bin >= DEPTH_BINS ? DEPTH_BINS - 1 : bin;
    /* wrong[pos]: bit 0 fp32, bit 1 integer missed the token at pos + 1. */
    for (int pos = 0; pos + 1 < task.n; pos++) {
      const float *lf = ref_forward(ref, task.tokens[pos], pos);
      const int32_t *li = llm_forward(&state, task.tokens[pos], pos);
      wrong[pos] = (unsigned char)((argmax_f(lf, ref->vocab_size) != task.tokens[pos + 1]) |
                                   (logits_argmax(li, model->vocab_size) != task.tokens[pos + 1]) << 1);
    }
    for (int s = 0; s < task.n_spans; s++) {
      unsigned char missed = 0;
      for (int pos = task.span_start[s] - 1; pos < task.span_end[s] - 1; pos++) missed |= wrong[pos];
      for (int path_i = 0; path_i < 2; path_i++) kinds[k].hit[path_i][bin] += !(missed >> path_i & 1);
      kinds[k].total[bin]++;
    }
  }
  fclose(f);
  if (got < 0) return 2;
  /* Exact match (%) by needle depth, as a Markdown table. */
  printf("| kind | path |");
  for (int b = 0; b < DEPTH_BINS; b++) printf(" %d-%d%% |", 100 * b / DEPTH_BINS, 100 * (b + 1) / DEPTH_BINS);
  printf(" all |\n|---|---|");
  for (int b = 0; b <= DEPTH_BINS; b++) printf("---|");
  printf("\n");
  for (int k = 0; k < n_kinds; k++) {
    for (int path_i = 0; path_i < 2; path_i++) {
      long hit = 0, total = 0;
      printf("| %s | %s |", kinds[k].name, path_i ? "integer" : "fp32");
      for (int b = 0; b < DEPTH_BINS; b++) {
        hit += kinds[k].hit[path_i][b];
        total += kinds[k].total[b];
        if (kinds[k].total[b]) printf(" %.1f |", 100.0 * (double)kinds[k].hit[path_i][b] / (double)kinds[k].total[b]);
        else printf(" - |");
      }
      printf(" **%.1f** |\n", total ? 100.0 * (double)hit / (double)total : 0.0);
    }
  }
  for (int k = 0; k < n_kinds; k++) {
    for (int path_i = 0; path_i < 2; path_i++) {
      long hit = 0, total = 0;
      for (int b = 0; b < DEPTH_BINS; b++) hit += kinds[k].hit[path_i][b], total += kinds[k].total[b];
      printf("BENCH retr_dense_em_%s%s %.2f pct\n", kinds[k].name, path_i ? "_int" : "_fp32",
             total ? 100.0 * (double)hit / (double)total : 0.0);
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: llm_eval MODEL.bin MODEL.ucm greedy N | agree SEQS LEN [FIRST] | tasks FILE |\n"
                    "       rounded SEQS LEN QBITS KBITS VBITS\n");
    return 2;
  }
  ref_model_t ref;
  if (ref_open(&ref, argv[1])) return 2;
  llm_model_t model;
  if (host_open_model("llm_eval", argv[2], &model)) return 2;
  int status;
  if (!strcmp(argv[3], "greedy")) status = greedy_text(&ref, &model, atoi(argv[4]));
  else if (!strcmp(argv[3], "agree")) status = agreement(&ref, &model, atoi(argv[4]), argc > 5 ? atoi(argv[5]) : model.seq_len, argc > 6 ? atoi(argv[6]) : 1);
  else if (!strcmp(argv[3], "tasks")) status = retrieval_tasks(&ref, &model, argv[4]);
  else if (!strcmp(argv[3], "rounded") && argc == 9)
    status = agreement_rounded(&ref, argv[1], atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), atoi(argv[7]), atoi(argv[8]));
  else {
    fprintf(stderr, "llm_eval: unknown mode '%s' (or wrong arguments for it)\n", argv[3]);
    status = 2;
  }
  ref_close(&ref);
  return status;
}
