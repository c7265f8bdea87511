/* Helpers for tests that provoke traps: trap_record saves mcause, mepc and
   mtval in s2, s3, s4 and resumes at the address in s11. */
#define TRAP_HANDLER            \
  .align 2;                     \
trap_record:                    \
  csrr s2, mcause;              \
  csrr s3, mepc;                \
  csrr s4, mtval;               \
  csrw mepc, s11;               \
  mret;

/* Run INSN (at local label 8) expecting a trap with CAUSE; continue after it. */
#define TRAPS(cause, insn...)   \
  la s11, 9f;                   \
  li s2, -1;                    \
8: insn;                        \
  j fail;                       \
9: EXPECT(s2, cause);           \
  la t5, 8b;                    \
  bne s3, t5, fail

/* An instruction that must not trap: a trap makes s2 non-zero. */
#define NO_TRAP(insn...)        \
  la s11, fail;                 \
  li s2, 0;                     \
  insn;                         \
  bnez s2, fail
