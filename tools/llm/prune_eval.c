/* prune_eval: KV-cache pruning policies against dense attention, on the
   firmware's integer inference (the same code the SoC runs).
   usage: prune_eval --list                                        -- the policies and their parameters
          prune_eval MODEL.ucm stories SEQS LEN PREFILL [OPTIONS]  -- local fidelity
          prune_eval MODEL.ucm tasks FILE [OPTIONS]                -- retrieval exact match
          prune_eval MODEL.ucm gen FILE [OPTIONS]                  -- long-context tasks, generated answers
          prune_eval MODEL.ucm check LEN [OPTIONS]                 -- the cache's invariants
   OPTIONS: --policies a,b,..  (default "all": every policy but the reference;
                               "none": the reference alone;
                               "array": those that run on the array)
            --budgets 10,15,.. (percent of the sequence; default 10,20,25,50)
            --set KEY=VALUE    a policy parameter, for the policies that take it
            --set NAME.KEY=VALUE  the same for one policy
            --sweep KEY=A,B..  instead of --policies: every policy that has KEY,
                               at each value (tuning; tagged NAME_KEYvalue)
            --ablations        instead of --policies: each policy's variants
                               (kv_policy_ops_t.ablations), each option alone
                               over the policy's base (tagged NAME_TAG)
            --hw [CELLS:ADC_BITS:SIGMA[:SLICES]]  hardware effects: every policy
                               through the golden model of the array (CELLS-bit
                               cells, ADC_BITS converters, cell variation SIGMA/64
                               levels, SLICES cells per key component); alone:
                               3:10:0:3, the simulator's array ("hw" in names)
            --exact adc|cells|digital  with --hw: exact scores through the ADCs
                               (default), from the cells without them, or from
                               the cached keys (then only the selection is analog)
            --top-k K          with --hw: the CAM's K best keys attended at every
                               position by the policies without a k of their own
                               (the console's "kv unicaim K"; "_kK" in names)
            --positions N      instead of --budgets: a budget of N positions
                               ("_nN" in BENCH names)
            --slots N          slots per bank (default: the context), e.g. the
                               paper's 576 for a 1024-token model (the
                               reference, which cannot fit, runs in software)
            --seed-base N      stories: sequence s is sampled with seed N + s
            --tag TAG          appended to the setting's name in CSV and BENCH lines
                               (another protocol of the same setting)
            --outputs FILE     gen: every continuation's tokens, a line each
                               ("POLICY BUDGET TASK TOKEN...")
            --journal FILE     gen: each finished task's results are kept in
                               FILE, and a run stopped part way goes on from
                               them (the same results; FILE names its run)
            --unshared         gen: each policy reads the prompt itself
                               (the replay's check)
            --bank-scales FILE[:P]  the banks' trimmed scales for scale=1 (unicaim's
                               per-bank scale ablation): the P-th percentile
                               (default 90) of the key scales and query head
                               factors each bank saw over up to 16 of FILE's
                               prompts (a gen task file: the development set)
   Without --hw ("ideal", the paper's accuracy setting) the policies that
   need the array select on its golden model (its CAM search is quantised by
   nature) with exact scores from the cached keys; the others attend in
   software.
   "stories": SEQS sequences of LEN tokens sampled from the dense model
   (temperature 1); the first PREFILL are the prompt; over the positions
   after it, top-1 agreement with dense, mean KL(dense || policy) and the
   perplexity ratio.
   "tasks": exact match (teacher-forced argmax) of every answer span; the
   prompt ends before the first answer.
   "gen" (tools/llm/smol_tasks.py's files): the prompt is read once with
   dense attention and replayed into each policy's cache (prompt_tape.h),
   then the greedy continuation is scored by RULER's string_match_all (the
   share of the expected strings in it); the first generated token is the
   dense reference's under the one prompt rule. Without --slots the array's
   banks hold min(context, 4096) slots.
   Each figure comes with a 95% bootstrap confidence interval over its
   sequences or tasks. Prints CSV rows (with the array's modeled energy and
   latency per token when a policy ran on it, beside the same array without
   pruning) and BENCH lines. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bank_scales.h"
#include "crc32.h"
#include "gen_journal.h"
#include "host_file.h"
#include "host_kernels.h"
#include "kv_array.h"
#include "kv_cost.h"
#include "kv_policy.h"
#include "llm_model.h"
#include "logits.h"
#include "prompt_tape.h"
#include "sampler.h"
#include "task_file.h"
#include "tokenizer.h"
#include "transformer.h"
#include "ucm.h"
#include "ucm_model.h"
#include "ucm_arrays.h"
#include "ucm_energy.h"

enum { MAX_LIST = 16, MAX_ITEMS = 32, BOOTSTRAP = 2000 };

/* One policy as run: its parameters over the defaults (a variant's, or
   none), named TAG in CSV and BENCH lines. */
typedef struct {
  const kv_policy_ops_t *ops;
  const char *base, *variant; /* "key=value ..." or NULL */
  char tag[48];
} item_t;

static cost_sum_t cost_sum(cost_sum_t a, cost_sum_t b) {
  return (cost_sum_t){a.energy_fj + b.energy_fj, a.latency_ps + b.latency_ps, a.tokens + b.tokens,
                      a.dense_fj + b.dense_fj, a.dense_ps + b.dense_ps};
}

typedef struct {
  const llm_model_t *m;
  llm_state_t state;
  void *arena;       /* the state's */
  size_t arena_bytes;
  ucm_model_t array_model;
  void *array_mem;   /* the model's */
  size_t array_bytes;
  ucm_t array;
  int hw, cells, adc_bits, sigma, slices, slots; /* hw: every policy on the array with its ADC and variation */
  int context;                               /* gen: the longest task's positions (sizes the banks) */
  int top_k;                                 /* the block's top-k for policies without their own (hw; 0: all) */
  kv_exact_t exact;                          /* where the array's exact scores come from (hw) */
  const char *bank_tasks;                    /* --bank-scales: the development prompts that trim them */
  int bank_percentile;
  int32_t *bank_scale;                       /* kv_cache_t.bank_scale */
  item_t items[MAX_ITEMS]; /* what runs: policies, or their ablation variants */
  int n_items;
  int budgets[MAX_LIST], n_budgets;
  unsigned seed_base;
  char setting[96];
  const char *tag; /* appended to the setting's name (another protocol, say) */
  const char *params[MAX_LIST]; /* [NAME.]KEY=VALUE */
  int n_params;
  ucm_counters_t before;
  cost_sum_t cost;
} runner_t;

/* ---------------------------------------------------------------- statistics */

/* Mean of X[0..N) with W[i] weights (NULL: 1), and its 95% percentile
   bootstrap interval over the N units (fixed seed: the same data give the
   same interval). */
typedef struct {
  double mean, lo, hi;
} estimate_t;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static estimate_t bootstrap(const double *x, const double *w, int n) {
  estimate_t e = {0, 0, 0};
  double sx = 0, sw = 0;
  for (int i = 0; i < n; i++) sx += x[i], sw += w ? w[i] : 1;
  if (n == 0 || sw <= 0) return e;
  e.mean = sx / sw;
  static double means[BOOTSTRAP];
  uint64_t rng = 0x9E3779B97F4A7C15ull;
  for (int b = 0; b < BOOTSTRAP; b++) {
    double bx = 0, bw = 0;
    for (int i = 0; i < n; i++) {
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      int k = (int)((rng >> 33) % (uint64_t)n);
      bx += x[k], bw += w ? w[k] : 1;
    }
    means[b] = bw > 0 ? bx / bw : 0;
  }
  qsort(means, BOOTSTRAP, sizeof means[0], cmp_double);
  e.lo = means[BOOTSTRAP * 25 / 1000];
  e.hi = means[BOOTSTRAP * 975 / 1000 - 1];
  return e;
}

/* ---------------------------------------------------------------- runner */

/* NAME as BENCH names spell it ('+' as "plus"), then "_" and the variant's
   tag when there is one. */
static void item_init(item_t *it, const kv_policy_ops_t *ops, const char *base, const char *variant) {
  size_t n = 0;
  it->ops = ops;
  it->base = base;
  it->variant = variant;
  for (const char *c = ops->name; *c && n + 5 < sizeof it->tag; c++) {
    if (*c == '+') n += (size_t)snprintf(it->tag + n, sizeof it->tag - n, "plus");
    else it->tag[n++] = *c;
  }
  it->tag[n] = '\0';
  if (variant) snprintf(it->tag + n, sizeof it->tag - n, "_%.*s", (int)strcspn(variant, ":"), variant);
}

static int runner_init(runner_t *r, const llm_model_t *m) {
  r->arena_bytes = llm_state_bytes(m, LLM_MAX_BATCH);
  if (!(r->arena = malloc(r->arena_bytes))) return -1;
  llm_state_init(&r->state, m, r->arena, LLM_MAX_BATCH);
  r->m = m;
  ucm_geom_t geom = UCM_ARRAY_SIM; /* the simulator's device, in this model's shape and the run's cells */
  geom.banks = (uint32_t)(m->n_layers * m->n_kv_heads);
  int context = r->context ? r->context : m->seq_len; /* the positions a run reaches */
  if (context > UCM_MODEL_MAX_SLOTS) context = UCM_MODEL_MAX_SLOTS;
  geom.slots = (uint32_t)(r->slots ? r->slots : (context + (int)geom.lanes - 1) / (int)geom.lanes * (int)geom.lanes);
  geom.dim = (uint32_t)(m->head_size * (r->hw ? r->slices : 1));
  geom.cell_bits = (uint32_t)r->cells;
  geom.adc_bits = (uint32_t)r->adc_bits;
  r->array_bytes = ucm_model_bytes(&geom);
  r->array_mem = malloc(r->array_bytes);
  if (!r->array_mem || ucm_model_init(&r->array_model, &geom, r->array_mem) ||
      ucm_open_model(&r->array, &r->array_model))
    return -1;
  static const char *const exact[] = {"adc", "cells", "digital"};
  int canonical = r->hw && r->cells == 3 && r->adc_bits == 10 && !r->sigma && r->slices == 3 && r->exact == KV_EXACT_ADC &&
                  !r->top_k;
  if (canonical) {
    snprintf(r->setting, sizeof r->setting, "hw");
  } else if (r->hw) {
    int used = snprintf(r->setting, sizeof r->setting, "hw_%db", r->cells);
    if (r->slices > 1) used += snprintf(r->setting + used, sizeof r->setting - (size_t)used, "_x%d", r->slices);
    used += snprintf(r->setting + used, sizeof r->setting - (size_t)used, "_%s%d_s%d", exact[r->exact],
                     r->exact == KV_EXACT_ADC ? r->adc_bits : 0, r->sigma);
    if (r->top_k) snprintf(r->setting + used, sizeof r->setting - (size_t)used, "_k%d", r->top_k);
  } else {
    snprintf(r->setting, sizeof r->setting, "ideal");
  }
  if (r->slots) {
    size_t used = strlen(r->setting);
    snprintf(r->setting + used, sizeof r->setting - used, "_slots%d", r->slots);
  }
  if (r->tag) { /* "ideal" + tag is the tag alone */
    if (!strcmp(r->setting, "ideal")) r->setting[0] = '\0';
    size_t used = strlen(r->setting);
    snprintf(r->setting + used, sizeof r->setting - used, "%s%s", used ? "_" : "", r->tag);
  }
  return 0;
}

/* Words "key=value ..." (after a "tag:") set on P; NULL or the reason one
   was refused. */
static const char *apply_words(kv_policy_t *p, const char *words, char *err, size_t size) {
  char buf[160];
  const char *colon = strchr(words, ':');
  snprintf(buf, sizeof buf, "%s", colon ? colon + 1 : words);
  for (char *w = strtok(buf, " "); w; w = strtok(NULL, " "))
    if (kv_policy_param(p, w, err, size)) return err;
  return 0;
}

/* The item's base and variant, then the --set assignments for its policy
   (those naming another policy, or a key it does not have, skipped); NULL
   or the reason one was refused. */
static const char *apply_params(const runner_t *r, const item_t *it, kv_policy_t *p, char *err, size_t size) {
  if (it->base && apply_words(p, it->base, err, size)) return err;
  if (it->variant && apply_words(p, it->variant, err, size)) return err;
  for (int i = 0; i < r->n_params; i++) {
    const char *a = r->params[i], *dot = strchr(a, '.'), *eq = strchr(a, '=');
    if (dot && eq && dot < eq) {
      if ((size_t)(dot - a) != strlen(p->ops->name) || strncmp(a, p->ops->name, (size_t)(dot - a))) continue;
      a = dot + 1;
    } else if (!eq || !kv_policy_find_param(p->ops, a, (size_t)(eq - a))) {
      continue;
    }
    if (kv_policy_param(p, a, err, size)) return err;
  }
  return 0;
}

/* IT at BUDGET positions, on the backend the setting gives it; the array's
   counters restart. */
static int runner_apply(runner_t *r, const item_t *it, int budget) {
  const kv_policy_ops_t *ops = it->ops;
  kv_cache_t *kv = &r->state.kv;
  kv_policy_t p;
  char err[160];
  kv_policy_make(&p, ops, budget);
  const char *why = apply_params(r, it, &p, err, sizeof err);
  /* The reference keeps everything: in software when the banks are too
     small to (--slots), through the array otherwise with --hw. */
  int small_banks = r->slots && r->slots < r->m->seq_len;
  int reference = (ops->flags & KV_POLICY_NO_BUDGET) != 0;
  if ((r->hw && !(reference && small_banks)) || (ops->flags & KV_POLICY_ARRAY) || (small_banks && !reference)) {
    if (kv_use_unicaim(kv, &r->array, (unsigned)r->top_k, r->hw ? r->exact : KV_EXACT_DIGITAL)) return -1;
    ucm_config_t device;
    kv_device_defaults(&device);
    device.sigma = (uint8_t)(r->hw ? r->sigma : 0);
    ucm_configure(&r->array, &device);
  } else {
    kv_use_dense(kv);
  }
  if (!why) why = kv_set_policy(kv, &p);
  if (why) {
    fprintf(stderr, "prune_eval: %s at %d positions: %s\n", it->tag, budget, why);
    return -1;
  }
  ucm_read_counters(&r->array, &r->before);
  r->cost = (cost_sum_t){0, 0, 0, 0, 0};
  return 0;
}

/* Whether the array's cost is modeled: not when the exact scores come from
   the keys in RAM (the ideal setting), since the chip's reads of them are
   not events of the model while the unpruned figure prices them. */
static int costed(const runner_t *r) {
  return kv_on_array(&r->state.kv) && r->state.kv.exact != KV_EXACT_DIGITAL;
}

/* After the forward at POS: the array's events since the last, as modeled
   cost, beside the unpruned array's. */
static void runner_account(runner_t *r, int pos) {
  if (!costed(r)) return;
  ucm_cost_t dense = kv_unpruned_cost(&r->state.kv, r->m->n_heads, pos, &r->array.geom);
  r->cost.dense_fj += dense.energy_fj;
  r->cost.dense_ps += dense.latency_ps;
  ucm_counters_t now;
  ucm_read_counters(&r->array, &now);
  ucm_sense_t trim;
  ucm_read_sense(&r->array, &trim);
  ucm_cost_t c = ucm_cost_of_events(r->before.v, now.v, &r->array.geom, &trim);
  r->cost.energy_fj += c.energy_fj;
  r->cost.latency_ps += c.latency_ps;
  r->cost.tokens++;
  r->before = now;
}

/* Modeled array and unpruned-array energy (nJ) and latency (ns) per token
   of C, or empty fields when the policy did not run on the array with its
   reads (runner_account). */
static void print_cost_of(const cost_sum_t *c) {
  if (!c->tokens) {
    printf(",,,,");
    return;
  }
  double n = (double)c->tokens;
  printf(",%.3f,%.1f,%.3f,%.1f", (double)c->energy_fj / 1e6 / n, (double)c->latency_ps / 1e3 / n,
         (double)c->dense_fj / 1e6 / n, (double)c->dense_ps / 1e3 / n);
}

static void print_cost(const runner_t *r) {
  print_cost_of(&r->cost);
  putchar('\n');
}

static const int32_t *forward(runner_t *r, int token, int pos) {
  const int32_t *logits = llm_forward(&r->state, token, pos);
  runner_account(r, pos);
  return logits;
}

/* A budget: B percent of LEN positions, or with B < 0, -B positions (at
   most LEN). */
static int budget_positions(int b, int len) {
  return b > 0 ? b * len / 100 : -b < len ? -b : len;
}

/* The budget as CSV rows give it: percent of the context SEQ_LEN. */
static int budget_pct(int b, int seq_len) {
  return b > 0 ? b : -b * 100 / seq_len;
}

static void print_bench_name(const char *name, const char *policy, int budget, const char *setting) {
  printf("BENCH %s_%s", name, policy);
  if (budget < 0) printf("_n%d", -budget);
  else if (budget < 100) printf("_b%d", budget);
  if (strcmp(setting, "ideal")) printf("_%s", setting);
}

static void print_bench(const char *name, const char *policy, int budget, const char *setting, estimate_t e,
                        int units) {
  print_bench_name(name, policy, budget, setting);
  printf(" %.2f pct (95%% CI %.2f..%.2f, n=%d)\n", e.mean, e.lo, e.hi, units);
}

/* ---------------------------------------------------------------- stories */

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
  double *lp = malloc(sizeof(double) * (size_t)vocab), *agree = malloc(sizeof(double) * (size_t)seqs);
  int32_t *probs = malloc(sizeof(int32_t) * (size_t)vocab);
  uint16_t *order = malloc(sizeof(uint16_t) * (size_t)vocab);
  double nll_dense = 0;
  kv_policy_t keep;
  kv_policy_make(&keep, kv_policies[0], 0);
  kv_use_dense(&r->state.kv); /* the reference: every position, attention in software */
  kv_set_policy(&r->state.kv, &keep);
  for (int s = 0; s < seqs; s++) { /* sample, recording the reference's log-probabilities */
    llm_sampler_t sampler;
    llm_sampler_init(&sampler, vocab, 65536, 0, (uint64_t)r->seed_base + (uint64_t)s + 1, probs, order);
    int *t = seq + (size_t)s * (size_t)len;
    t[0] = r->m->bos;
    kv_begin(&r->state.kv, prefill);
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
  printf("workload,setting,policy,budget_pct,top1_pct,top1_ci_lo,top1_ci_hi,kl_mean,ppl_ratio,evictions,"
         "array_nj_per_token,array_ns_per_token,unpruned_nj_per_token,unpruned_ns_per_token\n");
  for (int p = 0; p < r->n_items; p++) {
    const item_t *it = &r->items[p];
    for (int b = 0; b < r->n_budgets; b++) {
      if (runner_apply(r, it, budget_positions(r->budgets[b], len))) return 2;
      double kl = 0, nll = 0;
      uint32_t evictions = 0;
      for (int s = 0; s < seqs; s++) {
        const int *t = seq + (size_t)s * (size_t)len;
        long hits = 0;
        kv_begin(&r->state.kv, prefill);
        for (int pos = 0; pos + 1 < len; pos++) {
          const int32_t *logits = forward(r, t[pos], pos);
          if (pos + 1 < prefill) continue;
          size_t at = (size_t)s * (size_t)steps + (size_t)(pos + 1 - prefill);
          const double *d = dense + at * (size_t)vocab;
          logits_log_softmax(logits, vocab, lp);
          for (int i = 0; i < vocab; i++) kl += exp(d[i]) * (d[i] - lp[i]);
          nll -= lp[t[pos + 1]];
          hits += logits_argmax(logits, vocab) == dense_top[at];
        }
        agree[s] = 100.0 * (double)hits / steps;
        evictions += r->state.kv.evictions;
      }
      estimate_t top1 = bootstrap(agree, 0, seqs);
      double total = (double)seqs * steps;
      printf("stories,%s,%s,%d,%.2f,%.2f,%.2f,%.5f,%.4f,%lu", r->setting, it->tag, budget_pct(r->budgets[b], len),
             top1.mean, top1.lo, top1.hi, kl / total, exp((nll - nll_dense) / total), (unsigned long)evictions);
      print_cost(r);
      print_bench("acc_top1", it->tag, r->budgets[b], r->setting, top1, seqs);
      fflush(stdout);
      if (r->state.kv.error) {
        fprintf(stderr, "prune_eval: array: %s\n", ucm_strerror(r->state.kv.error));
        return 1;
      }
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- tasks */

static const char *const task_kinds[] = {"passkey", "recall", "twohop"};
enum { TASK_KINDS = sizeof task_kinds / sizeof task_kinds[0], MAX_TASKS = 4096 };

/* Exact match per task (the fraction of its answers right) and per kind. */
typedef struct {
  int n;
  double hit[MAX_TASKS], answers[MAX_TASKS];
  int kind[MAX_TASKS];
  uint32_t evictions;
} em_run_t;

/* Every task of PATH under IT at PCT percent of each task's length. -1 on
   failure. */
static int tasks_em(runner_t *r, const char *path, const item_t *it, int pct, em_run_t *run) {
  const llm_model_t *m = r->m;
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  retr_task_t task;
  task.tokens = malloc(sizeof(int) * (size_t)m->seq_len);
  unsigned char *wrong = malloc((size_t)m->seq_len);
  int line = 0, got, first = 1;
  run->n = 0;
  run->evictions = 0;
  while ((got = task_file_next(f, path, &line, &task, m->seq_len, m->vocab_size)) == 1 && run->n < MAX_TASKS) {
    cost_sum_t sum = r->cost; /* each task its own budget; the array's cost adds up over the tasks */
    if (runner_apply(r, it, budget_positions(pct, task.n))) break;
    if (!first) r->cost = sum;
    first = 0;
    kv_begin(&r->state.kv, task.span_start[0]);
    for (int pos = 0; pos + 1 < task.n; pos++)
      wrong[pos] = logits_argmax(forward(r, task.tokens[pos], pos), m->vocab_size) != task.tokens[pos + 1];
    run->evictions += r->state.kv.evictions;
    int k = 0;
    while (k < TASK_KINDS && strcmp(task.kind, task_kinds[k])) k++;
    double hits = 0;
    for (int s = 0; s < task.n_spans; s++) {
      int missed = 0;
      for (int pos = task.span_start[s] - 1; pos < task.span_end[s] - 1; pos++) missed |= wrong[pos];
      hits += !missed;
    }
    run->hit[run->n] = 100.0 * hits;
    run->answers[run->n] = task.n_spans;
    run->kind[run->n++] = k;
  }
  fclose(f);
  free(task.tokens);
  free(wrong);
  return got < 0 || got == 1 || !run->n || r->state.kv.error ? -1 : 0;
}

/* The exact match of the run's tasks of kind K (all: K < 0). */
static estimate_t em_of(const em_run_t *run, int k, int *units) {
  static double x[MAX_TASKS], w[MAX_TASKS];
  int n = 0;
  for (int i = 0; i < run->n; i++)
    if (k < 0 || run->kind[i] == k) x[n] = run->hit[i], w[n++] = run->answers[i];
  *units = n;
  return bootstrap(x, w, n);
}

static void print_em(const runner_t *r, const char *tag, const char *policy, int budget, const em_run_t *run,
                     double dense) {
  int units;
  estimate_t all = em_of(run, -1, &units);
  printf("retrieval%s,%s,%s,%d,%.2f,%.2f,%.2f,%.3f", tag, r->setting, policy, budget_pct(budget, r->m->seq_len),
         all.mean, all.lo, all.hi,
         dense > 0 ? all.mean / dense : 0.0);
  for (int k = 0; k < TASK_KINDS; k++) {
    int n;
    printf(",%.2f", em_of(run, k, &n).mean);
  }
  printf(",%lu", (unsigned long)run->evictions);
  print_cost(r);
  char name[64];
  snprintf(name, sizeof name, "retr_em%s", tag);
  print_bench(name, policy, budget, r->setting, all, units);
  fflush(stdout);
}

static int tasks(runner_t *r, const char *path, const char *tag) {
  static em_run_t dense, run;
  item_t reference;
  item_init(&reference, kv_policies[0], 0, 0);
  if (tasks_em(r, path, &reference, 100, &dense)) {
    fprintf(stderr, "prune_eval: cannot evaluate %s\n", path);
    return 2;
  }
  printf("workload,setting,policy,budget_pct,em_pct,em_ci_lo,em_ci_hi,em_of_dense,em_passkey,em_recall,em_twohop,"
         "evictions,array_nj_per_token,array_ns_per_token,unpruned_nj_per_token,unpruned_ns_per_token\n");
  int units;
  double dense_em = em_of(&dense, -1, &units).mean;
  print_em(r, tag, reference.tag, 100, &dense, dense_em);
  for (int p = 0; p < r->n_items; p++) {
    for (int b = 0; b < r->n_budgets; b++) {
      if (tasks_em(r, path, &r->items[p], r->budgets[b], &run)) {
        fprintf(stderr, "prune_eval: %s failed on %s\n", r->items[p].tag, path);
        return 1;
      }
      print_em(r, tag, r->items[p].tag, r->budgets[b], &run, dense_em);
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- generation tasks */

enum { GEN_KINDS = 8 };

/* One (policy, budget)'s scores over the tasks, and its array cost: in
   all, and of the answers' steps alone (a prompt of thousands of positions
   outweighs a dozen answer steps in the first). */
typedef struct {
  double *score; /* [task] percent of the answers found */
  uint32_t evictions;
  cost_sum_t cost, decode;
} gen_run_t;

typedef struct {
  gen_task_t *tasks;     /* the file's, read once */
  char kinds[GEN_KINDS][24];
  int n_kinds, n, *kind; /* kind[task] */
  FILE *outputs;         /* --outputs: every continuation's tokens (of the tasks this invocation runs) */
  int unshared;          /* --unshared: every policy reads the prompt itself */
  const char *journal;   /* --journal: the finished tasks, for a run stopped part way */
  char *run_id;          /* the journal's name for this run */
} gen_set_t;

/* After a replayed prompt of N positions: the array's events since the
   policy was applied, as the prompt's cost, beside the unpruned array's. */
static void runner_account_prompt(runner_t *r, int n) {
  if (!costed(r)) return;
  for (int pos = 0; pos + 1 < n; pos++) {
    ucm_cost_t dense = kv_unpruned_cost(&r->state.kv, r->m->n_heads, pos, &r->array.geom);
    r->cost.dense_fj += dense.energy_fj;
    r->cost.dense_ps += dense.latency_ps;
    r->cost.tokens++;
  }
  runner_account(r, n - 1);
}

/* ASCII case-insensitive: does NEEDLE occur in HAY? */
static int contains(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (; *hay; hay++) {
    size_t i = 0;
    while (i < n && hay[i] && (hay[i] | 0x20 * (hay[i] >= 'A' && hay[i] <= 'Z')) ==
                                  (needle[i] | 0x20 * (needle[i] >= 'A' && needle[i] <= 'Z')))
      i++;
    if (i == n) return 1;
  }
  return 0;
}

/* Greedy continuation of TASK's prompt from FIRST (the token its last
   position chose), up to MAX_NEW tokens or a stop token; RULER's
   string_match_all: percent of the answers found in the text. */
static double continue_and_score(runner_t *r, const gen_task_t *task, int first, const gen_set_t *set,
                                 const char *tag, int budget, int index) {
  const llm_model_t *m = r->m;
  static char text[GEN_MAX_NEW * LLM_DECODE_BYTES];
  char piece[LLM_DECODE_BYTES];
  size_t len = 0;
  int token = first, prev = task->tokens[task->n - 1];
  if (set->outputs) fprintf(set->outputs, "%s %d %d", tag, budget, index);
  for (int i = 0; i < task->max_new && !llm_is_stop(m, token); i++) {
    const char *t = llm_decode(m, prev, token, piece);
    size_t add = strlen(t);
    memcpy(text + len, t, add);
    len += add;
    if (set->outputs) fprintf(set->outputs, " %d", token);
    prev = token;
    if (i + 1 < task->max_new) token = logits_argmax(forward(r, token, task->n + i), m->vocab_size);
  }
  text[len] = '\0';
  if (set->outputs) fputc('\n', set->outputs);
  int found = 0;
  for (int a = 0; a < task->n_answers; a++) found += contains(text, task->answers[a]);
  return 100.0 * found / task->n_answers;
}

/* PATH's tasks into SET (their kinds numbered in order of appearance),
   each checked against the model; the positions the longest reaches
   (prompt and answer), or -1 with the line at fault on stderr. */
static int gen_load(const char *path, const llm_model_t *m, gen_set_t *set) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "prune_eval: cannot read %s\n", path);
    return -1;
  }
  set->tasks = malloc(sizeof *set->tasks * MAX_TASKS);
  set->kind = malloc(sizeof(int) * MAX_TASKS);
  int *tokens = malloc(sizeof(int) * (size_t)m->seq_len);
  int line = 0, got, longest = 0;
  gen_task_t task = {.tokens = tokens};
  while ((got = gen_task_next(f, path, &line, &task, m->seq_len, m->vocab_size)) == 1) {
    int k = 0;
    while (k < set->n_kinds && strcmp(set->kinds[k], task.kind)) k++;
    if (set->n == MAX_TASKS || task.n + task.max_new > m->seq_len || k == GEN_KINDS) {
      fprintf(stderr, "%s:%d: ", path, line);
      if (set->n == MAX_TASKS) fprintf(stderr, "too many tasks\n");
      else if (k == GEN_KINDS) fprintf(stderr, "more than %d kinds of task\n", GEN_KINDS);
      else fprintf(stderr, "the prompt and its answer exceed the model's context\n");
      got = -1;
      break;
    }
    if (k == set->n_kinds) strcpy(set->kinds[set->n_kinds++], task.kind);
    set->kind[set->n] = k;
    gen_task_t *kept = &set->tasks[set->n++];
    *kept = task;
    kept->tokens = malloc(sizeof(int) * (size_t)task.n);
    memcpy(kept->tokens, task.tokens, sizeof(int) * (size_t)task.n);
    if (task.n + task.max_new > longest) longest = task.n + task.max_new;
  }
  fclose(f);
  free(tokens);
  if (got == 0 && !set->n) fprintf(stderr, "prune_eval: %s holds no task\n", path);
  return got < 0 || !set->n ? -1 : longest;
}

/* --bank-scales: up to BANK_CAL_TASKS of the file's prompts, spread over
   it, recorded with dense attention; each bank's trim from what it saw. */
#define BANK_CAL_TASKS 16
static int calibrate_banks(runner_t *r) {
  gen_set_t cal = {0};
  const int banks = r->m->n_layers * r->m->n_kv_heads;
  bank_scales_t samples;
  if (gen_load(r->bank_tasks, r->m, &cal) < 0) return -1;
  if (bank_scales_init(&samples, banks) || !(r->bank_scale = malloc(sizeof(int32_t) * 2 * (size_t)banks))) {
    fprintf(stderr, "prune_eval: out of memory\n");
    return -1;
  }
  const int used = cal.n < BANK_CAL_TASKS ? cal.n : BANK_CAL_TASKS;
  int failed = 0;
  for (int i = 0; i < used && !failed; i++) {
    const gen_task_t *task = &cal.tasks[(size_t)i * (size_t)cal.n / (size_t)used];
    prompt_tape_t tape;
    failed = prompt_tape_record(&tape, &r->state, task->tokens, task->n) || bank_scales_add(&samples, &tape);
    prompt_tape_free(&tape);
  }
  if (failed || bank_scales_trim(&samples, r->bank_percentile, r->bank_scale)) {
    fprintf(stderr, "prune_eval: %s: the banks' scales could not be measured (out of memory?)\n", r->bank_tasks);
    failed = 1;
  } else {
    fprintf(stderr, "prune_eval: bank scales from %d prompts of %s at the %dth percentile\n", used, r->bank_tasks,
            r->bank_percentile);
  }
  bank_scales_free(&samples);
  for (int i = 0; i < cal.n; i++) free(cal.tasks[i].tokens);
  free(cal.tasks);
  free(cal.kind);
  r->state.kv.bank_scale = failed ? 0 : r->bank_scale;
  return failed ? -1 : 0;
}

/* A replayed prompt's cache, array and cost, kept for the item's other
   budgets when its policy leaves the same cache at any budget
   (KV_POLICY_PROMPT_ANY_BUDGET): restored instead of replayed again. */
typedef struct {
  const item_t *item; /* whose replay it holds (NULL: none) */
  void *arena, *array_mem;
  llm_state_t state;
  ucm_model_t array_model;
  ucm_counters_t before;
  cost_sum_t cost;
} replay_copy_t;

static int replay_save(replay_copy_t *c, const runner_t *r, const item_t *it) {
  if (!c->arena) c->arena = malloc(r->arena_bytes);
  if (!c->array_mem) c->array_mem = malloc(r->array_bytes);
  if (!c->arena || !c->array_mem) return -1;
  memcpy(c->arena, r->arena, r->arena_bytes);
  memcpy(c->array_mem, r->array_mem, r->array_bytes);
  c->state = r->state;
  c->array_model = r->array_model;
  c->before = r->before;
  c->cost = r->cost;
  c->item = it;
  return 0;
}

/* The saved replay under the policy runner_apply just set (its budget's
   capacity and prompt budget kept). */
static void replay_restore(const replay_copy_t *c, runner_t *r) {
  const kv_cache_t now = r->state.kv;
  memcpy(r->arena, c->arena, r->arena_bytes);
  memcpy(r->array_mem, c->array_mem, r->array_bytes);
  r->state = c->state;
  r->state.kv.policy = now.policy;
  r->state.kv.capacity = now.capacity;
  r->state.kv.prompt_keep = now.prompt_keep;
  r->array_model = c->array_model;
  r->before = c->before;
  r->cost = c->cost;
}

/* ORDER: the tasks in the order they run, a task of each kind in turn (file
   order within a kind), so that a run stopped part way (--journal) has as
   many of every kind behind it. 0, or -1 when memory runs out. */
static int run_order(const gen_set_t *set, int *order) {
  int seen[GEN_KINDS] = {0}, *rank = malloc(sizeof(int) * (size_t)set->n), placed = 0;
  if (!rank) return -1;
  for (int t = 0; t < set->n; t++) rank[t] = seen[set->kind[t]]++;
  for (int round = 0; placed < set->n; round++)
    for (int t = 0; t < set->n; t++)
      if (rank[t] == round) order[placed++] = t;
  free(rank);
  return 0;
}

/* Every task under the reference and every (item, budget): the prompt read
   once (prompt_tape.h) and replayed into each policy's cache, or with
   --unshared read again by each. RUNS: [1 + items x budgets]. */
static int gen_tasks(runner_t *r, gen_set_t *set, gen_run_t *runs) {
  const llm_model_t *m = r->m;
  const int n_runs = 1 + r->n_items * r->n_budgets;
  replay_copy_t copy = {0};
  gen_journal_t journal = {0};
  journal_result_t *result = calloc((size_t)n_runs, sizeof *result);
  int *order = malloc(sizeof(int) * (size_t)set->n);
  int failed = !result || !order || run_order(set, order) ||
               (set->journal && gen_journal_open(&journal, set->journal, set->run_id, set->n, n_runs));
  for (int step = 0; step < set->n && !failed; step++, copy.item = 0) {
    const int t = order[step];
    const gen_task_t *task = &set->tasks[t];
    if (journal.done && journal.done[t]) { /* finished by an earlier invocation */
      for (int i = 0; i < n_runs; i++) {
        const journal_result_t *done = &journal.results[(size_t)t * (size_t)n_runs + (size_t)i];
        runs[i].score[t] = done->score;
        runs[i].evictions += done->evictions;
        runs[i].cost = cost_sum(runs[i].cost, done->cost);
        runs[i].decode = cost_sum(runs[i].decode, done->decode);
      }
      continue;
    }
    prompt_tape_t tape;
    if (prompt_tape_record(&tape, &r->state, task->tokens, task->n)) {
      fprintf(stderr, "prune_eval: task %d: the prompt could not be read (out of memory?)\n", t + 1);
      prompt_tape_free(&tape);
      failed = 1;
      break;
    }
    runs[0].score[t] = continue_and_score(r, task, tape.first_token, set, kv_policies[0]->name, 100, t);
    result[0] = (journal_result_t){.score = runs[0].score[t]};
    for (int i = 1; i < n_runs && !failed; i++) {
      const item_t *it = &r->items[(i - 1) / r->n_budgets];
      const int pct = r->budgets[(i - 1) % r->n_budgets];
      if (runner_apply(r, it, budget_positions(pct, task->n))) {
        failed = 1;
        break;
      }
      const int reuse = !set->unshared && (it->ops->flags & KV_POLICY_PROMPT_ANY_BUDGET);
      int first = tape.first_token;
      if (reuse && copy.item == it) {
        replay_restore(&copy, r);
      } else {
        if (set->unshared) {
          kv_begin(&r->state.kv, task->n);
          first = logits_argmax(prompt_read(&r->state, task->tokens, task->n), m->vocab_size);
        } else {
          prompt_tape_replay(&tape, &r->state);
        }
        runner_account_prompt(r, task->n);
        if (reuse && replay_save(&copy, r, it)) {
          fprintf(stderr, "prune_eval: out of memory\n");
          failed = 1;
          break;
        }
      }
      const cost_sum_t prompt = r->cost;
      r->cost = (cost_sum_t){0, 0, 0, 0, 0};
      runs[i].score[t] = continue_and_score(r, task, first, set, it->tag, pct, t);
      runs[i].evictions += r->state.kv.evictions;
      result[i] = (journal_result_t){runs[i].score[t], r->state.kv.evictions, cost_sum(prompt, r->cost), r->cost};
      runs[i].cost = cost_sum(runs[i].cost, result[i].cost);
      runs[i].decode = cost_sum(runs[i].decode, result[i].decode);
      if (r->state.kv.error) {
        fprintf(stderr, "prune_eval: array: %s\n", ucm_strerror(r->state.kv.error));
        failed = 1;
      }
    }
    prompt_tape_free(&tape);
    if (!failed && set->journal && gen_journal_add(&journal, t, result)) {
      fprintf(stderr, "prune_eval: cannot write %s\n", set->journal);
      failed = 1;
    }
  }
  gen_journal_close(&journal);
  free(order);
  free(result);
  free(copy.arena);
  free(copy.array_mem);
  return failed ? -1 : 0;
}

/* The mean score of the run's tasks of kind K (all: K < 0). */
static estimate_t gen_of(const gen_set_t *set, const gen_run_t *run, int k) {
  double *x = malloc(sizeof(double) * (size_t)set->n);
  int n = 0;
  for (int i = 0; i < set->n; i++)
    if (k < 0 || set->kind[i] == k) x[n++] = run->score[i];
  estimate_t e = bootstrap(x, 0, n);
  free(x);
  return e;
}

static void print_gen(runner_t *r, const gen_set_t *set, const char *policy, int budget, gen_run_t *run,
                      double dense) {
  estimate_t all = gen_of(set, run, -1);
  printf("ruler,%s,%s,%d,%.2f,%.2f,%.2f,%.3f", r->setting, policy, budget, all.mean, all.lo, all.hi,
         dense > 0 ? all.mean / dense : 0.0);
  for (int k = 0; k < set->n_kinds; k++) printf(",%.2f", gen_of(set, run, k).mean);
  printf(",%lu", (unsigned long)run->evictions);
  print_cost_of(&run->cost);
  print_cost_of(&run->decode);
  putchar('\n');
  print_bench("retr_em", policy, budget, r->setting, all, set->n);
  const cost_sum_t *d = &run->decode;
  if (d->tokens) {
    print_bench_name("retr_decode_nj", policy, budget, r->setting);
    const double n = (double)d->tokens;
    printf(" %.3f nJ/token (the unpruned array %.3f, %lu answer steps)\n", (double)d->energy_fj / 1e6 / n,
           (double)d->dense_fj / 1e6 / n, (unsigned long)d->tokens);
  }
  fflush(stdout);
}

static int gen(runner_t *r, const char *path, gen_set_t *set) {
  const int n_runs = 1 + r->n_items * r->n_budgets;
  gen_run_t *runs = calloc((size_t)n_runs, sizeof *runs);
  for (int i = 0; i < n_runs; i++) runs[i].score = malloc(sizeof(double) * (size_t)set->n);
  if (gen_tasks(r, set, runs)) {
    fprintf(stderr, "prune_eval: cannot evaluate %s\n", path);
    return 2;
  }
  printf("workload,setting,policy,budget_pct,em_pct,em_ci_lo,em_ci_hi,em_of_dense");
  for (int k = 0; k < set->n_kinds; k++) printf(",em_%s", set->kinds[k]);
  printf(",evictions,array_nj_per_token,array_ns_per_token,unpruned_nj_per_token,unpruned_ns_per_token"
         ",decode_nj_per_token,decode_ns_per_token,decode_unpruned_nj_per_token,decode_unpruned_ns_per_token\n");
  const double dense = gen_of(set, &runs[0], -1).mean;
  print_gen(r, set, kv_policies[0]->name, 100, &runs[0], dense);
  for (int i = 1; i < n_runs; i++)
    print_gen(r, set, r->items[(i - 1) / r->n_budgets].tag, r->budgets[(i - 1) % r->n_budgets], &runs[i], dense);
  return 0;
}

/* ---------------------------------------------------------------- check */

/* Greedy generation of LEN positions (the first LEN/2 a prompt) under every
   policy and budget, the cache's invariants checked after every step. */
static int check(runner_t *r, int len) {
  const llm_model_t *m = r->m;
  if (len < 2 || len > m->seq_len) return 2;
  for (int p = 0; p < r->n_items; p++) {
    for (int b = 0; b < r->n_budgets; b++) {
      if (runner_apply(r, &r->items[p], budget_positions(r->budgets[b], len))) return 2;
      kv_begin(&r->state.kv, len / 2);
      int token = m->bos;
      for (int pos = 0; pos < len; pos++) {
        token = logits_argmax(forward(r, token, pos), m->vocab_size);
        if (kv_check(&r->state.kv, pos, m->n_heads / m->n_kv_heads) || r->state.kv.error) {
          printf("%s at %d%%: invariant broken at position %d\n", r->items[p].tag, r->budgets[b], pos);
          return 1;
        }
      }
    }
  }
  printf("kv invariants hold: %d policies x %d budgets x %d positions\n", r->n_items, r->n_budgets, len);
  return 0;
}

/* ---------------------------------------------------------------- options */

/* The registry, one policy a block: name, flags, summary, then its
   parameters as "  key=min..max  help". */
static void list_policies(void) {
  for (int i = 0; kv_policies[i]; i++) {
    const kv_policy_ops_t *ops = kv_policies[i];
    printf("%s%s%s  %s\n", ops->name, ops->flags & KV_POLICY_NO_BUDGET ? " (reference, no budget)" : "",
           ops->flags & KV_POLICY_ARRAY ? " (array)" : "", ops->summary);
    for (const kv_param_t *q = ops->params; q && q->key; q++)
      printf("  %s=%ld..%ld  %s\n", q->key, (long)q->min, (long)q->max, q->help);
  }
}

/* "a,b,c" -> policies; "all": every one but the reference; "array": those
   that run on the array; "none": no policy (the reference alone). -1 on an
   unknown name. */
static int parse_policies(const char *text, runner_t *r) {
  char buf[256];
  r->n_items = 0;
  if (!strcmp(text, "none")) return 0;
  if (!strcmp(text, "all") || !strcmp(text, "array")) {
    for (int i = 1; kv_policies[i] && r->n_items < MAX_ITEMS; i++)
      if (!strcmp(text, "all") || (kv_policies[i]->flags & KV_POLICY_ARRAY))
        item_init(&r->items[r->n_items++], kv_policies[i], 0, 0);
    return 0;
  }
  if (strlen(text) >= sizeof buf) return -1;
  strcpy(buf, text);
  for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) {
    const kv_policy_ops_t *ops = kv_policy_find(w);
    if (!ops || r->n_items == MAX_ITEMS) {
      char names[200];
      kv_policy_names(names, sizeof names);
      fprintf(stderr, "prune_eval: unknown policy '%s' (%s)\n", w, names);
      return -1;
    }
    item_init(&r->items[r->n_items++], ops, 0, 0);
  }
  return r->n_items ? 0 : -1;
}

/* Every policy's ablation variants (kv_policy_ops_t.ablations): the
   variant's base alone, each variant over it, and the policy itself. */
static void ablation_items(runner_t *r) {
  r->n_items = 0;
  for (int i = 0; kv_policies[i]; i++) {
    const kv_policy_ops_t *ops = kv_policies[i];
    if (!ops->ablations) continue;
    for (int v = 0; ops->ablations[v] && r->n_items < MAX_ITEMS; v++)
      item_init(&r->items[r->n_items++], ops, ops->ablation_base, ops->ablations[v]);
  }
}

/* --sweep KEY=A,B,..: every policy that has KEY, at each value (tagged
   NAME_KEYvalue), for tuning on a development set. */
static int sweep_items(const char *text, runner_t *r) {
  static char variants[MAX_ITEMS][48];
  const char *eq = strchr(text, '=');
  char values[160];
  if (!eq || strlen(eq + 1) >= sizeof values) return -1;
  strcpy(values, eq + 1);
  r->n_items = 0;
  for (int i = 0; kv_policies[i]; i++) {
    if (!kv_policy_find_param(kv_policies[i], text, (size_t)(eq - text))) continue;
    char list[160];
    strcpy(list, values);
    for (char *v = strtok(list, ","); v && r->n_items < MAX_ITEMS; v = strtok(NULL, ",")) {
      char *variant = variants[r->n_items];
      snprintf(variant, sizeof variants[0], "%.*s%s: %.*s=%s", (int)(eq - text), text, v, (int)(eq - text), text, v);
      item_init(&r->items[r->n_items++], kv_policies[i], 0, variant);
    }
  }
  return r->n_items ? 0 : -1;
}

static int parse_budgets(const char *text, runner_t *r) {
  char buf[256], *end;
  r->n_budgets = 0;
  if (strlen(text) >= sizeof buf) return -1;
  strcpy(buf, text);
  for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) {
    long v = strtol(w, &end, 10);
    if (*end || v < 1 || v > 100 || r->n_budgets == MAX_LIST) return -1;
    r->budgets[r->n_budgets++] = (int)v;
  }
  return r->n_budgets ? 0 : -1;
}

/* The journal's name for this run: the command line but where its files go,
   and the task file's CRC. NULL when the task file cannot be read. */
static char *run_id(int argc, char **argv) {
  size_t len, bytes = 32;
  for (int i = 1; i < argc; i++) bytes += strlen(argv[i]) + 1;
  char *id = malloc(bytes);
  uint8_t *tasks = host_read_file(argv[3], &len);
  if (!id || !tasks) {
    free(id);
    free(tasks);
    return NULL;
  }
  id[0] = '\0';
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--journal") || !strcmp(argv[i], "--outputs")) {
      i++;
      continue;
    }
    strcat(strcat(id, argv[i]), " ");
  }
  sprintf(id + strlen(id), "tasks-crc=%08" PRIx32, crc32_update(0, tasks, len));
  free(tasks);
  return id;
}

int main(int argc, char **argv) {
  static const char usage[] =
      "usage: prune_eval --list | MODEL.ucm stories SEQS LEN PREFILL | tasks FILE | gen FILE | check LEN "
      "[--policies a,b|all|array|none | --ablations | --sweep KEY=A,B] [--budgets 10,25] [--set [NAME.]KEY=VALUE] [--hw [CELLS:ADC_BITS:SIGMA[:SLICES]]] "
      "[--positions N] [--exact adc|cells|digital] [--top-k K] [--slots N] [--seed-base N] [--tag TAG] "
      "[--outputs FILE] [--journal FILE] [--unshared] [--bank-scales FILE[:P]]\n";
  if (argc == 2 && !strcmp(argv[1], "--list")) {
    list_policies();
    return 0;
  }
  if (argc < 4) {
    fputs(usage, stderr);
    return 2;
  }
  static runner_t r = {.cells = 3, .adc_bits = 10, .slices = 1, .budgets = {10, 20, 25, 50}, .n_budgets = 4};
  static gen_set_t set;
  parse_policies("all", &r);
  int fixed = !strcmp(argv[2], "stories") ? 6 : 4;
  for (int i = fixed; i < argc; i++) {
    int ok = i + 1 < argc;
    if (!strcmp(argv[i], "--hw") && (i + 1 == argc || argv[i + 1][0] == '-')) {
      r.hw = 1, r.slices = 3, ok = 1;
    } else if (ok && !strcmp(argv[i], "--policies")) {
      ok = !parse_policies(argv[++i], &r);
    } else if (ok && !strcmp(argv[i], "--sweep")) {
      ok = !sweep_items(argv[++i], &r);
    } else if (!strcmp(argv[i], "--ablations")) {
      ablation_items(&r), ok = r.n_items > 0;
    } else if (ok && !strcmp(argv[i], "--budgets")) {
      ok = !parse_budgets(argv[++i], &r);
    } else if (ok && !strcmp(argv[i], "--exact")) {
      i++;
      r.exact = !strcmp(argv[i], "adc") ? KV_EXACT_ADC : !strcmp(argv[i], "cells") ? KV_EXACT_CELLS : KV_EXACT_DIGITAL;
      ok = r.exact != KV_EXACT_DIGITAL || !strcmp(argv[i], "digital");
    } else if (ok && !strcmp(argv[i], "--set") && r.n_params < MAX_LIST) {
      r.params[r.n_params++] = argv[++i];
    } else if (ok && !strcmp(argv[i], "--outputs")) {
      ok = (set.outputs = fopen(argv[++i], "w")) != NULL;
    } else if (ok && !strcmp(argv[i], "--journal")) {
      set.journal = argv[++i];
    } else if (ok && !strcmp(argv[i], "--bank-scales")) {
      char *colon = strrchr(argv[++i], ':');
      r.bank_tasks = argv[i], r.bank_percentile = 90;
      if (colon) *colon = '\0', r.bank_percentile = atoi(colon + 1);
      ok = r.bank_percentile >= 1 && r.bank_percentile <= 100;
    } else if (!strcmp(argv[i], "--unshared")) {
      set.unshared = 1, ok = 1;
    } else if (ok && !strcmp(argv[i], "--tag")) {
      r.tag = argv[++i];
    } else if (ok && !strcmp(argv[i], "--positions")) {
      r.budgets[0] = -atoi(argv[++i]), r.n_budgets = 1;
      ok = r.budgets[0] <= -1 && r.budgets[0] >= -65535;
    } else if (ok && !strcmp(argv[i], "--top-k")) {
      r.top_k = atoi(argv[++i]);
      ok = r.top_k >= 1 && r.top_k <= 65535;
    } else if (ok && !strcmp(argv[i], "--slots")) {
      r.slots = atoi(argv[++i]);
      ok = r.slots >= 1 && r.slots <= 4096;
    } else if (ok && !strcmp(argv[i], "--seed-base")) {
      r.seed_base = (unsigned)strtoul(argv[++i], NULL, 10);
    } else if (ok && !strcmp(argv[i], "--hw")) {
      r.slices = 1;
      ok = sscanf(argv[++i], "%d:%d:%d:%d", &r.cells, &r.adc_bits, &r.sigma, &r.slices) >= 3 &&
           (r.cells == 1 || r.cells == 3) && r.slices >= 1 && r.slices <= KV_SLICES_MAX && r.adc_bits >= 2 &&
           r.adc_bits <= 16 && r.sigma >= 0 && r.sigma <= 255 && (r.hw = 1);
    } else {
      ok = 0;
    }
    if (!ok) {
      fprintf(stderr, "prune_eval: bad option '%s'\n%s", argv[i], usage);
      return 2;
    }
  }
  llm_model_t model;
  if (host_open_model("prune_eval", argv[1], &model)) return 2;
  if (r.top_k && !r.hw) {
    fprintf(stderr, "prune_eval: --top-k needs --hw (it is the array's)\n");
    return 2;
  }
  if (!strcmp(argv[2], "gen") && (r.context = gen_load(argv[3], &model, &set)) < 0) return 2;
  if (set.journal && strcmp(argv[2], "gen")) {
    fprintf(stderr, "prune_eval: --journal is for gen's tasks\n");
    return 2;
  }
  if (set.journal && !(set.run_id = run_id(argc, argv))) {
    fprintf(stderr, "prune_eval: %s: cannot read it\n", argv[3]);
    return 2;
  }
  if (argc < fixed || runner_init(&r, &model)) {
    fputs(usage, stderr);
    return 2;
  }
  if (r.bank_tasks && calibrate_banks(&r)) return 2;
  if (!strcmp(argv[2], "stories")) return stories(&r, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
  if (!strcmp(argv[2], "tasks")) return tasks(&r, argv[3], "");
  if (!strcmp(argv[2], "check")) return check(&r, atoi(argv[3]));
  if (!strcmp(argv[2], "gen")) {
    host_kernels_install(); /* the same integer results, vectorized */
    int rc = gen(&r, argv[3], &set);
    if (set.outputs) fclose(set.outputs);
    free(set.run_id);
    return rc;
  }
  fprintf(stderr, "prune_eval: unknown mode '%s'\n%s", argv[2], usage);
  return 2;
}
