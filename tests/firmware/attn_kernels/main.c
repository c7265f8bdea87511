/* The attention kernels (firmware/lib/llm/attention.c, built with the core's
 * packed dot products) against plain loops over random data: head sizes 8
 * and 16, counts from 0 to odd and even, rows in order and gathered, value
 * weights that fit int16 (the packed path) and that do not, output shifts
 * from 0 to 15 (rounded), and the key scales and maxima of attn_scores2. */
#include <stdint.h>
#include <stdio.h>

#include "attention.h"

#define KEYS 37
#define MAX_HS 16
#define ROUNDS 40

static int16_t keys[KEYS * MAX_HS];
static _Alignas(4) int8_t values[KEYS * MAX_HS], qa[MAX_HS], qb[MAX_HS];
static int32_t weights[KEYS], kscale[KEYS * 2], got_a[KEYS], got_b[KEYS], want_a[KEYS], want_b[KEYS];
static int32_t out[MAX_HS], ref[MAX_HS];
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
  if (gathered)
    attn_values_rows(out, weights, values, (size_t)hs, rows, count, hs, shift);
  else
    attn_values(out, weights, values, (size_t)hs, count, hs, shift);
  for (int i = 0; i < hs; i++) expect(gathered ? "attn_values_rows" : "attn_values", round, i, out[i], ref[i]);
}

static int32_t dot(const int8_t *q, const int16_t *k, int hs) {
  int32_t d = 0;
  for (int i = 0; i < hs; i++) d += q[i] * k[i];
  return d;
}

static void check_dots(int round, int hs, int count) {
  int32_t max_a = INT32_MIN, max_b = INT32_MIN, max[2];
  for (int t = 0; t < count; t++) {
    kscale[t * 2] = (int32_t)(rnd() % 300000);
    int64_t a = dot(qa, keys + t * hs, hs), b = dot(qb, keys + t * hs, hs);
    want_a[t] = (int32_t)a;
    want_b[t] = (int32_t)b;
    int32_t sa = (int32_t)((a * kscale[t * 2]) >> 16), sb = (int32_t)((b * kscale[t * 2]) >> 16);
    if (sa > max_a) max_a = sa;
    if (sb > max_b) max_b = sb;
  }
  attn_dots(got_a, qa, keys, (size_t)hs, count, hs);
  for (int t = 0; t < count; t++) expect("attn_dots", round, t, got_a[t], want_a[t]);
  attn_dots2(got_a, got_b, qa, qb, keys, (size_t)hs, count, hs);
  for (int t = 0; t < count; t++) {
    expect("attn_dots2 a", round, t, got_a[t], want_a[t]);
    expect("attn_dots2 b", round, t, got_b[t], want_b[t]);
  }
  attn_scores2(got_a, got_b, max, qa, qb, keys, (size_t)hs, kscale, 2, count, hs);
  for (int t = 0; t < count; t++) {
    expect("attn_scores2 a", round, t, got_a[t], (int32_t)(((int64_t)want_a[t] * kscale[t * 2]) >> 16));
    expect("attn_scores2 b", round, t, got_b[t], (int32_t)(((int64_t)want_b[t] * kscale[t * 2]) >> 16));
  }
  if (count) {
    expect("attn_scores2 max a", round, 0, max[0], max_a);
    expect("attn_scores2 max b", round, 0, max[1], max_b);
  }
}

int main(void) {
  for (int round = 0; round < ROUNDS; round++) {
    const int hs = round % 3 == 2 ? 16 : 8, count = (int)(rnd() % (KEYS + 1));
    for (int i = 0; i < KEYS * hs; i++) {
      values[i] = (int8_t)rnd();
      keys[i] = (int16_t)((int32_t)(rnd() % 4065) - 2032); /* 12-bit, as cached */
    }
    for (int i = 0; i < hs; i++) {
      qa[i] = (int8_t)rnd();
      qb[i] = (int8_t)rnd();
    }
    check_values(round, hs, count, round & 1, round % 4 >= 2);
    check_dots(round, hs, count);
  }
  printf("attention kernels: %u checks, %u failures\n", checks, failures);
  printf("attn_kernels %s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
