#include "ref_fp32.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ref_open(ref_model_t *r, const char *path) {
  memset(r, 0, sizeof *r);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "ref: cannot open %s\n", path);
    return -1;
  }
  int hdr[7];
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  if (size < 28 || fread(hdr, 4, 7, f) != 7) {
    fprintf(stderr, "ref: %s is not a llama2.c v0 checkpoint\n", path);
    fclose(f);
    return -1;
  }
  r->dim = hdr[0];
  r->hidden_dim = hdr[1];
  r->n_layers = hdr[2];
  r->n_heads = hdr[3];
  r->n_kv_heads = hdr[4];
  int shared = hdr[5] > 0;
  r->vocab_size = abs(hdr[5]);
  r->seq_len = hdr[6];
  r->head_size = r->dim / r->n_heads;
  r->kv_dim = r->head_size * r->n_kv_heads;
  r->data = malloc((size_t)size);
  if (!r->data || fread(r->data, 1, (size_t)size - 28, f) != (size_t)size - 28) {
    fprintf(stderr, "ref: cannot read %s\n", path);
    fclose(f);
    return -1;
  }
  fclose(f);
  size_t L = (size_t)r->n_layers, D = (size_t)r->dim, H = (size_t)r->hidden_dim, K = (size_t)r->kv_dim;
  float *p = r->data;
  r->token_embedding = p; p += (size_t)r->vocab_size * D;
  r->rms_att = p; p += L * D;
  r->wq = p; p += L * D * D;
  r->wk = p; p += L * K * D;
  r->wv = p; p += L * K * D;
  r->wo = p; p += L * D * D;
  r->rms_ffn = p; p += L * D;
  r->w1 = p; p += L * H * D;
  r->w2 = p; p += L * D * H;
  r->w3 = p; p += L * H * D;
  r->rms_final = p; p += D;
  p += (size_t)r->seq_len * (size_t)r->head_size; /* legacy RoPE tables */
  r->classifier = shared ? r->token_embedding : p;
  r->x = calloc(D, 4); r->xb = calloc(D, 4); r->xb2 = calloc(D, 4);
  r->hb = calloc(H, 4); r->hb2 = calloc(H, 4); r->q = calloc(D, 4);
  r->att = calloc((size_t)r->n_heads * (size_t)r->seq_len, 4);
  r->logits = calloc((size_t)r->vocab_size, 4);
  r->key_cache = calloc(L * (size_t)r->seq_len * K, 4);
  r->value_cache = calloc(L * (size_t)r->seq_len * K, 4);
  return 0;
}

void ref_close(ref_model_t *r) {
  free(r->data); free(r->x); free(r->xb); free(r->xb2); free(r->hb); free(r->hb2); free(r->q);
  free(r->att); free(r->logits); free(r->key_cache); free(r->value_cache);
}

static void rmsnorm(float *o, const float *x, const float *w, int n) {
  float ss = 0;
  for (int i = 0; i < n; i++) ss += x[i] * x[i];
  ss = 1.0f / sqrtf(ss / (float)n + 1e-5f);
  for (int i = 0; i < n; i++) o[i] = w[i] * (ss * x[i]);
}

static void softmax(float *x, int n) {
  float max = x[0], sum = 0;
  for (int i = 1; i < n; i++) if (x[i] > max) max = x[i];
  for (int i = 0; i < n; i++) { x[i] = expf(x[i] - max); sum += x[i]; }
  for (int i = 0; i < n; i++) x[i] /= sum;
}

static void matmul(float *o, const float *x, const float *w, int n, int d) {
  for (int i = 0; i < d; i++) {
    float v = 0;
    for (int j = 0; j < n; j++) v += w[(size_t)i * (size_t)n + (size_t)j] * x[j];
    o[i] = v;
  }
}

/* Rounds each HS-wide head vector of V[0..n) to BITS-bit integers times one scale. */
static void quantise_heads(float *v, int n, int hs, int bits) {
  if (!bits) return;
  const float top = (float)((1 << (bits - 1)) - 1);
  for (int h = 0; h < n; h += hs) {
    float maxabs = 0;
    for (int i = h; i < h + hs; i++) maxabs = fmaxf(maxabs, fabsf(v[i]));
    if (maxabs == 0) continue;
    const float step = maxabs / top;
    for (int i = h; i < h + hs; i++) v[i] = rintf(v[i] / step) * step;
  }
}

float *ref_forward(ref_model_t *r, int token, int pos) {
  int dim = r->dim, kv_dim = r->kv_dim, hs = r->head_size, hidden = r->hidden_dim;
  int kv_mul = r->n_heads / r->n_kv_heads;
  memcpy(r->x, r->token_embedding + (size_t)token * (size_t)dim, (size_t)dim * 4);
  for (int l = 0; l < r->n_layers; l++) {
    size_t loff = (size_t)l * (size_t)r->seq_len * (size_t)kv_dim;
    float *k = r->key_cache + loff + (size_t)pos * (size_t)kv_dim;
    float *v = r->value_cache + loff + (size_t)pos * (size_t)kv_dim;
    rmsnorm(r->xb, r->x, r->rms_att + (size_t)l * (size_t)dim, dim);
    matmul(r->q, r->xb, r->wq + (size_t)l * (size_t)dim * (size_t)dim, dim, dim);
    matmul(k, r->xb, r->wk + (size_t)l * (size_t)kv_dim * (size_t)dim, dim, kv_dim);
    matmul(v, r->xb, r->wv + (size_t)l * (size_t)kv_dim * (size_t)dim, dim, kv_dim);
    for (int i = 0; i < dim; i += 2) {
      int hd = i % hs;
      float freq = 1.0f / powf(10000.0f, (float)hd / (float)hs);
      float val = (float)pos * freq, fcr = cosf(val), fci = sinf(val);
      int rotn = i < kv_dim ? 2 : 1;
      for (int vv = 0; vv < rotn; vv++) {
        float *vec = vv == 0 ? r->q : k;
        float v0 = vec[i], v1 = vec[i + 1];
        vec[i] = v0 * fcr - v1 * fci;
        vec[i + 1] = v0 * fci + v1 * fcr;
      }
    }
    quantise_heads(r->q, dim, hs, r->q_bits);
    quantise_heads(k, kv_dim, hs, r->k_bits);
    quantise_heads(v, kv_dim, hs, r->v_bits);
    for (int h = 0; h < r->n_heads; h++) {
      float *q = r->q + h * hs, *att = r->att + (size_t)h * (size_t)r->seq_len;
      for (int t = 0; t <= pos; t++) {
        const float *kt = r->key_cache + loff + (size_t)t * (size_t)kv_dim + (size_t)((h / kv_mul) * hs);
        float score = 0;
        for (int i = 0; i < hs; i++) score += q[i] * kt[i];
        att[t] = score / sqrtf((float)hs);
      }
      softmax(att, pos + 1);
      float *xb = r->xb + h * hs;
      memset(xb, 0, (size_t)hs * 4);
      for (int t = 0; t <= pos; t++) {
        const float *vt = r->value_cache + loff + (size_t)t * (size_t)kv_dim + (size_t)((h / kv_mul) * hs);
        for (int i = 0; i < hs; i++) xb[i] += att[t] * vt[i];
      }
    }
    matmul(r->xb2, r->xb, r->wo + (size_t)l * (size_t)dim * (size_t)dim, dim, dim);
    for (int i = 0; i < dim; i++) r->x[i] += r->xb2[i];
    rmsnorm(r->xb, r->x, r->rms_ffn + (size_t)l * (size_t)dim, dim);
    matmul(r->hb, r->xb, r->w1 + (size_t)l * (size_t)dim * (size_t)hidden, dim, hidden);
    matmul(r->hb2, r->xb, r->w3 + (size_t)l * (size_t)dim * (size_t)hidden, dim, hidden);
    for (int i = 0; i < hidden; i++) {
      float val = r->hb[i];
      r->hb[i] = val * (1.0f / (1.0f + expf(-val))) * r->hb2[i];
    }
    matmul(r->xb, r->hb, r->w2 + (size_t)l * (size_t)dim * (size_t)hidden, hidden, dim);
    for (int i = 0; i < dim; i++) r->x[i] += r->xb[i];
  }
  rmsnorm(r->x, r->x, r->rms_final, dim);
  matmul(r->logits, r->x, r->classifier, dim, r->vocab_size);
  return r->logits;
}
