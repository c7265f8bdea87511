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

/* The merge stage keeps the tokens as a linked list of nodes (a node is
   the position of a first-stage token; merging folds the right node into the
   left) and the mergeable adjacent pairs in a heap keyed by their piece's
   score, ties to the leftmost: the same pair the quadratic scan of llama2.c
   picks, in O(n log n). Index arrays are 16-bit to keep the firmware small. */
#define NO_NODE 0xFFFFu

typedef struct {
  const llm_model_t *m;
  int *tokens;
  char *cat;        /* two pieces side by side */
  uint16_t *prev, *next;
  uint16_t *pair;   /* piece of (node, next[node]), or NO_NODE */
  uint16_t *heap;   /* nodes with a pair */
  uint16_t *where;  /* heap index of a node, or NO_NODE */
  unsigned heap_len;
} merger_t;

size_t llm_encode_work_bytes(const llm_model_t *m, size_t text_bytes) {
  return LLM_ENCODE_WORK_BYTES(text_bytes, m->max_token_length);
}

static uint16_t pair_piece(const merger_t *g, unsigned left) {
  unsigned right = g->next[left];
  if (right == NO_NODE) return NO_NODE;
  const char *a = piece(g->m, g->tokens[left]), *b = piece(g->m, g->tokens[right]);
  size_t la = strlen(a), lb = strlen(b);
  memcpy(g->cat, a, la);
  memcpy(g->cat + la, b, lb);
  int id = lookup(g->m, g->cat, la + lb);
  return id < 0 ? NO_NODE : (uint16_t)id;
}

/* Whether node A's pair merges before node B's. */
static int merges_first(const merger_t *g, unsigned a, unsigned b) {
  int32_t sa = g->m->token_score[g->pair[a]], sb = g->m->token_score[g->pair[b]];
  return sa > sb || (sa == sb && a < b);
}

static void heap_place(merger_t *g, unsigned at, unsigned node) {
  g->heap[at] = (uint16_t)node;
  g->where[node] = (uint16_t)at;
}

static void heap_fix(merger_t *g, unsigned at) {
  unsigned node = g->heap[at];
  while (at > 0 && merges_first(g, node, g->heap[(at - 1) / 2])) {
    heap_place(g, at, g->heap[(at - 1) / 2]);
    at = (at - 1) / 2;
  }
  for (;;) {
    unsigned child = 2 * at + 1;
    if (child >= g->heap_len) break;
    if (child + 1 < g->heap_len && merges_first(g, g->heap[child + 1], g->heap[child])) child++;
    if (!merges_first(g, g->heap[child], node)) break;
    heap_place(g, at, g->heap[child]);
    at = child;
  }
  heap_place(g, at, node);
}

static void heap_remove(merger_t *g, unsigned node) {
  unsigned at = g->where[node];
  g->where[node] = NO_NODE;
  unsigned last = g->heap[--g->heap_len];
  if (last == node) return;
  heap_place(g, at, last);
  heap_fix(g, at);
}

/* Recomputes NODE's pair and its place in the heap. */
static void repair(merger_t *g, unsigned node) {
  g->pair[node] = pair_piece(g, node);
  int in_heap = g->where[node] != NO_NODE;
  if (g->pair[node] == NO_NODE) {
    if (in_heap) heap_remove(g, node);
  } else if (in_heap) {
    heap_fix(g, g->where[node]);
  } else {
    heap_place(g, g->heap_len++, node);
    heap_fix(g, g->heap_len - 1);
  }
}

static int merge_pairs(const llm_model_t *m, int *tokens, int n, char *work) {
  merger_t g = {.m = m, .tokens = tokens, .cat = work};
  uint16_t *arrays = (uint16_t *)(void *)(work + (size_t)m->max_token_length * 2 + 4);
  g.prev = arrays;
  g.next = g.prev + n;
  g.pair = g.next + n;
  g.heap = g.pair + n;
  g.where = g.heap + n;
  for (int i = 0; i < n; i++) {
    g.prev[i] = i > 0 ? (uint16_t)(i - 1) : NO_NODE;
    g.next[i] = i + 1 < n ? (uint16_t)(i + 1) : NO_NODE;
    g.where[i] = NO_NODE;
  }
  for (int i = 0; i < n; i++) repair(&g, (unsigned)i);
  while (g.heap_len) {
    unsigned left = g.heap[0], right = g.next[left];
    tokens[left] = g.pair[left];
    g.next[left] = g.next[right];
    if (g.next[right] != NO_NODE) g.prev[g.next[right]] = (uint16_t)left;
    if (g.where[right] != NO_NODE) heap_remove(&g, right);
    repair(&g, left);
    if (g.prev[left] != NO_NODE) repair(&g, g.prev[left]);
  }
  /* Node 0 is never folded into another: the list starts there. */
  int count = 0;
  for (unsigned node = 0; node != NO_NODE; node = g.next[node]) tokens[count++] = tokens[node];
  return count;
}

int llm_encode(const llm_model_t *m, const char *text, int bos, int *tokens, int max_tokens,
               char *work, size_t work_bytes) {
  int n = 0;
  size_t text_bytes = strlen(text);
  if (text_bytes > LLM_ENCODE_MAX_BYTES || work_bytes < llm_encode_work_bytes(m, text_bytes)) return LLM_ENCODE_TOO_LONG;
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
  return merge_pairs(m, tokens, n, work);
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
