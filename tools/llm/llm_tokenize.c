/* llm_tokenize: the firmware's tokenizer on the host, over many texts.
   usage: llm_tokenize MODEL.ucm TEXTS
   TEXTS holds texts one after another, each as a line "LEN" then LEN bytes.
   For each text prints "TOKENS id id ...", or "ERROR reason". With
   --round-trip, also checks that the tokens decode to the text again (less
   the bytes the vocabulary has no token for) and prints "ROUNDTRIP ok" or
   "ROUNDTRIP differs at byte N". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_file.h"
#include "llm_model.h"
#include "tokenizer.h"

/* TEXT without the bytes that have no byte token (BPE drops them). */
static size_t kept_bytes(const llm_model_t *m, const char *text, size_t len, char *out) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    if (m->tokenizer != LLM_TOKENIZER_BPE || m->bpe.byte_token[(unsigned char)text[i]] != LLM_NO_TOKEN)
      out[n++] = text[i];
  return n;
}

static void round_trip(const llm_model_t *m, const char *text, size_t len, const int *tokens, int n) {
  char *want = malloc(len + 1), *got = malloc(len * 2 + LLM_DECODE_BYTES), piece[LLM_DECODE_BYTES];
  size_t wn = kept_bytes(m, text, len, want), gn = 0;
  for (int i = 0; i < n && gn <= len; i++) {
    const char *p = llm_decode(m, i ? tokens[i - 1] : -1, tokens[i], piece);
    size_t pn = m->tokenizer == LLM_TOKENIZER_BPE ? m->bpe.piece_offset[tokens[i] + 1] - m->bpe.piece_offset[tokens[i]]
                                                 : strlen(p);
    memcpy(got + gn, p, pn);
    gn += pn;
  }
  size_t at = 0;
  while (at < wn && at < gn && want[at] == got[at]) at++;
  if (at == wn && at == gn) printf("ROUNDTRIP ok\n");
  else printf("ROUNDTRIP differs at byte %zu\n", at);
  free(want);
  free(got);
}

int main(int argc, char **argv) {
  int check = argc == 4 && !strcmp(argv[3], "--round-trip");
  if (argc != 3 && !check) {
    fprintf(stderr, "usage: llm_tokenize MODEL.ucm TEXTS [--round-trip]\n");
    return 2;
  }
  llm_model_t model;
  if (host_open_model("llm_tokenize", argv[1], &model)) return 2;
  size_t size;
  char *texts = host_read_file(argv[2], &size);
  if (!texts) {
    fprintf(stderr, "llm_tokenize: cannot read %s\n", argv[2]);
    return 2;
  }
  for (size_t at = 0; at < size;) {
    char *end;
    unsigned long n = strtoul(texts + at, &end, 10);
    if (end == texts + at || *end != '\n' || n > size - (size_t)(end + 1 - texts)) {
      fprintf(stderr, "llm_tokenize: %s: bad text header at byte %zu\n", argv[2], at);
      return 2;
    }
    char *text = malloc(n + 1);
    memcpy(text, end + 1, n);
    text[n] = '\0';
    at = (size_t)(end + 1 - texts) + n;
    size_t work_bytes = llm_encode_work_bytes(&model, n);
    char *work = malloc(work_bytes);
    int *tokens = malloc(sizeof(int) * (n + 2));
    int count = llm_encode(&model, text, model.add_bos, tokens, (int)n + 2, work, work_bytes);
    if (count < 0) {
      printf("ERROR %s\n", count == LLM_ENCODE_UNKNOWN ? "unknown character" : "too long");
    } else {
      printf("TOKENS");
      for (int i = 0; i < count; i++) printf(" %d", tokens[i]);
      printf("\n");
      if (check) round_trip(&model, text, n, tokens, count);
    }
    free(text);
    free(work);
    free(tokens);
  }
  return 0;
}
