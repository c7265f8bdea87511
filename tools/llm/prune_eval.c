/* prune_eval: KV-cache eviction policies against dense attention, on the
   firmware's integer inference (the same code the SoC runs).
   usage: prune_eval MODEL.ucm stories SEQS LEN PREFILL -- local fidelity
          prune_eval MODEL.ucm tasks FILE                -- retrieval exact match
          prune_eval MODEL.ucm check LEN                 -- the cache's invariants
   Budgets are 10, 15, 20, 25, 35, 50 and 100% of the sequence; the policies
   are StreamingLLM (4 sinks + the most recent), H2O (the recent half of the
   budget + the heaviest accumulated attention) and TOVA (lowest attention at
   the last step). Positions are fed one at a time, so the prefill is pruned
   as it streams in.
   "stories": SEQS sequences of LEN tokens sampled from the dense model
   (seeds 1..SEQS, temperature 1); over the positions after PREFILL, top-1
   agreement with dense, mean KL(dense || policy) and the perplexity ratio.
   "tasks": exact match (teacher-forced argmax) of every answer span.
   Prints one CSV row per policy and budget, then BENCH lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_file.h"
#include "llm_model.h"
#include "logits.h"
#include "sampler.h"
#include "task_file.h"
#include "tokenizer.h"
#include "transformer.h"

static const int budgets_pct[] = {10, 15, 20, 25, 35, 50, 100};
enum { N_BUDGETS = sizeof budgets_pct / sizeof budgets_pct[0] };

static const kv_policy_kind_t policies[] = {KV_STREAMING, KV_H2O, KV_TOVA};
enum { N_POLICIES = sizeof policies / sizeof policies[0] };

/* The policy with its defaults at a budget of BUDGET slots (one sink below 9). */
static kv_policy_t policy_for(kv_policy_kind_t kind, int budget) {
  kv_policy_t p;
  kv_policy_make(&p, kv_policy_name(kind), budget, kind == KV_STREAMING && budget <= 8 ? 1 : -1);
  return p;
}

static int stories(const llm_model_t *m, int seqs, int len, int prefill) {
  if (len > m->seq_len || prefill < 1 || prefill >= len) {
    fprintf(stderr, "prune_eval: need 1 <= PREFILL < LEN <= %d\n", m->seq_len);
    return 2;
  }
  const int vocab = m->vocab_size, steps = len - prefill;
  llm_state_t state;
  llm_state_init(&state, m, malloc(llm_state_bytes(m)));
  int *seq = malloc(sizeof(int) * (size_t)seqs * (size_t)len);
  double *dense = malloc(sizeof(double) * (size_t)seqs * (size_t)steps * (size_t)vocab);
  int *dense_top = malloc(sizeof(int) * (size_t)seqs * (size_t)steps);
  double *lp = malloc(sizeof(double) * (size_t)vocab);
  int32_t *probs = malloc(sizeof(int32_t) * (size_t)vocab);
  uint16_t *order = malloc(sizeof(uint16_t) * (size_t)vocab);
  double nll_dense = 0;
  for (int s = 0; s < seqs; s++) { /* sample, recording dense log-probabilities */
    llm_sampler_t sampler;
    llm_sampler_init(&sampler, vocab, 65536, 0, (uint64_t)s + 1, probs, order);
    int *t = seq + (size_t)s * (size_t)len;
    t[0] = LLM_TOKEN_BOS;
    for (int pos = 0; pos + 1 < len; pos++) {
      const int32_t *logits = llm_forward(&state, t[pos], pos);
      t[pos + 1] = llm_sample(&sampler, logits);
      if (pos + 1 >= prefill) {
        size_t at = (size_t)s * (size_t)steps + (size_t)(pos + 1 - prefill);
        logits_log_softmax(logits, vocab, dense + at * (size_t)vocab);
        dense_top[at] = logits_argmax(logits, vocab);
        nll_dense -= dense[at * (size_t)vocab + (size_t)t[pos + 1]];
      }
    }
  }
  printf("workload,policy,budget_pct,top1_pct,kl_mean,ppl_ratio,evictions\n");
  double top1[N_POLICIES][N_BUDGETS];
  for (int p = 0; p < N_POLICIES; p++) {
    for (int b = 0; b < N_BUDGETS; b++) {
      kv_policy_t policy = policy_for(policies[p], budgets_pct[b] * len / 100);
      if (kv_set_policy(&state.kv, &policy)) return 2;
      long agree = 0, total = 0;
      double kl = 0, nll = 0;
      for (int s = 0; s < seqs; s++) {
        const int *t = seq + (size_t)s * (size_t)len;
        for (int pos = 0; pos + 1 < len; pos++) {
          const int32_t *logits = llm_forward(&state, t[pos], pos);
          if (pos + 1 < prefill) continue;
          size_t at = (size_t)s * (size_t)steps + (size_t)(pos + 1 - prefill);
          const double *d = dense + at * (size_t)vocab;
          logits_log_softmax(logits, vocab, lp);
          for (int i = 0; i < vocab; i++) kl += exp(d[i]) * (d[i] - lp[i]);
          nll -= lp[t[pos + 1]];
          agree += logits_argmax(logits, vocab) == dense_top[at];
          total++;
        }
      }
      top1[p][b] = 100.0 * (double)agree / (double)total;
      printf("stories,%s,%d,%.2f,%.5f,%.4f,%lu\n", kv_policy_name(policies[p]), budgets_pct[b], top1[p][b],
             kl / (double)total, exp((nll - nll_dense) / (double)total), (unsigned long)state.kv.evictions);
      fflush(stdout);
    }
  }
  for (int p = 0; p < N_POLICIES; p++)
    for (int b = 0; b < N_BUDGETS; b++)
      printf("BENCH acc_top1_%s_b%d %.2f pct\n", kv_policy_name(policies[p]), budgets_pct[b], top1[p][b]);
  return 0;
}

/* Exact-match answers of every task under POLICY (budget as a percentage of
   each task's length; 0: dense). Returns the percentage. */
static double tasks_em(llm_state_t *state, const char *path, kv_policy_kind_t kind, int pct) {
  const llm_model_t *m = state->model;
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  retr_task_t task;
  task.tokens = malloc(sizeof(int) * (size_t)m->seq_len);
  unsigned char *wrong = malloc((size_t)m->seq_len);
  long hit = 0, total = 0;
  int line = 0, got;
  while ((got = task_file_next(f, path, &line, &task, m->seq_len, m->vocab_size)) == 1) {
    kv_policy_t policy = policy_for(pct ? kind : KV_KEEP_ALL, pct * task.n / 100);
    if (kv_set_policy(&state->kv, &policy)) break;
    for (int pos = 0; pos + 1 < task.n; pos++)
      wrong[pos] = logits_argmax(llm_forward(state, task.tokens[pos], pos), m->vocab_size) != task.tokens[pos + 1];
    for (int s = 0; s < task.n_spans; s++) {
      int missed = 0;
      for (int pos = task.span_start[s] - 1; pos < task.span_end[s] - 1; pos++) missed |= wrong[pos];
      hit += !missed;
      total++;
    }
  }
  fclose(f);
  free(task.tokens);
  free(wrong);
  return got < 0 || !total ? -1 : 100.0 * (double)hit / (double)total;
}

static int tasks(const llm_model_t *m, const char *path) {
  llm_state_t state;
  llm_state_init(&state, m, malloc(llm_state_bytes(m)));
  double dense = tasks_em(&state, path, KV_KEEP_ALL, 0);
  if (dense < 0) {
    fprintf(stderr, "prune_eval: cannot evaluate %s\n", path);
    return 2;
  }
  printf("workload,policy,budget_pct,em_pct,em_of_dense\n");
  printf("retrieval,dense,100,%.2f,1.000\n", dense);
  double em[N_POLICIES][N_BUDGETS];
  for (int p = 0; p < N_POLICIES; p++) {
    for (int b = 0; b < N_BUDGETS; b++) {
      em[p][b] = tasks_em(&state, path, policies[p], budgets_pct[b]);
      printf("retrieval,%s,%d,%.2f,%.3f\n", kv_policy_name(policies[p]), budgets_pct[b], em[p][b],
             dense > 0 ? em[p][b] / dense : 0.0);
      fflush(stdout);
    }
  }
  printf("BENCH retr_em_dense_b100 %.2f pct\n", dense);
  for (int p = 0; p < N_POLICIES; p++)
    for (int b = 0; b < N_BUDGETS; b++)
      printf("BENCH retr_em_%s_b%d %.2f pct\n", kv_policy_name(policies[p]), budgets_pct[b], em[p][b]);
  return 0;
}

/* Greedy generation of LEN positions under every policy and budget, the
   cache's invariants checked after every step. */
static int check(const llm_model_t *m, int len) {
  if (len < 2 || len > m->seq_len) return 2;
  llm_state_t state;
  llm_state_init(&state, m, malloc(llm_state_bytes(m)));
  for (int p = 0; p < N_POLICIES; p++) {
    for (int b = 0; b < N_BUDGETS; b++) {
      kv_policy_t policy = policy_for(policies[p], budgets_pct[b] * len / 100);
      if (kv_set_policy(&state.kv, &policy)) return 2;
      int token = LLM_TOKEN_BOS;
      for (int pos = 0; pos < len; pos++) {
        token = logits_argmax(llm_forward(&state, token, pos), m->vocab_size);
        if (kv_check(&state.kv, pos)) {
          printf("%s at %d%%: invariant broken at position %d\n", kv_policy_name(policies[p]), budgets_pct[b], pos);
          return 1;
        }
      }
      int expected = len > policy.budget && budgets_pct[b] < 100 ? (len - policy.budget) : 0;
      if (state.kv.evictions != (uint32_t)(expected * m->n_layers * m->n_kv_heads)) {
        printf("%s at %d%%: %lu evictions, expected %d\n", kv_policy_name(policies[p]), budgets_pct[b],
               (unsigned long)state.kv.evictions, expected * m->n_layers * m->n_kv_heads);
        return 1;
      }
    }
  }
  printf("kv invariants hold: %d policies x %d budgets x %d positions\n", N_POLICIES, N_BUDGETS, len);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: prune_eval MODEL.ucm stories SEQS LEN PREFILL | tasks FILE | check LEN\n");
    return 2;
  }
  size_t len = 0;
  void *image = host_read_file(argv[1], &len);
  llm_model_t model;
  const char *error = "cannot read the file";
  if (!image || llm_model_open(&model, image, len, &error)) {
    fprintf(stderr, "prune_eval: %s: %s\n", argv[1], error);
    return 2;
  }
  if (!strcmp(argv[2], "stories") && argc == 6) return stories(&model, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
  if (!strcmp(argv[2], "tasks") && argc == 4) return tasks(&model, argv[3]);
  if (!strcmp(argv[2], "check") && argc == 4) return check(&model, atoi(argv[3]));
  fprintf(stderr, "prune_eval: unknown mode or wrong arguments\n");
  return 2;
}
