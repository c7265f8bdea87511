/* unicaim+: the paper's policy (policy_unicaim.c) with the project's
   options, each measured as an ablation beside it (docs/pruning.md):
   - digital=1: the softmax probabilities of the selected are summed into
     the accumulators digitally (ACC_ADD, H2O-like) instead of the charge-
     domain similarity;
   - recent=1: the M newest positions are protected while they gather
     scores;
   - protect=P: a position older than those that draws P per mille of a
     step's attention (a quarter: four values of one key split a head's
     attention, and a half missed most of them) is critical -- far-back
     retrieval -- and is protected
     for good with the SPAN after it, in every bank, at most SPARE per bank
     (half the budget: the brief's 5-10% left SmolLM2's development needles
     at 3%, docs/pruning.md); QUESTION: only the prompt's last
     QUESTION queries (and the generated ones) mark critical positions.
     The prompt's marks are ranked when it ends, the strongest attention
     first (older first on a tie): in a real model's question the
     attention sinks and the template draw most steps' attention too, and
     taken in arrival order they would fill the spare before the needle;
   - observe=N: only the prompt's last N queries accumulate;
   - adapt=D: adaptive k (of the k, those within D similarity units of the
     best, at least the best quarter);
   - binary=MASK: those layers' banks hold signs only (the brief's 1-bit
     layers).
   - kshare=S: k = (h + m) / S: half the cache, tuned on the development
     set (the CAM's coarse similarity ranks 8- and 32-dimensional heads'
     keys too loosely for the paper's fifth). */
#include <stdio.h>

#include "kv_slots.h"
#include "policy_unicaim.h"

static void defaults(kv_policy_t *p) {
  unicaim_defaults(p);
  p->v[UC_DIGITAL] = 1;
  p->v[UC_RECENT] = 1;
  p->v[UC_PROTECT] = 250;
  p->v[UC_SPAN] = 10;
  p->v[UC_SPARE] = p->budget / 2 > 1 ? p->budget / 2 : 1;
  p->v[UC_QUESTION] = 16;
  p->v[UC_KSHARE] = 2;
}

/* The min-detect must always find an unprotected slot: protected ones (the
   recent M and the spare) fit in H. */
static const char *settle(kv_policy_t *p, int slots) {
  static char why[96];
  const char *base = unicaim_settle(p, slots, p->v[UC_KSHARE]);
  if (base) return base;
  int32_t room = p->v[UC_H] - (p->v[UC_RECENT] ? p->v[UC_M] : 1);
  if (p->v[UC_SPARE] <= room) return 0;
  snprintf(why, sizeof why, "spare=%ld out of range (0..%ld: protected positions must leave h a victim)",
           (long)p->v[UC_SPARE], (long)(room > 0 ? room : 0));
  return why;
}

/* recent=1: the new position is protected; the one leaving the M newest
   loses it unless it is critical. */
static void stored(kv_cache_t *kv, int layer, int kvh, int pos, int slot, const int16_t *key, int32_t key_scale) {
  const int h = kv_head_of(kv, layer, kvh), m = kv->policy.v[UC_M];
  (void)key;
  (void)key_scale;
  if (!kv->policy.v[UC_RECENT] || !m) return;
  kv_slot_protect(kv, h, slot, 1);
  int leaving = kv_slot_holding(kv, h, pos - m);
  if (leaving >= 0 && !(kv->slot_flags[kv_slots_of(kv, h) + (size_t)leaving] & KV_SLOT_CRITICAL))
    kv_slot_protect(kv, h, leaving, 0);
}

static int adapt_k(kv_cache_t *kv, int pos, int n) {
  const int32_t adapt = kv->policy.v[UC_ADAPT];
  int32_t best = INT32_MIN;
  (void)pos;
  if (n <= 1) return n;
  for (int i = 0; i < n; i++) best = kv->sims[i] > best ? kv->sims[i] : best;
  int ties;
  int32_t quarter = kv_top_threshold(kv->sims, n, n / 4 > 1 ? n / 4 : 1, &ties);
  int32_t cut = best - adapt < quarter ? best - adapt : quarter;
  int kept = 0;
  for (int i = 0; i < n; i++)
    if (kv->sims[i] >= cut) kv->selected[kept++] = kv->selected[i];
  return kept;
}

/* A step's probability (Q16) as the 16 bits the accumulators and marks hold. */
static uint16_t prob_u16(int32_t prob) {
  return (uint16_t)(prob > 65535 ? 65535 : prob);
}

static int32_t protect_threshold(const kv_policy_t *p) {
  return (int32_t)(((int64_t)p->v[UC_PROTECT] * 65536 + 500) / 1000);
}

static int spare_used(const kv_cache_t *kv, int h) {
  const uint8_t *flags = kv->slot_flags + kv_slots_of(kv, h);
  int critical = 0;
  for (int s = 0; s < kv->slots; s++) critical += (flags[s] & KV_SLOT_CRITICAL) != 0;
  return critical;
}

/* Marks POS critical in bank H while the bank has spare slots left. */
static void protect_position(kv_cache_t *kv, int h, int pos) {
  int slot = kv_slot_holding(kv, h, pos);
  if (slot < 0 || (kv->slot_flags[kv_slots_of(kv, h) + (size_t)slot] & KV_SLOT_CRITICAL) ||
      spare_used(kv, h) >= kv->policy.v[UC_SPARE])
    return;
  kv->slot_flags[kv_slots_of(kv, h) + (size_t)slot] |= KV_SLOT_CRITICAL;
  kv_slot_protect(kv, h, slot, 1);
}

/* T and the SPAN after it, short of RECENT_LO, critical in every bank. */
static void protect_span(kv_cache_t *kv, int t, int recent_lo) {
  for (int b = 0; b < kv->n_layers * kv->n_kv_heads; b++)
    for (int u = t; u <= t + kv->policy.v[UC_SPAN] && u < recent_lo; u++) protect_position(kv, b, u);
}

static int marking(const kv_cache_t *kv, int pos) {
  const kv_policy_t *p = &kv->policy;
  return p->v[UC_PROTECT] && (!kv_in_prefill(kv, pos) || !p->v[UC_QUESTION] ||
                              pos >= kv->prompt_len - p->v[UC_QUESTION]);
}

static int accumulating(const kv_cache_t *kv, int pos) {
  const int observe = kv->policy.v[UC_OBSERVE];
  return !kv_in_prefill(kv, pos) || !observe || pos >= kv->prompt_len - observe;
}

/* The step's probabilities: summed into the accumulators (digital=1), and
   the threshold's critical positions protected. */
static void after(kv_cache_t *kv, int h, int pos, int n, const int32_t *prob) {
  const kv_policy_t *p = &kv->policy;
  if (p->v[UC_DIGITAL] && accumulating(kv, pos)) {
    for (int i = 0; i < n; i++) kv->addends[i] = prob_u16(prob[i]);
    kv_note_error(kv, kv_array_accumulate(kv, h, n));
  }
  if (!marking(kv, pos)) return;
  if (kv_in_prefill(kv, pos)) {
    for (int i = 0; i < n; i++) {
      uint16_t *best = &kv->pos_score[kv->slot_pos[kv_slots_of(kv, h) + kv->selected[i]]];
      if (prob_u16(prob[i]) > *best) *best = prob_u16(prob[i]);
    }
    return;
  }
  const int recent_lo = pos - (p->v[UC_RECENT] ? p->v[UC_M] : 0);
  for (int i = 0; i < n; i++) {
    size_t at = kv_slots_of(kv, h) + kv->selected[i];
    int t = kv->slot_pos[at];
    if (prob[i] >= protect_threshold(p) && t < recent_lo && !(kv->slot_flags[at] & KV_SLOT_CRITICAL))
      protect_span(kv, t, recent_lo);
  }
}

/* The prompt's marks, strongest first, until the spare is used (bank 0's
   count stands for all: every bank is marked alike, and protect_position
   keeps each bank's own limit). */
static void prompt_end(kv_cache_t *kv) {
  const kv_policy_t *p = &kv->policy;
  const int recent_lo = kv->prompt_len - (p->v[UC_RECENT] ? p->v[UC_M] : 0);
  uint16_t *score = kv->pos_score;
  for (;;) {
    int best = -1;
    for (int t = 0; t < recent_lo; t++)
      if (score[t] && (best < 0 || score[t] > score[best])) best = t;
    if (best < 0 || score[best] < protect_threshold(p) || spare_used(kv, 0) >= p->v[UC_SPARE]) return;
    score[best] = 0;
    protect_span(kv, best, recent_lo);
  }
}

static void attend(kv_cache_t *kv, int layer, int kvh, int pos, int count, const int8_t *const *q,
                   const int32_t *head_factor, int32_t *const *out) {
  const kv_policy_t *p = &kv->policy;
  const int adaptive = !kv_in_prefill(kv, pos) && p->v[UC_ADAPT] > 0;
  const int needs_prob = (p->v[UC_DIGITAL] && accumulating(kv, pos)) || marking(kv, pos);
  const unicaim_step_t step = {accumulating(kv, pos) && !p->v[UC_DIGITAL] ? UCM_SEARCH_ACCUMULATE : 0,
                               adaptive ? adapt_k : 0, needs_prob ? after : 0};
  unicaim_search_attend(kv, layer, kvh, pos, count, q, head_factor, out, &step);
}

static void must_keep(const kv_cache_t *kv, int h, int pos, int *lo, int *sinks) {
  (void)h;
  (void)sinks;
  if (kv->policy.v[UC_RECENT]) *lo = pos - kv->policy.v[UC_M] + 1;
}

static const kv_param_t params[] = {
    UNICAIM_PARAMS,
    {"digital", UC_DIGITAL, 0, 1, "1: sum the softmax probabilities digitally (1)"},
    {"recent", UC_RECENT, 0, 1, "1: protect the M newest positions (1)"},
    {"protect", UC_PROTECT, 0, 1000, "attention per mille that makes a position critical, 0: off (250)"},
    {"span", UC_SPAN, 0, 65535, "positions after a critical one protected with it (10)"},
    {"spare", UC_SPARE, 0, 65535, "protected positions per bank at most (half the budget)"},
    {"question", UC_QUESTION, 0, 65535, "only the prompt's last N queries mark critical ones, 0: all (16)"},
    {"observe", UC_OBSERVE, 0, 65535, "only the prompt's last N queries accumulate, 0: all (0)"},
    {"adapt", UC_ADAPT, 0, 65535, "adaptive k: within D similarity units of the best, 0: off (0)"},
    {"binary", UC_BINARY, 0, 0x7fffffff, "bit mask of layers whose banks hold signs only (0)"},
    {"kshare", UC_KSHARE, 1, 100, "k = (h + m) / kshare unless k is given (2)"},
    {0, 0, 0, 0, 0},
};

/* The linear update instead of the sense line, each option alone over the
   paper's policy (every option off), and the digital sums with their new
   slots shielded (alone, a new slot's sum starts
   at 0 and min-detect takes it at once). */
static const char *const ablations[] = {
    "linear: linear=1", "digital: digital=1", "digital_shielded: digital=1 recent=1", "recent: recent=1",
    "protect: protect=250 question=16", "kshare: kshare=2", "adapt: adapt=8", "observe: observe=64",
    "binary: binary=1", 0,
};

const kv_policy_ops_t kv_policy_unicaim_plus = {
    .name = "unicaim+",
    .summary = "unicaim with the project's options (digital sums, recent and threshold protection, ...)",
    .params = params,
    .flags = KV_POLICY_ARRAY,
    .defaults = defaults,
    .settle = settle,
    .fits = unicaim_fits,
    .prompt_keep = unicaim_prompt_keep,
    .capacity = unicaim_capacity,
    .configure = unicaim_configure,
    .stored = stored,
    .prompt_end = prompt_end,
    .victim = unicaim_victim,
    .attend = attend,
    .must_keep = must_keep,
    .ablation_base = "digital=0 recent=0 protect=0 question=0 observe=0 adapt=0 binary=0 kshare=5",
    .ablations = ablations,
};
