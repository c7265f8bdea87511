#include "dcache.h"

#include <stdint.h>

#include "soc_regs.h"
#include "sysctl.h"

/* Zicbom's operations (the instruction's imm field). */
enum cbo_op { CBO_INVAL = 0, CBO_CLEAN = 1, CBO_FLUSH = 2 };
/* cbo.OP (rs1): MISC-MEM opcode, funct3 2, rd x0. */
#define CBO(imm, addr) __asm__ volatile(".insn i 0x0f, 2, x0, %0, " #imm : : "r"(addr) : "memory")

unsigned dcache_line_bytes(void) { return sysctl_ext_size() ? SYSCTL_DCACHE_LINE : 0; }

/* OP on every line overlapping [start, start + bytes), once the range is
   checked. */
static int maintain(enum cbo_op op, uintptr_t start, size_t bytes) {
  const uintptr_t ext_size = sysctl_ext_size(), line = dcache_line_bytes();
  if (!ext_size || !line) return DCACHE_ERR_NONE;
  if (start < EXT_BASE || start - EXT_BASE > ext_size || bytes > ext_size - (start - EXT_BASE))
    return DCACHE_ERR_RANGE;
  if (op == CBO_INVAL && ((start | bytes) & (line - 1))) return DCACHE_ERR_PARTIAL;
  const uintptr_t end = start + bytes;
  for (uintptr_t a = start & ~(line - 1); a < end; a += line) {
    switch (op) {
      case CBO_INVAL: CBO(0, a); break;
      case CBO_CLEAN: CBO(1, a); break;
      case CBO_FLUSH: CBO(2, a); break;
    }
  }
  return DCACHE_OK;
}

int dcache_clean(const volatile void *p, size_t bytes) { return maintain(CBO_CLEAN, (uintptr_t)p, bytes); }
int dcache_flush(const volatile void *p, size_t bytes) { return maintain(CBO_FLUSH, (uintptr_t)p, bytes); }
int dcache_invalidate(volatile void *p, size_t bytes) { return maintain(CBO_INVAL, (uintptr_t)p, bytes); }

const char *dcache_strerror(int err) {
  switch (err) {
    case DCACHE_OK: return "ok";
    case DCACHE_ERR_NONE: return "no data cache";
    case DCACHE_ERR_RANGE: return "range outside external memory";
    case DCACHE_ERR_PARTIAL: return "invalidation of a partial line";
    default: return "unknown error";
  }
}
