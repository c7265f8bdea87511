/* How keys and queries enter the array's columns. A bank gives each key
   component SLICES cells (its DIM / head_size): a 3-bit cell keeps 7
   levels, too few for an 8-wide head's scores on its own (stories260K:
   37% top-1 agreement with dense through one cell, 96% through three).
   The first cell holds the component at the bank's step, each next one
   what the previous left, KV_SLICE_RADIX times magnified; the query drives
   slice s at 1 / RADIX^s of its value, so that the column sums add the
   slices with their weights -- the shift-add of bit-sliced CIM weights,
   done on the input side. Binary banks and 1-bit cells use the first slice
   only (a sign has no remainder worth refining): the others get zero
   keys and a zero query. */
#include "kv_encode.h"

#include "kv_array.h"
#include "ucm_arith.h"

static int slices_used(const kv_cache_t *kv, int binary) {
  return binary || kv->ucm->geom.cell_bits != 3 ? 1 : kv->slices;
}

void kv_encode_key(const kv_cache_t *kv, int binary, const int16_t *key, int8_t *cells) {
  const int hs = kv->head_size, used = slices_used(kv, binary);
  const int32_t level_value = KV_UCM_KEY_STEP << KV_KEY_INT8_SHIFT; /* a 3-bit level, in the key's units */
  for (int i = 0; i < hs; i++) {
    int32_t rest = key[i];
    for (int s = 0; s < kv->slices; s++) {
      int8_t x = s < used ? kv_key_int8(rest) : 0;
      cells[s * hs + i] = x;
      rest = (rest - ucm_key_level(x, KV_UCM_KEY_STEP, 3) * level_value) * KV_SLICE_RADIX;
    }
  }
}

void kv_encode_query(const kv_cache_t *kv, int binary, const int8_t *q, int8_t *columns) {
  const int hs = kv->head_size, used = slices_used(kv, binary);
  int32_t weight = 1;
  for (int s = 0; s < kv->slices; s++, weight *= KV_SLICE_RADIX)
    for (int i = 0; i < hs; i++) {
      int32_t v = q[i];
      columns[s * hs + i] = s >= used ? 0 : (int8_t)(v >= 0 ? (v + weight / 2) / weight : -((-v + weight / 2) / weight));
    }
}
