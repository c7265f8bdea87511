/* kv_record: one bank's keys and queries from a real model, as kv_trace's
   script (tests/policy_reference.py runs the policies' references on them).
   usage: kv_record MODEL.ucm LAYER KVH POSITIONS
   Decodes greedily from BOS over POSITIONS positions, reads them again as a
   prompt with the dense reference (prompt_tape.h), and prints a line per
   position: the key of (LAYER, KVH) as the array receives it (the cached
   12-bit key rounded to int8, kv_encode.c) and the int8 query of the first
   query head that shares it. */
#include <stdio.h>
#include <stdlib.h>

#include "host_file.h"
#include "kv_encode.h"
#include "logits.h"
#include "prompt_tape.h"

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: kv_record MODEL.ucm LAYER KVH POSITIONS\n");
    return 2;
  }
  llm_model_t model;
  if (host_open_model("kv_record", argv[1], &model)) return 2;
  const int layer = atoi(argv[2]), kvh = atoi(argv[3]), n = atoi(argv[4]);
  if (layer < 0 || layer >= model.n_layers || kvh < 0 || kvh >= model.n_kv_heads || n < 1 || n > model.seq_len) {
    fprintf(stderr, "kv_record: LAYER 0..%d, KVH 0..%d, POSITIONS 1..%d\n", model.n_layers - 1,
            model.n_kv_heads - 1, model.seq_len);
    return 2;
  }
  llm_state_t state;
  void *arena = malloc(llm_state_bytes(&model, LLM_MAX_BATCH));
  int *tokens = malloc(sizeof(int) * (size_t)n);
  if (!arena || !tokens) return 2;
  llm_state_init(&state, &model, arena, LLM_MAX_BATCH);
  tokens[0] = model.bos;
  for (int pos = 0; pos + 1 < n; pos++)
    tokens[pos + 1] = logits_argmax(llm_forward(&state, tokens[pos], pos), model.vocab_size);
  prompt_tape_t tape;
  if (prompt_tape_record(&tape, &state, tokens, n)) {
    fprintf(stderr, "kv_record: out of memory\n");
    return 2;
  }
  const int hs = model.head_size;
  for (int pos = 0; pos < n; pos++) {
    const int16_t *key = prompt_tape_key(&tape, layer, kvh, pos);
    const int8_t *q = prompt_tape_query(&tape, layer, kvh, pos, 0);
    if (!q) return 2;
    for (int i = 0; i < hs; i++) printf("%d ", kv_key_int8(key[i]));
    for (int i = 0; i < hs; i++) printf("%d%c", q[i], i + 1 < hs ? ' ' : '\n');
  }
  prompt_tape_free(&tape);
  return 0;
}
