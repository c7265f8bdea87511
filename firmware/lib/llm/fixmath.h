/* Fixed-point helpers for the integer transformer. Values are int32 Q16
   unless said otherwise; everything is exact integer arithmetic, so host and
   SoC builds compute bit-identical results. */
#ifndef LLM_FIXMATH_H
#define LLM_FIXMATH_H

#include <stdint.h>

#define FX_ONE 65536

/* floor(sqrt(v)). */
uint32_t fx_isqrt64(uint64_t v);
/* exp(x) for x <= 0, Q16 in and out (0 below -12). */
int32_t fx_exp_neg(int32_t x);
/* x * sigmoid(x), Q16. */
int32_t fx_silu(int32_t x);
/* floor((2^32 - 1) / d) for d > 0: a reciprocal from the 32-bit divider
   (64-bit division is a slow library call on RV32). */
static inline uint32_t fx_recip32(uint32_t d) { return 0xFFFFFFFFu / d; }

/* (a * b) >> shift with rounding, through 64 bits. */
static inline int32_t fx_mul_shift(int32_t a, int32_t b, int shift) {
  int64_t p = (int64_t)a * b;
  return (int32_t)((p + ((int64_t)1 << (shift - 1))) >> shift);
}

#endif
