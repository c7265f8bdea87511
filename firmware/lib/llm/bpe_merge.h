/* The merge stage both tokenizers share: symbols in a linked list (a
   node per first-stage token; merging folds the right node into the left)
   and the mergeable adjacent pairs in a heap, best first, ties to the
   leftmost -- the pair a quadratic scan would pick, in O(n log n). Links
   can be cut when nodes are pushed, so that no pair crosses a word (BPE's
   pre-tokenization). Index arrays are 16-bit to keep the firmware small. */
#ifndef LLM_BPE_MERGE_H
#define LLM_BPE_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "llm_model.h"

/* The token LEFT and RIGHT merge into, with its priority (higher merges
   first) in *PRIO, or -1 when they do not merge. */
typedef int (*llm_pair_fn)(const llm_model_t *m, int left, int right, int32_t *prio, void *ctx);

typedef struct {
  const llm_model_t *m;
  llm_pair_fn pair_of;
  void *ctx;
  int *tokens;      /* the nodes' tokens; -1 once folded */
  int n, max_nodes;
  uint16_t *prev, *next, *pair, *heap, *where;
  int32_t *prio;
  unsigned heap_len;
} llm_merger_t;

/* Work bytes for MAX_NODES nodes. */
#define LLM_MERGER_BYTES(max_nodes) ((size_t)(max_nodes) * (5 * sizeof(uint16_t) + sizeof(int32_t)))

/* Starts an empty list over TOKENS (room for MAX_NODES, at most 65535) with
   WORK (4-byte aligned, LLM_MERGER_BYTES(MAX_NODES)). */
void llm_merger_start(llm_merger_t *g, const llm_model_t *m, llm_pair_fn pair_of, void *ctx, int *tokens,
                      int max_nodes, void *work);
/* Appends TOKEN, linked to the node before it when JOIN. Returns -1 when full. */
int llm_merger_push(llm_merger_t *g, int token, int join);
/* Merges until no pair is left; returns the token count, TOKENS compacted. */
int llm_merger_run(llm_merger_t *g);

#endif
