#include "bpe_merge.h"

#define NO_NODE 0xFFFFu

void llm_merger_start(llm_merger_t *g, const llm_model_t *m, llm_pair_fn pair_of, void *ctx, int *tokens,
                      int max_nodes, void *work) {
  g->m = m;
  g->pair_of = pair_of;
  g->ctx = ctx;
  g->tokens = tokens;
  g->n = 0;
  g->max_nodes = max_nodes < (int)NO_NODE ? max_nodes : (int)NO_NODE;
  g->prio = work;
  g->prev = (uint16_t *)(void *)(g->prio + max_nodes);
  g->next = g->prev + max_nodes;
  g->pair = g->next + max_nodes;
  g->heap = g->pair + max_nodes;
  g->where = g->heap + max_nodes;
  g->heap_len = 0;
}

int llm_merger_push(llm_merger_t *g, int token, int join) {
  if (g->n >= g->max_nodes) return -1;
  int i = g->n++;
  g->tokens[i] = token;
  g->prev[i] = join && i > 0 ? (uint16_t)(i - 1) : NO_NODE;
  g->next[i] = NO_NODE;
  if (join && i > 0) g->next[i - 1] = (uint16_t)i;
  g->where[i] = NO_NODE;
  return 0;
}

/* Whether node A's pair merges before node B's. */
static int merges_first(const llm_merger_t *g, unsigned a, unsigned b) {
  return g->prio[a] > g->prio[b] || (g->prio[a] == g->prio[b] && a < b);
}

static void heap_place(llm_merger_t *g, unsigned at, unsigned node) {
  g->heap[at] = (uint16_t)node;
  g->where[node] = (uint16_t)at;
}

static void heap_fix(llm_merger_t *g, unsigned at) {
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

static void heap_remove(llm_merger_t *g, unsigned node) {
  unsigned at = g->where[node];
  g->where[node] = NO_NODE;
  unsigned last = g->heap[--g->heap_len];
  if (last == node) return;
  heap_place(g, at, last);
  heap_fix(g, at);
}

/* Recomputes NODE's pair and its place in the heap. */
static void repair(llm_merger_t *g, unsigned node) {
  unsigned right = g->next[node];
  int id = right == NO_NODE ? -1 : g->pair_of(g->m, g->tokens[node], g->tokens[right], &g->prio[node], g->ctx);
  g->pair[node] = id < 0 ? NO_NODE : (uint16_t)id;
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

int llm_merger_run(llm_merger_t *g) {
  for (int i = 0; i < g->n; i++) repair(g, (unsigned)i);
  while (g->heap_len) {
    unsigned left = g->heap[0], right = g->next[left];
    g->tokens[left] = g->pair[left];
    g->tokens[right] = -1;
    g->next[left] = g->next[right];
    if (g->next[right] != NO_NODE) g->prev[g->next[right]] = (uint16_t)left;
    if (g->where[right] != NO_NODE) heap_remove(g, right);
    repair(g, left);
    if (g->prev[left] != NO_NODE) repair(g, g->prev[left]);
  }
  /* Folding keeps the survivors in text order. */
  int count = 0;
  for (int i = 0; i < g->n; i++)
    if (g->tokens[i] >= 0) g->tokens[count++] = g->tokens[i];
  return count;
}
