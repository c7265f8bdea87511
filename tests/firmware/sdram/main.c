/* External memory through the bus's waiting port, the data cache, the SDRAM
 * controller and the simulator's chip model (which stops the run on any
 * timing rule the controller breaks): data and address lines over the whole
 * part, byte lanes, every word of its first and last 64 KiB (eight times the
 * cache, so lines are written back and filled again), the cache's counters,
 * what a hit and a miss cost, the prefetcher beside dirty lines, and cache
 * maintenance (hal/dcache.h) seen through what memory holds. Then a load
 * just past its end must fault. */
#include <stdint.h>
#include <stdio.h>

#include "csr.h"
#include "dcache.h"
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
  /* A stream read word by word (the model's weights): the next line is
     fetched into the cache while the core works on this one. */
  const volatile uint32_t *stream = base + (6u << 20) / 4;
  uint64_t t5 = read_cycle();
  for (unsigned i = 0; i < 8 * 1024; i++) sum += stream[i];
  uint64_t t6 = read_cycle();
  printf("stream: %lu cycles per line of 8 words (%lu)\n", (unsigned long)((t6 - t5) / 1024), (unsigned long)(sum & 1));
  /* A prefetch never replaces a dirty line: D is written, then a miss on the
     line before D's index (in another 8 KiB) starts a prefetch of the line
     at D's index, which must leave D alone (a miss writes it back later). */
  volatile uint32_t *d = base + (7u << 20) / 4;
  const volatile uint32_t *before = d + 8192 / 4 - 8;
  d[0] = 0x600d0000u;
  (void)before[0]; /* a miss: the next line would go where D is */
  (void)before[8]; /* that line: a miss writing D back */
  const uint32_t again = d[0];
  printf("a prefetch leaves a dirty line alone: %s\n", again == 0x600d0000u ? "ok" : "FAIL");
  if (again != 0x600d0000u) failures++;
  /* Maintenance: an invalidated line reads what memory holds, so each step
     shows whether the word reached memory. Misuse is refused and changes
     nothing. */
  volatile uint32_t *m = base + (8u << 20) / 4;
  const unsigned line = dcache_line_bytes();
  unsigned bad = 0;
  m[0] = 0x11111111u;
  bad += dcache_flush(m, 4) != DCACHE_OK;
  m[0] = 0x22222222u;
  bad += dcache_invalidate(m, line) != DCACHE_OK;
  bad += m[0] != 0x11111111u; /* the store was dropped */
  m[0] = 0x33333333u;
  bad += dcache_clean(m, 4) != DCACHE_OK || m[0] != 0x33333333u; /* clean keeps the line */
  bad += dcache_invalidate(m, line) != DCACHE_OK || m[0] != 0x33333333u; /* and it reached memory */
  m[1] = 0x44444444u;
  bad += dcache_flush((const uint8_t *)m + 5, 1) != DCACHE_OK; /* any byte of the line */
  bad += dcache_invalidate(m, line) != DCACHE_OK || m[1] != 0x44444444u;
  m[0] = 0x55555555u;
  bad += dcache_invalidate(m + 1, line) != DCACHE_ERR_PARTIAL;
  bad += dcache_invalidate(m, line / 2) != DCACHE_ERR_PARTIAL;
  bad += dcache_clean((const void *)RAM_BASE, 4) != DCACHE_ERR_RANGE;
  bad += dcache_flush(base + bytes / 4 - 1, 8) != DCACHE_ERR_RANGE; /* past the end */
  bad += m[0] != 0x55555555u; /* the refused calls dropped nothing */
  bad += dcache_flush(m, 0) != DCACHE_OK;
  printf("cache maintenance (%u-byte lines): %s\n", line, bad ? "FAIL" : "ok");
  if (bad) failures++;
  printf("sdram: %u failures\n", failures);
  printf("sdram %s\n", failures ? "FAIL" : "PASS");
  if (failures) return 1;
  /* Past the end: the HAL's fatal-trap report, exit 128 + 5 (load access fault). */
  printf("reading past the end\n");
  printf("read %lu\n", (unsigned long)base[bytes / 4]);
  return 0;
}
