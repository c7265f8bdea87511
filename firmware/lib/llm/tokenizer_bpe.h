/* Byte-level BPE (GPT-2 style, SmolLM2's): the text's control tokens
   (<|im_start|>...) are matched first, longest at the leftmost place; the
   rest is pre-tokenized into words (bpe_pretok.h), each word's bytes become
   their byte tokens (a byte without one is dropped, as PyPI tokenizers does
   without an unknown token), and adjacent tokens of a word merge by the
   vocabulary's merge list, lowest rank first. */
#ifndef LLM_TOKENIZER_BPE_H
#define LLM_TOKENIZER_BPE_H

#include <stddef.h>

#include "bpe_merge.h"
#include "llm_model.h"

/* The merge rule (llm_pair_fn): the merge list's entry for the pair. */
int llm_bpe_pair(const llm_model_t *m, int left, int right, int32_t *prio, void *ctx);
/* Encodes TEXT (TEXT_BYTES) through the empty merger G; llm_encode's result. */
int llm_bpe_encode(const llm_model_t *m, llm_merger_t *g, const char *text, size_t text_bytes, int bos);
/* TOKEN's bytes in BUF (LLM_DECODE_BYTES), NUL-terminated. */
const char *llm_bpe_decode(const llm_model_t *m, int token, char *buf);

#endif
