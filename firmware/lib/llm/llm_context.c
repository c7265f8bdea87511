#include "llm_context.h"

#include <string.h>

#include "crc32.h"
#include "kv_slots.h"

enum { C_MAGIC, C_VERSION, C_LAYERS, C_KV_HEADS, C_HEAD_SIZE, C_POSITIONS, C_NEXT, C_MODEL_CRC, C_PAYLOAD, C_CRC, C_WORDS };
_Static_assert(LLM_CONTEXT_HEADER_BYTES == 4 * C_WORDS, "the header is its fields");

static size_t entry_bytes(int head_size) { return 8u + 3u * (size_t)head_size; }

size_t llm_context_bytes(const llm_model_t *m, int positions) {
  return LLM_CONTEXT_HEADER_BYTES +
         (size_t)positions * (size_t)m->n_layers * (size_t)m->n_kv_heads * entry_bytes(m->head_size);
}

int llm_context_save(const llm_state_t *s, int positions, int next_token, void *buf, const char **error) {
  const kv_cache_t *kv = &s->kv;
  const int hs = kv->head_size;
  uint8_t *p = (uint8_t *)buf + LLM_CONTEXT_HEADER_BYTES;
  for (int pos = 0; pos < positions; pos++)
    for (int l = 0; l < kv->n_layers; l++)
      for (int h = 0; h < kv->n_kv_heads; h++) {
        const int slot = kv_slot_holding(kv, kv_head_of(kv, l, h), pos);
        if (slot < 0) {
          *error = "a position of the context is no longer cached (a pruning policy dropped it)";
          return -1;
        }
        const size_t at = kv_base_of(kv, l, h) + (size_t)slot * kv_stride(kv);
        memcpy(p, &kv->key_scale[kv_scale_at(kv, l, h, slot)], 4);
        memcpy(p + 4, &kv->value_scale[kv_scale_at(kv, l, h, slot)], 4);
        memcpy(p + 8, kv->keys + at, 2u * (size_t)hs);
        memcpy(p + 8 + 2 * hs, kv->values + at, (size_t)hs);
        p += entry_bytes(hs);
      }
  const size_t payload = llm_context_bytes(s->model, positions) - LLM_CONTEXT_HEADER_BYTES;
  const uint32_t h[C_WORDS] = {LLM_CONTEXT_MAGIC,          LLM_CONTEXT_VERSION,  (uint32_t)kv->n_layers,
                          (uint32_t)kv->n_kv_heads,   (uint32_t)hs,         (uint32_t)positions,
                          (uint32_t)next_token,       s->model->image_crc,  (uint32_t)payload,
                          crc32_update(0, (const uint8_t *)buf + LLM_CONTEXT_HEADER_BYTES, payload)};
  memcpy(buf, h, sizeof h);
  return 0;
}

int llm_context_restore(llm_state_t *s, const void *buf, size_t len, int *next_token, const char **error) {
  const llm_model_t *m = s->model;
  uint32_t h[C_WORDS];
  if (len < LLM_CONTEXT_HEADER_BYTES) {
    *error = "the context is shorter than its header";
    return -1;
  }
  memcpy(h, buf, sizeof h);
  const uint8_t *p = (const uint8_t *)buf + LLM_CONTEXT_HEADER_BYTES;
  if (h[C_MAGIC] != LLM_CONTEXT_MAGIC || h[C_VERSION] != LLM_CONTEXT_VERSION) *error = "not a saved context";
  else if (h[C_LAYERS] != (uint32_t)m->n_layers || h[C_KV_HEADS] != (uint32_t)m->n_kv_heads ||
           h[C_HEAD_SIZE] != (uint32_t)m->head_size || h[C_MODEL_CRC] != m->image_crc)
    *error = "the context was saved with another model";
  else if (h[C_POSITIONS] == 0 || h[C_POSITIONS] >= (uint32_t)s->kv.seq_len)
    *error = "the context's positions do not fit this build's context";
  else if (h[C_NEXT] >= (uint32_t)m->vocab_size) *error = "the context's next token is outside the vocabulary";
  else if (h[C_PAYLOAD] != llm_context_bytes(m, (int)h[C_POSITIONS]) - LLM_CONTEXT_HEADER_BYTES ||
           h[C_PAYLOAD] > len - LLM_CONTEXT_HEADER_BYTES)
    *error = "the context is truncated";
  else if (crc32_update(0, p, h[C_PAYLOAD]) != h[C_CRC]) *error = "the context is corrupt (CRC mismatch)";
  else *error = NULL;
  if (*error) return -1;
  const int hs = m->head_size;
  for (int pos = 0; pos < (int)h[C_POSITIONS]; pos++)
    for (int l = 0; l < m->n_layers; l++)
      for (int kvh = 0; kvh < m->n_kv_heads; kvh++, p += entry_bytes(hs)) {
        int32_t scale[2];
        int16_t key[LLM_MAX_HEAD_SIZE];
        int8_t value[LLM_MAX_HEAD_SIZE];
        memcpy(scale, p, 8);
        memcpy(key, p + 8, 2u * (size_t)hs);
        memcpy(value, p + 8 + 2 * hs, (size_t)hs);
        kv_store(&s->kv, l, kvh, pos, key, scale[0], value, scale[1]);
      }
  *next_token = (int)h[C_NEXT];
  return (int)h[C_POSITIONS];
}
