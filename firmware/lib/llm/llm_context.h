/* A saved context: positions 0..n-1 of a sequence's key/value cache, as
   kv_store received them, and the token that comes next, so that a run goes
   on at position n without computing the first n forward passes again (a
   simulator needs hours for 256 of SmolLM2's). The host engine writes it
   (tools/llm/llm_context.c); restoring replays the same kv_store calls in
   the same order, so the cache, the policy's state and the array's banks
   end as the passes would have left them.

   Layout, little-endian: ten 32-bit words -- LLM_CONTEXT_MAGIC, version,
   layers, kv heads, head size, positions, next token, the model image's
   CRC, payload bytes, the payload's CRC-32 -- then per position, layer and
   kv head: key scale and value scale (int32, Q24), the key (int16 x head
   size) and the value (int8 x head size). */
#ifndef LLM_CONTEXT_H
#define LLM_CONTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "transformer.h"

#define LLM_CONTEXT_MAGIC 0x58544355u /* "UCTX" */
#define LLM_CONTEXT_VERSION 1u
#define LLM_CONTEXT_HEADER_BYTES 40u

/* Bytes of a context of POSITIONS positions for model M. */
size_t llm_context_bytes(const llm_model_t *m, int positions);

/* Writes positions 0..POSITIONS-1 of S's cache and NEXT_TOKEN into BUF
   (llm_context_bytes long). Returns 0, or -1 with the reason in *error (a
   position the cache no longer holds: a pruning policy dropped it). */
int llm_context_save(const llm_state_t *s, int positions, int next_token, void *buf, const char **error);

/* Checks the context in BUF (LEN bytes: header, sizes, this model, CRC) and
   replays it into S's cache. Returns the positions restored (the run goes
   on at that position with *NEXT_TOKEN), or -1 with the reason in *error
   and the cache untouched. */
int llm_context_restore(llm_state_t *s, const void *buf, size_t len, int *next_token, const char **error);

#endif
