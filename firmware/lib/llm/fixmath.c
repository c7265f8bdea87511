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

/* 2^(i/32) for i = 0..32, Q30. */
static const uint32_t exp2_table[33] = {
    1073741824, 1097253708, 1121280436, 1145833280, 1170923762, 1196563654, 1222764986,
    1249540052, 1276901417, 1304861917, 1333434672, 1362633090, 1392470869, 1422962010,
    1454120821, 1485961921, 1518500250, 1551751076, 1585730000, 1620452965, 1655936265,
    1692196547, 1729250827, 1767116489, 1805811301, 1845353420, 1885761398, 1927054196,
    1969251188, 2012372174, 2056437387, 2101467502, 2147483648u};

int32_t fx_exp_neg(int32_t x) {
  if (x > 0) x = 0;
  /* exp(x) = 2^(x * log2(e)); log2(e) in Q30. */
  int64_t y = ((int64_t)x * 1549082005) >> 30; /* Q16, <= 0 */
  if (y < -(31 << 16)) return 0;
  int32_t n = (int32_t)(y >> 16);              /* floor, <= 0 */
  uint32_t frac = (uint32_t)(y - ((int64_t)n << 16)); /* Q16 in [0, 1) */
  uint32_t idx = frac >> 11, rem = frac & 2047;       /* 32 intervals of 2048 */
  uint64_t lo = exp2_table[idx], hi = exp2_table[idx + 1];
  uint64_t v = lo + (((hi - lo) * rem) >> 11);        /* Q30 in [1, 2) */
  int shift = 14 - n;                                 /* to Q16, times 2^n */
  return (int32_t)((v + ((uint64_t)1 << (shift - 1))) >> shift);
}

int32_t fx_silu(int32_t x) {
  /* sigmoid(|x|) = 1 / (1 + e^-|x|); sigmoid(-|x|) = e^-|x| / (1 + e^-|x|). */
  int32_t ax = x < 0 ? (x == INT32_MIN ? INT32_MAX : -x) : x;
  int64_t e = fx_exp_neg(-ax);
  int64_t num = x >= 0 ? FX_ONE : e;
  int64_t sig = (num << 16) / (FX_ONE + e); /* Q16 */
  return (int32_t)(((int64_t)x * sig) >> 16);
}
