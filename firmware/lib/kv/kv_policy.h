/* A KV-cache pruning policy: a table of operations in a file of its own
   (policy_<name>.c), listed once in kv_registry.c. The cache (kvcache.c)
   calls the operations; the slot bookkeeping both use is kv_slots.h, the
   attention helpers kv_attend.h. Adding a policy: one file, one registry
   line, its tests.

   A policy's parameters are named in its table with their ranges; their
   values live in kv_policy_t.v at the indices the table gives. Consoles and
   host tools parse, list and describe policies only through this header. */
#ifndef KV_POLICY_H
#define KV_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "kvcache.h"

typedef struct {
  const char *key;    /* "window", "k", ... (NULL ends a table) */
  int index;          /* into kv_policy_t.v */
  int32_t min, max;   /* accepted values (settle may narrow them for the budget) */
  const char *help;   /* one line, with the default */
} kv_param_t;

enum {
  KV_POLICY_NO_BUDGET = 1, /* keeps everything: takes no budget */
  KV_POLICY_ARRAY = 2,     /* runs on the block backend only */
  KV_POLICY_STEP_SCORES = 4,  /* the score row restarts every step */
  KV_POLICY_LAYER_SCORES = 8, /* every query head of the layer adds to kv head 0's score row */
  KV_POLICY_EVICT_AFTER_STEP = 16, /* a full cache takes the new position first; the victim leaves
                                      after the layer's step (kv_end_step), chosen by that step's scores */
  KV_POLICY_PROMPT_ANY_BUDGET = 32, /* the prompt leaves the same cache (before its compression) at any
                                       budget: an evaluation may read it once for all of them */
};

struct kv_policy_ops {
  const char *name;
  const char *summary; /* one line: what it keeps, whose algorithm */
  const kv_param_t *params;
  unsigned flags;
  /* Parameters for p->budget (v[] is zero on entry). */
  void (*defaults)(kv_policy_t *p);
  /* Checks the parameters against each other and SLOTS (per bank), derives
     what depends on them; NULL when they fit, else a one-line reason. */
  const char *(*settle)(kv_policy_t *p, int slots);
  /* What P needs of the cache it is set on beyond its slots (data the
     backend must hold); NULL when KV has it, else a one-line reason.
     NULL hook: nothing. */
  const char *(*fits)(const kv_policy_t *p, const kv_cache_t *kv);
  /* Positions kept when the prompt ends, and held at most while generating
     (NULL: the budget for both). */
  int (*prompt_keep)(const kv_policy_t *p, int slots);
  int (*capacity)(const kv_policy_t *p, int slots);
  /* At the start of each sequence, after the banks were cleared (block
     settings the policy owns). NULL: nothing. */
  void (*configure)(kv_cache_t *kv);
  /* Once when the prompt is in, before any bank is compressed (NULL:
     nothing). */
  void (*prompt_end)(kv_cache_t *kv);
  /* Compress (layer, kvh)'s prompt to kv->prompt_keep positions, adding
     the drops to kv->evictions (it may do the layer's other heads too: it
     is called only for heads that hold more). NULL: drop the victim until
     that many are left. */
  void (*compress)(kv_cache_t *kv, int layer, int kvh);
  /* The slot whose position makes room for POS (a slot holding one). */
  int (*victim)(kv_cache_t *kv, int layer, int kvh, int pos);
  /* After POS was stored in SLOT. NULL: nothing. */
  void (*stored)(kv_cache_t *kv, int layer, int kvh, int pos, int slot, const int16_t *key, int32_t key_scale);
  /* The step's attention. NULL: every cached position (kv_attend_cached),
     the probabilities added to score_row's row when it gives one. */
  void (*attend)(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                 const int32_t *head_factor, int32_t *const *out);
  int32_t *(*score_row)(kv_cache_t *kv, int layer, int kvh, int pos);
  /* Positions the policy never lets go at POS (kv_check): [*lo, pos] and
     the first *sinks. NULL: only POS itself. */
  void (*must_keep)(const kv_cache_t *kv, int h, int pos, int *lo, int *sinks);
  /* Variants measured beside the policy (prune_eval --ablations), each
     "tag: key=value ..." applied over ABLATION_BASE (NULL: none). */
  const char *ablation_base;
  const char *const *ablations;
};

/* The registry (kv_registry.c): policies in listing order, NULL-ended. */
extern const kv_policy_ops_t *const kv_policies[];
/* The policy called NAME, or NULL. */
const kv_policy_ops_t *kv_policy_find(const char *name);

/* The policy with BUDGET and its defaults. */
void kv_policy_make(kv_policy_t *p, const kv_policy_ops_t *ops, int budget);
/* Sets one parameter from "KEY=VALUE"; NULL, or the reason it was refused
   (written to ERR). */
const char *kv_policy_param(kv_policy_t *p, const char *assignment, char *err, size_t size);
/* The policy from words: NAME [BUDGET [KEY=VALUE...]], BUDGET in positions
   (1..MAX_BUDGET) or "P%" (P percent of MAX_BUDGET, the context)
   (no budget for KV_POLICY_NO_BUDGET), checked against SLOTS per bank.
   NULL, or a one-line reason in ERR naming the bad word and its range. */
const char *kv_policy_parse(kv_policy_t *p, int argc, char *const *argv, int max_budget, int slots, char *err,
                            size_t size);
/* The same from the host tools' spelling: the words joined by colons, e.g.
   "NAME:64" or "NAME:128:k=32:m=12". */
const char *kv_policy_from_spec(kv_policy_t *p, const char *spec, int max_budget, int slots, char *err,
                                size_t size);
/* "name, budget B positions, key value, ..." (for consoles and logs). */
void kv_policy_describe(const kv_policy_t *p, char *out, size_t size);
/* The names, comma-separated, for usage lines. */
void kv_policy_names(char *out, size_t size);
/* NULL when parameter KEY of P is below its budget (or equal, with
   OR_EQUAL), else the reason (for a policy's settle). */
const char *kv_param_within_budget(const kv_policy_t *p, const char *key, int or_equal);
/* The parameter of P's policy called KEY, or NULL. */
const kv_param_t *kv_policy_find_param(const kv_policy_ops_t *ops, const char *key, size_t key_len);

#endif
