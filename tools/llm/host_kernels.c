/* The engine's hot kernels in AVX2 for the host (llm_kernels.h, attention.h): the same
   integer arithmetic as the portable C the SoC runs -- int32 sums of
   products that cannot overflow, wrapping where the portable ones wrap,
   int64 where they use int64 -- so the results are bit-identical (tests
   compare both). Used when the CPU has AVX2; a kernel returns nonzero for a
   shape it does not take (a head size not a multiple of 16), and the
   portable one runs. */
#include "host_kernels.h"

#include <string.h>

#include "attention.h"
#include "fixmath.h"
#include "llm_kernels.h"
#include "transformer.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/* The 8 int32 lanes' sum. */
AVX2 static inline int32_t hsum8(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return _mm_cvtsi128_si32(s);
}

/* A 4-row tile's group: its 8 blocks of 4 rows x 4 codes are sign-extended
   once and used for every input; an input's 4 values of a block are
   broadcast, so that one multiply-add gives each row two pair sums. */
AVX2 static int matmul_grouped(int32_t *out, size_t out_stride, const llm_qmat_t *w, const int16_t *xq,
                               size_t x_stride, const int32_t *xsum, size_t sum_stride, const int32_t *xs, int n,
                               int out_shift) {
  const int groups = w->cols / LLM_GROUP;
  const int8_t *wp = w->q;
  const int32_t *sp = w->scale;
  __m256i acc[LLM_MAX_BATCH];
  for (int g = 0; g < w->rows; g += 4) {
    for (int b = 0; b < n; b++) acc[b] = _mm256_setzero_si256();
    for (int j = 0; j < groups; j++, sp += 8, wp += 4 * LLM_GROUP) {
      __m256i codes[LLM_GROUP / 4];
      for (int blk = 0; blk < LLM_GROUP / 4; blk++)
        codes[blk] = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(wp + 16 * blk)));
      /* Scale and offset of the 4 rows as int64 lanes (their low words feed _mm256_mul_epi32). */
      const __m256i pairs = _mm256_loadu_si256((const __m256i *)(const void *)sp);
      const __m256i scale = _mm256_cvtepi32_epi64(
          _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(pairs, _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0))));
      const __m256i offset = _mm256_cvtepi32_epi64(
          _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(pairs, _mm256_setr_epi32(1, 3, 5, 7, 0, 0, 0, 0))));
      for (int b = 0; b < n; b++) {
        const int16_t *x = xq + (size_t)b * x_stride + (size_t)j * LLM_GROUP;
        __m256i sum = _mm256_setzero_si256();
        for (int blk = 0; blk < LLM_GROUP / 4; blk++) {
          int64_t four;
          memcpy(&four, x + 4 * blk, 8);
          sum = _mm256_add_epi32(sum, _mm256_madd_epi16(codes[blk], _mm256_set1_epi64x(four)));
        }
        /* [r0 r0 r1 r1 | r2 r2 r3 r3] -> the rows' dots as int64 lanes. */
        const __m256i h = _mm256_hadd_epi32(sum, sum);
        const __m128i dots = _mm_unpacklo_epi64(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
        const __m256i term = _mm256_add_epi64(
            _mm256_mul_epi32(scale, _mm256_cvtepi32_epi64(dots)),
            _mm256_mul_epi32(offset, _mm256_set1_epi64x(xsum[(size_t)b * sum_stride + (size_t)j])));
        acc[b] = _mm256_add_epi64(acc[b], term);
      }
    }
    for (int b = 0; b < n; b++) {
      int64_t a[4];
      _mm256_storeu_si256((__m256i *)(void *)a, acc[b]);
      for (int k = 0; k < 4 && g + k < w->rows; k++)
        out[(size_t)b * out_stride + (size_t)(g + k)] = llm_mul_round_shift(a[k], xs[b], 38 + out_shift);
    }
  }
  return 0;
}

/* A query (int8) as int16 vectors of 16. */
AVX2 static void widen_query(__m256i *v, const int8_t *q, int hs) {
  for (int c = 0; c < hs; c += 16)
    v[c / 16] = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(q + c)));
}

AVX2 static int32_t dot_key(const __m256i *q, const int16_t *k, int hs) {
  __m256i s = _mm256_setzero_si256();
  for (int c = 0; c < hs; c += 16)
    s = _mm256_add_epi32(s, _mm256_madd_epi16(q[c / 16], _mm256_loadu_si256((const __m256i *)(const void *)(k + c))));
  return hsum8(s);
}

AVX2 static int host_attn_dots(int32_t *dots, const int8_t *q, const int16_t *keys, size_t stride, int count, int hs) {
  if (hs % 16 || hs > LLM_MAX_HEAD_SIZE) return 1;
  __m256i qv[LLM_MAX_HEAD_SIZE / 16];
  widen_query(qv, q, hs);
  for (int t = 0; t < count; t++) dots[t] = dot_key(qv, keys + (size_t)t * stride, hs);
  return 0;
}

AVX2 static int host_attn_scores_group(int32_t *const *scores, int32_t *max, const int8_t *const *q, int g,
                                  const int16_t *keys, size_t stride, const int32_t *kscale, size_t kstride,
                                  int count, int hs) {
  if (hs % 16 || hs > LLM_MAX_HEAD_SIZE) return 1;
  __m256i qv[ATTN_MAX_GROUP][LLM_MAX_HEAD_SIZE / 16];
  for (int j = 0; j < g; j++) {
    widen_query(qv[j], q[j], hs);
    max[j] = INT32_MIN;
  }
  for (int t = 0; t < count; t++) {
    const int16_t *k = keys + (size_t)t * stride;
    const int64_t ks = kscale[(size_t)t * kstride];
    for (int j = 0; j < g; j++) {
      const int32_t d = (int32_t)((dot_key(qv[j], k, hs) * ks) >> 16);
      if (d > max[j]) max[j] = d;
      scores[j][t] = d;
    }
  }
  return 0;
}

/* out[i] = acc[i] >> SHIFT, rounded. */
AVX2 static void store_shifted(int32_t *out, const __m256i *acc, int hs, int shift) {
  const __m256i half = _mm256_set1_epi32(shift ? 1 << (shift - 1) : 0);
  for (int c = 0; c < hs / 8; c++)
    _mm256_storeu_si256((__m256i *)(void *)(out + 8 * c),
                        _mm256_sra_epi32(_mm256_add_epi32(acc[c], half), _mm_cvtsi32_si128(shift)));
}

/* Eight int32 accumulators of 8 components; products wrap at 32 bits as
   the portable sums do. */
AVX2 static int host_attn_values_rows(int32_t *out, const int32_t *w, const int8_t *values, size_t stride,
                                 const uint16_t *rows, int count, int hs, int shift) {
  if (hs % 16 || hs > LLM_MAX_HEAD_SIZE) return 1;
  __m256i acc[LLM_MAX_HEAD_SIZE / 8];
  for (int c = 0; c < hs / 8; c++) acc[c] = _mm256_setzero_si256();
  for (int j = 0; j < count; j++) {
    const int8_t *v = values + (size_t)rows[j] * stride;
    const __m256i wt = _mm256_set1_epi32(w[j]);
    for (int c = 0; c < hs / 8; c++) {
      int64_t eight;
      memcpy(&eight, v + 8 * c, 8);
      const __m256i v32 = _mm256_cvtepi8_epi32(_mm_cvtsi64_si128(eight));
      acc[c] = _mm256_add_epi32(acc[c], _mm256_mullo_epi32(wt, v32));
    }
  }
  store_shifted(out, acc, hs, shift);
  return 0;
}

/* Each head on its own, rows of weight 0 skipped (the sums are the same). */
AVX2 static int host_attn_values_group(int32_t *const *out, const int16_t *const *w, const int *shift, int g,
                                  const int8_t *values, size_t stride, int count, int hs) {
  if (hs % 16 || hs > LLM_MAX_HEAD_SIZE) return 1;
  for (int j = 0; j < g; j++) {
    __m256i acc[LLM_MAX_HEAD_SIZE / 8];
    for (int c = 0; c < hs / 8; c++) acc[c] = _mm256_setzero_si256();
    for (int t = 0; t < count; t++) {
      if (!w[j][t]) continue;
      const int8_t *v = values + (size_t)t * stride;
      const __m256i wt = _mm256_set1_epi32(w[j][t]);
      for (int c = 0; c < hs / 8; c++) {
        int64_t eight;
        memcpy(&eight, v + 8 * c, 8);
        acc[c] = _mm256_add_epi32(acc[c], _mm256_mullo_epi32(wt, _mm256_cvtepi8_epi32(_mm_cvtsi64_si128(eight))));
      }
    }
    store_shifted(out[j], acc, hs, shift[j]);
  }
  return 0;
}

static const llm_kernels_t avx2_kernels = {matmul_grouped};
static const attn_kernels_t avx2_attn_kernels = {host_attn_dots, host_attn_scores_group, host_attn_values_rows,
                                                 host_attn_values_group};

int host_kernels_install(void) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2")) return 0;
  llm_kernels = &avx2_kernels;
  attn_kernels = &avx2_attn_kernels;
  return 1;
}

#else

int host_kernels_install(void) { return 0; }

#endif
