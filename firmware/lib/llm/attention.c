#include "attention.h"

/* dots[t] = q . k_t for COUNT keys STRIDE elements apart (head size HS, a
   multiple of 8): eight query values stay in registers while the keys
   stream past, so each key element costs a load, a multiply and an add. */
void attn_dots(int32_t *dots, const int8_t *q, const int16_t *keys, size_t stride, int count, int hs) {
  for (int c = 0; c < hs; c += 8) {
    const int32_t q0 = q[c], q1 = q[c + 1], q2 = q[c + 2], q3 = q[c + 3];
    const int32_t q4 = q[c + 4], q5 = q[c + 5], q6 = q[c + 6], q7 = q[c + 7];
    const int16_t *k = keys + c;
    for (int t = 0; t < count; t++, k += stride) {
      int32_t d =
          q0 * k[0] + q1 * k[1] + q2 * k[2] + q3 * k[3] + q4 * k[4] + q5 * k[5] + q6 * k[6] + q7 * k[7];
      dots[t] = c ? dots[t] + d : d;
    }
  }
}

/* out[i] = sum_t w[t] * v_t[i] for COUNT int8 value rows STRIDE bytes apart,
   rows 0, 1, ... or, given ROWS, rows[0], rows[1], ...: eight accumulators
   stay in registers while the rows stream past. Inlined into both callers,
   so the one without ROWS compiles without the test. */
static inline __attribute__((always_inline)) void values_sum(int32_t *out, const int32_t *w, const int8_t *values,
                                                             size_t stride, const uint16_t *rows, int count, int hs) {
  for (int c = 0; c < hs; c += 8) {
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    const int8_t *next = values + c;
    for (int t = 0; t < count; t++, next += stride) {
      const int8_t *v = rows ? values + rows[t] * stride + c : next;
      const int32_t wt = w[t];
      a0 += wt * v[0];
      a1 += wt * v[1];
      a2 += wt * v[2];
      a3 += wt * v[3];
      a4 += wt * v[4];
      a5 += wt * v[5];
      a6 += wt * v[6];
      a7 += wt * v[7];
    }
    out[c] = a0;
    out[c + 1] = a1;
    out[c + 2] = a2;
    out[c + 3] = a3;
    out[c + 4] = a4;
    out[c + 5] = a5;
    out[c + 6] = a6;
    out[c + 7] = a7;
  }
}

void attn_values(int32_t *out, const int32_t *w, const int8_t *values, size_t stride, int count, int hs) {
  values_sum(out, w, values, stride, 0, count, hs);
}

/* The same for two query heads that share these keys (grouped-query
   attention): each key element is loaded once for both, eight dimensions at a
   time (the sixteen query values fill the registers). */
void attn_dots2(int32_t *dots_a, int32_t *dots_b, const int8_t *qa, const int8_t *qb, const int16_t *keys,
                size_t stride, int count, int hs) {
  for (int c = 0; c < hs; c += 8) {
    const int32_t a0 = qa[c], a1 = qa[c + 1], a2 = qa[c + 2], a3 = qa[c + 3];
    const int32_t a4 = qa[c + 4], a5 = qa[c + 5], a6 = qa[c + 6], a7 = qa[c + 7];
    const int32_t b0 = qb[c], b1 = qb[c + 1], b2 = qb[c + 2], b3 = qb[c + 3];
    const int32_t b4 = qb[c + 4], b5 = qb[c + 5], b6 = qb[c + 6], b7 = qb[c + 7];
    const int16_t *k = keys + c;
    for (int t = 0; t < count; t++, k += stride) {
      int32_t da = 0, db = 0, kj;
#define DOT2(j)  \
  kj = k[j];     \
  da += a##j * kj; \
  db += b##j * kj
      DOT2(0);
      DOT2(1);
      DOT2(2);
      DOT2(3);
      DOT2(4);
      DOT2(5);
      DOT2(6);
      DOT2(7);
#undef DOT2
      dots_a[t] = c ? dots_a[t] + da : da;
      dots_b[t] = c ? dots_b[t] + db : db;
    }
  }
}

void attn_values_rows(int32_t *out, const int32_t *w, const int8_t *values, size_t stride,
                      const uint16_t *rows, int count, int hs) {
  values_sum(out, w, values, stride, rows, count, hs);
}

void attn_dots_rows(int32_t *dots, const int8_t *q, const int16_t *keys, size_t stride, const uint16_t *rows,
                    int count, int hs) {
  for (int j = 0; j < count; j++) attn_dots(dots + j, q, keys + rows[j] * stride, stride, 1, hs);
}
