/* fp32 reference forward pass of a llama2.c v0 checkpoint (dense, no
   quantisation): the accuracy yardstick for the integer firmware path. */
#ifndef REF_FP32_H
#define REF_FP32_H

typedef struct {
  int dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len, head_size, kv_dim;
  float *data; /* the whole file */
  float *token_embedding, *rms_att, *wq, *wk, *wv, *wo, *rms_ffn, *w1, *w2, *w3, *rms_final,
      *classifier;
  float *x, *xb, *xb2, *hb, *hb2, *q, *att, *logits, *key_cache, *value_cache;
  /* 0: exact (ref_open's default). Otherwise queries, keys or values are
     rounded as the integer path stores them -- symmetric, one scale per head
     vector, +-(2^(bits-1) - 1) -- to measure what that alone costs. */
  int q_bits, k_bits, v_bits;
} ref_model_t;

/* Returns 0, or -1 with a message on stderr. */
int ref_open(ref_model_t *r, const char *path);
float *ref_forward(ref_model_t *r, int token, int pos);
void ref_close(ref_model_t *r);

#endif
