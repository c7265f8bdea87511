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
const int32_t fx_exp2_table[33] = {
    16777216, 17144589, 17520007, 17903645, 18295684, 18696307, 19105703, 19524063, 19951585,
    20388467, 20834917, 21291142, 21757357, 22233781, 22720638, 23218155, 23726566, 24246111,
    24777031, 25319578, 25874004, 26440571, 27019544, 27611195, 28215802, 28833647, 29465022,
    30110222, 30769550, 31443315, 32131834, 32835430, 33554432};

/* sigmoid(x) in Q16, exactly: floor(num * 2^16 / den) from e = exp(-|x|).
   Builds the interpolation table below. */
static int32_t sigmoid_exact(int32_t x) {
  int32_t ax = x < 0 ? -x : x;
  uint32_t e = (uint32_t)fx_exp_neg(-ax);
  uint32_t num = x >= 0 ? FX_ONE : e, den = FX_ONE + e;
  /* The dividend can be 2^32 exactly: divide one less and correct. */
  if (!num) return 0;
  uint32_t less = (num << 16) - 1, quot = less / den;
  return (int32_t)(quot + (less - quot * den == den - 1));
}

/* sigmoid on [-12, 12] every 1/16, interpolated linearly in between (within
   3 units of Q16 of the exact value); outside, 0 or 1 in Q16 (exp(-12) is
   6e-6). One table lookup instead of an exp and a division per SiLU. */
#define SIGMOID_RANGE 12
#define SIGMOID_STEP_BITS 12 /* 1/16 in Q16 */
#define SIGMOID_POINTS ((2 * SIGMOID_RANGE << (16 - SIGMOID_STEP_BITS)) + 1)
static int32_t sigmoid_table[SIGMOID_POINTS];

int32_t fx_silu(int32_t x) {
  if (x >= SIGMOID_RANGE << 16) return x;
  if (x <= -(SIGMOID_RANGE << 16)) return 0;
  if (!sigmoid_table[SIGMOID_POINTS - 1]) /* first call: fill the table */
    for (int i = 0; i < SIGMOID_POINTS; i++)
      sigmoid_table[i] = sigmoid_exact((i << SIGMOID_STEP_BITS) - (SIGMOID_RANGE << 16));
  int32_t at = x + (SIGMOID_RANGE << 16), i = at >> SIGMOID_STEP_BITS;
  int32_t rem = at & ((1 << SIGMOID_STEP_BITS) - 1), lo = sigmoid_table[i];
  int32_t sig = lo + (((sigmoid_table[i + 1] - lo) * rem) >> SIGMOID_STEP_BITS);
  return (int32_t)(((int64_t)x * sig) >> 16);
}
