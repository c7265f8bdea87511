/* Maintenance of the data cache in front of external memory (docs/soc/memory.md):
   each call runs Zicbom's cbo.* on every line that overlaps [p, p + bytes).
   Nothing else in the SoC reads or writes the SDRAM behind the core's back
   today (the instruction cache refills through this cache; icache.h); these
   are for code that does (a DMA engine, a second master) and for tests of
   what memory itself holds.

   A range outside external memory, or past its end, is refused and nothing
   is done; so is an invalidation that does not cover whole lines (dropping
   a line throws away every byte of it, the neighbours' too). */
#ifndef HAL_DCACHE_H
#define HAL_DCACHE_H

#include <stddef.h>

enum {
  DCACHE_OK = 0,
  DCACHE_ERR_NONE = -1,    /* no external memory or no cache in this SoC */
  DCACHE_ERR_RANGE = -2,   /* the range is not inside external memory */
  DCACHE_ERR_PARTIAL = -3, /* an invalidation with a partial line at either end */
};

/* Bytes in a cache line (0: no cache). */
unsigned dcache_line_bytes(void);
/* Writes the range's dirty lines back; they stay cached. */
int dcache_clean(const volatile void *p, size_t bytes);
/* Writes the range's dirty lines back and drops them from the cache. */
int dcache_flush(const volatile void *p, size_t bytes);
/* Drops the range's lines without writing them back: the next reads see
   what memory holds. P and BYTES must be multiples of the line size. */
int dcache_invalidate(volatile void *p, size_t bytes);
const char *dcache_strerror(int err);

#endif
