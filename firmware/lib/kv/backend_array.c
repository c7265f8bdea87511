/* The array backend: every key also written into the block's bank of its
   (layer, KV head), the slot tables' changes mirrored there, and a step's
   attention by CAM search, exact scores of the selected (through the ADCs,
   the cells, or the keys in RAM) and softmax over them. The only kv file
   that calls the unicaim driver. */
#include "kv_array.h"

#include "kv_attend.h"
#include "kv_backend.h"
#include "kv_encode.h"
#include "kv_slots.h"

void kv_device_defaults(ucm_config_t *cfg) {
  *cfg = (ucm_config_t){.query_step = KV_UCM_QUERY_STEP, .adc_gain = 1, .seed = 1};
}

int kv_block_slices(const ucm_geom_t *g, int n_layers, int n_kv_heads, int head_size) {
  if (g->banks < (uint32_t)(n_layers * n_kv_heads) || head_size <= 0 || g->dim % (uint32_t)head_size)
    return 0;
  uint32_t slices = g->dim / (uint32_t)head_size;
  return slices <= KV_SLICES_MAX ? (int)slices : 0;
}

int kv_unicaim_slots(const kv_cache_t *kv, const ucm_t *ucm) {
  return ucm->geom.slots < (uint32_t)kv->seq_len ? (int)ucm->geom.slots : kv->seq_len;
}

int kv_use_unicaim(kv_cache_t *kv, ucm_t *ucm, unsigned top_k, kv_exact_t exact) {
  int slices = kv_block_slices(&ucm->geom, kv->n_layers, kv->n_kv_heads, kv->head_size);
  if (!slices) return UCM_E_SLOT;
  ucm_config_t cfg;
  kv_device_defaults(&cfg);
  ucm_configure(ucm, &cfg);
  kv->slices = slices;
  kv->ucm = ucm;
  kv->top_k = top_k;
  kv->exact = exact;
  kv->error = 0;
  kv_switch_backend(kv, &kv_backend_array, kv_unicaim_slots(kv, ucm));
  return kv->error;
}

/* Bank steps: KV_UCM_KEY_STEP, or 1 in binary layers (every key component
   of 2 or more saturates to the top level); every bank emptied. */
static int program(kv_cache_t *kv) {
  for (int l = 0; l < kv->n_layers; l++) {
    for (int kvh = 0; kvh < kv->n_kv_heads; kvh++) {
      unsigned bank = (unsigned)kv_head_of(kv, l, kvh);
      int err = ucm_set_step(kv->ucm, bank, kv_binary_layer(kv, l) ? 1 : KV_UCM_KEY_STEP);
      if (!err) err = ucm_reset_bank(kv->ucm, bank);
      if (err) return err;
    }
  }
  return UCM_OK;
}

static int reset_head(kv_cache_t *kv, int h) {
  return ucm_reset_bank(kv->ucm, (unsigned)h);
}

/* V * NUM / DEN rounded half away from zero, within +-LIMIT (0 for a DEN
   of 0: a zero key's scale). */
static int32_t rescale(int32_t v, int32_t num, int32_t den, int32_t limit) {
  if (den <= 0) return 0;
  int64_t x = (int64_t)v * num, r = (x >= 0 ? x + den / 2 : x - den / 2) / den;
  return (int32_t)(r > limit ? limit : r < -limit ? -limit : r);
}

/* bank_scaled: the key at its bank's scale instead of its own, so that the
   cells keep its magnitude (a key larger than the trim saturates). */
static int write_key(kv_cache_t *kv, int layer, int h, int slot, int pos, const int16_t *key) {
  int8_t cells[KV_SLICES_MAX * KV_MAX_HEAD_SIZE];
  int16_t scaled[KV_MAX_HEAD_SIZE];
  if (kv->bank_scaled) {
    const int32_t own = kv->key_scale[kv_slots_of(kv, h) + (size_t)slot], bank = kv->bank_scale[2 * h];
    for (int i = 0; i < kv->head_size; i++) scaled[i] = (int16_t)rescale(key[i], own, bank, KV_KEY_MAX);
    key = scaled;
  }
  kv_encode_key(kv, kv_binary_layer(kv, layer), key, cells);
  return ucm_write_key(kv->ucm, (unsigned)h, (unsigned)slot, (uint16_t)pos, cells, 0);
}

static int drop(kv_cache_t *kv, int h, int slot) {
  return ucm_invalidate(kv->ucm, (unsigned)h, (unsigned)slot);
}

static int protect(kv_cache_t *kv, int h, int slot, int on) {
  return ucm_set_protect(kv->ucm, (unsigned)h, (unsigned)slot, on);
}

static void load_query(kv_cache_t *kv, int layer, const int8_t *q) {
  int8_t columns[KV_SLICES_MAX * KV_MAX_HEAD_SIZE];
  kv_encode_query(kv, kv_binary_layer(kv, layer), q, columns);
  ucm_load_query(kv->ucm, columns);
}

void kv_load_query(kv_cache_t *kv, int layer, int kvh, const int8_t *q, int32_t head_factor) {
  int8_t scaled[KV_MAX_HEAD_SIZE];
  kv->query_factor = 0;
  if (kv->bank_scaled) {
    const int32_t bank = kv->bank_scale[2 * kv_head_of(kv, layer, kvh) + 1];
    for (int i = 0; i < kv->head_size; i++) scaled[i] = (int8_t)rescale(q[i], head_factor, bank, 127);
    kv->query_factor = head_factor;
    q = scaled;
  }
  load_query(kv, layer, q);
}

/* A list's exact scores take the query as it is (no search ranks by it). */
static void prepare_exact(kv_cache_t *kv, int layer, const int8_t *q) {
  if (kv->exact != KV_EXACT_DIGITAL) {
    load_query(kv, layer, q);
    kv->query_factor = 0;
  }
}

/* Exact scores come in eighths of a cell level: times the key step / 8 back
   to the int8 keys' units, then to the cached keys' (12-bit). A binary
   bank's top level stands for a typical |int8 key| of 40: times 40 / 3 / 8. */
static void scale_exact(int32_t *a, int n, int binary) {
  for (int i = 0; i < n; i++)
    a[i] = binary ? a[i] * (5 << KV_KEY_INT8_SHIFT) / 3 : a[i] * (KV_UCM_KEY_STEP / 8 << KV_KEY_INT8_SHIFT);
}

/* bank_scaled cells (and query) back to the units of each key's (and the
   query's) own scale, which the softmax multiplies in. */
static void unscale_bank(kv_cache_t *kv, int h, int32_t *a, int n) {
  const int32_t *own = kv->key_scale + kv_slots_of(kv, h);
  const int32_t key_bank = kv->bank_scale[2 * h], query_bank = kv->bank_scale[2 * h + 1];
  for (int i = 0; i < n; i++) {
    int32_t v = rescale(a[i], key_bank, own[kv->selected[i]], INT32_MAX);
    a[i] = kv->query_factor ? rescale(v, query_bank, kv->query_factor, INT32_MAX) : v;
  }
}

static int exact_scores(kv_cache_t *kv, int layer, int kvh, const int8_t *q, int n, int searched) {
  if (kv->exact == KV_EXACT_DIGITAL) {
    kv_dots_selected(kv, layer, kvh, q, n);
    return 0;
  }
  const unsigned h = (unsigned)kv_head_of(kv, layer, kvh);
  const int ideal = kv->exact == KV_EXACT_CELLS;
  int err = searched ? ucm_exact_selected(kv->ucm, h, (unsigned)n, ideal, kv->att)
                     : ucm_exact(kv->ucm, h, kv->selected, (unsigned)n, ideal, kv->att);
  if (!err) scale_exact(kv->att, n, kv_binary_layer(kv, layer));
  if (!err && kv->bank_scaled) unscale_bank(kv, (int)h, kv->att, n);
  return err;
}

int kv_array_search(kv_cache_t *kv, int h, unsigned k, unsigned flags, int32_t *sims) {
  return ucm_search(kv->ucm, (unsigned)h, k, flags, 0, kv->selected, sims);
}

int kv_array_victim(kv_cache_t *kv, int h) {
  return ucm_find_victim(kv->ucm, (unsigned)h);
}

int kv_array_accumulate(kv_cache_t *kv, int h, int n) {
  return ucm_accumulate(kv->ucm, (unsigned)h, kv->selected, kv->addends, (unsigned)n);
}

int kv_array_set_accumulation(kv_cache_t *kv, const ucm_accumulation_t *a, uint32_t acc_init) {
  return ucm_set_accumulation(kv->ucm, a, acc_init);
}

/* Each query head: the top kv->top_k (0: all) by CAM search, their exact
   scores, softmax and values. */
static void attend_cached(kv_cache_t *kv, int layer, int kvh, int count, const int8_t *const *q,
                          const int32_t *head_factor, int32_t *const *out, int32_t *score) {
  const int h = kv_head_of(kv, layer, kvh);
  const unsigned used = (unsigned)kv->used[h], k = kv->top_k && kv->top_k < used ? kv->top_k : used;
  for (int j = 0; j < count; j++) {
    kv_load_query(kv, layer, kvh, q[j], head_factor[j]);
    int n = kv_array_search(kv, h, k, 0, 0);
    int err = n < 0 ? n : exact_scores(kv, layer, kvh, q[j], n, 1);
    if (err) {
      kv_note_error(kv, err);
      kv_attend_zero(out[j], kv->head_size);
      continue;
    }
    kv_softmax_values(kv, layer, kvh, n, head_factor[j], score, 0, out[j]);
  }
}

/* The bank agrees with the table: valid bits, count, positions, protect bits. */
static int check(kv_cache_t *kv, int h, int used) {
  const uint16_t *at = kv->slot_pos + kv_slots_of(kv, h);
  const uint8_t *flags = kv->slot_flags + kv_slots_of(kv, h);
  for (int s = 0; s < kv->slots; s++) {
    ucm_slot_info_t info;
    if (ucm_read_slot(kv->ucm, (unsigned)h, (unsigned)s, &info)) return -1;
    if (info.valid != (at[s] != KV_FREE) || info.valid_count != (uint32_t)used) return -1;
    if (info.valid && (info.pos != at[s] || info.protect != ((flags[s] & KV_SLOT_PROTECTED) != 0))) return -1;
  }
  return 0;
}

const kv_backend_ops_t kv_backend_array = {
    .program = program,
    .reset_head = reset_head,
    .write_key = write_key,
    .drop = drop,
    .protect = protect,
    .prepare_exact = prepare_exact,
    .exact_scores = exact_scores,
    .attend_cached = attend_cached,
    .check = check,
};
