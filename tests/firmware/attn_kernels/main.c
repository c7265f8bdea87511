/* The attention kernels (firmware/lib/kernels/attention.c, built with the core's
 * packed dot products) against plain loops over random data: head sizes 8
 * and 16, counts from 0 to odd and even, rows in order and gathered, value
 * weights that fit int16 (the packed path) and that do not, output shifts
 * from 0 to 15 (rounded), the weights attn_values_weighed forms from
 * exponentials, value scales and a reciprocal (the formula in 64 bits), the
 * key scales and maxima of attn_scores_group and the int16-weighted sums of
 * attn_values_group, for 1 to 3 heads. */
#include <stdint.h>
#include <stdio.h>

#include "attention.h"

#define KEYS 37
#define MAX_HS 16
#define ROUNDS 48

static int16_t keys[KEYS * MAX_HS];
static _Alignas(4) int8_t values[KEYS * MAX_HS], qs[ATTN_MAX_GROUP][MAX_HS];
static _Alignas(4) int16_t weights16[ATTN_MAX_GROUP][KEYS + 1];
static int32_t weights[KEYS], exps[KEYS], vscale[KEYS], kscale[KEYS * 2], got[ATTN_MAX_GROUP][KEYS], want[ATTN_MAX_GROUP][KEYS];
static int32_t out[MAX_HS], ref[MAX_HS], outs[ATTN_MAX_GROUP][MAX_HS];
static uint16_t rows[KEYS];
static uint32_t rng = 7;
static unsigned checks, failures;

static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static void expect(const char *what, int round, int i, int32_t got, int32_t want) {
  checks++;
  if (got != want && failures++ < 10)
    printf("FAIL %s round %d element %d: got %ld want %ld\n", what, round, i, (long)got, (long)want);
}

/* Value weights: mostly probability-sized, some beyond int16 either way. */
static int32_t random_weight(int wide) {
  uint32_t r = rnd();
  if (wide && r % 4 == 0) return (int32_t)(rnd() % 200000) - 100000;
  return (int32_t)(r % 65536) - 32768;
}

static void check_values(int round, int hs, int count, int gathered, int wide) {
  for (int j = 0; j < count; j++) {
    weights[j] = random_weight(wide);
    rows[j] = (uint16_t)(gathered ? rnd() % KEYS : (uint32_t)j);
  }
  const int shift = (int)(rnd() % 16);
  for (int i = 0; i < hs; i++) {
    uint32_t s = 0; /* wrapping, as the kernel's accumulators */
    for (int j = 0; j < count; j++) s += (uint32_t)(weights[j] * values[rows[j] * hs + i]);
    ref[i] = (int32_t)(s + (shift ? 1u << (shift - 1) : 0)) >> shift;
  }
  attn_values_rows(out, weights, values, (size_t)hs, rows, count, hs, shift);
  for (int i = 0; i < hs; i++) expect("attn_values_rows", round, i, out[i], ref[i]);
}

/* Exponentials up to 1.0 (Q16), value scales below 2^(32 - shift) and a
   reciprocal of a sum of at least 1.0: the weights that come out reach
   past int16 when the shift is large (the multiplied-out path). */
static void check_values_weighed(int round, int hs, int count, int gathered) {
  const int shift = (int)(rnd() % 16);
  const uint32_t inv = 1 + rnd() % 65535;
  for (int j = 0; j < count; j++) {
    exps[j] = (int32_t)(rnd() % 65537);
    rows[j] = (uint16_t)(gathered ? rnd() % KEYS : (uint32_t)j);
  }
  for (int t = 0; t < KEYS; t++) vscale[t] = (int32_t)(rnd() % (1u << (24 - shift)));
  for (int j = 0; j < count; j++) {
    const uint64_t scale = ((uint64_t)((uint32_t)vscale[rows[j]] << shift) * ((uint64_t)inv << 16)) >> 32;
    weights[j] = (int32_t)((((uint64_t)(uint32_t)exps[j] << 8) * scale) >> 32);
  }
  for (int i = 0; i < hs; i++) {
    uint32_t s = 0;
    for (int j = 0; j < count; j++) s += (uint32_t)(weights[j] * values[rows[j] * hs + i]);
    ref[i] = (int32_t)(s + (shift ? 1u << (shift - 1) : 0)) >> shift;
  }
  const attn_weigh_t wg = {vscale, inv << 16, shift};
  attn_values_weighed(out, exps, &wg, values, (size_t)hs, rows, count, hs);
  for (int i = 0; i < hs; i++) expect("attn_values_weighed", round, i, out[i], ref[i]);
}

/* The sums of G heads' int16 weights over rows 0..count-1 at once. */
static void check_values_group(int round, int hs, int count, int g) {
  int32_t *sums[ATTN_MAX_GROUP];
  const int16_t *w[ATTN_MAX_GROUP];
  int shift[ATTN_MAX_GROUP];
  for (int j = 0; j < g; j++) {
    for (int t = 0; t < count; t++) weights16[j][t] = (int16_t)(rnd() % 4 ? rnd() % 32768 : 0);
    shift[j] = (int)(rnd() % 16);
    sums[j] = outs[j];
    w[j] = weights16[j];
  }
  attn_values_group(sums, w, shift, g, values, (size_t)hs, count, hs);
  for (int j = 0; j < g; j++)
    for (int i = 0; i < hs; i++) {
      uint32_t s = 0;
      for (int t = 0; t < count; t++) s += (uint32_t)(weights16[j][t] * values[t * hs + i]);
      expect("attn_values_group", round, j * hs + i, outs[j][i],
             (int32_t)(s + (shift[j] ? 1u << (shift[j] - 1) : 0)) >> shift[j]);
    }
}

static int32_t dot(const int8_t *q, const int16_t *k, int hs) {
  int32_t d = 0;
  for (int i = 0; i < hs; i++) d += q[i] * k[i];
  return d;
}

static void check_dots(int round, int hs, int count, int g) {
  int32_t top[ATTN_MAX_GROUP], max[ATTN_MAX_GROUP], *scores[ATTN_MAX_GROUP];
  const int8_t *q[ATTN_MAX_GROUP];
  for (int j = 0; j < g; j++) {
    top[j] = INT32_MIN;
    scores[j] = got[j];
    q[j] = qs[j];
  }
  for (int t = 0; t < count; t++) {
    kscale[t * 2] = (int32_t)(rnd() % 300000);
    for (int j = 0; j < g; j++) {
      int64_t d = dot(qs[j], keys + t * hs, hs);
      want[j][t] = (int32_t)((d * kscale[t * 2]) >> 16);
      if (want[j][t] > top[j]) top[j] = want[j][t];
    }
  }
  attn_dots(got[0], qs[0], keys, (size_t)hs, count, hs);
  for (int t = 0; t < count; t++) expect("attn_dots", round, t, got[0][t], dot(qs[0], keys + t * hs, hs));
  attn_scores_group(scores, max, q, g, keys, (size_t)hs, kscale, 2, count, hs);
  for (int j = 0; j < g; j++) {
    for (int t = 0; t < count; t++) expect("attn_scores_group", round, j * KEYS + t, got[j][t], want[j][t]);
    if (count) expect("attn_scores_group max", round, j, max[j], top[j]);
  }
}

int main(void) {
  for (int round = 0; round < ROUNDS; round++) {
    const int hs = round % 3 == 2 ? 16 : 8, count = (int)(rnd() % (KEYS + 1));
    for (int i = 0; i < KEYS * hs; i++) {
      values[i] = (int8_t)rnd();
      keys[i] = (int16_t)((int32_t)(rnd() % 4065) - 2032); /* 12-bit, as cached */
    }
    for (int j = 0; j < ATTN_MAX_GROUP; j++)
      for (int i = 0; i < hs; i++) qs[j][i] = (int8_t)rnd();
    const int g = 1 + round / 3 % ATTN_MAX_GROUP; /* every head count with both head sizes */
    check_values(round, hs, count, round & 1, round % 4 >= 2);
    check_values_weighed(round, hs, count, round & 1);
    check_values_group(round, hs, count, g);
    check_dots(round, hs, count, g);
  }
  printf("attention kernels: %u checks, %u failures\n", checks, failures);
  printf("attn_kernels %s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
