#include "fixmath.h"

/* Bit-by-bit square roots without branches (the core would mispredict
   half of them): each step subtracts the trial value where it fits, by a
   mask. Values below 2^32 take the 32-bit loop, a third of the 64-bit
   one's instructions. */
static uint32_t isqrt32(uint32_t v) {
  uint32_t result = 0, bit = 1u << 30;
  while (bit > v) bit >>= 2;
  for (; bit; bit >>= 2) {
    const uint32_t trial = result + bit, fits = -(uint32_t)(v >= trial);
    v -= trial & fits;
    result = (result >> 1) + (bit & fits);
  }
  return result;
}

uint32_t fx_isqrt64(uint64_t v) {
  if (!(v >> 32)) return isqrt32((uint32_t)v);
  uint64_t result = 0, bit = (uint64_t)1 << 62;
  while (bit > v) bit >>= 2;
  for (; bit; bit >>= 2) {
    const uint64_t trial = result + bit, fits = -(uint64_t)(v >= trial);
    v -= trial & fits;
    result = (result >> 1) + (bit & fits);
  }
  return (uint32_t)result;
}

/* The top set bit's index of a word with every bit below it set, from
   its product with a de Bruijn sequence's constant (whose top five bits
   then differ for each of the 32 such words): no branches, which the core
   would mispredict in a bit-by-bit search. */
static const uint8_t msb_of_smeared[32] = {0,  9,  1,  10, 13, 21, 2,  29, 11, 14, 16, 18, 22, 25, 3, 30,
                                           8, 12, 20, 28, 15, 17, 24, 7,  19, 27, 23, 6,  26, 5,  4, 31};

int fx_headroom31(uint32_t b) {
  if (!b) return 31;
  b |= b >> 1;
  b |= b >> 2;
  b |= b >> 4;
  b |= b >> 8;
  b |= b >> 16;
  return 30 - msb_of_smeared[(b * 0x07C4ACDDu) >> 27];
}

/* 2^(i/32) for i = 0..32, Q24: 32-bit interpolation stays exact enough. */
const int32_t fx_exp2_table[33] = {
    16777216, 17144589, 17520007, 17903645, 18295684, 18696307, 19105703, 19524063, 19951585,
    20388467, 20834917, 21291142, 21757357, 22233781, 22720638, 23218155, 23726566, 24246111,
    24777031, 25319578, 25874004, 26440571, 27019544, 27611195, 28215802, 28833647, 29465022,
    30110222, 30769550, 31443315, 32131834, 32835430, 33554432};

/* round(2^24 * 2^(-i / 256)) >> 7 for i = 0..256: Q17, the first 7 of
   fx_exp2_neg_coarse's shift done here (the core's table is generated from
   this one, tools/core/gen_exp2_pkg.c). */
const int32_t fx_exp2_fine_table[257] = {
    131072, 130717, 130364, 130011, 129660, 129309, 128959, 128611, 128263, 127916, 127570, 127225,
    126881, 126538, 126196, 125855, 125514, 125175, 124837, 124499, 124162, 123827, 123492, 123158,
    122825, 122493, 122162, 121831, 121502, 121173, 120846, 120519, 120193, 119868, 119544, 119221,
    118898, 118577, 118256, 117936, 117618, 117300, 116982, 116666, 116351, 116036, 115722, 115409,
    115097, 114786, 114476, 114166, 113857, 113550, 113243, 112936, 112631, 112326, 112023, 111720,
    111418, 111116, 110816, 110516, 110217, 109919, 109622, 109326, 109030, 108735, 108441, 108148,
    107856, 107564, 107273, 106983, 106694, 106405, 106118, 105831, 105545, 105259, 104975, 104691,
    104408, 104125, 103844, 103563, 103283, 103004, 102725, 102447, 102170, 101894, 101619, 101344,
    101070, 100797, 100524, 100252, 99981, 99711, 99441, 99172, 98904, 98637, 98370, 98104,
    97839, 97574, 97310, 97047, 96785, 96523, 96262, 96002, 95742, 95483, 95225, 94968,
    94711, 94455, 94199, 93945, 93691, 93437, 93185, 92933, 92681, 92431, 92181, 91932,
    91683, 91435, 91188, 90941, 90695, 90450, 90206, 89962, 89718, 89476, 89234, 88993,
    88752, 88512, 88273, 88034, 87796, 87559, 87322, 87086, 86850, 86615, 86381, 86148,
    85915, 85682, 85451, 85220, 84989, 84759, 84530, 84302, 84074, 83846, 83620, 83394,
    83168, 82943, 82719, 82495, 82272, 82050, 81828, 81607, 81386, 81166, 80946, 80727,
    80509, 80292, 80074, 79858, 79642, 79427, 79212, 78998, 78784, 78571, 78359, 78147,
    77935, 77725, 77514, 77305, 77096, 76887, 76679, 76472, 76265, 76059, 75853, 75648,
    75444, 75240, 75036, 74834, 74631, 74429, 74228, 74027, 73827, 73628, 73429, 73230,
    73032, 72834, 72638, 72441, 72245, 72050, 71855, 71661, 71467, 71274, 71081, 70889,
    70697, 70506, 70315, 70125, 69936, 69747, 69558, 69370, 69182, 68995, 68809, 68623,
    68437, 68252, 68067, 67883, 67700, 67517, 67334, 67152, 66971, 66789, 66609, 66429,
    66249, 66070, 65891, 65713, 65536
};

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

static void fill_sigmoid_table(void) {
  if (!sigmoid_table[SIGMOID_POINTS - 1]) /* first call */
    for (int i = 0; i < SIGMOID_POINTS; i++)
      sigmoid_table[i] = sigmoid_exact((i << SIGMOID_STEP_BITS) - (SIGMOID_RANGE << 16));
}

/* silu(x) for the table filled: (x * sig) >> 16 as one high-word product,
   x shifted up by 10 and sig (<= 1.0) by 6 (|x| < 12.0 inside the table). */
static inline int32_t silu_from_table(int32_t x) {
  if (__builtin_expect(x >= SIGMOID_RANGE << 16, 0)) return x; /* rare: the table's path falls through */
  if (__builtin_expect(x <= -(SIGMOID_RANGE << 16), 0)) return 0;
  int32_t at = x + (SIGMOID_RANGE << 16);
  const int32_t *point = &sigmoid_table[at >> SIGMOID_STEP_BITS];
  int32_t rem = at & ((1 << SIGMOID_STEP_BITS) - 1), lo = point[0];
  int32_t sig = lo + (((point[1] - lo) * rem) >> SIGMOID_STEP_BITS);
  return fx_mulh((int32_t)((uint32_t)x << 10), sig << 6);
}

void fx_silu_gate(int32_t *h, const int32_t *g, size_t n) {
  fill_sigmoid_table();
  for (size_t i = 0; i < n; i++) {
    const int32_t x = h[i], gain = g[i]; /* both loaded first: neither load's value is the next operand */
    h[i] = fx_mul_shift(silu_from_table(x), gain, 16);
  }
}
