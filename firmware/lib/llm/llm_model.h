/* The integer model image written by tools/llm/convert.py: header, int8
   weight matrices with per-row Q24 scales, Q16 norm gains, Q14 RoPE tables
   and the tokenizer. Opening an image checks it thoroughly (magic, sizes,
   offsets, CRC) so that a corrupt upload is refused, never run. */
#ifndef LLM_MODEL_H
#define LLM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define LLM_IMAGE_VERSION 2 /* convert.py's VERSION: the weight layout below */
#define LLM_Q_NORM 16  /* RMSNorm gains */
#define LLM_Q_SCALE 24 /* per-row weight scales */
#define LLM_Q_ROPE 14  /* RoPE cos/sin */

/* An int8 matrix in tiles of 4 rows x 4 columns (rows and columns padded
   with zeros to multiples of 4), each row's 4 weights of a tile one word:
   element (r, c) is at q[((r / 4) * cols4 + c / 4 * 4 + r % 4) * 4 + c % 4]
   with cols4 = cols rounded up to 4, so that the matrix-vector product loads
   two words of activations for four rows and hands each word of weights to
   a packed dot product (llm_dot.h). */
typedef struct {
  int rows, cols;
  const int32_t *scale; /* [rows], Q24: the real weight is q * scale / 2^24 */
  const int8_t *q;      /* [(rows + 3) / 4][cols4 / 4][4][4] */
} llm_qmat_t;

static inline int llm_qmat_cols4(const llm_qmat_t *m) { return (m->cols + 3) & ~3; }

static inline int8_t llm_qmat_at(const llm_qmat_t *m, int r, int c) {
  size_t tile = (size_t)(r / 4) * (size_t)llm_qmat_cols4(m) + (size_t)(c / 4) * 4;
  return m->q[(tile + (size_t)(r % 4)) * 4 + (size_t)(c % 4)];
}

typedef struct {
  const int32_t *rms_att, *rms_ffn; /* [dim], Q16 */
  llm_qmat_t wq, wk, wv, wo, w1, w2, w3;
} llm_layer_t;

#define LLM_MAX_LAYERS 32
#define LLM_MAX_HEAD_SIZE 128

typedef struct {
  int dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len;
  int head_size, kv_dim;
  llm_qmat_t embed, classifier;
  llm_layer_t layers[LLM_MAX_LAYERS];
  const int32_t *rms_final;               /* [dim], Q16 */
  const int16_t *rope_cos, *rope_sin;     /* [seq_len][head_size / 2], Q14 */
  /* Tokenizer. */
  int max_token_length;
  const int32_t *token_score;             /* order-preserving keys of the float scores */
  const uint32_t *token_offset;           /* into token_strings */
  const uint16_t *token_sorted;           /* ids sorted by string */
  const char *token_strings;              /* NUL-terminated pieces */
  size_t image_bytes;
} llm_model_t;

/* Validates IMAGE (LEN bytes, 4-byte aligned) and fills M with pointers into
   it. Returns 0, or -1 with a one-line reason in *error. */
int llm_model_open(llm_model_t *m, const void *image, size_t len, const char **error);

#endif
