/* libFuzzer target: the firmware's tokenizer (tokenizer.c, tokenizer_bpe.c,
   bpe_pretok.c, bpe_merge.c) on arbitrary bytes, with the model image named
   by UCM_FUZZ_IMAGE (SmolLM2's byte-level BPE; stories260K's works too).
   Checked: encoding returns tokens or a documented error, never more tokens
   than it was given room for; with byte-level BPE every id is in the
   vocabulary and the tokens decode back to the input less the bytes the
   vocabulary has no token for (invalid UTF-8 included). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_file.h"
#include "tokenizer.h"

#define MAX_TEXT 4096

static llm_model_t model;
static char work[LLM_ENCODE_WORK_BYTES(MAX_TEXT, 256)] __attribute__((aligned(4)));

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *path = getenv("UCM_FUZZ_IMAGE");
  if (!path || host_open_model("fuzz_tokenize", path, &model) || model.max_token_length > 256) {
    fprintf(stderr, "fuzz_tokenize: set UCM_FUZZ_IMAGE to a model image\n");
    exit(2);
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char text[MAX_TEXT + 1], want[MAX_TEXT + 1], got[MAX_TEXT * 2 + LLM_DECODE_BYTES];
  static int tokens[MAX_TEXT + 2];
  if (size > MAX_TEXT) return 0;
  size_t len = 0;
  for (size_t i = 0; i < size; i++)
    if (data[i]) text[len++] = (char)data[i]; /* a C string: no NUL inside */
  text[len] = '\0';
  int room = (int)(size % 7 == 0 ? len / 2 + 1 : len + 2); /* sometimes too little */
  int n = llm_encode(&model, text, 0, tokens, room, work, sizeof work);
  if (n == LLM_ENCODE_TOO_LONG || n == LLM_ENCODE_UNKNOWN) return 0;
  if (n < 0 || n > room) abort();
  if (model.tokenizer != LLM_TOKENIZER_BPE) return 0;
  size_t wn = 0, gn = 0;
  for (size_t i = 0; i < len; i++)
    if (model.bpe.byte_token[(uint8_t)text[i]] != LLM_NO_TOKEN) want[wn++] = text[i];
  char piece[LLM_DECODE_BYTES];
  for (int i = 0; i < n; i++) {
    if (tokens[i] < 0 || tokens[i] >= model.vocab_size) abort();
    size_t pn = model.bpe.piece_offset[tokens[i] + 1] - model.bpe.piece_offset[tokens[i]];
    memcpy(got + gn, llm_decode(&model, -1, tokens[i], piece), pn);
    gn += pn;
  }
  if (gn != wn || memcmp(got, want, wn)) abort();
  return 0;
}
