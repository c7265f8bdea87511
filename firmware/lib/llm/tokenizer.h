/* The model's tokenizer, read from its image: llama2.c's (encoding merges
   the best-scoring adjacent pair, the leftmost of equals, until none is
   left, as llama2.c does but in O(n log n) with a heap and integer score
   keys, so that host and SoC agree; byte fallback; decoding drops the space
   after BOS and turns <0xHH> pieces into bytes) or byte-level BPE
   (tokenizer_bpe.h: control tokens, pre-tokenization, merges by rank). */
#ifndef LLM_TOKENIZER_H
#define LLM_TOKENIZER_H

#include <stddef.h>

#include "bpe_merge.h"
#include "llm_model.h"

#define LLM_ENCODE_TOO_LONG (-1)
#define LLM_ENCODE_UNKNOWN (-2)

/* Longest text llm_encode takes (its node indices are 16-bit). */
#define LLM_ENCODE_MAX_BYTES 65000

/* Encodes TEXT (NUL-terminated) into TOKENS (room for MAX_TOKENS), with the
   model's BOS first when BOS is set. Returns the count, LLM_ENCODE_TOO_LONG
   when the text needs more than MAX_TOKENS tokens before merging (one per
   character or byte; or WORK is too small, or TEXT longer than
   LLM_ENCODE_MAX_BYTES), or LLM_ENCODE_UNKNOWN for a character that is
   neither a piece nor a byte token of a llama2.c vocabulary. WORK (4-byte
   aligned) must hold llm_encode_work_bytes(m, strlen(text)) bytes. */
int llm_encode(const llm_model_t *m, const char *text, int bos, int *tokens, int max_tokens,
               char *work, size_t work_bytes);
size_t llm_encode_work_bytes(const llm_model_t *m, size_t text_bytes);
/* The same for pieces of up to MAX_PIECE bytes, as a constant expression
   (for static buffers): two pieces side by side, then the merger's arrays
   with a node per first-stage token (bpe_merge.h). */
#define LLM_ENCODE_WORK_BYTES(text_bytes, max_piece) \
  ((((size_t)(max_piece) * 2 + 4 + 3) & ~(size_t)3) + LLM_MERGER_BYTES((size_t)(text_bytes) + 2))

/* Room for a decoded piece: byte-level BPE pieces are copied (<= 255 bytes). */
#define LLM_DECODE_BYTES 256

/* The text of TOKEN after PREV, NUL-terminated: in the image, or in BUF. */
const char *llm_decode(const llm_model_t *m, int prev, int token, char buf[LLM_DECODE_BYTES]);

#endif
