/* Memory tests for external memory (a board's self-test, the simulator's
   SDRAM test): the data lines, the address lines, and every word with two
   patterns. Each returns 0 or the number of failures, and reports the
   first few through the callback with the address, what was written and
   what came back. */
#ifndef UTIL_MEMTEST_H
#define UTIL_MEMTEST_H

#include <stddef.h>
#include <stdint.h>

typedef void (*memtest_report_t)(uintptr_t addr, uint32_t wrote, uint32_t read);

/* Walking ones and zeros through one word: a stuck or shorted data line. */
unsigned memtest_data_lines(volatile uint32_t *word, memtest_report_t report);
/* Words at BASE + each power of two below BYTES, written apart and read
   back: a stuck or shorted address line shows as aliasing. */
unsigned memtest_address_lines(volatile uint32_t *base, size_t bytes, memtest_report_t report);
/* Byte and halfword stores into words (the byte enables), read as words. */
unsigned memtest_byte_lanes(volatile uint32_t *base, memtest_report_t report);
/* Every word of [BASE, BASE + BYTES): a pattern from the address and SEED,
   then its complement. */
unsigned memtest_words(volatile uint32_t *base, size_t bytes, uint32_t seed, memtest_report_t report);

#endif
