/* Boot ROM entry: the stack at the top of the RAM present, then boot_main. */
#include "soc_regs.h"

  .section .text.start, "ax"
  .globl _start
_start:
  li    t0, SYSCTL_BASE
  lw    t1, SYSCTL_RAM_SIZE_OFFSET(t0)
  li    sp, RAM_BASE
  add   sp, sp, t1
  andi  sp, sp, -16
  call  boot_main
1:
  j     1b
