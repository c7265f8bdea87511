/* Interrupts: timer (mtime/mtimecmp) and external (sysctl SOFT_IRQ),
   masking by mie and mstatus.MIE, mip, vectored mode, an interrupt
   arriving during a division, and wfi sleeping until one is pending. */
#include "test_env.h"
#include "soc_regs.h"

/* mtimecmp = mtime + TICKS (a3 its low word); the high word first, while
   the low one is still all ones from the handler, so it never passes early. */
.macro TIMER_IN ticks
  lw a1, TIMER_MTIME_LO_OFFSET(s0)
  lw a2, TIMER_MTIME_HI_OFFSET(s0)
  addi a3, a1, \ticks
  sltu t1, a3, a1
  add a2, a2, t1
  sw a2, TIMER_MTIMECMP_HI_OFFSET(s0)
  sw a3, TIMER_MTIMECMP_LO_OFFSET(s0)
.endm

/* Handler: count in s6, record mcause/mepc in s2/s3, silence the source. */
TEST_BEGIN
  la t0, irq_handler
  csrw mtvec, t0
  li s0, TIMER_BASE
  li s1, SYSCTL_BASE
  li s6, 0

  CASE(1)  /* a pending timer interrupt shows in mip but waits for mie and MIE */
  sw zero, TIMER_MTIMECMP_HI_OFFSET(s0)
  sw zero, TIMER_MTIMECMP_LO_OFFSET(s0)
  lw t0, TIMER_MTIMECMP_LO_OFFSET(s0)  /* a read-back orders the device write */
  csrr a0, mip
  EXPECT(a0, 0x80)
  li t0, 0x80
  csrs mie, t0
  nop
  nop
  EXPECT(s6, 0)

  CASE(2)  /* enabling MIE takes it at once */
  csrsi mstatus, 8
  nop
  nop
  EXPECT(s6, 1)
  EXPECT(s2, 0x80000007)
  csrr a0, mstatus              /* the handler's mret restored MIE */
  andi a0, a0, 8
  EXPECT(a0, 8)

  CASE(3)  /* a timer interrupt in the future, waited for with wfi */
  TIMER_IN(200)
  li s6, 0
1:
  wfi
  beqz s6, 1b
  EXPECT(s6, 1)
  lw a4, TIMER_MTIME_LO_OFFSET(s0)
  sub a4, a4, a3
  bltz a4, fail                 /* not before mtimecmp */

  CASE(4)  /* external interrupt via the sysctl SOFT source */
  li t0, 0x80
  csrc mie, t0
  li t0, 0x800
  csrs mie, t0
  li t0, 4
  sw t0, SYSCTL_IRQ_ENABLE_OFFSET(s1)
  li s6, 0
  li t0, 1
  sw t0, SYSCTL_SOFT_IRQ_OFFSET(s1)
  nop
  nop
  nop
  EXPECT(s6, 1)
  EXPECT(s2, 0x8000000b)
  lw a0, SYSCTL_IRQ_PENDING_OFFSET(s1)
  EXPECT(a0, 0)

  CASE(5)  /* the source masked in sysctl does not interrupt */
  sw zero, SYSCTL_IRQ_ENABLE_OFFSET(s1)
  li t0, 1
  sw t0, SYSCTL_SOFT_IRQ_OFFSET(s1)
  nop
  nop
  EXPECT(s6, 1)
  csrr a0, mip
  EXPECT(a0, 0)
  lw a0, SYSCTL_IRQ_PENDING_OFFSET(s1)
  EXPECT(a0, 4)
  sw zero, SYSCTL_SOFT_IRQ_OFFSET(s1)

  CASE(6)  /* mepc is the first instruction not executed */
  li t0, 4
  sw t0, SYSCTL_IRQ_ENABLE_OFFSET(s1)
  li s6, 0
  li a5, 0
  li t0, 1
  sw t0, SYSCTL_SOFT_IRQ_OFFSET(s1)
2:
  addi a5, a5, 1
  beqz s6, 2b
  /* Every increment before the trap completed exactly once. */
  la t0, 2b
  beq s3, t0, 3f
  la t0, 2b + 4
  beq s3, t0, 3f
  j fail
3:

  CASE(7)  /* vectored mode: interrupts go to base + 4 * cause */
  la t0, vector_table
  ori t0, t0, 1
  csrw mtvec, t0
  li s7, 0
  li t0, 1
  sw t0, SYSCTL_SOFT_IRQ_OFFSET(s1)
  nop
  nop
  nop
  EXPECT(s7, 11)
  la t0, irq_handler
  csrw mtvec, t0

  CASE(8)  /* an interrupt during a division: the result is still right */
  li t0, 0x800
  csrc mie, t0
  li t0, 0x80
  csrs mie, t0
  li s6, 0
  li a1, 1000000
  li a2, 7
  lw a3, TIMER_MTIME_LO_OFFSET(s0)
  lw a4, TIMER_MTIME_HI_OFFSET(s0)
  addi a3, a3, 12
  sw a4, TIMER_MTIMECMP_HI_OFFSET(s0)
  sw a3, TIMER_MTIMECMP_LO_OFFSET(s0)
  div a0, a1, a2
  div a0, a1, a2
  div a0, a1, a2
  EXPECT(a0, 142857)
  EXPECT(s6, 1)

  CASE(9)  /* mie cleared: nothing is taken even with MIE set */
  csrw mie, zero
  li s6, 0
  li t0, 1
  sw t0, SYSCTL_SOFT_IRQ_OFFSET(s1)
  sw zero, TIMER_MTIMECMP_HI_OFFSET(s0)
  sw zero, TIMER_MTIMECMP_LO_OFFSET(s0)
  nop
  nop
  EXPECT(s6, 0)
  csrr a0, mip
  EXPECT(a0, 0x880)
  csrw mstatus, zero
  sw zero, SYSCTL_SOFT_IRQ_OFFSET(s1)
  li t0, -1
  sw t0, TIMER_MTIMECMP_HI_OFFSET(s0)
  sw t0, TIMER_MTIMECMP_LO_OFFSET(s0)

  CASE(10)  /* wfi ends on a source mie enables, with MIE clear: nothing taken */
  li t0, 0x800
  csrw mie, t0
  li s6, 0
  li t0, 1
  sw t0, SYSCTL_SOFT_IRQ_OFFSET(s1)
  wfi
  EXPECT(s6, 0)
  sw zero, SYSCTL_SOFT_IRQ_OFFSET(s1)

  CASE(11)  /* the interrupt that ends wfi is taken after it: mepc is past the wfi */
  li t0, 0x80
  csrw mie, t0
  TIMER_IN(200)
  li s6, 0
  csrsi mstatus, 8
4:
  wfi
  EXPECT(s6, 1)
  la t0, 4b + 4
  bne s3, t0, fail
  csrw mstatus, zero
  csrw mie, zero
  j pass

  .align 2
irq_handler:
  csrr s2, mcause
  csrr s3, mepc
  bgez s2, fail                 /* only interrupts are expected */
  addi s6, s6, 1
  li t0, -1                     /* silence both sources */
  sw t0, TIMER_MTIMECMP_HI_OFFSET(s0)
  sw t0, TIMER_MTIMECMP_LO_OFFSET(s0)
  sw zero, SYSCTL_SOFT_IRQ_OFFSET(s1)
  mret

  .align 6
vector_table:
  j fail                        /* 0: exceptions */
  .rept 10
  j fail
  .endr
  j vec_external                /* 11 */
vec_external:
  li s7, 11
  sw zero, SYSCTL_SOFT_IRQ_OFFSET(s1)
  mret
TEST_END
