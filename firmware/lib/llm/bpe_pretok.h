/* Byte-level BPE's pre-tokenization (SmolLM2's, tokenizer.ggml.pre
   "smollm"; PyPI tokenizers' Digits(individual_digits) then ByteLevel's
   pattern): every number character is a word of its own; the rest splits
   by GPT-2's pattern
     's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
   with the classes from the image (llm_bpe_t). Merges never cross a word.
   Text is UTF-8; a byte that starts no valid sequence counts as a
   character of its own that is neither letter, number nor space. */
#ifndef LLM_BPE_PRETOK_H
#define LLM_BPE_PRETOK_H

#include <stddef.h>
#include <stdint.h>

#include "llm_model.h"

typedef enum { LLM_CLASS_LETTER, LLM_CLASS_NUMBER, LLM_CLASS_SPACE, LLM_CLASS_OTHER } llm_char_class_t;

/* The class of code point CP. */
llm_char_class_t llm_bpe_class(const llm_bpe_t *t, uint32_t cp);

/* The code point at S (AVAIL bytes there, AVAIL >= 1) and its length in *LEN. */
uint32_t llm_utf8_next(const char *s, size_t avail, int *len);

typedef struct {
  const llm_bpe_t *t;
  const char *text;
  size_t end;     /* the span being split: text[0..end) */
  size_t seg_end; /* where the current run without number characters ends */
} llm_pretok_t;

void llm_pretok_start(llm_pretok_t *p, const llm_bpe_t *t, const char *text, size_t end);
/* The end of the word that starts at POS (< end); words tile the span. */
size_t llm_pretok_next(llm_pretok_t *p, size_t pos);

#endif
