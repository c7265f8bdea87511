/* Synchronous exceptions: causes, mepc, mtval, no side effects of the
   trapping instruction, and mret. */
#include "test_env.h"
#include "trap_helpers.h"
#include "soc_regs.h"

#define UNMAPPED 0x38000000

TEST_BEGIN
  SET_TRAP(trap_record)

  CASE(1)  /* ecall */
  TRAPS(11, ecall)
  EXPECT(s4, 0)

  CASE(2)  /* ebreak: mtval is the pc */
  TRAPS(3, ebreak)
  bne s4, s3, fail

  CASE(3)  /* illegal encodings, mtval = instruction */
  TRAPS(2, .word 0x00000000)
  EXPECT(s4, 0)
  TRAPS(2, .word 0xffffffff)
  EXPECT(s4, 0xffffffff)
  TRAPS(2, .word 0x00010001)           /* compressed (low bits not 11) */
  CASE(4)
  TRAPS(2, .word 0x04b50533)           /* OP funct7=0x02 */
  EXPECT(s4, 0x04b50533)
  TRAPS(2, .word 0x40b51533)           /* sll with funct7=0x20 */
  TRAPS(2, .word 0x40051513)           /* slli with imm[11:5]=0x20 */
  TRAPS(2, .word 0x02051513)           /* slli with shamt[5] set */
  TRAPS(2, .word 0x0000b00f)           /* MISC-MEM funct3=3 */
  TRAPS(2, .word 0x0000a08f)           /* cbo.inval with rd != 0 */
  TRAPS(2, .word 0x0030a00f)           /* cbo imm=3 (reserved) */
  TRAPS(2, .word 0x0040a00f)           /* cbo.zero: no Zicboz */
  TRAPS(2, .word 0x00004073)           /* SYSTEM funct3=4 */
  TRAPS(2, .word 0x000510e7)           /* jalr funct3=1 */
  TRAPS(2, .word 0x00053503)           /* ld (RV64 only) */
  TRAPS(2, .word 0x00053023)           /* sd (RV64 only) */
  TRAPS(2, .word 0x0005a063)           /* branch funct3=2 */
  TRAPS(2, .word 0x10200073)           /* sret */
  TRAPS(2, .word 0x00000053)           /* fadd.s: no F extension */
  TRAPS(2, .word 0x0000202f)           /* amo: no A extension */
  CASE(5)  /* the illegal instruction wrote nothing */
  li a0, 5
  TRAPS(2, .word 0x04b50533)           /* would write a0 */
  EXPECT(a0, 5)

  CASE(6)  /* misaligned loads: cause 4, mtval = address, rd untouched */
  la s0, data
  li a0, 123
  TRAPS(4, lw a0, 1(s0))
  addi t0, s0, 1
  bne s4, t0, fail
  EXPECT(a0, 123)
  TRAPS(4, lw a0, 2(s0))
  TRAPS(4, lw a0, 3(s0))
  TRAPS(4, lh a0, 1(s0))
  TRAPS(4, lhu a0, 3(s0))
  NO_TRAP(lh a0, 2(s0))
  NO_TRAP(lb a0, 3(s0))

  CASE(7)  /* misaligned stores: cause 6, memory untouched */
  li a1, 0x11223344
  sw a1, 0(s0)
  sw a1, 4(s0)
  li a2, -1
  TRAPS(6, sw a2, 2(s0))
  addi t0, s0, 2
  bne s4, t0, fail
  TRAPS(6, sh a2, 1(s0))
  TRAPS(6, sw a2, 7(s0))
  lw a0, 0(s0)
  EXPECT(a0, 0x11223344)
  lw a0, 4(s0)
  EXPECT(a0, 0x11223344)

  CASE(8)  /* misaligned jump targets: cause 0, mtval = target, no link */
  la a1, 3f
  addi a1, a1, 2
  li ra, 7
  TRAPS(0, jalr ra, 0(a1))
  bne s4, a1, fail
  EXPECT(ra, 7)
  li a1, 0
  li a2, 0
  TRAPS(0, beq a1, a2, .+6)
  NO_TRAP(bne a1, a2, .+6)
  TRAPS(0, jal ra, .+10)
3:
  nop
  nop

  CASE(9)  /* load access fault: unmapped address, mtval = address, rd untouched */
  li a1, UNMAPPED
  li a0, 9
  TRAPS(5, lw a0, 4(a1))
  addi t0, a1, 4
  bne s4, t0, fail
  EXPECT(a0, 9)
  li a1, 0x10004000                    /* past the last peripheral window */
  TRAPS(5, lb a0, 0(a1))
  li a1, 0x10000000                    /* a hole inside the UART window */
  TRAPS(5, lw a0, 0x100(a1))

  CASE(10)  /* store access fault, and the ROM refuses writes */
  li a1, UNMAPPED
  TRAPS(7, sw a0, 0(a1))
  li a1, ROM_BASE + 0x10
  TRAPS(7, sw a0, 0(a1))
  EXPECT(s4, ROM_BASE + 0x10)
  li a1, 0                             /* nothing at address 0 */
  TRAPS(5, lw a0, 0(a1))
  li a1, 0x10003000                    /* SYSCTL CLK_HZ is read-only */
  TRAPS(7, sw a0, 0(a1))

  CASE(11)  /* the instruction after a faulting load does not execute */
  li a1, UNMAPPED
  li a2, 0
  la s11, 4f
  lw a0, 0(a1)
  li a2, 1
  sw a2, 0(s0)
4:
  EXPECT(a2, 0)
  lw a0, 0(s0)
  EXPECT(a0, 0x11223344)

  CASE(12)  /* instruction access fault: mepc = mtval = the bad pc */
  la s11, 5f
  li a1, UNMAPPED
  jalr ra, 0(a1)
  j fail
5:
  EXPECT(s2, 1)
  li t0, UNMAPPED
  bne s3, t0, fail
  bne s4, t0, fail

  CASE(13)  /* traps clear MIE, save it in MPIE; mret restores it */
  li t0, 0x8
  csrw mstatus, t0
  TRAPS(11, ecall)
  csrr a0, mstatus
  EXPECT(a0, 0x1888)
  csrw mstatus, zero
  TRAPS(11, ecall)
  csrr a0, mstatus
  EXPECT(a0, 0x1880)

  CASE(14)  /* mret jumps to mepc */
  la t0, 6f
  csrw mepc, t0
  mret
  j fail
6:

  j pass
  TRAP_HANDLER
TEST_END

  .data
  .align 3
data: .word 0, 0
