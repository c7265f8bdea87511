/* The KV cache's memory, backends and slot bookkeeping: where a position is
   stored, and the invariants the policies must keep. */
#include "kvcache.h"

#include <string.h>

#include "kv_internal.h"
#include "llm_model.h"

static size_t align4(size_t n) { return (n + 3) & ~(size_t)3; }

size_t kv_bytes(int n_layers, int n_kv_heads, int head_size, int seq_len) {
  size_t rows = (size_t)n_layers * (size_t)seq_len, kv_dim = (size_t)(n_kv_heads * head_size);
  size_t heads = (size_t)(n_layers * n_kv_heads), slots = heads * (size_t)seq_len;
  return 2 * rows * kv_dim + align4(rows * kv_dim) + 2 * 4 * rows * (size_t)n_kv_heads /* keys, values, scales */
         + 2 * align4(2 * (size_t)seq_len) + 4 * (size_t)seq_len + 4 * (size_t)seq_len /* selection scratch */
         + align4(2 * slots) + 4 * slots + align4(slots) + 2 * 4 * heads              /* slot tables */
         + 2 * align4(2 * heads * kv_pages_per_head(seq_len) * (size_t)head_size);     /* Quest's bounds */
}

void kv_init(kv_cache_t *kv, int n_layers, int n_kv_heads, int head_size, int seq_len, int32_t *att,
             void *arena) {
  uint8_t *p = arena;
#define CARVE(field, type, count)         \
  kv->field = (type *)(void *)p;          \
  p += align4(sizeof(type) * (size_t)(count))
  memset(kv, 0, sizeof *kv);
  size_t rows = (size_t)n_layers * (size_t)seq_len, heads = (size_t)(n_layers * n_kv_heads);
  CARVE(keys, int16_t, rows * (size_t)(n_kv_heads * head_size));
  CARVE(values, int8_t, rows * (size_t)(n_kv_heads * head_size));
  CARVE(key_scale, int32_t, rows * (size_t)n_kv_heads);
  CARVE(value_scale, int32_t, rows * (size_t)n_kv_heads);
  CARVE(selected, uint16_t, seq_len);
  CARVE(addends, uint16_t, seq_len);
  CARVE(sims, int32_t, seq_len);
  CARVE(kept, uint16_t, 2 * (size_t)seq_len);
  CARVE(slot_pos, uint16_t, heads * (size_t)seq_len);
  CARVE(slot_score, int32_t, heads * (size_t)seq_len);
  CARVE(slot_flags, uint8_t, heads * (size_t)seq_len);
  CARVE(used, int32_t, heads);
  CARVE(scored_pos, int32_t, heads);
  CARVE(page_min, int16_t, heads * kv_pages_per_head(seq_len) * (size_t)head_size);
  CARVE(page_max, int16_t, heads * kv_pages_per_head(seq_len) * (size_t)head_size);
#undef CARVE
  kv->backend = KV_DENSE;
  kv->n_layers = n_layers;
  kv->n_kv_heads = n_kv_heads;
  kv->head_size = head_size;
  kv->seq_len = seq_len;
  kv->att = att;
  kv->policy.kind = KV_KEEP_ALL;
  kv->capacity = seq_len;
  for (size_t h = 0; h < heads; h++) kv->scored_pos[h] = -1;
}

void kv_device_defaults(ucm_config_t *cfg) {
  *cfg = (ucm_config_t){.query_step = KV_UCM_QUERY_STEP, .adc_gain = 1, .seed = 1};
}

/* Bank steps for the policy: KV_UCM_KEY_STEP, or 1 in UniCAIM's binary
   layers (every key component of 2 or more saturates to the top level). */
static int program_banks(kv_cache_t *kv) {
  for (int l = 0; l < kv->n_layers; l++) {
    int binary = kv_binary_layer(kv, l);
    for (int kvh = 0; kvh < kv->n_kv_heads; kvh++) {
      unsigned bank = (unsigned)kv_head_of(kv, l, kvh);
      int err = ucm_set_step(kv->ucm, bank, binary ? 1 : KV_UCM_KEY_STEP);
      if (!err) err = ucm_reset_bank(kv->ucm, bank);
      if (err) return err;
    }
  }
  return UCM_OK;
}

int kv_block_slices(const ucm_geom_t *g, int n_layers, int n_kv_heads, int head_size, int seq_len) {
  if (g->banks < (uint32_t)(n_layers * n_kv_heads) || g->slots < (uint32_t)seq_len || head_size <= 0 ||
      g->dim % (uint32_t)head_size)
    return 0;
  uint32_t slices = g->dim / (uint32_t)head_size;
  return slices <= KV_SLICES_MAX ? (int)slices : 0;
}

int kv_use_unicaim(kv_cache_t *kv, ucm_t *ucm, unsigned top_k, kv_exact_t exact) {
  int slices = kv_block_slices(&ucm->geom, kv->n_layers, kv->n_kv_heads, kv->head_size, kv->seq_len);
  if (!slices) return UCM_E_SLOT;
  kv->slices = slices;
  ucm_config_t cfg;
  kv_device_defaults(&cfg);
  ucm_configure(ucm, &cfg);
  kv->ucm = ucm;
  int err = program_banks(kv);
  if (err) return err;
  kv->top_k = top_k;
  kv->exact = exact;
  kv->error = 0;
  kv->backend = KV_UNICAIM;
  return UCM_OK;
}

void kv_use_dense(kv_cache_t *kv) {
  kv->backend = KV_DENSE;
  if (kv->policy.kind == KV_HYBRID) {
    kv_policy_t dense = {.kind = KV_KEEP_ALL};
    kv_set_policy(kv, &dense);
  }
}

/* Parameters that leave something to evict (or, for Quest, a page to attend). */
static int policy_fits(const kv_policy_t *p, int all) {
  if (p->sinks < 0 || p->window < 0 || p->reserve < 0 || p->top_k < 0 || p->adapt < 0 || p->protect < 0 ||
      p->protect > 65536 || p->spare < 0)
    return 0;
  if (p->kind == KV_QUEST) return p->page >= KV_PAGE_MIN && (all || p->page <= p->budget);
  if (all) return 1;
  switch (p->kind) {
  case KV_STREAMING:
  case KV_H2O:
    return p->sinks + p->window < p->budget;
  case KV_SNAPKV:
    return p->window + 1 < p->budget;
  case KV_HYBRID: /* the min-detect always finds an unprotected slot */
    return p->reserve + p->spare + 1 < p->budget;
  default:
    return 1;
  }
}

int kv_set_policy(kv_cache_t *kv, const kv_policy_t *policy) {
  int all = policy->kind == KV_KEEP_ALL || policy->budget <= 0 || policy->budget >= kv->seq_len;
  if (!policy_fits(policy, all)) return -1;
  if (policy->kind == KV_HYBRID && kv->backend != KV_UNICAIM) return -2;
  kv->policy = *policy;
  kv->capacity = all || policy->kind == KV_QUEST ? kv->seq_len : policy->budget;
  for (int h = 0; h < kv->n_layers * kv->n_kv_heads; h++) kv->used[h] = 0;
  kv->evictions = 0;
  if (kv->backend == KV_UNICAIM) kv_note_error(kv, program_banks(kv));
  return 0;
}

void kv_begin(kv_cache_t *kv, int prompt_len) {
  kv->prompt_len = prompt_len;
}

void kv_drop(kv_cache_t *kv, int h, int slot) {
  size_t at = kv_slots_of(kv, h) + (size_t)slot;
  kv->slot_pos[at] = KV_FREE;
  kv->slot_flags[at] = 0;
  kv->used[h]--;
  if (kv->backend == KV_UNICAIM) kv_note_error(kv, ucm_invalidate(kv->ucm, (unsigned)h, (unsigned)slot));
}

/* An empty slot of pair H: the one after the used ones unless the prompt
   pruning left holes there (the block backend keeps its holes). */
static int free_slot(const kv_cache_t *kv, int h) {
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  int s = kv->used[h];
  if (at[s] == KV_FREE) return s;
  for (s = 0; at[s] != KV_FREE; s++) continue;
  return s;
}

static void start_sequence(kv_cache_t *kv, int h) {
  kv->used[h] = 0;
  for (int s = 0; s < kv->seq_len; s++) kv->slot_pos[kv_slots_of(kv, h) + (size_t)s] = KV_FREE;
  memset(kv->slot_flags + kv_slots_of(kv, h), 0, (size_t)kv->seq_len);
  kv->scored_pos[h] = -1;
  if (kv->backend == KV_UNICAIM) kv_note_error(kv, ucm_reset_bank(kv->ucm, (unsigned)h));
}

/* Quest: widen the bounds of POS's page by KEY. */
static void bound_page(kv_cache_t *kv, int h, int pos, const int16_t *key) {
  const int hs = kv->head_size, page = kv->policy.page;
  size_t at = kv_page_of(kv, h, pos / page);
  int16_t *lo = kv->page_min + at, *hi = kv->page_max + at;
  for (int i = 0; i < hs; i++) {
    if (pos % page == 0 || key[i] < lo[i]) lo[i] = key[i];
    if (pos % page == 0 || key[i] > hi[i]) hi[i] = key[i];
  }
}

/* UniCAIM: a new position is protected while it is among the M most
   recent; the one leaving that window loses the protection unless
   the threshold made it critical. */
static void protect_recent(kv_cache_t *kv, int h, int pos) {
  int leaving = pos - kv->policy.reserve;
  if (leaving < 0) return;
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  const uint8_t *flags = kv->slot_flags + kv_slots_of(kv, h);
  for (int s = 0; s < kv->seq_len; s++) {
    if (at[s] != (uint16_t)leaving) continue;
    if (!(flags[s] & KV_SLOT_CRITICAL)) kv_note_error(kv, ucm_set_protect(kv->ucm, (unsigned)h, (unsigned)s, 0));
    return;
  }
}

void kv_store(kv_cache_t *kv, int layer, int kvh, int pos, const int16_t *key, int32_t key_scale,
              const int8_t *value, int32_t value_scale) {
  const int hs = kv->head_size, nkv = kv->n_kv_heads, h = kv_head_of(kv, layer, kvh);
  if (pos == 0) start_sequence(kv, h);
  if (kv_prunes_prompt(kv) && pos == kv->prompt_len && kv->used[h] >= kv->capacity)
    kv_prune_prompt(kv, layer, kvh);
  int slot;
  if (kv->used[h] < (kv_in_prefill(kv, pos) ? kv->seq_len : kv->capacity)) {
    slot = free_slot(kv, h);
  } else {
    slot = kv_victim(kv, h, pos); /* overwritten in place: the block keeps the slot valid */
    kv->used[h]--;
    kv->evictions++;
  }
  kv->used[h]++;
  size_t at_slot = kv_slots_of(kv, h) + (size_t)slot;
  kv->slot_pos[at_slot] = (uint16_t)pos;
  kv->slot_score[at_slot] = 0;
  kv->slot_flags[at_slot] = 0;
  size_t row = kv_row_of(kv, layer, slot);
  size_t at = row * (size_t)(nkv * hs) + (size_t)(kvh * hs);
  for (int i = 0; i < hs; i++) kv->values[at + (size_t)i] = value[i];
  kv->value_scale[row * (size_t)nkv + (size_t)kvh] = value_scale;
  kv->key_scale[row * (size_t)nkv + (size_t)kvh] = key_scale;
  if (kv->policy.kind == KV_QUEST) bound_page(kv, h, pos, key);
  for (int i = 0; i < hs; i++) kv->keys[at + (size_t)i] = key[i];
  if (kv->backend == KV_DENSE) return;
  int8_t cells[KV_SLICES_MAX * LLM_MAX_HEAD_SIZE];
  kv_encode_key(kv, kv_binary_layer(kv, layer), key, cells);
  int recent = kv->policy.kind == KV_HYBRID && kv->policy.reserve > 0;
  kv_note_error(kv, ucm_write_key(kv->ucm, (unsigned)h, (unsigned)slot, (uint16_t)pos, cells, recent));
  if (recent) protect_recent(kv, h, pos);
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

/* Positions a policy never lets go at POS: [lo, pos] plus the first SINKS. */
static void kept_range(const kv_cache_t *kv, int unpinned, int pos, int *lo, int *sinks) {
  const kv_policy_t *p = &kv->policy;
  *sinks = 0;
  *lo = pos + 1;
  if (p->kind == KV_KEEP_ALL || p->kind == KV_QUEST || kv_in_prefill(kv, pos)) *lo = 0;
  else if (p->kind == KV_STREAMING) *sinks = p->sinks, *lo = pos - (kv->capacity - p->sinks) + 1;
  else if (p->kind == KV_H2O) *lo = pos - p->window;
  else if (p->kind == KV_TOVA) *lo = pos;
  else if (p->kind == KV_SNAPKV) *lo = pos - unpinned + 1;
  else if (p->kind == KV_HYBRID) *lo = pos - (p->reserve > 0 ? p->reserve : 1) + 1;
  if (*lo < 0) *lo = 0;
}

static int check_head(kv_cache_t *kv, int h, int pos, int group) {
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  const uint8_t *flags = kv->slot_flags + kv_slots_of(kv, h);
  const int32_t *score = kv->slot_score + kv_slots_of(kv, h);
  int limit = kv_in_prefill(kv, pos) ? kv->seq_len : kv->capacity;
  int pinned = 0, used = 0;
  for (int s = 0; s < kv->seq_len; s++) {
    if (at[s] == KV_FREE) continue;
    used++;
    pinned += (flags[s] & KV_SLOT_PINNED) != 0;
    if (at[s] > pos) return -1;
    /* Each step adds at most 1.0 (Q16) per query head to a position's score. */
    int64_t most = (kv->policy.kind == KV_TOVA ? 1 : (int64_t)(pos - at[s] + 1)) * group * 65536;
    if (score[s] < 0 || score[s] > most) return -1;
  }
  if (used != kv->used[h] || used != (pos + 1 < limit ? pos + 1 : limit)) return -1;
  if (duplicate_position(at, kv->seq_len, kv->att, kv->seq_len)) return -1;
  int lo, sinks;
  kept_range(kv, used - pinned, pos, &lo, &sinks);
  int kept = 0, n_sinks = sinks < lo ? sinks : lo; /* required: [0, n_sinks) and [lo, pos] */
  for (int s = 0; s < kv->seq_len; s++)
    kept += at[s] != KV_FREE && (at[s] < n_sinks || at[s] >= lo);
  if (kept != n_sinks + pos - lo + 1) return -1;
  int recent_lo = pos - kv->policy.reserve + 1; /* UniCAIM's protected window */
  if (kv->backend != KV_UNICAIM) return 0;
  for (int s = 0; s < kv->seq_len; s++) { /* the bank agrees with the table */
    ucm_slot_info_t info;
    if (ucm_read_slot(kv->ucm, (unsigned)h, (unsigned)s, &info)) return -1;
    if (info.valid != (at[s] != KV_FREE) || info.valid_count != (uint32_t)used) return -1;
    if (!info.valid) continue;
    if (info.pos != at[s]) return -1;
    if (kv->policy.kind == KV_HYBRID &&
        ((uint64_t)info.acc > (uint64_t)(pos - at[s] + 1) * (uint64_t)group * 65535u ||
         info.protect != ((flags[s] & KV_SLOT_CRITICAL) || (kv->policy.reserve > 0 && at[s] >= recent_lo))))
      return -1;
  }
  return 0;
}

int kv_check(kv_cache_t *kv, int pos, int group) {
  for (int h = 0; h < kv->n_layers * kv->n_kv_heads; h++)
    if (check_head(kv, h, pos, group)) return -1;
  return 0;
}
