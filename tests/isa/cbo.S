/* Zicbom cache maintenance (cbo.inval, cbo.clean, cbo.flush at rs1): done
   at once where nothing is cached -- RAM and ROM keep their words, no
   peripheral or the array sees a write -- and a store access fault where
   nothing is mapped (mtval = the address). The data cache's side is in
   tests/firmware/sdram and tests/rtl/tb_dcache.sv. */
#include "test_env.h"
#include "trap_helpers.h"
#include "soc_regs.h"

#define UNMAPPED 0x38000000
#define CBO_INVAL(r) .insn i 0x0f, 2, x0, r, 0
#define CBO_CLEAN(r) .insn i 0x0f, 2, x0, r, 1
#define CBO_FLUSH(r) .insn i 0x0f, 2, x0, r, 2

TEST_BEGIN
  SET_TRAP(trap_record)

  CASE(1)  /* RAM: the words stay, at any byte of the line (1 MB in: clear
              of the program, which may be in RAM or external memory) */
  li s0, RAM_BASE + 0x100000
  li a1, 0x5a5a1234
  sw a1, 0(s0)
  NO_TRAP(CBO_INVAL(s0))
  addi t0, s0, 3
  NO_TRAP(CBO_CLEAN(t0))
  NO_TRAP(CBO_FLUSH(s0))
  lw a0, 0(s0)
  EXPECT(a0, 0x5a5a1234)

  CASE(2)  /* ROM */
  li s1, ROM_BASE
  lw a1, 0(s1)
  NO_TRAP(CBO_FLUSH(s1))
  NO_TRAP(CBO_INVAL(s1))
  lw a0, 0(s1)
  bne a0, a1, fail

  CASE(3)  /* a peripheral register is not written (SCRATCH takes any write) */
  li s1, SYSCTL_BASE + SYSCTL_SCRATCH_OFFSET
  li a1, 0x600dcafe
  sw a1, 0(s1)
  NO_TRAP(CBO_INVAL(s1))
  NO_TRAP(CBO_CLEAN(s1))
  NO_TRAP(CBO_FLUSH(s1))
  lw a0, 0(s1)
  EXPECT(a0, 0x600dcafe)

  CASE(4)  /* nothing mapped: store access fault, mtval = the address */
  li a1, UNMAPPED + 0x44
  TRAPS(7, CBO_FLUSH(a1))
  EXPECT(s4, UNMAPPED + 0x44)
  TRAPS(7, CBO_INVAL(a1))

  CASE(5)  /* rs1 is forwarded like any source */
  la a2, data
  addi a2, a2, 8
  NO_TRAP(CBO_CLEAN(a2))
  li a2, UNMAPPED
  TRAPS(7, CBO_CLEAN(a2))
  EXPECT(s4, UNMAPPED)

  j pass

TRAP_HANDLER

TEST_END

  .data
  .align 5
data:
  .word 0, 0, 0, 0, 0, 0, 0, 0
