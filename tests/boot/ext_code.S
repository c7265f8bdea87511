/* A program whose code and data are in external memory, for the
   bootloader's test: uploaded there (through the data cache, so the words
   may still be dirty in it when the bootloader runs fence.i and jumps), it
   prints its message from there and stops in a loop. */
#include "soc_regs.h"

  .section .text.init, "ax"
  .globl _start
_start:
  li t0, UART_BASE
  la t1, message
next:
  lbu t2, 0(t1)
  beqz t2, done
wait:
  lw t3, UART_STATUS_OFFSET(t0)
  andi t3, t3, UART_STATUS_TX_FULL_MASK
  bnez t3, wait
  sw t2, UART_DATA_OFFSET(t0)
  addi t1, t1, 1
  j next
done:
  j done

  .section .rodata
message:
  .asciz "running from external memory\r\n"
