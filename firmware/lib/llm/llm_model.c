#include "llm_model.h"

#include <string.h>

#include "crc32.h"

enum {
  H_MAGIC, H_VERSION, H_HEADER_BYTES, H_TOTAL_BYTES, H_CRC, H_DIM, H_HIDDEN, H_LAYERS, H_HEADS,
  H_KV_HEADS, H_VOCAB, H_SEQ, H_SHARED, H_OFF_EMBED, H_OFF_LAYERS, H_OFF_FINAL, H_OFF_CLASSIFIER,
  H_OFF_ROPE, H_OFF_TOKENIZER, H_WORDS
};

/* A cursor over the image that refuses to run past its end. */
typedef struct {
  const uint8_t *base;
  size_t pos, len;
  int bad;
} cursor_t;

static const void *take(cursor_t *c, size_t bytes) {
  bytes = (bytes + 3) & ~(size_t)3;
  if (c->bad || bytes > c->len || c->pos > c->len - bytes) {
    c->bad = 1;
    return NULL;
  }
  const void *p = c->base + c->pos;
  c->pos += bytes;
  return p;
}

static llm_qmat_t take_qmat(cursor_t *c, int rows, int cols) {
  llm_qmat_t q = {rows, cols, NULL, NULL};
  q.scale = take(c, (size_t)rows * 4);
  q.q = take(c, (size_t)(rows + 3) / 4 * 4 * (size_t)llm_qmat_cols4(&q));
  return q;
}

static cursor_t at(const uint8_t *base, size_t len, uint32_t offset) {
  cursor_t c = {base, offset, len, offset > len || (offset & 3)};
  return c;
}

int llm_model_open(llm_model_t *m, const void *image, size_t len, const char **error) {
  const uint8_t *b = image;
  uint32_t h[H_WORDS];
  memset(m, 0, sizeof *m);
  if (len < sizeof h || ((uintptr_t)image & 3)) {
    *error = "model image too short or misaligned";
    return -1;
  }
  memcpy(h, b, sizeof h);
  if (memcmp(b, "UCLM", 4) != 0) {
    *error = "not a model image (bad magic; convert with tools/llm/convert.py)";
    return -1;
  }
  if (h[H_VERSION] != LLM_IMAGE_VERSION) {
    *error = "unsupported model image version";
    return -1;
  }
  if (h[H_TOTAL_BYTES] != len || h[H_HEADER_BYTES] < sizeof h || h[H_HEADER_BYTES] > len) {
    *error = "model image size does not match its header (truncated?)";
    return -1;
  }
  uint32_t crc = crc32_update(0, b, 16);
  static const uint8_t zero[4];
  crc = crc32_update(crc, zero, 4);
  crc = crc32_update(crc, b + 20, len - 20);
  if (crc != h[H_CRC]) {
    *error = "model image checksum mismatch (corrupt)";
    return -1;
  }
  m->dim = (int)h[H_DIM];
  m->hidden_dim = (int)h[H_HIDDEN];
  m->n_layers = (int)h[H_LAYERS];
  m->n_heads = (int)h[H_HEADS];
  m->n_kv_heads = (int)h[H_KV_HEADS];
  m->vocab_size = (int)h[H_VOCAB];
  m->seq_len = (int)h[H_SEQ];
  if (m->dim <= 0 || m->hidden_dim <= 0 || m->n_heads <= 0 || m->n_kv_heads <= 0 ||
      m->dim > 4096 || m->hidden_dim > 16384 || m->vocab_size <= 3 || m->vocab_size > 65535 ||
      m->seq_len <= 0 || m->seq_len > 65536 || m->n_layers <= 0 || m->n_layers > LLM_MAX_LAYERS ||
      m->dim % m->n_heads || m->n_heads % m->n_kv_heads || (m->dim / m->n_heads) % 2 ||
      m->dim / m->n_heads > LLM_MAX_HEAD_SIZE || (m->dim / m->n_heads) % 8) {
    *error = "model image has inconsistent dimensions";
    return -1;
  }
  m->head_size = m->dim / m->n_heads;
  m->kv_dim = m->head_size * m->n_kv_heads;

  cursor_t c = at(b, len, h[H_OFF_EMBED]);
  m->embed = take_qmat(&c, m->vocab_size, m->dim);
  int bad = c.bad;
  c = at(b, len, h[H_OFF_LAYERS]);
  for (int l = 0; l < m->n_layers; l++) {
    llm_layer_t *L = &m->layers[l];
    L->rms_att = take(&c, (size_t)m->dim * 4);
    L->wq = take_qmat(&c, m->dim, m->dim);
    L->wk = take_qmat(&c, m->kv_dim, m->dim);
    L->wv = take_qmat(&c, m->kv_dim, m->dim);
    L->wo = take_qmat(&c, m->dim, m->dim);
    L->rms_ffn = take(&c, (size_t)m->dim * 4);
    L->w1 = take_qmat(&c, m->hidden_dim, m->dim);
    L->w2 = take_qmat(&c, m->dim, m->hidden_dim);
    L->w3 = take_qmat(&c, m->hidden_dim, m->dim);
  }
  bad |= c.bad;
  c = at(b, len, h[H_OFF_FINAL]);
  m->rms_final = take(&c, (size_t)m->dim * 4);
  bad |= c.bad;
  c = at(b, len, h[H_OFF_CLASSIFIER]);
  m->classifier = take_qmat(&c, m->vocab_size, m->dim);
  bad |= c.bad;
  c = at(b, len, h[H_OFF_ROPE]);
  size_t rope_entries = (size_t)m->seq_len * (size_t)(m->head_size / 2);
  m->rope_cos = take(&c, rope_entries * 2);
  m->rope_sin = (const int16_t *)(m->rope_cos ? (const void *)(m->rope_cos + rope_entries) : NULL);
  if (!c.bad) take(&c, rope_entries * 2);
  bad |= c.bad;
  c = at(b, len, h[H_OFF_TOKENIZER]);
  const uint32_t *max_len = take(&c, 4);
  m->token_score = take(&c, (size_t)m->vocab_size * 4);
  m->token_offset = take(&c, (size_t)m->vocab_size * 4);
  m->token_sorted = take(&c, (size_t)m->vocab_size * 2);
  bad |= c.bad;
  if (bad) {
    *error = "model image section out of bounds (corrupt)";
    return -1;
  }
  m->max_token_length = (int)*max_len;
  m->token_strings = (const char *)(b + c.pos);
  size_t strings_len = len - c.pos;
  /* Every piece must end inside the image, and the sort index be a permutation. */
  for (int i = 0; i < m->vocab_size; i++) {
    uint32_t off = m->token_offset[i];
    if (off >= strings_len || !memchr(m->token_strings + off, 0, strings_len - off) ||
        m->token_sorted[i] >= m->vocab_size) {
      *error = "model image tokenizer is corrupt";
      return -1;
    }
  }
  if (m->max_token_length <= 0 || m->max_token_length > 1024) {
    *error = "model image tokenizer is corrupt";
    return -1;
  }
  m->image_bytes = len;
  return 0;
}
