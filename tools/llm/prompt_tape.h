/* A prompt read once and replayed into any policy's cache: the one prompt
   rule (kvcache.h) makes every policy's prompt identical to the dense
   reference's -- each prompt position cached and attending to every earlier
   one -- so the prompt's keys, values and queries are the same for all of
   them; only what a policy observes of that attention differs. Recording
   runs the prompt once through the model (the matmuls) with dense attention;
   a replay repeats the cache's calls (kv_store, kv_attend, kv_end_step) in
   the order the forward pass made them, without the model. A policy's cache
   after the replay is the one its own prefill would leave, but for the
   array's read noise and, with the array's exact scores through its ADCs,
   the prompt's outputs (which the rule takes from the dense reference). */
#ifndef PROMPT_TAPE_H
#define PROMPT_TAPE_H

#include <stdint.h>

#include "transformer.h"

typedef struct {
  int n, n_calls, cap_calls;
  int layers, kv_heads, head_size;
  int16_t *keys;               /* [layer][kv head][pos][head_size] */
  int8_t *values;              /* the same shape */
  int32_t *key_scale, *value_scale; /* [layer][kv head][pos] */
  struct prompt_call *calls;   /* kv_attend's calls in order */
  int8_t *queries;             /* [call][ATTN_MAX_GROUP][head_size] */
  int first_token;             /* the dense reference's argmax after the prompt */
  int out_of_memory;
} prompt_tape_t;

/* Reads TOKENS[0..N) through S, the state's batch at a time, under its
   cache's backend and policy; the last position's logits. */
const int32_t *prompt_read(llm_state_t *s, const int *tokens, int n);
/* Reads TOKENS[0..N) through S (dense attention, every position kept) and
   records the tape; S's cache holds the prompt afterwards. 0, or -1 when
   memory runs out. */
int prompt_tape_record(prompt_tape_t *t, llm_state_t *s, const int *tokens, int n);
/* Replays the prompt into S's cache under its current backend and policy
   (kv_begin(N) first, as a sequence of N prompt positions); no attention
   output is computed, only what the policy observes (kv_attend). */
void prompt_tape_replay(const prompt_tape_t *t, llm_state_t *s);
/* As recorded for (LAYER, KVH) at POS: the 12-bit key kv_store got, and
   query head J's int8 query (of the group sharing KVH) kv_attend got, or
   NULL if none was. */
const int16_t *prompt_tape_key(const prompt_tape_t *t, int layer, int kvh, int pos);
const int8_t *prompt_tape_query(const prompt_tape_t *t, int layer, int kvh, int pos, int j);
/* Call I's (LAYER, KVH) and the head factors of its COUNT query heads. */
const int32_t *prompt_tape_head_factors(const prompt_tape_t *t, int i, int *layer, int *kvh, int *count);
void prompt_tape_free(prompt_tape_t *t);

#endif
