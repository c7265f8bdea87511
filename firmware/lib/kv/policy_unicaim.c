/* unicaim (Xu et al., DAC 2025, "UniCAIM: A Unified CAM/CIM Architecture
   with Static-Dynamic KV Cache Pruning"), the paper's hybrid pruning on the
   array:
   - prefill (static): every prompt query searches its bank with charge
     accumulation on (each valid slot's sense line, precharged to V_pre,
     discharges through its cells' mismatch with the query for t_s and
     shares its charge with the slot's accumulation capacitor:
     acc += (V - acc) C_SL / (C_SL + C_ACC); docs/unicaim.md), attends to
     all cached keys; when the prompt ends, min-detect drops the lowest
     accumulators until H remain, leaving M slots free;
   - decode (dynamic + static): each step's CAM search selects the top k of
     the cached keys (and accumulates), their exact scores go through the
     ADCs, softmax and values over them; a new position takes a free M slot
     and, once none is left, overwrites the min-detect victim. The cache
     never holds more than H + M.
   Defaults: H:M = 8:1 of the budget (the paper's 512:64), k = a fifth of
   the cache (the paper's 81% ADC saving). The new slot's accumulator starts
   at INIT per mille of V_pre (the accumulation capacitor's precharge). The
   trim (t_s 300 ps, C_SL 20 fF, C_ACC 10 fF) and INIT were chosen on the
   development sets (the paper gives none of them: docs/pruning.md);
   linear=1 is the earlier linear update acc += (x - acc) >> alpha, an
   ablation; scale=1 another: keys and queries enter the CAM at their bank's
   trimmed scale (kv_cache_t.bank_scale) instead of each at its own, so
   that the search sees their magnitudes. */
#include "policy_unicaim.h"

#include <stdio.h>

#include "kv_array.h"
#include "kv_attend.h"
#include "kv_slots.h"

void unicaim_defaults(kv_policy_t *p) {
  p->v[UC_H] = p->v[UC_M] = p->v[UC_K] = UC_AUTO;
  p->v[UC_ALPHA] = 2;
  p->v[UC_INIT] = 1000;
  p->v[UC_LINEAR] = 0;
  p->v[UC_TS] = 300;
  p->v[UC_CSL] = UCM_SENSE_CSL_RESET_FF;
  p->v[UC_CACC] = UCM_SENSE_CACC_RESET_FF;
}

const char *unicaim_settle(kv_policy_t *p, int slots, int k_share) {
  static char why[96];
  int32_t *h = &p->v[UC_H], *m = &p->v[UC_M], *k = &p->v[UC_K];
  if (*h == UC_AUTO && *m == UC_AUTO) *m = p->budget / 9;
  if (*h == UC_AUTO) *h = p->budget - *m;
  if (*m == UC_AUTO) *m = p->budget - *h;
  if (*h < 1 || *m < 0 || *h + *m != p->budget) {
    snprintf(why, sizeof why, "h=%ld + m=%ld must equal the budget (%d), h at least 1", (long)*h, (long)*m,
             p->budget);
    return why;
  }
  if (*h + *m > slots) {
    snprintf(why, sizeof why, "h + m = %ld is larger than the bank (%d slots)", (long)(*h + *m), slots);
    return why;
  }
  if (*k == UC_AUTO) *k = (*h + *m) / k_share > 1 ? (*h + *m) / k_share : 1;
  if (*k < 1 || *k > *h + *m) {
    snprintf(why, sizeof why, "k=%ld out of range (1..%ld)", (long)*k, (long)(*h + *m));
    return why;
  }
  return 0;
}

int unicaim_prompt_keep(const kv_policy_t *p, int slots) {
  (void)slots;
  return p->v[UC_H];
}

int unicaim_capacity(const kv_policy_t *p, int slots) {
  (void)slots;
  return p->v[UC_H] + p->v[UC_M];
}

/* The accumulation settings (again at every sequence: the console's
   device settings rewrite them). A new slot's accumulator: INIT per mille
   of the unsigned range (linear) or of V_pre (the sense line, 2^-16 mV);
   unicaim+'s digital sums start at 0. */
const char *unicaim_fits(const kv_policy_t *p, const kv_cache_t *kv) {
  return p->v[UC_SCALE] && !kv->bank_scale ? "scale=1 needs the banks' trimmed scales" : 0;
}

void unicaim_configure(kv_cache_t *kv) {
  const kv_policy_t *p = &kv->policy;
  const ucm_accumulation_t a = {.linear = (uint8_t)p->v[UC_LINEAR],
                                .alpha = (uint8_t)p->v[UC_ALPHA],
                                .sense = {.ts_ps = (uint16_t)p->v[UC_TS],
                                          .vpre_mv = UCM_SENSE_VPRE_RESET_MV,
                                          .csl_ff = (uint8_t)p->v[UC_CSL],
                                          .cacc_ff = (uint8_t)p->v[UC_CACC]}};
  uint64_t top = a.linear ? 0xFFFFFFFFu : (uint64_t)a.sense.vpre_mv << 16;
  uint32_t init = p->v[UC_DIGITAL] ? 0 : (uint32_t)(top * (uint32_t)p->v[UC_INIT] / 1000);
  kv->binary_layers = (uint32_t)p->v[UC_BINARY];
  kv->bank_scaled = p->v[UC_SCALE];
  kv_array_set_accumulation(kv, &a, init);
}

/* Min-detect over the accumulators (protected slots skipped). */
int unicaim_victim(kv_cache_t *kv, int layer, int kvh, int pos) {
  (void)pos;
  return kv_array_victim(kv, kv_head_of(kv, layer, kvh));
}

void unicaim_search_attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                           const int32_t *head_factor, int32_t *const *out, const unicaim_step_t *step) {
  const int h = kv_head_of(kv, layer, kvh);
  const unsigned used = (unsigned)kv->used[h], top = (unsigned)kv->policy.v[UC_K];
  const unsigned k = kv_in_prefill(kv, pos) || top >= used ? used : top;
  for (int j = 0; j < count; j++) {
    kv_load_query(kv, layer, kvh, q[j], head_factor[j]);
    int n = kv_array_search(kv, h, k, step->search_flags, step->narrow ? kv->sims : 0);
    int err = n < 0 ? n : 0;
    if (!err && step->narrow) n = step->narrow(kv, pos, n);
    if (!err) err = kv_exact_scores(kv, layer, kvh, q[j], n, !step->narrow);
    if (err) {
      kv_note_error(kv, err);
      kv_attend_zero(out[j], kv->head_size);
      continue;
    }
    kv_softmax_values(kv, layer, kvh, n, head_factor[j], 0, step->after ? kv->sims : 0, out[j]);
    if (step->after) step->after(kv, h, pos, n, kv->sims);
  }
}

static const char *settle(kv_policy_t *p, int slots) {
  return unicaim_settle(p, slots, 5);
}

/* Every query searches with charge accumulation on. */
static void attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                   const int32_t *head_factor, int32_t *const *out) {
  const unicaim_step_t step = {UCM_SEARCH_ACCUMULATE, 0, 0};
  unicaim_search_attend(kv, layer, kvh, pos, count, q, head_factor, out, &step);
}

static const kv_param_t params[] = {
    UNICAIM_PARAMS,
    {0, 0, 0, 0, 0},
};

const kv_policy_ops_t kv_policy_unicaim = {
    .name = "unicaim",
    .summary = "charge-domain accumulated similarity keeps H, CAM top-k, min-detect into H + M (Xu et al., DAC 2025)",
    .params = params,
    .flags = KV_POLICY_ARRAY | KV_POLICY_PROMPT_ANY_BUDGET,
    .defaults = unicaim_defaults,
    .settle = settle,
    .fits = unicaim_fits,
    .prompt_keep = unicaim_prompt_keep,
    .capacity = unicaim_capacity,
    .configure = unicaim_configure,
    .victim = unicaim_victim,
    .attend = attend,
};
