/* Fixed-point helpers for the integer transformer. Values are int32 Q16
   unless said otherwise; everything is exact integer arithmetic, so host and
   SoC builds compute bit-identical results. */
#ifndef FIXMATH_H
#define FIXMATH_H

#include <stddef.h>
#include <stdint.h>

#define FX_ONE 65536

/* fx_headroom for 0 <= BOUND < 2^31. */
int fx_headroom31(uint32_t bound);
/* The largest k <= 31 with BOUND << k < 2^31: how far a value up to BOUND
   may be shifted up and stay an int32. The range test inline: a caller's
   32-bit bound needs no 64-bit one. */
static inline int fx_headroom(uint64_t bound) { return bound >> 31 ? 0 : fx_headroom31((uint32_t)bound); }
/* floor(sqrt(v)). */
uint32_t fx_isqrt64(uint64_t v);
/* High words of 64-bit products: one mulhu / mulh instruction on RV32
   where a full 64-bit product and shift take five. Written as the
   instruction there, as GCC otherwise merges nearby 64-bit arithmetic into
   a longer sequence; the C formula defines the result everywhere. */
#if defined(__riscv) && __riscv_xlen == 32
static inline uint32_t fx_mulhu(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("mulhu %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
static inline int32_t fx_mulh(int32_t a, int32_t b) {
  int32_t r;
  __asm__("mulh %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
#else
static inline uint32_t fx_mulhu(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
static inline int32_t fx_mulh(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * b) >> 32); }
#endif

extern const int32_t fx_exp2_table[33];

/* 2^z for -18 <= z <= 0 (z Q16), Q16 result: the table between whole
   powers, interpolated linearly, rounded. */
static inline int32_t fx_exp2_neg(int32_t z) {
  int32_t n = z >> 16;                         /* floor, in [-18, 0] */
  int32_t frac = z & 0xFFFF;                   /* Q16 in [0, 1) */
  int32_t idx = frac >> 11, rem = frac & 2047; /* 32 intervals of 2048 */
  int32_t lo = fx_exp2_table[idx], hi = fx_exp2_table[idx + 1];
  int32_t v = lo + (((hi - lo) * rem) >> 11);  /* Q24 in [1, 2) */
  int shift = 8 - n;                           /* to Q16, times 2^n */
  return (v + (1 << (shift - 1))) >> shift;
}

extern const int32_t fx_exp2_fine_table[257];

/* 2^-z for 0 <= z <= 18 (z Q16), Q16 result, in half the instructions of
   fx_exp2_neg: z rounded to 1/256 and looked up, no interpolation
   (relative error <= 0.14%). For attention's weights, computed once per
   cached position and head, and on the SoC one instruction (ucx.exp2,
   custom-0, docs/soc/core.md), whose definition for every word this is:
   0 from 2^21 up; else with i = z[15:8] rounded by z[7] (0..256; 256 is
   the next whole power's 0, the table's last entry) and n = z[20:16],
   ((T[i] >> n) + 1) >> 1 with T = fx_exp2_fine_table. */
#if defined(__riscv) && !defined(UCX_NO_DOT)
static inline int32_t fx_exp2_neg_coarse(uint32_t z) {
  int32_t e;
  __asm__(".insn r 0x0b, 3, 0, %0, %1, x0" : "=r"(e) : "r"(z));
  return e;
}
#else
static inline int32_t fx_exp2_neg_coarse(uint32_t z) {
  if (z >> 21) return 0;
  const uint32_t v = (uint32_t)fx_exp2_fine_table[((z >> 8) & 255) + ((z >> 7) & 1)];
  return (int32_t)(((v >> ((z >> 16) & 31)) + 1) >> 1); /* the rounding without forming 2^(7+n) */
}
#endif

/* log2(e) in Q16. */
#define FX_LOG2E 94548

/* exp(x) for x <= 0, Q16 in and out (0 below -12); inline, as softmax
   calls it once per cached position. */
static inline int32_t fx_exp_neg(int32_t x) {
  /* exp(x) = 2^(x * log2(e)); below -12 the Q16 result rounds to 0. */
  if (x > 0) x = 0;
  if (x < -(12 << 16)) return 0;
  return fx_exp2_neg(fx_mulh(x * 2048, FX_LOG2E * 32)); /* (x * log2(e) in Q16) >> 16, floor */
}
/* h[i] = (silu(h[i]) * g[i]) >> 16, rounded (fx_mul_shift), with
   silu(x) = x * sigmoid(x) in Q16: the feed-forward's gate, a vector a call. */
void fx_silu_gate(int32_t *h, const int32_t *g, size_t n);
/* floor((2^32 - 1) / d) for d > 0: a reciprocal from the 32-bit divider
   (64-bit division is a slow library call on RV32). */
static inline uint32_t fx_recip32(uint32_t d) { return 0xFFFFFFFFu / d; }

/* floor(x / d) for d > 1 from the reciprocal's high-word product, one
   below at most, and a correction: for a constant D (inlined) no 17-cycle
   division, which GCC keeps for constant divisors on RV32. */
static inline uint32_t fx_div_const(uint32_t x, uint32_t d) {
  const uint32_t q = fx_mulhu(x, 0xFFFFFFFFu / d);
  return q + (x - q * d >= d);
}

/* round(ACC * XS / 2^SHIFT) for 32 < SHIFT < 64, exactly, from 64-bit
   pieces (the product needs up to 96 bits): the low word's product goes
   in with its high part, the rounding half above the discarded 32 bits. */
static inline int32_t llm_mul_round_shift(int64_t acc, int32_t xs, int shift) {
  int64_t hi = (acc >> 32) * xs;                                  /* times 2^32 */
  int64_t lo = (int64_t)(uint32_t)acc * xs;
  int64_t sum = hi + (lo >> 32) + ((int64_t)1 << (shift - 33));  /* in units of 2^32 */
  return (int32_t)(sum >> (shift - 32));
}

/* floor(V / D) for 0 < D < 2^16 from three 32-bit divisions, 16 bits of
   the quotient below the high word's each (the remainders stay below D),
   where a 64-bit division is a library call. */
static inline uint64_t fx_div64_small(uint64_t v, uint32_t d) {
  const uint32_t hi = (uint32_t)(v >> 32), q_hi = hi / d;
  const uint32_t mid = (hi - q_hi * d) << 16 | (uint32_t)v >> 16, q_mid = mid / d;
  const uint32_t lo = (mid - q_mid * d) << 16 | ((uint32_t)v & 0xFFFFu);
  return (uint64_t)q_hi << 32 | (q_mid << 16 | lo / d);
}

/* (a * b) >> shift with rounding (half up) for 0 < shift < 32, from the
   product's two words: the rounding's carry out of the low word into the
   high one, then the bits at SHIFT. */
static inline int32_t fx_mul_shift(int32_t a, int32_t b, int shift) {
  const uint32_t lo = (uint32_t)a * (uint32_t)b, half = 1u << (shift - 1), lo_r = lo + half;
  const uint32_t hi = (uint32_t)fx_mulh(a, b) + (lo_r < lo);
  return (int32_t)(hi << (32 - shift) | lo_r >> shift);
}

#endif
