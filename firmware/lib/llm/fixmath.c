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

int32_t fx_silu(int32_t x) {
  /* sigmoid(|x|) = 1 / (1 + e^-|x|); sigmoid(-|x|) = e^-|x| / (1 + e^-|x|). */
  int32_t ax = x < 0 ? (x == INT32_MIN ? INT32_MAX : -x) : x;
  uint32_t e = (uint32_t)fx_exp_neg(-ax);
  if (!e) return x < 0 ? 0 : x; /* |x| > 11: sigmoid is 0 or 1 in Q16 */
  /* num / den in Q16 from the reciprocal of den in (2^16, 2^17]: one
     division, num * recip < 2^32, at most one unit below the exact quotient. */
  uint32_t num = x >= 0 ? FX_ONE : e, sig = num * fx_recip32(FX_ONE + e) >> 16;
  return (int32_t)(((int64_t)x * sig) >> 16);
}
