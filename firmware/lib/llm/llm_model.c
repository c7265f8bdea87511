#include "llm_model.h"

#include <string.h>

#include "crc32.h"
#include "fixmath.h"

enum {
  H_MAGIC, H_VERSION, H_HEADER_BYTES, H_TOTAL_BYTES, H_CRC, H_DIM, H_HIDDEN, H_LAYERS, H_HEADS,
  H_KV_HEADS, H_VOCAB, H_SEQ, H_SHARED, H_OFF_EMBED, H_OFF_LAYERS, H_OFF_FINAL, H_OFF_CLASSIFIER,
  H_OFF_ROPE, H_OFF_TOKENIZER, H_GROUP, H_INPUT16, H_RESIDUAL_SHIFT, H_NORM_EPS, H_TOKENIZER_KIND, H_BOS,
  H_EOS, H_STOP0, H_STOP1, H_ADD_BOS, H_OFF_CHAT, H_WORDS
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

/* A matrix: per-row scales then the tiles, or (GROUP) the tiles, at a
   multiple of LLM_GROUPED_ALIGN bytes of the image, then a scale and an
   offset per row and group. */
static llm_qmat_t take_qmat(cursor_t *c, int rows, int cols, int group) {
  llm_qmat_t q = {rows, cols, (uint16_t)group, 0, 0, NULL, NULL};
  size_t row_tiles = (size_t)(rows + 3) / 4;
  if (!group) q.scale = take(c, (size_t)rows * 4);
  if (group) take(c, (LLM_GROUPED_ALIGN - c->pos % LLM_GROUPED_ALIGN) % LLM_GROUPED_ALIGN);
  q.q = take(c, row_tiles * 4 * (size_t)llm_qmat_cols4(&q));
  if (group) q.scale = take(c, row_tiles * 4 * (size_t)(cols / group) * 8);
  uint32_t scale_max = 0;
  for (int r = 0; !group && q.scale && r < rows; r++) {
    const uint32_t mag = q.scale[r] < 0 ? -(uint32_t)q.scale[r] : (uint32_t)q.scale[r];
    if (mag > scale_max) scale_max = mag;
  }
  q.scale_headroom = (uint8_t)fx_headroom(scale_max);
  q.cols_headroom = (uint8_t)fx_headroom((uint64_t)llm_qmat_cols4(&q));
  return q;
}

static cursor_t at(const uint8_t *base, size_t len, uint32_t offset) {
  cursor_t c = {base, offset, len, offset > len || (offset & 3)};
  return c;
}

/* llama2.c's tokenizer: longest piece, scores, offsets, the ids sorted by
   string, NUL-terminated pieces to the image's end. */
static const char *open_scores(llm_model_t *m, cursor_t *c) {
  const uint32_t *max_len = take(c, 4);
  m->token_score = take(c, (size_t)m->vocab_size * 4);
  m->token_offset = take(c, (size_t)m->vocab_size * 4);
  m->token_sorted = take(c, (size_t)m->vocab_size * 2);
  if (c->bad) return NULL; /* reported as out of bounds */
  m->max_token_length = (int)*max_len;
  m->token_strings = (const char *)(c->base + c->pos);
  size_t strings_len = c->len - c->pos;
  /* Every piece must end inside the image, and the sort index be a permutation. */
  for (int i = 0; i < m->vocab_size; i++) {
    uint32_t off = m->token_offset[i];
    if (off >= strings_len || !memchr(m->token_strings + off, 0, strings_len - off) ||
        m->token_sorted[i] >= m->vocab_size)
      return "model image tokenizer is corrupt";
  }
  if (m->max_token_length <= 0 || m->max_token_length > 1024) return "model image tokenizer is corrupt";
  return NULL;
}

/* Byte-level BPE: counts, piece offsets, byte map, merges, control tokens,
   class ranges, piece bytes; every id and offset in range, merge keys and
   ranges ascending (the encoder's binary searches rely on it). */
static const char *open_bpe(llm_model_t *m, cursor_t *c) {
  const char *corrupt = "model image tokenizer is corrupt";
  llm_bpe_t *t = &m->bpe;
  const uint32_t *n = take(c, 6 * 4);
  if (!n) return NULL;
  if (n[0] - 1 >= 255 || n[1] >= 65536 || n[2] > (uint32_t)m->vocab_size || n[3] > 4096 || n[4] > 4096 ||
      n[5] > 4096)
    return corrupt;
  m->max_token_length = (int)n[0];
  t->merges = (int)n[1];
  t->specials = (int)n[2];
  t->piece_offset = take(c, ((size_t)m->vocab_size + 1) * 4);
  t->byte_token = take(c, 256 * 2);
  t->merge_key = take(c, (size_t)t->merges * 4);
  t->merge_value = take(c, (size_t)t->merges * 4);
  t->special = take(c, (size_t)t->specials * 2);
  for (int k = 0; k < 3; k++) {
    t->class_count[k] = (int)n[3 + k];
    t->class_range[k] = take(c, (size_t)t->class_count[k] * 8);
  }
  t->piece_bytes = c->base + c->pos;
  if (c->bad || t->piece_offset[m->vocab_size] > c->len - c->pos) return c->bad ? NULL : corrupt;
  uint32_t longest = 0;
  for (int i = 0; i < m->vocab_size; i++) {
    uint32_t bytes = t->piece_offset[i + 1] - t->piece_offset[i];
    if (t->piece_offset[i + 1] < t->piece_offset[i] || bytes == 0) return corrupt;
    if (bytes > longest) longest = bytes;
  }
  if (longest != n[0]) return corrupt;
  for (int i = 0; i < 256; i++)
    if (t->byte_token[i] >= m->vocab_size && t->byte_token[i] != LLM_NO_TOKEN) return corrupt;
  for (int i = 0; i < t->merges; i++) {
    uint32_t key = t->merge_key[i], value = t->merge_value[i];
    if ((i && key <= t->merge_key[i - 1]) || (key >> 16) >= (uint32_t)m->vocab_size ||
        (key & 0xFFFF) >= (uint32_t)m->vocab_size || (value & 0xFFFF) >= (uint32_t)m->vocab_size)
      return corrupt;
  }
  for (int i = 0; i < t->specials; i++)
    if (t->special[i] >= m->vocab_size) return corrupt;
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < t->class_count[k]; i++) {
      const uint32_t *r = t->class_range[k] + 2 * i;
      if (r[0] > r[1] || r[1] > 0x10FFFF || (i && r[0] <= r[-1])) return corrupt;
    }
  return NULL;
}

/* The chat template: ChatML with a default system message (length, text, NUL). */
static const char *open_chat(llm_model_t *m, cursor_t c) {
  const uint32_t *n = take(&c, 4);
  const char *text = take(&c, n ? (size_t)*n + 1 : 0);
  if (!n || !text || text[*n] != '\0' || memchr(text, 0, *n)) return "model image chat template is corrupt";
  m->chat_system = text;
  return NULL;
}

int llm_model_open(llm_model_t *m, const void *image, size_t len, unsigned flags, const char **error) {
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
  static const uint8_t zero[4];
  if (!(flags & LLM_OPEN_NO_CRC) &&
      crc32_update(crc32_update(crc32_update(0, b, 16), zero, 4), b + 20, len - 20) != h[H_CRC]) {
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
  if (h[H_DIM] - 1 >= 4096 || h[H_HIDDEN] - 1 >= 16384 || h[H_HEADS] - 1 >= 4096 || h[H_KV_HEADS] - 1 >= 4096 ||
      h[H_VOCAB] <= 3 || h[H_VOCAB] > 65535 || h[H_SEQ] - 1 >= 65535 || h[H_LAYERS] - 1 >= LLM_MAX_LAYERS ||
      m->dim % m->n_heads || m->n_heads % m->n_kv_heads || m->dim / m->n_heads > LLM_MAX_HEAD_SIZE ||
      (m->dim / m->n_heads) % 8) {
    *error = "model image has inconsistent dimensions";
    return -1;
  }
  int group = (int)h[H_GROUP];
  m->input16 = h[H_INPUT16];
  m->residual_shift = (int)h[H_RESIDUAL_SHIFT];
  m->norm_eps = (int32_t)h[H_NORM_EPS];
  /* A grouped matrix takes int16 inputs only (its kernel is int8 x int16). */
  if ((group && (group != LLM_GROUP || m->dim % group || m->hidden_dim % group || m->input16 != LLM_IN16_ALL)) ||
      m->input16 > LLM_IN16_ALL || h[H_RESIDUAL_SHIFT] > 8 || h[H_NORM_EPS] - 1 >= 0x7FFFFFFFu) {
    *error = "model image has an unsupported number format";
    return -1;
  }
  m->bos = (int)h[H_BOS];
  m->eos = (int)h[H_EOS];
  m->stop[0] = (int)h[H_STOP0];
  m->stop[1] = (int)h[H_STOP1];
  m->add_bos = h[H_ADD_BOS] != 0;
  if (h[H_TOKENIZER_KIND] > LLM_TOKENIZER_BPE || h[H_BOS] >= h[H_VOCAB] || h[H_EOS] >= h[H_VOCAB] ||
      h[H_STOP0] >= h[H_VOCAB] || h[H_STOP1] >= h[H_VOCAB]) {
    *error = "model image tokenizer is corrupt";
    return -1;
  }
  m->tokenizer = (llm_tokenizer_kind_t)h[H_TOKENIZER_KIND];
  m->head_size = m->dim / m->n_heads;
  m->kv_dim = m->head_size * m->n_kv_heads;
  m->inv_sqrt_head_size = (int32_t)(((int64_t)1 << 32) / fx_isqrt64((uint64_t)m->head_size << 32));

  cursor_t c = at(b, len, h[H_OFF_EMBED]);
  m->embed = take_qmat(&c, m->vocab_size, m->dim, group);
  int bad = c.bad;
  c = at(b, len, h[H_OFF_LAYERS]);
  for (int l = 0; l < m->n_layers; l++) {
    llm_layer_t *L = &m->layers[l];
    L->rms_att = take(&c, (size_t)m->dim * 4);
    L->wq = take_qmat(&c, m->dim, m->dim, group);
    L->wk = take_qmat(&c, m->kv_dim, m->dim, group);
    L->wv = take_qmat(&c, m->kv_dim, m->dim, group);
    L->wo = take_qmat(&c, m->dim, m->dim, group);
    L->rms_ffn = take(&c, (size_t)m->dim * 4);
    L->w1 = take_qmat(&c, m->hidden_dim, m->dim, group);
    L->w2 = take_qmat(&c, m->dim, m->hidden_dim, group);
    L->w3 = take_qmat(&c, m->hidden_dim, m->dim, group);
  }
  bad |= c.bad;
  c = at(b, len, h[H_OFF_FINAL]);
  m->rms_final = take(&c, (size_t)m->dim * 4);
  bad |= c.bad;
  c = at(b, len, h[H_OFF_CLASSIFIER]);
  m->classifier = take_qmat(&c, m->vocab_size, m->dim, group);
  bad |= c.bad;
  c = at(b, len, h[H_OFF_ROPE]);
  size_t rope_entries = (size_t)m->seq_len * (size_t)(m->head_size / 2);
  m->rope_cos = take(&c, rope_entries * 2);
  m->rope_sin = (const int16_t *)(m->rope_cos ? (const void *)(m->rope_cos + rope_entries) : NULL);
  if (!c.bad) take(&c, rope_entries * 2);
  bad |= c.bad;
  c = at(b, len, h[H_OFF_TOKENIZER]);
  const char *why = m->tokenizer == LLM_TOKENIZER_BPE ? open_bpe(m, &c) : open_scores(m, &c);
  if (!why && h[H_OFF_CHAT]) why = open_chat(m, at(b, len, h[H_OFF_CHAT]));
  if (bad || c.bad) why = "model image section out of bounds (corrupt)";
  if (why) {
    *error = why;
    return -1;
  }
  m->image_bytes = len;
  m->image_crc = h[H_CRC];
  return 0;
}
