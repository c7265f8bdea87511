#include "memtest.h"

#define MAX_REPORTS 8

static unsigned check(volatile uint32_t *p, uint32_t want, memtest_report_t report, unsigned failures) {
  uint32_t got = *p;
  if (got == want) return failures;
  if (report && failures < MAX_REPORTS) report((uintptr_t)p, want, got);
  return failures + 1;
}

unsigned memtest_data_lines(volatile uint32_t *word, memtest_report_t report) {
  unsigned failures = 0;
  for (unsigned bit = 0; bit < 32; bit++) {
    *word = 1u << bit;
    failures = check(word, 1u << bit, report, failures);
    *word = ~(1u << bit);
    failures = check(word, ~(1u << bit), report, failures);
  }
  return failures;
}

unsigned memtest_address_lines(volatile uint32_t *base, size_t bytes, memtest_report_t report) {
  const size_t words = bytes / 4;
  unsigned failures = 0;
  for (size_t off = 1; off < words; off <<= 1) base[off] = 0xAAAAAAAAu ^ (uint32_t)off;
  base[0] = 0x55555555u;
  for (size_t off = 1; off < words; off <<= 1) failures = check(base + off, 0xAAAAAAAAu ^ (uint32_t)off, report, failures);
  failures = check(base, 0x55555555u, report, failures);
  /* Each line high on its own: nothing else may change. */
  for (size_t hi = 1; hi < words; hi <<= 1) {
    base[hi] = 0x33333333u;
    failures = check(base, 0x55555555u, report, failures);
    for (size_t off = 1; off < words; off <<= 1)
      if (off != hi) failures = check(base + off, 0xAAAAAAAAu ^ (uint32_t)off, report, failures);
    base[hi] = 0xAAAAAAAAu ^ (uint32_t)hi;
  }
  return failures;
}

unsigned memtest_byte_lanes(volatile uint32_t *base, memtest_report_t report) {
  unsigned failures = 0;
  volatile uint8_t *b = (volatile uint8_t *)base;
  volatile uint16_t *h = (volatile uint16_t *)base;
  base[0] = 0;
  base[1] = 0xFFFFFFFFu;
  for (unsigned i = 0; i < 4; i++) b[i] = (uint8_t)(0x11 * (i + 1));
  failures = check(base, 0x44332211u, report, failures);
  h[2] = 0x1234;
  failures = check(base + 1, 0xFFFF1234u, report, failures);
  h[3] = 0xABCD;
  failures = check(base + 1, 0xABCD1234u, report, failures);
  b[5] = 0x5A;
  failures = check(base + 1, 0xABCD5A34u, report, failures);
  /* Loads of each width read their own lanes. */
  if (b[6] != 0xCD || h[3] != 0xABCD || b[4] != 0x34) {
    if (report && failures < MAX_REPORTS) report((uintptr_t)(base + 1), 0xABCD5A34u, base[1]);
    failures++;
  }
  return failures;
}

static uint32_t pattern(uintptr_t addr, uint32_t seed) {
  uint32_t x = (uint32_t)addr ^ seed;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  return x;
}

unsigned memtest_words(volatile uint32_t *base, size_t bytes, uint32_t seed, memtest_report_t report) {
  const size_t words = bytes / 4;
  unsigned failures = 0;
  for (size_t i = 0; i < words; i++) base[i] = pattern((uintptr_t)(base + i), seed);
  for (size_t i = 0; i < words; i++) {
    const uint32_t want = pattern((uintptr_t)(base + i), seed);
    failures = check(base + i, want, report, failures);
    base[i] = ~want;
  }
  for (size_t i = 0; i < words; i++) failures = check(base + i, ~pattern((uintptr_t)(base + i), seed), report, failures);
  return failures;
}
