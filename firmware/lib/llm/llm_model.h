/* The integer model image written by tools/llm/convert.py (its format is
   tools/llm/image_format.py): header, int8 weight matrices with their
   scales, Q16 norm gains, Q14 RoPE tables, the tokenizer and the chat
   template. Opening an image checks it thoroughly (magic, sizes, offsets,
   CRC, tables) so that a corrupt upload is refused, never run. */
#ifndef LLM_MODEL_H
#define LLM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define LLM_IMAGE_VERSION 4 /* image_format.py's VERSION */
#define LLM_GROUPED_ALIGN 64 /* a grouped matrix's offset in the image: a multiple of this */
#define LLM_Q_NORM 16  /* RMSNorm gains */
#define LLM_Q_SCALE 24 /* weight scales and offsets */
#define LLM_Q_ROPE 14  /* RoPE cos/sin */
#define LLM_GROUP 32   /* columns per scale of a grouped matrix (GGUF's block) */

/* An int8 matrix in tiles of 4 rows x 4 columns (rows and columns padded
   with zeros to multiples of 4), each row's 4 weights of a tile one word:
   element (r, c) is at q[((r / 4) * cols4 + c / 4 * 4 + r % 4) * 4 + c % 4]
   with cols4 = cols rounded up to 4, so that the matrix-vector product loads
   a word of activations once for four rows and hands each word of weights to
   a packed dot product (ucx_dot.h).
   Scales: GROUP 0, one per row (real weight = q * scale[r] / 2^24);
   GROUP LLM_GROUP, a scale and an offset per row and group of columns (real
   weight = (q * scale + offset) / 2^24), stored as
   scale[(((r / 4) * groups + c / LLM_GROUP) * 4 + r % 4) * 2 + {0, 1}], the
   order the product walks them. */
typedef struct {
  int rows, cols;
  uint16_t group;
  uint8_t scale_headroom; /* GROUP 0: the largest k with every |scale| << k < 2^31 (the product's fast path) */
  uint8_t cols_headroom;  /* fx_headroom(cols4): the sums' bound, for the same */
  const int32_t *scale;
  const int8_t *q; /* [(rows + 3) / 4][cols4 / 4][4][4] */
} llm_qmat_t;

static inline int llm_qmat_cols4(const llm_qmat_t *m) { return (m->cols + 3) & ~3; }

static inline int8_t llm_qmat_at(const llm_qmat_t *m, int r, int c) {
  size_t tile = (size_t)(r / 4) * (size_t)llm_qmat_cols4(m) + (size_t)(c / 4) * 4;
  return m->q[(tile + (size_t)(r % 4)) * 4 + (size_t)(c % 4)];
}

/* A grouped matrix's scale (WHICH 0) or offset (1) of row R, group G. */
static inline int32_t llm_qmat_group(const llm_qmat_t *m, int r, int g, int which) {
  size_t groups = (size_t)(m->cols / LLM_GROUP);
  return m->scale[(((size_t)(r / 4) * groups + (size_t)g) * 4 + (size_t)(r % 4)) * 2 + (size_t)which];
}

typedef struct {
  const int32_t *rms_att, *rms_ffn; /* [dim], Q16 */
  llm_qmat_t wq, wk, wv, wo, w1, w2, w3;
} llm_layer_t;

#define LLM_MAX_LAYERS 32
#define LLM_MAX_HEAD_SIZE 128

/* Matrices whose input is quantised to int16 rather than int8 (input16). */
enum {
  LLM_IN16_QKV = 1,
  LLM_IN16_WO = 2,
  LLM_IN16_W13 = 4,
  LLM_IN16_W2 = 8,
  LLM_IN16_CLASSIFIER = 16,
  LLM_IN16_ALL = 31,
};

typedef enum { LLM_TOKENIZER_SCORES, LLM_TOKENIZER_BPE } llm_tokenizer_kind_t;

/* Byte-level BPE (GPT-2 style) tables, image_format.py's bpe_section. */
typedef struct {
  int merges, specials;
  const uint32_t *piece_offset;  /* [vocab + 1]: token i is piece_bytes[off[i] .. off[i+1]) */
  const uint8_t *piece_bytes;
  const uint16_t *byte_token;    /* [256]: the token of a single byte, or LLM_NO_TOKEN */
  const uint32_t *merge_key;     /* [merges], ascending: left << 16 | right */
  const uint32_t *merge_value;   /* [merges]: rank << 16 | merged token */
  const uint16_t *special;       /* [specials]: control tokens matched in text */
  const uint32_t *class_range[3]; /* letters, numbers, white space: [count][lo, hi] */
  int class_count[3];
} llm_bpe_t;
#define LLM_NO_TOKEN 0xFFFFu

typedef struct {
  int dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len;
  int head_size, kv_dim;
  int32_t inv_sqrt_head_size; /* 1 / sqrt(head_size), Q16 */
  int residual_shift;    /* the residual stream is Q(16 - residual_shift) */
  unsigned input16;      /* LLM_IN16_* */
  int32_t norm_eps;      /* RMSNorm epsilon, Q32 */
  llm_qmat_t embed, classifier;
  llm_layer_t layers[LLM_MAX_LAYERS];
  const int32_t *rms_final;               /* [dim], Q16 */
  const int16_t *rope_cos, *rope_sin;     /* [seq_len][head_size / 2], Q14 */
  /* Tokenizer. */
  llm_tokenizer_kind_t tokenizer;
  int bos, eos, stop[2], add_bos; /* BOS, EOS, the tokens that end a generation, whether a text starts with BOS */
  int max_token_length;                   /* bytes of the longest piece */
  /* LLM_TOKENIZER_SCORES (llama2.c). */
  const int32_t *token_score;             /* order-preserving keys of the float scores */
  const uint32_t *token_offset;           /* into token_strings */
  const uint16_t *token_sorted;           /* ids sorted by string */
  const char *token_strings;              /* NUL-terminated pieces */
  llm_bpe_t bpe;                          /* LLM_TOKENIZER_BPE */
  const char *chat_system;                /* ChatML's default system message, or NULL: no chat template */
  size_t image_bytes;
  uint32_t image_crc; /* the header's CRC of the image (a saved context names its model by it) */
} llm_model_t;

/* Validates IMAGE (LEN bytes, 4-byte aligned) and fills M with pointers into
   it. Returns 0, or -1 with a one-line reason in *error. With
   LLM_OPEN_NO_CRC the image's CRC is not computed (a caller whose image
   came through a checked upload, where computing it again would take
   long: 170 MB take minutes on the SoC); everything else is checked. */
#define LLM_OPEN_NO_CRC 1u
int llm_model_open(llm_model_t *m, const void *image, size_t len, unsigned flags, const char **error);

/* Whether TOKEN ends a generation. */
static inline int llm_is_stop(const llm_model_t *m, int token) { return token == m->stop[0] || token == m->stop[1]; }

#endif
