/* prune_eval: KV-cache pruning policies against dense attention, on the
   firmware's integer inference (the same code the SoC runs).
   usage: prune_eval MODEL.ucm stories SEQS LEN PREFILL [OPTIONS] -- local fidelity
          prune_eval MODEL.ucm tasks FILE [OPTIONS]                -- retrieval exact match
          prune_eval MODEL.ucm check LEN                           -- the cache's invariants
   OPTIONS: --policies a,b,..  (default: all seven)
            --budgets 10,15,.. (percent of the sequence; default 10,15,20,25,35,50,100)
            --set KEY=VALUE    a policy parameter (kv_policy_param) for the policies that take it
            --hw CELLS:ADC_BITS:SIGMA[:SLICES]  hardware effects: every policy
                               through the golden model of the array (CELLS-bit
                               cells, ADC_BITS converters, cell variation SIGMA/64
                               levels, SLICES cells per key component, default 1)
            --exact adc|cells|digital  with --hw: exact scores through the ADCs
                               (default), from the cells without them, or from
                               the int8 keys (then only the selection is analog)
            --tag TAG          tasks: the workload is "retrieval_TAG" and the
                               BENCH names end in _TAG (another task protocol)
   Without --hw ("ideal", the paper's accuracy setting) the software
   policies attend in software and UniCAIM selects on the golden model (its
   CAM search is quantised by nature) with exact scores from the int8 keys.
   "stories": SEQS sequences of LEN tokens sampled from the dense model
   (seeds 1..SEQS, temperature 1); the first PREFILL are the prompt; over the
   positions after it, top-1 agreement with dense, mean KL(dense || policy)
   and the perplexity ratio.
   "tasks": exact match (teacher-forced argmax) of every answer span; the
   prompt ends before the first answer.
   Prints CSV rows (with the array's modeled energy and latency per token
   when a policy ran on it) and BENCH lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_file.h"
#include "kv_cost.h"
#include "llm_model.h"
#include "logits.h"
#include "sampler.h"
#include "task_file.h"
#include "tokenizer.h"
#include "transformer.h"
#include "ucm.h"
#include "ucm_energy.h"

enum { MAX_LIST = 16 };

/* The array's modeled cost over a run, and the dense current-domain
   baseline's over the same tokens. */
typedef struct {
  uint64_t energy_fj, latency_ps, tokens, dense_fj, dense_ps;
} cost_sum_t;

typedef struct {
  const llm_model_t *m;
  llm_state_t state;
  ucm_model_t array_model;
  ucm_t array;
  int hw, cells, adc_bits, sigma, slices; /* hw: every policy on the array with its ADC and variation */
  kv_exact_t exact;               /* where the array's exact scores come from (hw) */
  int policies[MAX_LIST], n_policies;
  int budgets[MAX_LIST], n_budgets;
  char setting[96];
  char tag[40]; /* tasks: "_" and a second protocol's name, or empty */
  const char *params[MAX_LIST]; /* KEY=VALUE for the policies that take them */
  int n_params;
  ucm_counters_t before;
  cost_sum_t cost;
} runner_t;

static int runner_init(runner_t *r, const llm_model_t *m) {
  llm_state_init(&r->state, m, malloc(llm_state_bytes(m)));
  r->m = m;
  ucm_geom_t geom = {.banks = (uint32_t)(m->n_layers * m->n_kv_heads), .slots = (uint32_t)m->seq_len,
                     .dim = (uint32_t)(m->head_size * (r->hw ? r->slices : 1)), .cell_bits = (uint32_t)r->cells, .q_bits = 8,
                     .adc_bits = (uint32_t)r->adc_bits, .adc_count = 64, .lanes = 4};
  void *mem = malloc(ucm_model_bytes(&geom));
  if (!mem || ucm_model_init(&r->array_model, &geom, mem) || ucm_open_model(&r->array, &r->array_model)) return -1;
  static const char *const exact[] = {"adc", "cells", "digital"};
  if (r->hw) {
    int used = snprintf(r->setting, sizeof r->setting, "hw_%db", r->cells);
    if (r->slices > 1) used += snprintf(r->setting + used, sizeof r->setting - (size_t)used, "_x%d", r->slices);
    snprintf(r->setting + used, sizeof r->setting - (size_t)used, "_%s%d_s%d", exact[r->exact],
             r->exact == KV_EXACT_ADC ? r->adc_bits : 0, r->sigma);
  } else snprintf(r->setting, sizeof r->setting, "ideal");
  for (int i = 0; i < r->n_params; i++) { /* the parameters name the setting too */
    size_t used = strlen(r->setting);
    snprintf(r->setting + used, sizeof r->setting - used, "+%s", r->params[i]);
  }
  return 0;
}

/* POLICY with its defaults at BUDGET slots, on the backend the setting
   gives it; the array's counters restart. */
static int runner_apply(runner_t *r, kv_policy_kind_t kind, int budget) {
  kv_cache_t *kv = &r->state.kv;
  kv_policy_t p;
  kv_policy_make(&p, kv_policy_name(kind), budget);
  for (int i = 0; i < r->n_params; i++) {
    kv_policy_t with = p;
    if (!kv_policy_param(&with, r->params[i])) p = with;
  }
  if (r->hw || kind == KV_HYBRID) {
    if (kv_use_unicaim(kv, &r->array, 0, r->hw ? r->exact : KV_EXACT_DIGITAL)) return -1;
    ucm_config_t device;
    kv_device_defaults(&device);
    device.sigma = (uint8_t)(r->hw ? r->sigma : 0);
    ucm_configure(&r->array, &device);
  } else {
    kv_use_dense(kv);
  }
  if (kv_set_policy(kv, &p)) return -1;
  ucm_read_counters(&r->array, &r->before);
  r->cost = (cost_sum_t){0, 0, 0, 0, 0};
  return 0;
}

/* After the forward at POS: the array's events since the last, as modeled
   cost, beside the dense baseline's. */
static void runner_account(runner_t *r, int pos) {
  if (r->state.kv.backend != KV_UNICAIM) return;
  ucm_cost_t dense = kv_dense_cost(&r->state.kv, r->m->n_heads, pos, &r->array.geom);
  r->cost.dense_fj += dense.energy_fj;
  r->cost.dense_ps += dense.latency_ps;
  ucm_counters_t now;
  ucm_read_counters(&r->array, &now);
  ucm_cost_t c = ucm_cost_of_counters(r->before.v, now.v, &r->array.geom);
  r->cost.energy_fj += c.energy_fj;
  r->cost.latency_ps += c.latency_ps;
  r->cost.tokens++;
  r->before = now;
}

/* Modeled array and dense-baseline energy (nJ) and latency (ns) per token,
   or empty fields when the policy did not run on the array. */
static void print_cost(const runner_t *r) {
  const cost_sum_t *c = &r->cost;
  if (!c->tokens) {
    printf(",,,,\n");
    return;
  }
  double n = (double)c->tokens;
  printf(",%.3f,%.1f,%.3f,%.1f\n", (double)c->energy_fj / 1e6 / n, (double)c->latency_ps / 1e3 / n,
         (double)c->dense_fj / 1e6 / n, (double)c->dense_ps / 1e3 / n);
}

static const int32_t *forward(runner_t *r, int token, int pos) {
  const int32_t *logits = llm_forward(&r->state, token, pos);
  runner_account(r, pos);
  return logits;
}

static int stories(runner_t *r, int seqs, int len, int prefill) {
  const llm_model_t *m = r->m;
  if (seqs < 1 || len > m->seq_len || prefill < 1 || prefill >= len) {
    fprintf(stderr, "prune_eval: need SEQS >= 1 and 1 <= PREFILL < LEN <= %d\n", m->seq_len);
    return 2;
  }
  const int vocab = m->vocab_size, steps = len - prefill;
  int *seq = malloc(sizeof(int) * (size_t)seqs * (size_t)len);
  double *dense = malloc(sizeof(double) * (size_t)seqs * (size_t)steps * (size_t)vocab);
  int *dense_top = malloc(sizeof(int) * (size_t)seqs * (size_t)steps);
  double *lp = malloc(sizeof(double) * (size_t)vocab);
  int32_t *probs = malloc(sizeof(int32_t) * (size_t)vocab);
  uint16_t *order = malloc(sizeof(uint16_t) * (size_t)vocab);
  double nll_dense = 0;
  kv_use_dense(&r->state.kv);
  kv_policy_t keep = {.kind = KV_KEEP_ALL};
  kv_set_policy(&r->state.kv, &keep);
  for (int s = 0; s < seqs; s++) { /* sample, recording dense log-probabilities */
    llm_sampler_t sampler;
    llm_sampler_init(&sampler, vocab, 65536, 0, (uint64_t)s + 1, probs, order);
    int *t = seq + (size_t)s * (size_t)len;
    t[0] = LLM_TOKEN_BOS;
    for (int pos = 0; pos + 1 < len; pos++) {
      const int32_t *logits = llm_forward(&r->state, t[pos], pos);
      t[pos + 1] = llm_sample(&sampler, logits);
      if (pos + 1 >= prefill) {
        size_t at = (size_t)s * (size_t)steps + (size_t)(pos + 1 - prefill);
        logits_log_softmax(logits, vocab, dense + at * (size_t)vocab);
        dense_top[at] = logits_argmax(logits, vocab);
        nll_dense -= dense[at * (size_t)vocab + (size_t)t[pos + 1]];
      }
    }
  }
  printf("workload,setting,policy,budget_pct,top1_pct,kl_mean,ppl_ratio,evictions,array_nj_per_token,"
         "array_ns_per_token,dense_nj_per_token,dense_ns_per_token\n");
  for (int p = 0; p < r->n_policies; p++) {
    for (int b = 0; b < r->n_budgets; b++) {
      if (runner_apply(r, (kv_policy_kind_t)r->policies[p], r->budgets[b] * len / 100)) return 2;
      long agree = 0, total = 0;
      double kl = 0, nll = 0;
      for (int s = 0; s < seqs; s++) {
        const int *t = seq + (size_t)s * (size_t)len;
        kv_begin(&r->state.kv, prefill);
        for (int pos = 0; pos + 1 < len; pos++) {
          const int32_t *logits = forward(r, t[pos], pos);
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
      double top1 = 100.0 * (double)agree / (double)total;
      printf("stories,%s,%s,%d,%.2f,%.5f,%.4f,%lu", r->setting, kv_policy_name(r->policies[p]), r->budgets[b],
             top1, kl / (double)total, exp((nll - nll_dense) / (double)total),
             (unsigned long)r->state.kv.evictions);
      print_cost(r);
      printf("BENCH acc_top1_%s_b%d%s%s %.2f pct\n", kv_policy_name(r->policies[p]), r->budgets[b],
             r->hw ? "_" : "", r->hw ? r->setting : "", top1);
      fflush(stdout);
      if (r->state.kv.error) {
        fprintf(stderr, "prune_eval: array: %s\n", ucm_strerror(r->state.kv.error));
        return 1;
      }
    }
  }
  return 0;
}

static const char *const task_kinds[] = {"passkey", "recall", "twohop"};
enum { TASK_KINDS = sizeof task_kinds / sizeof task_kinds[0] };

/* Exact match over every answer, and per task kind (percent). */
typedef struct {
  double all, kind[TASK_KINDS];
} em_t;

/* Exact-match answers of every task of PATH under the current policy, its
   budget PCT percent of each task's length. all < 0 on failure. */
static em_t tasks_em(runner_t *r, const char *path, kv_policy_kind_t kind, int pct) {
  em_t em = {-1, {0, 0, 0}};
  const llm_model_t *m = r->m;
  FILE *f = fopen(path, "r");
  if (!f) return em;
  retr_task_t task;
  task.tokens = malloc(sizeof(int) * (size_t)m->seq_len);
  unsigned char *wrong = malloc((size_t)m->seq_len);
  long hit = 0, total = 0, kind_hit[TASK_KINDS] = {0}, kind_total[TASK_KINDS] = {0};
  int line = 0, got, first = 1;
  uint32_t evictions = 0;
  while ((got = task_file_next(f, path, &line, &task, m->seq_len, m->vocab_size)) == 1) {
    /* Each task its own budget; the array's cost adds up over the tasks. */
    cost_sum_t sum = r->cost;
    if (runner_apply(r, kind, pct * task.n / 100)) break;
    if (!first) r->cost = sum;
    first = 0;
    kv_begin(&r->state.kv, task.span_start[0]);
    for (int pos = 0; pos + 1 < task.n; pos++)
      wrong[pos] = logits_argmax(forward(r, task.tokens[pos], pos), m->vocab_size) != task.tokens[pos + 1];
    evictions += r->state.kv.evictions;
    int k = 0;
    while (k < TASK_KINDS && strcmp(task.kind, task_kinds[k])) k++;
    for (int s = 0; s < task.n_spans; s++) {
      int missed = 0;
      for (int pos = task.span_start[s] - 1; pos < task.span_end[s] - 1; pos++) missed |= wrong[pos];
      hit += !missed;
      total++;
      if (k < TASK_KINDS) kind_hit[k] += !missed, kind_total[k]++;
    }
  }
  fclose(f);
  free(task.tokens);
  free(wrong);
  r->state.kv.evictions = evictions;
  if (got < 0 || !total || r->state.kv.error) return em;
  em.all = 100.0 * (double)hit / (double)total;
  for (int k = 0; k < TASK_KINDS; k++)
    em.kind[k] = kind_total[k] ? 100.0 * (double)kind_hit[k] / (double)kind_total[k] : 0;
  return em;
}

static void print_em(const runner_t *r, const char *policy, int budget, em_t em, double dense) {
  printf("retrieval%s,%s,%s,%d,%.2f,%.3f", r->tag, r->setting, policy, budget, em.all,
         dense > 0 ? em.all / dense : 0.0);
  for (int k = 0; k < TASK_KINDS; k++) printf(",%.2f", em.kind[k]);
  printf(",%lu", (unsigned long)r->state.kv.evictions);
  print_cost(r);
  printf("BENCH retr_em_%s_b%d%s%s%s %.2f pct\n", policy, budget, r->hw ? "_" : "", r->hw ? r->setting : "", r->tag,
         em.all);
  fflush(stdout);
}

static int tasks(runner_t *r, const char *path) {
  em_t dense = tasks_em(r, path, KV_KEEP_ALL, 100);
  if (dense.all < 0) {
    fprintf(stderr, "prune_eval: cannot evaluate %s\n", path);
    return 2;
  }
  printf("workload,setting,policy,budget_pct,em_pct,em_of_dense,em_passkey,em_recall,em_twohop,evictions,"
         "array_nj_per_token,array_ns_per_token,dense_nj_per_token,dense_ns_per_token\n");
  print_em(r, "dense", 100, dense, dense.all);
  for (int p = 0; p < r->n_policies; p++) {
    if (r->policies[p] == KV_KEEP_ALL) continue;
    for (int b = 0; b < r->n_budgets; b++) {
      em_t em = tasks_em(r, path, (kv_policy_kind_t)r->policies[p], r->budgets[b]);
      if (em.all < 0) {
        fprintf(stderr, "prune_eval: %s failed on %s\n", kv_policy_name(r->policies[p]), path);
        return 1;
      }
      print_em(r, kv_policy_name(r->policies[p]), r->budgets[b], em, dense.all);
    }
  }
  return 0;
}

/* Greedy generation of LEN positions (the first LEN/2 a prompt) under every
   policy and budget, the cache's invariants checked after every step. */
static int check(runner_t *r, int len) {
  const llm_model_t *m = r->m;
  if (len < 2 || len > m->seq_len) return 2;
  for (int p = 0; p < r->n_policies; p++) {
    for (int b = 0; b < r->n_budgets; b++) {
      if (runner_apply(r, (kv_policy_kind_t)r->policies[p], r->budgets[b] * len / 100)) return 2;
      kv_begin(&r->state.kv, len / 2);
      int token = LLM_TOKEN_BOS;
      for (int pos = 0; pos < len; pos++) {
        token = logits_argmax(forward(r, token, pos), m->vocab_size);
        if (kv_check(&r->state.kv, pos, m->n_heads / m->n_kv_heads) || r->state.kv.error) {
          printf("%s at %d%%: invariant broken at position %d\n", kv_policy_name(r->policies[p]), r->budgets[b],
                 pos);
          return 1;
        }
      }
    }
  }
  printf("kv invariants hold: %d policies x %d budgets x %d positions\n", r->n_policies, r->n_budgets, len);
  return 0;
}

/* "a,b,c" -> up to MAX_LIST entries via PARSE; -1 on a bad entry. */
static int parse_list(const char *text, int *out, int (*parse)(const char *)) {
  char buf[256];
  int n = 0;
  if (strlen(text) >= sizeof buf) return -1;
  strcpy(buf, text);
  for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) {
    if (n == MAX_LIST || (out[n] = parse(w)) < 0) return -1;
    n++;
  }
  return n ? n : -1;
}

static int policy_index(const char *name) {
  for (int k = 0; k < KV_POLICIES; k++)
    if (!strcmp(name, kv_policy_name((kv_policy_kind_t)k))) return k;
  return -1;
}

static int percent(const char *text) {
  char *end;
  long v = strtol(text, &end, 10);
  return *end || v < 1 || v > 100 ? -1 : (int)v;
}

int main(int argc, char **argv) {
  static const char usage[] = "usage: prune_eval MODEL.ucm stories SEQS LEN PREFILL | tasks FILE | check LEN "
                              "[--policies a,b] [--budgets 10,25] [--set KEY=VALUE] [--hw CELLS:ADC_BITS:SIGMA[:SLICES]] "
                              "[--exact adc|cells|digital] [--tag TAG]\n";
  if (argc < 4) {
    fputs(usage, stderr);
    return 2;
  }
  static runner_t r = {.cells = 3, .adc_bits = 10, .slices = 1,
                       .policies = {KV_STREAMING, KV_H2O, KV_TOVA, KV_SNAPKV, KV_QUEST, KV_HYBRID}, .n_policies = 6,
                       .budgets = {10, 15, 20, 25, 35, 50, 100}, .n_budgets = 7};
  int fixed = !strcmp(argv[2], "stories") ? 6 : 4;
  for (int i = fixed; i < argc; i++) {
    int ok = i + 1 < argc;
    if (ok && !strcmp(argv[i], "--policies")) ok = (r.n_policies = parse_list(argv[++i], r.policies, policy_index)) > 0;
    else if (ok && !strcmp(argv[i], "--budgets")) ok = (r.n_budgets = parse_list(argv[++i], r.budgets, percent)) > 0;
    else if (ok && !strcmp(argv[i], "--exact")) {
      i++;
      r.exact = !strcmp(argv[i], "adc") ? KV_EXACT_ADC : !strcmp(argv[i], "cells") ? KV_EXACT_CELLS : KV_EXACT_DIGITAL;
      ok = r.exact != KV_EXACT_DIGITAL || !strcmp(argv[i], "digital");
    } else if (ok && !strcmp(argv[i], "--set") && r.n_params < MAX_LIST) r.params[r.n_params++] = argv[++i];
    else if (ok && !strcmp(argv[i], "--tag")) snprintf(r.tag, sizeof r.tag, "_%s", argv[++i]);
    else if (ok && !strcmp(argv[i], "--hw"))
      ok = sscanf(argv[++i], "%d:%d:%d:%d", &r.cells, &r.adc_bits, &r.sigma, &r.slices) >= 3 &&
           (r.cells == 1 || r.cells == 3) && r.slices >= 1 && r.slices <= KV_SLICES_MAX && r.adc_bits >= 2 && r.adc_bits <= 16 && r.sigma >= 0 && r.sigma <= 255 && (r.hw = 1);
    else ok = 0;
    if (!ok) {
      fprintf(stderr, "prune_eval: bad option '%s'\n%s", argv[i], usage);
      return 2;
    }
  }
  size_t len = 0;
  void *image = host_read_file(argv[1], &len);
  llm_model_t model;
  const char *error = "cannot read the file";
  if (!image || llm_model_open(&model, image, len, &error)) {
    fprintf(stderr, "prune_eval: %s: %s\n", argv[1], error);
    return 2;
  }
  if (argc < fixed || runner_init(&r, &model)) {
    fputs(usage, stderr);
    return 2;
  }
  if (!strcmp(argv[2], "stories")) return stories(&r, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
  if (!strcmp(argv[2], "tasks")) return tasks(&r, argv[3]);
  if (!strcmp(argv[2], "check")) return check(&r, atoi(argv[3]));
  fprintf(stderr, "prune_eval: unknown mode '%s'\n%s", argv[2], usage);
  return 2;
}
