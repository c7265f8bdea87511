/* The packed dot products and ucx.exp2 beyond their arithmetic (gen_dot,
   gen_exp2): ucxcfg (reset
   value, only bit 0 writable), illegal instructions when disabled (mtval the
   word, rd unchanged) and reserved encodings, and a timer interrupt in a
   chain of dot products: each executes exactly once and mepc is precise. */
#include "test_env.h"
#include "trap_helpers.h"
#include "soc_regs.h"

#define UCXCFG 0x7c0
#define DOT4(rd, rs1, rs2) .insn r 0x0b, 0, 0, rd, rs1, rs2

TEST_BEGIN
  SET_TRAP(trap_record)

  CASE(1)  /* enabled out of reset; only bit 0 is writable */
  csrr a0, UCXCFG
  EXPECT(a0, 1)
  li t0, -1
  csrw UCXCFG, t0
  csrr a0, UCXCFG
  EXPECT(a0, 1)

  CASE(2)  /* disabled: illegal, mtval is the instruction, rd unchanged */
  csrw UCXCFG, zero
  li a1, 0x01010101
  li a3, 7
  TRAPS(2, DOT4(a3, a1, a1))
  EXPECT(s4, 0x00b5868b)
  EXPECT(a3, 7)
  TRAPS(2, .insn r 0x0b, 1, 0, a3, a1, a1)
  TRAPS(2, .insn r 0x0b, 2, 0, a3, a1, a1)
  TRAPS(2, .insn r 0x0b, 0, 1, a3, a1, a1)
  TRAPS(2, .insn r 0x0b, 3, 0, a3, a1, x0)
  EXPECT(a3, 7)

  CASE(3)  /* enabled again by the very next instruction */
  csrwi UCXCFG, 1
  DOT4(a3, a1, a1)
  EXPECT(a3, 11)

  CASE(4)  /* reserved funct3 and funct7 values of custom-0 are illegal
              (funct7 1 is the forms from zero; funct3 3 needs rs2 x0) */
  TRAPS(2, .insn r 0x0b, 3, 0, a3, a1, a1)
  EXPECT(s4, 0x00b5b68b)
  TRAPS(2, .insn r 0x0b, 7, 0, a3, a1, a1)
  TRAPS(2, .insn r 0x0b, 3, 1, a3, a1, a1)
  TRAPS(2, .insn r 0x0b, 0, 2, a3, a1, a1)
  TRAPS(2, .insn r 0x0b, 0, 3, a3, a1, a1)
  TRAPS(2, .insn r 0x0b, 0, 0x41, a3, a1, a1)
  TRAPS(2, .insn r 0x0b, 0, 0x40, a3, a1, a1)
  TRAPS(2, .insn i 0x0b, 4, a3, a1, 5)
  EXPECT(a3, 11)

  CASE(5)  /* ucx.exp2 with any rs2 but x0 or any funct7, and funct3 4-6 */
  TRAPS(2, .insn r 0x0b, 3, 0, a3, a1, x16)
  TRAPS(2, .insn r 0x0b, 3, 1, a3, a1, x0)
  TRAPS(2, .insn r 0x0b, 3, 0x40, a3, a1, x0)
  TRAPS(2, .insn r 0x0b, 4, 0, a3, a1, x0)
  TRAPS(2, .insn r 0x0b, 6, 0, a3, a1, x0)
  EXPECT(a3, 11)

  CASE(6)  /* a timer interrupt lands somewhere in 64 dependent dot
              products: all 64 take effect once, mepc is one of them */
  la t0, irq_handler
  csrw mtvec, t0
  li s0, TIMER_BASE
  li s6, 0
  li t0, 0x80
  csrw mie, t0
  li a1, 0x01020304
  li a2, 0x01010101             /* each adds 1 + 2 + 3 + 4 = 10 */
  li a3, 0
  lw t1, TIMER_MTIME_LO_OFFSET(s0)
  lw t2, TIMER_MTIME_HI_OFFSET(s0)
  addi t1, t1, 20
  sw t2, TIMER_MTIMECMP_HI_OFFSET(s0)
  sw t1, TIMER_MTIMECMP_LO_OFFSET(s0)
  csrsi mstatus, 8
dots:
  .rept 64
  DOT4(a3, a1, a2)
  .endr
dots_end:
  csrw mstatus, zero
  EXPECT(s6, 1)
  EXPECT(a3, 640)
  la t0, dots
  bltu s3, t0, fail
  la t0, dots_end
  bgeu s3, t0, fail
  csrw mie, zero
  j pass

  TRAP_HANDLER

  .align 2
irq_handler:
  csrr s2, mcause
  csrr s3, mepc
  bgez s2, fail
  addi s6, s6, 1
  li t0, -1
  sw t0, TIMER_MTIMECMP_HI_OFFSET(s0)
  sw t0, TIMER_MTIMECMP_LO_OFFSET(s0)
  mret
TEST_END
