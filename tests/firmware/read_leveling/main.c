/* Read levelling's choice (firmware/hal/litedram/read_leveling.h) on scans
 * made up to have a known answer: one window, windows in several bitslips,
 * two windows in one bitslip, a window at either end of the taps, nothing. */
#include <stdint.h>
#include <stdio.h>

#include "read_leveling.h"

static unsigned failures;

static void expect(const char *what, const uint32_t ok[8], unsigned bitslip, unsigned delay, unsigned width) {
  const read_level_t got = read_level_choose(ok, 8, 32);
  const int pass = got.bitslip == bitslip && got.delay == delay && got.width == width;
  if (!pass) failures++;
  printf("%s %s: bitslip %u delay %u width %u (want %u %u %u)\n", pass ? "PASS" : "FAIL", what, got.bitslip,
         got.delay, got.width, bitslip, delay, width);
}

/* Taps FIRST..LAST set. */
static uint32_t taps(unsigned first, unsigned last) {
  return (last >= 31 ? ~0u : (1u << (last + 1)) - 1u) & ~((1u << first) - 1u);
}

int main(void) {
  expect("one window", (const uint32_t[8]){0, 0, 0, taps(5, 20)}, 3, 12, 16);
  expect("the wider of two bitslips", (const uint32_t[8]){taps(0, 6), 0, taps(10, 25), 0, 0, taps(2, 9)}, 2, 17, 16);
  expect("a tie goes to the lower bitslip", (const uint32_t[8]){0, taps(3, 10), 0, 0, taps(20, 27)}, 1, 6, 8);
  expect("the longest run, not the union", (const uint32_t[8]){taps(0, 3) | taps(6, 17) | taps(20, 31)}, 0, 11, 12);
  expect("a window at the top tap", (const uint32_t[8]){0, 0, 0, 0, 0, 0, 0, taps(24, 31)}, 7, 27, 8);
  expect("every tap good", (const uint32_t[8]){0, 0, 0, 0, 0, taps(0, 31)}, 5, 15, 32);
  expect("one good tap", (const uint32_t[8]){0, 0, 1u << 9}, 2, 9, 1);
  expect("nothing reads back", (const uint32_t[8]){0}, 0, 0, 0);
  printf("%u failures\n", failures);
  return (int)failures;
}
