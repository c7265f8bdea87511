/* External memory through the bus's waiting port, the data cache, the SDRAM
 * controller and the simulator's chip model (which stops the run on any
 * timing rule the controller breaks): data and address lines over the whole
 * part, byte lanes, every word of its first and last 64 KiB (eight times the
 * cache, so lines are written back and filled again), the cache's counters,
 * and what a hit and a miss cost. Then a load just past its end must fault. */
#include <stdint.h>
#include <stdio.h>

#include "csr.h"
#include "memtest.h"
#include "soc_regs.h"
#include "sysctl.h"
#include "uart.h"

#define SPAN (64 * 1024)

static void report(uintptr_t addr, uint32_t wrote, uint32_t read) {
  printf("FAIL at 0x%08lx: wrote 0x%08lx read 0x%08lx (bits 0x%08lx)\n", (unsigned long)addr, (unsigned long)wrote,
         (unsigned long)read, (unsigned long)(wrote ^ read));
}

int main(void) {
  const uint32_t bytes = sysctl_ext_size();
  if (!bytes) {
    printf("no external memory\n");
    return 1;
  }
  volatile uint32_t *base = (volatile uint32_t *)EXT_BASE;
  printf("external memory: %lu MiB at 0x%08lx\n", (unsigned long)(bytes >> 20), (unsigned long)EXT_BASE);
  unsigned failures = memtest_data_lines(base, report);
  failures += memtest_address_lines(base, bytes, report);
  failures += memtest_byte_lanes(base + 8, report);
  failures += memtest_words(base, SPAN, 0x1234u, report);
  failures += memtest_words(base + (bytes - SPAN) / 4, SPAN, 0x9876u, report);

  /* A store right behind an external load must happen once, not in each
     cycle the load waits: one '#' between the brackets. */
  printf("store behind a load: [");
  uart_flush();
  __asm__ volatile("lw t0, 0(%0)\n sw %1, 0(%2)" : : "r"(base), "r"('#'), "r"(&UART_DATA) : "t0", "memory");
  uart_flush();
  printf("]\n");

  /* The cache (8 KiB of 32-byte lines in the simulator): a fresh line is one
     miss then hits (the counters say so), and what each costs. */
  volatile uint32_t *fresh = base + (1u << 20) / 4;
  uint32_t hits0 = SYSCTL_DCACHE_HITS, misses0 = SYSCTL_DCACHE_MISSES, sum = 0;
  for (unsigned i = 0; i < 8; i++) sum += fresh[i];
  uint32_t hits = SYSCTL_DCACHE_HITS - hits0, misses = SYSCTL_DCACHE_MISSES - misses0;
  printf("a fresh line: %lu miss, %lu hits\n", (unsigned long)misses, (unsigned long)hits);
  if (misses != 1 || hits != 7) failures++;
  uint64_t t0 = read_cycle();
  for (unsigned i = 0; i < 1024; i++) sum += fresh[i & 7];
  uint64_t t1 = read_cycle();
  for (unsigned i = 0; i < 1024; i++) sum += fresh[(2u << 20) / 4 + i * 8]; /* clean victims */
  uint64_t t2 = read_cycle();
  for (unsigned i = 0; i < 1024; i++) fresh[(3u << 20) / 4 + i * 8] = i; /* clean victims, lines dirtied */
  for (unsigned i = 0; i < 1024; i++) fresh[(4u << 20) / 4 + i * 8] = sum + i; /* the cache ends all dirty */
  uint64_t t3 = read_cycle();
  for (unsigned i = 0; i < 256; i++) sum += fresh[(5u << 20) / 4 + i * 8]; /* the 256 dirty lines */
  uint64_t t4 = read_cycle();
  printf("cycles per load: hit %lu, miss %lu, miss with a dirty line written back %lu\n",
         (unsigned long)((t1 - t0) / 1024), (unsigned long)((t2 - t1) / 1024), (unsigned long)((t4 - t3) / 256));
  /* A stream read word by word (the model's weights): the line after a miss
     is fetched while the core works on this one. */
  const volatile uint32_t *stream = base + (6u << 20) / 4;
  uint64_t t5 = read_cycle();
  for (unsigned i = 0; i < 8 * 1024; i++) sum += stream[i];
  uint64_t t6 = read_cycle();
  printf("stream: %lu cycles per line of 8 words (%lu)\n", (unsigned long)((t6 - t5) / 1024), (unsigned long)(sum & 1));
  /* A line taken from the stream buffer leaves it. B comes from the buffer
     and is written (dirty); C and the lines after it (at B's index and the
     next ones) are arranged so that no miss after that prefetches and the
     buffer keeps what it had; C's miss writes B back. B's next miss must
     read memory (the new word), not an old copy left in the buffer. */
  volatile uint32_t *b = base + (7u << 20) / 4, *c = b + 8192 / 4;
  b[0] = 0x0bad0000u;
  (void)c[0];         /* B written back: memory holds 0x0bad0000 */
  (void)b[8];         /* B's next line, cached */
  (void)c[16];        /* the line two after C, cached */
  (void)b[-8];        /* a miss on the line before B: B goes to the buffer */
  b[0] = 0x600d0000u; /* B from the buffer, dirty; its next line is cached: no prefetch */
  (void)c[8];         /* C's next line (at B's next index); the one after is cached: no prefetch */
  (void)c[0];         /* B written back; C's next line is cached: no prefetch */
  const uint32_t again = b[0];
  printf("a line leaves the stream buffer for the cache: %s\n", again == 0x600d0000u ? "ok" : "FAIL");
  if (again != 0x600d0000u) failures++;
  printf("sdram: %u failures\n", failures);
  printf("sdram %s\n", failures ? "FAIL" : "PASS");
  if (failures) return 1;
  /* Past the end: the HAL's fatal-trap report, exit 128 + 5 (load access fault). */
  printf("reading past the end\n");
  printf("read %lu\n", (unsigned long)base[bytes / 4]);
  return 0;
}
