/* Reset entry for firmware in RAM: stack at the top of the RAM present,
   global pointer, thread pointer, trap vector, cleared .tbss/.bss (and
   .ext_bss in external memory), then main() and exit(). */
#include "soc_regs.h"

  .section .text.start, "ax"
  .globl _start
_start:
  .option push
  .option norelax
  la    gp, __global_pointer$
  .option pop
  li    t0, SYSCTL_BASE
  lw    t1, SYSCTL_RAM_SIZE_OFFSET(t0)
  li    sp, RAM_BASE
  add   sp, sp, t1
  andi  sp, sp, -16
  la    t0, trap_entry
  csrw  mtvec, t0
  la    tp, __tls_base

  la    a0, __zero_start
  la    a1, __zero_end
  call  zero_words
  la    a0, __ext_zero_start
  la    a1, __ext_zero_end
  call  zero_words
  li    a0, 0
  li    a1, 0
  call  main
  tail  exit

/* Zeroes the words from a0 up to a1. */
zero_words:
  bgeu  a0, a1, 1f
  sw    zero, 0(a0)
  addi  a0, a0, 4
  j     zero_words
1:
  ret

/* Trap entry: save the caller-saved registers, let C dispatch, return. */
  .section .text.trap, "ax"
  .align 2
  .globl trap_entry
trap_entry:
  addi  sp, sp, -64
  sw    ra,  0(sp)
  sw    t0,  4(sp)
  sw    t1,  8(sp)
  sw    t2, 12(sp)
  sw    a0, 16(sp)
  sw    a1, 20(sp)
  sw    a2, 24(sp)
  sw    a3, 28(sp)
  sw    a4, 32(sp)
  sw    a5, 36(sp)
  sw    a6, 40(sp)
  sw    a7, 44(sp)
  sw    t3, 48(sp)
  sw    t4, 52(sp)
  sw    t5, 56(sp)
  sw    t6, 60(sp)
  csrr  a0, mcause
  csrr  a1, mepc
  csrr  a2, mtval
  call  trap_dispatch
  lw    ra,  0(sp)
  lw    t0,  4(sp)
  lw    t1,  8(sp)
  lw    t2, 12(sp)
  lw    a0, 16(sp)
  lw    a1, 20(sp)
  lw    a2, 24(sp)
  lw    a3, 28(sp)
  lw    a4, 32(sp)
  lw    a5, 36(sp)
  lw    a6, 40(sp)
  lw    a7, 44(sp)
  lw    t3, 48(sp)
  lw    t4, 52(sp)
  lw    t5, 56(sp)
  lw    t6, 60(sp)
  addi  sp, sp, 64
  mret
