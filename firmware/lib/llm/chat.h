/* The chat template of models that have one (ChatML, SmolLM2's):
     <|im_start|>system\n{default system message}<|im_end|>\n
     <|im_start|>user\n{text}<|im_end|>\n
     <|im_start|>assistant\n
   as the text the tokenizer then encodes (its control tokens are matched
   there). */
#ifndef LLM_CHAT_H
#define LLM_CHAT_H

#include <stddef.h>

#include "llm_model.h"

/* The prompt of a one-turn chat about TEXT into BUF (SIZE bytes, with the
   NUL). Returns its length, or -1 when the model has no template or BUF is
   too small. */
int llm_chat_prompt(const llm_model_t *m, const char *text, char *buf, size_t size);

#endif
