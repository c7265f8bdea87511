/* Test environment for our ISA suite, in the riscv-tests "p" protocol:
   the program ends by storing to `tohost` -- 1 for pass, (case << 1) | 1
   for a failure in case number `case` (held in gp while the case runs).
   An unexpected trap fails the current case. */
#define TESTNUM gp

#define TEST_BEGIN                               \
  .section .text.init, "ax";                     \
  .globl _start;                                 \
_start:                                          \
  la t0, unexpected_trap;                        \
  csrw mtvec, t0;                                \
  li TESTNUM, 0;                                 \
  j test_body;                                   \
  .align 2;                                      \
unexpected_trap:                                 \
  j fail;                                        \
test_body:

#define TEST_END                                 \
pass:                                            \
  fence;                                         \
  li t0, 1;                                      \
  la t1, tohost;                                 \
  sw t0, 0(t1);                                  \
1: j 1b;                                         \
fail:                                            \
  fence;                                         \
  slli t0, TESTNUM, 1;                           \
  ori t0, t0, 1;                                 \
  la t1, tohost;                                 \
  sw t0, 0(t1);                                  \
2: j 2b;                                         \
  .section .tohost, "aw", @progbits;             \
  .align 6;                                      \
  .globl tohost;                                 \
tohost: .word 0;                                 \
  .align 6;                                      \
  .globl fromhost;                               \
fromhost: .word 0;

/* Start case N. */
#define CASE(n) li TESTNUM, n

/* Fail the current case unless register R holds value V (clobbers t6). */
#define EXPECT(r, v) li t6, v; bne r, t6, fail

/* Install HANDLER as the trap vector (clobbers t0). */
#define SET_TRAP(handler) la t0, handler; csrw mtvec, t0
