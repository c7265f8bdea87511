#include "fixmath.h"

uint32_t fx_isqrt64(uint64_t v) {
  /* Bit-by-bit square root: 32 iterations, no division. */
  uint64_t result = 0, bit = (uint64_t)1 << 62;
  while (bit > v) bit >>= 2;
  while (bit) {
    if (v >= result + bit) {
      v -= result + bit;
      result = (result >> 1) + bit;
    } else {
      result >>= 1;
    }
    bit >>= 2;
  }
  return (uint32_t)result;
}

/* 2^(i/32) for i = 0..32, Q24: 32-bit interpolation stays exact enough. */
static const int32_t exp2_table[33] = {
    16777216, 17144589, 17520007, 17903645, 18295684, 18696307, 19105703, 19524063, 19951585,
    20388467, 20834917, 21291142, 21757357, 22233781, 22720638, 23218155, 23726566, 24246111,
    24777031, 25319578, 25874004, 26440571, 27019544, 27611195, 28215802, 28833647, 29465022,
    30110222, 30769550, 31443315, 32131834, 32835430, 33554432};

int32_t fx_exp_neg(int32_t x) {
  /* exp(x) = 2^(x * log2(e)); below -12 the Q16 result rounds to 0. */
  if (x > 0) x = 0;
  if (x < -(12 << 16)) return 0;
  int32_t y = (int32_t)(((int64_t)x * 94548) >> 16); /* log2(e) in Q16; y in Q16, <= 0 */
  int32_t n = y >> 16;                                /* floor, in [-18, 0] */
  int32_t frac = y & 0xFFFF;                          /* Q16 in [0, 1) */
  int32_t idx = frac >> 11, rem = frac & 2047;        /* 32 intervals of 2048 */
  int32_t lo = exp2_table[idx], hi = exp2_table[idx + 1];
  int32_t v = lo + (((hi - lo) * rem) >> 11);         /* Q24 in [1, 2) */
  int shift = 8 - n;                                  /* to Q16, times 2^n */
  return (v + (1 << (shift - 1))) >> shift;
}

int32_t fx_silu(int32_t x) {
  /* sigmoid(|x|) = 1 / (1 + e^-|x|); sigmoid(-|x|) = e^-|x| / (1 + e^-|x|). */
  int32_t ax = x < 0 ? (x == INT32_MIN ? INT32_MAX : -x) : x;
  int64_t e = fx_exp_neg(-ax);
  int64_t num = x >= 0 ? FX_ONE : e;
  int64_t sig = (num << 16) / (FX_ONE + e); /* Q16 */
  return (int32_t)(((int64_t)x * sig) >> 16);
}
