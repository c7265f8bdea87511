#include "tokenizer.h"

#include <string.h>

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

int llm_encode(const llm_model_t *m, const char *text, int bos, int *tokens, int max_tokens,
               char *work, size_t work_bytes) {
  int n = 0;
  if (work_bytes < (size_t)m->max_token_length * 2 + 3) return LLM_ENCODE_TOO_LONG;
  if (bos) {
    if (n >= max_tokens) return LLM_ENCODE_TOO_LONG;
    tokens[n++] = LLM_TOKEN_BOS;
  }
  if (text[0] != '\0') {
    int space = lookup(m, " ", 1);
    if (space >= 0) {
      if (n >= max_tokens) return LLM_ENCODE_TOO_LONG;
      tokens[n++] = space;
    }
  }
  /* One token per UTF-8 code point, or its bytes (+3: the <0x00>.. tokens). */
  size_t len = 0;
  for (const char *c = text; *c; c++) {
    if ((*c & 0xC0) != 0x80) len = 0;
    work[len++] = *c;
    work[len] = '\0';
    if ((c[1] & 0xC0) == 0x80 && len < 4) continue;
    int id = lookup(m, work, len);
    if (id >= 0) {
      if (n >= max_tokens) return LLM_ENCODE_TOO_LONG;
      tokens[n++] = id;
    } else {
      for (size_t i = 0; i < len; i++) {
        if (n >= max_tokens) return LLM_ENCODE_TOO_LONG;
        int byte = (unsigned char)work[i];
        if (!is_byte_piece(m, byte + 3, byte)) return LLM_ENCODE_UNKNOWN;
        tokens[n++] = byte + 3;
      }
    }
    len = 0;
  }
  /* Merge the best pair until no pair is a piece. */
  for (;;) {
    int32_t best_score = INT32_MIN;
    int best_id = -1, best_at = -1;
    for (int i = 0; i + 1 < n; i++) {
      const char *a = piece(m, tokens[i]), *b = piece(m, tokens[i + 1]);
      size_t la = strlen(a), lb = strlen(b);
      if (la + lb + 1 > work_bytes) continue;
      memcpy(work, a, la);
      memcpy(work + la, b, lb);
      int id = lookup(m, work, la + lb);
      if (id >= 0 && (best_id < 0 || m->token_score[id] > best_score)) {
        best_score = m->token_score[id];
        best_id = id;
        best_at = i;
      }
    }
    if (best_at < 0) break;
    tokens[best_at] = best_id;
    memmove(tokens + best_at + 1, tokens + best_at + 2, sizeof(int) * (size_t)(n - best_at - 2));
    n--;
  }
  return n;
}

const char *llm_decode(const llm_model_t *m, int prev, int token, char byte_buf[2]) {
  const char *p = piece(m, token);
  if (prev == LLM_TOKEN_BOS && p[0] == ' ') p++;
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
    byte_buf[0] = (char)v;
    byte_buf[1] = '\0';
    return byte_buf;
  }
  return p;
}
