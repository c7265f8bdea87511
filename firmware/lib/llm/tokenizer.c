#include "tokenizer.h"

#include <string.h>

#include "bpe_merge.h"
#include "tokenizer_bpe.h"

static const char *piece(const llm_model_t *m, int id) {
  return m->token_strings + m->token_offset[id];
}

/* The id of piece STR (LEN bytes), or -1: binary search over the sorted ids. */
static int lookup(const llm_model_t *m, const char *str, size_t len) {
  int lo = 0, hi = m->vocab_size - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    const char *p = piece(m, m->token_sorted[mid]);
    int c = strncmp(p, str, len);
    if (c == 0 && p[len] != '\0') c = 1; /* p is longer */
    if (c == 0) return m->token_sorted[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* Whether token ID is the byte-fallback piece <0xHH> of BYTE: vocabularies
   without byte tokens cannot encode characters outside their pieces. */
static int is_byte_piece(const llm_model_t *m, int id, int byte) {
  static const char hex[] = "0123456789ABCDEF";
  if (id >= m->vocab_size) return 0;
  const char *p = piece(m, id);
  return p[0] == '<' && p[1] == '0' && p[2] == 'x' && p[3] == hex[byte >> 4] && p[4] == hex[byte & 15] &&
         p[5] == '>' && p[6] == '\0';
}

size_t llm_encode_work_bytes(const llm_model_t *m, size_t text_bytes) {
  return LLM_ENCODE_WORK_BYTES(text_bytes, m->max_token_length);
}

/* llama2.c's rule: two pieces merge into the piece they spell, the
   best-scoring first. CTX is room for two pieces side by side. */
static int score_pair(const llm_model_t *m, int left, int right, int32_t *prio, void *ctx) {
  char *cat = ctx;
  const char *a = piece(m, left), *b = piece(m, right);
  size_t la = strlen(a), lb = strlen(b);
  memcpy(cat, a, la);
  memcpy(cat + la, b, lb);
  int id = lookup(m, cat, la + lb);
  if (id >= 0) *prio = m->token_score[id];
  return id;
}

/* The merger's arrays after the two-piece buffer, 4-byte aligned. */
static void *merger_work(const llm_model_t *m, char *work) {
  return work + (((size_t)m->max_token_length * 2 + 4 + 3) & ~(size_t)3);
}

int llm_encode(const llm_model_t *m, const char *text, int bos, int *tokens, int max_tokens,
               char *work, size_t work_bytes) {
  size_t text_bytes = strlen(text);
  if (text_bytes > LLM_ENCODE_MAX_BYTES || work_bytes < llm_encode_work_bytes(m, text_bytes) ||
      ((uintptr_t)work & 3))
    return LLM_ENCODE_TOO_LONG;
  llm_merger_t g;
  int room = max_tokens < (int)text_bytes + 2 ? max_tokens : (int)text_bytes + 2;
  if (m->tokenizer == LLM_TOKENIZER_BPE) {
    llm_merger_start(&g, m, llm_bpe_pair, NULL, tokens, room, merger_work(m, work));
    return llm_bpe_encode(m, &g, text, text_bytes, bos);
  }
  llm_merger_start(&g, m, score_pair, work, tokens, room, merger_work(m, work));
  if (bos && llm_merger_push(&g, m->bos, 0)) return LLM_ENCODE_TOO_LONG;
  if (text[0] != '\0') {
    int space = lookup(m, " ", 1);
    if (space >= 0 && llm_merger_push(&g, space, 1)) return LLM_ENCODE_TOO_LONG;
  }
  /* One token per UTF-8 code point, or its bytes (+3: the <0x00>.. tokens). */
  char cp[5];
  size_t len = 0;
  for (const char *c = text; *c; c++) {
    if ((*c & 0xC0) != 0x80) len = 0;
    cp[len++] = *c;
    cp[len] = '\0';
    if ((c[1] & 0xC0) == 0x80 && len < 4) continue;
    int id = lookup(m, cp, len);
    if (id >= 0) {
      if (llm_merger_push(&g, id, 1)) return LLM_ENCODE_TOO_LONG;
    } else {
      for (size_t i = 0; i < len; i++) {
        int byte = (unsigned char)cp[i];
        if (!is_byte_piece(m, byte + 3, byte)) return LLM_ENCODE_UNKNOWN;
        if (llm_merger_push(&g, byte + 3, 1)) return LLM_ENCODE_TOO_LONG;
      }
    }
    len = 0;
  }
  return llm_merger_run(&g);
}

const char *llm_decode(const llm_model_t *m, int prev, int token, char buf[LLM_DECODE_BYTES]) {
  if (m->tokenizer == LLM_TOKENIZER_BPE) return llm_bpe_decode(m, token, buf);
  const char *p = piece(m, token);
  if (prev == m->bos && p[0] == ' ') p++;
  /* <0xHH>: a raw byte. */
  if (p[0] == '<' && p[1] == '0' && p[2] == 'x' && p[3] && p[4] && p[5] == '>' && p[6] == '\0') {
    int v = 0;
    for (int i = 3; i < 5; i++) {
      char c = p[i];
      int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'A' && c <= 'F') ? c - 'A' + 10 :
              (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
      if (d < 0) return p;
      v = v * 16 + d;
    }
    buf[0] = (char)v;
    buf[1] = '\0';
    return buf;
  }
  return p;
}
