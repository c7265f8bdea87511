/* The UniCAIM policies' shared parameters and steps: policy_unicaim.c is the
   paper's algorithm (its parameters only: H, M, k, the sense line's trim,
   init; linear and alpha for the linear-update ablation);
   policy_unicaim_plus.c adds the project's options, each off in the paper's
   policy. */
#ifndef KV_POLICY_UNICAIM_H
#define KV_POLICY_UNICAIM_H

#include "kv_array.h"
#include "kv_policy.h"
#include "soc_regs.h"

enum {
  UC_H,       /* heavy positions kept when the prompt ends */
  UC_M,       /* slots left free for generated positions */
  UC_K,       /* keys attended per decode step (CAM top-k) */
  UC_ALPHA,   /* charge-sharing shift: acc += (x - acc) >> alpha (linear) */
  UC_INIT,    /* a new slot's accumulator, per mille of its range (of V_pre on the sense line) */
  UC_LINEAR,  /* the linear update instead of the sense line (an ablation) */
  UC_TS,      /* the sense line's sampling time, ps */
  UC_CSL,     /* its capacitance, fF */
  UC_CACC,    /* the accumulation capacitor, fF */
  UC_SCALE,   /* keys and queries at their bank's trimmed scale instead of per token (an ablation) */
  UC_DIGITAL, /* unicaim+'s options from here on (0 in unicaim): probabilities summed digitally */
  UC_RECENT,  /* protect the M newest positions */
  UC_PROTECT, /* probability (per mille) that makes a position critical; 0: off */
  UC_SPAN,    /* positions after a critical one protected with it */
  UC_SPARE,   /* protected positions per bank at most */
  UC_QUESTION,/* only the prompt's last QUESTION queries (and generated ones) mark critical positions */
  UC_OBSERVE, /* only the prompt's last OBSERVE queries accumulate (0: all) */
  UC_ADAPT,   /* adaptive k: of the k, those within ADAPT similarity units of the best */
  UC_BINARY,  /* layers whose banks hold signs only (bit mask) */
  UC_KSHARE,  /* k = (h + m) / KSHARE where k is left to settle */
  UC_PARAMS
};
_Static_assert(UC_PARAMS <= KV_PARAMS_MAX, "kv_policy_t.v holds every unicaim parameter");

#define UC_AUTO (-1) /* h, m, k: derived from the budget by settle */

/* The paper's parameters, in both policies' tables. */
#define UNICAIM_PARAMS                                                                                       \
  {"h", UC_H, 1, 65535, "heavy positions kept when the prompt ends (8/9 of the budget)"},                    \
      {"m", UC_M, 0, 65535, "slots reserved for generated positions (1/9 of the budget; h + m = budget)"},   \
      {"k", UC_K, 1, 65535, "keys attended per decode step by CAM top-k (a share of h + m)"},              \
      {"alpha", UC_ALPHA, 0, 31, "linear=1: charge-sharing shift, acc += (x - acc) >> alpha (2)"},           \
      {"init", UC_INIT, 0, 1000, "a new slot's accumulator, per mille of its range or of V_pre (1000)"},     \
      {"linear", UC_LINEAR, 0, 1, "1: the linear update (an ablation) instead of the sense line (0)"},       \
      {"ts", UC_TS, UCM_SENSE_TS_MIN_PS, UCM_SENSE_TS_MAX_PS, "sense line: sampling time t_s in ps (300)"}, \
      {"csl", UC_CSL, UCM_SENSE_CAP_MIN_FF, 255, "sense line: its capacitance C_SL in fF (20)"},              \
      {"cacc", UC_CACC, UCM_SENSE_CAP_MIN_FF, 255, "sense line: the accumulation capacitor C_ACC in fF (10)"}, \
      {"scale", UC_SCALE, 0, 1, "1: keys and queries at their bank's trimmed scale, not per token (0)"}

void unicaim_defaults(kv_policy_t *p);
/* Derives h, m (8:1 of the budget) and k (1/K_SHARE of h + m) where they
   are left to it, and checks them against the budget and SLOTS. */
const char *unicaim_settle(kv_policy_t *p, int slots, int k_share);
int unicaim_prompt_keep(const kv_policy_t *p, int slots);
int unicaim_capacity(const kv_policy_t *p, int slots);
void unicaim_configure(kv_cache_t *kv);
/* scale=1 needs the banks' trimmed scales in the cache. */
const char *unicaim_fits(const kv_policy_t *p, const kv_cache_t *kv);
int unicaim_victim(kv_cache_t *kv, int layer, int kvh, int pos);
/* One step of (layer, kvh): CAM search of every query (all cached keys
   while the prompt is read, else the top k) with SEARCH_FLAGS, NARROW
   (when set) cutting the N searched down (their similarities in kv->sims),
   exact scores of the selected, softmax and values; AFTER (when set) sees
   the selected slots (kv->selected) and their probabilities. */
typedef struct {
  unsigned search_flags;
  int (*narrow)(kv_cache_t *kv, int pos, int n);
  void (*after)(kv_cache_t *kv, int h, int pos, int n, const int32_t *prob);
} unicaim_step_t;
void unicaim_search_attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                           const int32_t *head_factor, int32_t *const *out, const unicaim_step_t *step);

#endif
