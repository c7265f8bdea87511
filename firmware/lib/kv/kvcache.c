/* The KV cache's memory, its backend and the life of a position: stored,
   kept through the prompt, compressed when the prompt ends, evicted by the
   policy; and the invariants every policy must keep. */
#include "kvcache.h"

#include <stdio.h>
#include <string.h>

#include "attention.h"
#include "kv_backend.h"
#include "kv_policy.h"
#include "kv_slots.h"
#include "ucm.h" /* its error codes: kv->error holds the first, policies' included */

static size_t align4(size_t n) { return (n + 3) & ~(size_t)3; }

/* The one description of the cache's memory: carves the arrays out of
   ARENA (or, with ARENA NULL, only counts the bytes). */
static size_t layout(kv_cache_t *kv, int n_layers, int n_kv_heads, int head_size, int seq_len, uint8_t *arena) {
  size_t rows = (size_t)n_layers * (size_t)seq_len, kv_dim = (size_t)(n_kv_heads * head_size);
  size_t heads = (size_t)(n_layers * n_kv_heads), slots = heads * (size_t)seq_len;
  size_t pages = heads * kv_pages_per_head(seq_len) * (size_t)head_size;
  size_t at = 0;
#define CARVE(field, type, count)                                         \
  do {                                                                    \
    if (arena) kv->field = (type *)(void *)(arena + at);                  \
    at += align4(sizeof(type) * (size_t)(count));                         \
  } while (0)
  CARVE(keys, int16_t, rows * kv_dim);
  CARVE(values, int8_t, rows * kv_dim);
  CARVE(key_scale, int32_t, rows * (size_t)n_kv_heads);
  CARVE(value_scale, int32_t, rows * (size_t)n_kv_heads);
  CARVE(value_scale_max, int32_t, heads);
  CARVE(selected, uint16_t, seq_len);
  CARVE(addends, uint16_t, seq_len);
  CARVE(sims, int32_t, seq_len);
  CARVE(pos_score, uint16_t, seq_len);
  CARVE(kept, uint16_t, ATTN_MAX_GROUP * (size_t)seq_len);
  CARVE(weights, int16_t, ATTN_MAX_GROUP * ((size_t)seq_len + 1)); /* attend_dense's even spans */
  CARVE(slot_pos, uint16_t, slots);
  CARVE(slot_score, int32_t, slots);
  CARVE(slot_flags, uint8_t, slots);
  CARVE(used, int32_t, heads);
  CARVE(scored_pos, int32_t, heads);
  CARVE(page_min, int32_t, pages);
  CARVE(page_max, int32_t, pages);
#undef CARVE
  return at;
}

size_t kv_bytes(int n_layers, int n_kv_heads, int head_size, int seq_len) {
  kv_cache_t sizing;
  return layout(&sizing, n_layers, n_kv_heads, head_size, seq_len, 0);
}

void kv_init(kv_cache_t *kv, int n_layers, int n_kv_heads, int head_size, int seq_len, int32_t *att,
             void *arena) {
  memset(kv, 0, sizeof *kv);
  layout(kv, n_layers, n_kv_heads, head_size, seq_len, arena);
  kv->backend = &kv_backend_dense;
  kv->n_layers = n_layers;
  kv->n_kv_heads = n_kv_heads;
  kv->head_size = head_size;
  kv->seq_len = kv->slots = seq_len;
  kv->att = att;
  kv_policy_make(&kv->policy, kv_policies[0], 0);
  kv->capacity = kv->prompt_keep = seq_len;
  for (int h = 0; h < n_layers * n_kv_heads; h++) kv->scored_pos[h] = -1;
}

/* Empties every table and applies the policy's settings (on the block,
   the steps, and the banks cleared). */
static void restart(kv_cache_t *kv) {
  for (int h = 0; h < kv->n_layers * kv->n_kv_heads; h++) kv->used[h] = 0;
  kv->evictions = 0;
  kv->binary_layers = 0;
  kv->bank_scaled = 0;
  if (kv->policy.ops->configure) kv->policy.ops->configure(kv);
  if (kv->backend->program) kv_note_error(kv, kv->backend->program(kv));
}

/* Capacity and prompt budget of P on SLOTS per bank. */
static void apply(kv_cache_t *kv, const kv_policy_t *p) {
  const kv_policy_ops_t *ops = p->ops;
  kv->policy = *p;
  if (ops->flags & KV_POLICY_NO_BUDGET) {
    kv->capacity = kv->prompt_keep = kv->slots;
  } else {
    kv->capacity = ops->capacity ? ops->capacity(p, kv->slots) : p->budget;
    kv->prompt_keep = ops->prompt_keep ? ops->prompt_keep(p, kv->slots) : p->budget;
  }
}

/* P checked against this cache: its parameters, the backend, the slots. */
static const char *settle(const kv_cache_t *kv, kv_policy_t *p) {
  static char why[64];
  if ((p->ops->flags & KV_POLICY_ARRAY) && !kv_on_array(kv))
    return "this policy runs on the array: kv unicaim first";
  if (!(p->ops->flags & KV_POLICY_NO_BUDGET) && (p->budget < 1 || p->budget > kv->slots)) {
    snprintf(why, sizeof why, "budget %d out of range (1..%d slots)", p->budget, kv->slots);
    return why;
  }
  const char *why_not = p->ops->fits ? p->ops->fits(p, kv) : 0;
  if (why_not) return why_not;
  return p->ops->settle ? p->ops->settle(p, kv->slots) : 0;
}

const char *kv_set_policy(kv_cache_t *kv, const kv_policy_t *policy) {
  kv_policy_t p = *policy;
  const char *why = settle(kv, &p);
  if (why) return why;
  apply(kv, &p);
  restart(kv);
  return 0;
}

void kv_switch_backend(kv_cache_t *kv, const kv_backend_ops_t *backend, int slots) {
  kv->backend = backend;
  kv->slots = slots;
  kv_policy_t p = kv->policy;
  if (settle(kv, &p)) kv_policy_make(&p, kv_policies[0], 0); /* the policy no longer fits: keep everything */
  apply(kv, &p);
  restart(kv);
}

void kv_use_dense(kv_cache_t *kv) {
  kv_switch_backend(kv, &kv_backend_dense, kv->seq_len);
}

int kv_on_array(const kv_cache_t *kv) {
  return kv->backend == &kv_backend_array;
}

void kv_begin(kv_cache_t *kv, int prompt_len) {
  kv->prompt_len = prompt_len;
}

static void start_sequence(kv_cache_t *kv, int h) {
  kv->used[h] = 0;
  kv->value_scale_max[h] = 0;
  for (int s = 0; s < kv->seq_len; s++) kv->slot_pos[kv_slots_of(kv, h) + (size_t)s] = KV_FREE;
  memset(kv->slot_flags + kv_slots_of(kv, h), 0, (size_t)kv->seq_len);
  kv->scored_pos[h] = -1;
  if (h == 0) memset(kv->pos_score, 0, sizeof *kv->pos_score * (size_t)kv->seq_len);
  if (h == 0 && kv->policy.ops->configure) kv->policy.ops->configure(kv);
  if (kv->backend->reset_head) kv_note_error(kv, kv->backend->reset_head(kv, h));
}

/* The policy's victim, checked: a slot holding a position (else the error
   is noted and the oldest goes, so the tables stay consistent). A policy
   without victims that meets a full table loses its oldest too. */
static int victim(kv_cache_t *kv, int layer, int kvh, int pos) {
  const int h = kv_head_of(kv, layer, kvh);
  if (!kv->policy.ops->victim) return kv_slot_lowest(kv, h, 1, 0, pos);
  int slot = kv->policy.ops->victim(kv, layer, kvh, pos);
  if (slot >= 0 && slot < kv->slots && kv->slot_pos[kv_slots_of(kv, h) + (size_t)slot] != KV_FREE) return slot;
  kv_note_error(kv, slot < 0 ? slot : UCM_E_SLOT);
  return kv_slot_lowest(kv, h, 1, 0, pos);
}

/* The prompt is in: the policy compresses it to its prompt budget (a
   policy may compress every head of the layer at its first). */
static void end_prompt(kv_cache_t *kv, int layer, int kvh) {
  const int h = kv_head_of(kv, layer, kvh), before = kv->used[h];
  if (before > kv->prompt_keep) {
    if (kv->policy.ops->compress) {
      kv->policy.ops->compress(kv, layer, kvh);
    } else {
      while (kv->used[h] > kv->prompt_keep) kv_slot_drop(kv, h, victim(kv, layer, kvh, kv->prompt_len));
      kv->evictions += (uint32_t)(before - kv->used[h]);
    }
  }
  if (kv->backend->compressed) kv->backend->compressed(kv, layer, kvh);
}

void kv_store(kv_cache_t *kv, int layer, int kvh, int pos, const int16_t *key, int32_t key_scale,
              const int8_t *value, int32_t value_scale) {
  const int hs = kv->head_size, h = kv_head_of(kv, layer, kvh);
  if (pos == 0) start_sequence(kv, h);
  if (pos == kv->prompt_len) {
    if (h == 0 && kv->policy.ops->prompt_end) kv->policy.ops->prompt_end(kv);
    end_prompt(kv, layer, kvh);
  }
  /* A policy that evicts after the step holds the new position beside the
     full cache until then (its bank has a slot to spare unless nothing is
     pruned). */
  const int after_step = (kv->policy.ops->flags & KV_POLICY_EVICT_AFTER_STEP) != 0;
  int slot;
  if (kv->used[h] < (kv_in_prefill(kv, pos) ? kv->slots : kv->capacity) || (after_step && kv->used[h] < kv->slots)) {
    slot = kv_slot_free(kv, h);
  } else {
    slot = victim(kv, layer, kvh, pos); /* overwritten in place: the block keeps the slot valid */
    kv->used[h]--;
    kv->evictions++;
  }
  kv_slot_place(kv, h, slot, pos);
  size_t at = kv_base_of(kv, layer, kvh) + (size_t)slot * kv_stride(kv);
  for (int i = 0; i < hs; i++) {
    kv->values[at + (size_t)i] = value[i];
    kv->keys[at + (size_t)i] = key[i];
  }
  kv->value_scale[kv_scale_at(kv, layer, kvh, slot)] = value_scale;
  if (value_scale > kv->value_scale_max[h]) kv->value_scale_max[h] = value_scale;
  kv->key_scale[kv_scale_at(kv, layer, kvh, slot)] = key_scale;
  if (kv->backend->write_key) kv_note_error(kv, kv->backend->write_key(kv, layer, h, slot, pos, key));
  if (kv->policy.ops->stored) kv->policy.ops->stored(kv, layer, kvh, pos, slot, key, key_scale);
}

void kv_end_step(kv_cache_t *kv, int layer, int pos) {
  const int h0 = kv_head_of(kv, layer, 0);
  if (!(kv->policy.ops->flags & KV_POLICY_EVICT_AFTER_STEP) || kv_in_prefill(kv, pos) ||
      kv->used[h0] <= kv->capacity)
    return;
  const int slot = victim(kv, layer, 0, pos); /* the layer's heads hold the same positions in the same slots */
  for (int k = 0; k < kv->n_kv_heads; k++) kv_slot_drop(kv, kv_head_of(kv, layer, k), slot);
  kv->evictions += (uint32_t)kv->n_kv_heads;
}

/* ---------------------------------------------------------------- checks */

/* Positions must be unique: by marks in SEEN (indexed by position) while
   positions fit it, pairwise beyond (long soak runs). */
static int duplicate_position(const uint16_t *at, int slots, int32_t *seen, int seen_size) {
  int dup = 0;
  for (int s = 0; s < slots; s++)
    if (at[s] < seen_size) seen[at[s]] = 0; /* KV_FREE is never below seen_size */
  for (int s = 0; s < slots; s++) {
    if (at[s] == KV_FREE) continue;
    if (at[s] < seen_size) {
      dup |= seen[at[s]];
      seen[at[s]] = 1;
    } else {
      for (int t = 0; t < s; t++) dup |= at[t] == at[s];
    }
  }
  return dup;
}

/* Positions held after POS was stored: the prompt up to the slots, then
   what the compression kept, one more per generated position up to the
   capacity. */
static int expected_used(const kv_cache_t *kv, int pos) {
  if (kv_in_prefill(kv, pos)) return pos + 1 < kv->slots ? pos + 1 : kv->slots;
  int prompt = kv->prompt_len < kv->slots ? kv->prompt_len : kv->slots;
  int kept = prompt < kv->prompt_keep ? prompt : kv->prompt_keep;
  int held = kept + pos - kv->prompt_len + 1;
  return held < kv->capacity ? held : kv->capacity;
}

static int check_head(kv_cache_t *kv, int h, int pos, int group) {
  const kv_policy_ops_t *ops = kv->policy.ops;
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  const int32_t *score = kv->slot_score + kv_slots_of(kv, h);
  const int64_t heads = (int64_t)group * (ops->flags & KV_POLICY_LAYER_SCORES ? kv->n_kv_heads : 1);
  int used = 0;
  for (int s = 0; s < kv->slots; s++) {
    if (at[s] == KV_FREE) continue;
    used++;
    if (at[s] > pos) return -1;
    /* Each step adds at most 1.0 (Q16) per query head to a position's score. */
    int64_t steps = ops->flags & KV_POLICY_STEP_SCORES ? 1 : (int64_t)(pos - at[s] + 1);
    if (score[s] < 0 || score[s] > steps * heads * 65536) return -1;
  }
  for (int s = kv->slots; s < kv->seq_len; s++)
    if (at[s] != KV_FREE) return -1;
  if (used != kv->used[h] || used != expected_used(kv, pos)) return -1;
  if (duplicate_position(at, kv->slots, kv->att, kv->seq_len)) return -1;
  int lo = pos, sinks = 0;
  if (ops->must_keep && !kv_in_prefill(kv, pos)) ops->must_keep(kv, h, pos, &lo, &sinks);
  if (kv_in_prefill(kv, pos) && pos < kv->slots) lo = 0;
  else if (ops->flags & KV_POLICY_EVICT_AFTER_STEP) lo = pos + 1; /* the new position may be the step's lowest */
  if (lo < 0) lo = 0;
  int n_sinks = sinks < lo ? sinks : lo, kept = 0; /* required: [0, n_sinks) and [lo, pos] */
  for (int s = 0; s < kv->slots; s++) kept += at[s] != KV_FREE && (at[s] < n_sinks || at[s] >= lo);
  if (kept != n_sinks + pos - lo + 1) return -1;
  return kv->backend->check ? kv->backend->check(kv, h, used) : 0;
}

int kv_check(kv_cache_t *kv, int pos, int group) {
  for (int h = 0; h < kv->n_layers * kv->n_kv_heads; h++)
    if (check_head(kv, h, pos, group)) return -1;
  return 0;
}
