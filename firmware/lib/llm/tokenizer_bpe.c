#include "tokenizer_bpe.h"

#include <string.h>

#include "bpe_pretok.h"
#include "tokenizer.h"

static size_t piece_len(const llm_bpe_t *t, int id) { return t->piece_offset[id + 1] - t->piece_offset[id]; }

int llm_bpe_pair(const llm_model_t *m, int left, int right, int32_t *prio, void *ctx) {
  (void)ctx;
  const llm_bpe_t *t = &m->bpe;
  uint32_t key = (uint32_t)left << 16 | (uint32_t)right;
  int lo = 0, hi = t->merges - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (t->merge_key[mid] < key) lo = mid + 1;
    else if (t->merge_key[mid] > key) hi = mid - 1;
    else {
      *prio = -(int32_t)(t->merge_value[mid] >> 16); /* lower rank first */
      return (int)(t->merge_value[mid] & 0xFFFF);
    }
  }
  return -1;
}

/* The control token spelled at TEXT (AVAIL bytes), the longest, or -1. */
static int special_at(const llm_model_t *m, const char *text, size_t avail, size_t *len) {
  const llm_bpe_t *t = &m->bpe;
  int best = -1;
  *len = 0;
  for (int i = 0; i < t->specials; i++) {
    int id = t->special[i];
    size_t n = piece_len(t, id);
    if (n > *len && n <= avail && !memcmp(text, t->piece_bytes + t->piece_offset[id], n)) {
      best = id;
      *len = n;
    }
  }
  return best;
}

/* Pushes the words of TEXT[0..END), each word's bytes joined. */
static int push_words(const llm_model_t *m, llm_merger_t *g, const char *text, size_t end) {
  llm_pretok_t p;
  llm_pretok_start(&p, &m->bpe, text, end);
  for (size_t pos = 0; pos < end;) {
    size_t word_end = llm_pretok_next(&p, pos);
    int join = 0;
    for (; pos < word_end; pos++) {
      unsigned id = m->bpe.byte_token[(uint8_t)text[pos]];
      if (id == LLM_NO_TOKEN) continue;
      if (llm_merger_push(g, (int)id, join)) return -1;
      join = 1;
    }
  }
  return 0;
}

int llm_bpe_encode(const llm_model_t *m, llm_merger_t *g, const char *text, size_t text_bytes, int bos) {
  if (bos && llm_merger_push(g, m->bos, 0)) return LLM_ENCODE_TOO_LONG;
  size_t span = 0; /* start of the text since the last control token */
  for (size_t pos = 0; pos <= text_bytes;) {
    size_t len = 0;
    int special = pos < text_bytes ? special_at(m, text + pos, text_bytes - pos, &len) : -1;
    if (special < 0 && pos < text_bytes) {
      pos++;
      continue;
    }
    if (push_words(m, g, text + span, pos - span) || (special >= 0 && llm_merger_push(g, special, 0)))
      return LLM_ENCODE_TOO_LONG;
    pos += special >= 0 ? len : 1;
    span = pos;
  }
  return llm_merger_run(g);
}

const char *llm_bpe_decode(const llm_model_t *m, int token, char *buf) {
  const llm_bpe_t *t = &m->bpe;
  size_t n = piece_len(t, token);
  memcpy(buf, t->piece_bytes + t->piece_offset[token], n);
  buf[n] = '\0';
  return buf;
}
