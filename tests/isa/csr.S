/* Every implemented CSR: values, read/write semantics of all six CSR
   instructions, WARL fields, counters, and illegal accesses. */
#include "test_env.h"
#include "trap_helpers.h"

TEST_BEGIN
  SET_TRAP(trap_record)

  CASE(1)  /* ID registers */
  csrr a0, misa
  EXPECT(a0, 0x40001100)
  csrr a0, mhartid
  EXPECT(a0, 0)
  csrr a0, mvendorid
  EXPECT(a0, 0)
  csrr a0, marchid
  EXPECT(a0, 0)
  csrr a0, mconfigptr
  EXPECT(a0, 0)
  csrr a0, mimpid
  EXPECT(a0, 1)

  CASE(2)  /* csrrw / csrrs / csrrc return the old value */
  li a1, 0x12345678
  csrw mscratch, a1
  li a2, 0xff00ff00
  csrrw a0, mscratch, a2
  EXPECT(a0, 0x12345678)
  li a2, 0x000000ff
  csrrs a0, mscratch, a2
  EXPECT(a0, 0xff00ff00)
  csrr a0, mscratch
  EXPECT(a0, 0xff00ffff)
  li a2, 0x0f000f0f
  csrrc a0, mscratch, a2
  EXPECT(a0, 0xff00ffff)
  csrr a0, mscratch
  EXPECT(a0, 0xf000f0f0)

  CASE(3)  /* immediate forms */
  csrrwi a0, mscratch, 0x15
  EXPECT(a0, 0xf000f0f0)
  csrrsi a0, mscratch, 0x0a
  EXPECT(a0, 0x15)
  csrrci a0, mscratch, 0x03
  EXPECT(a0, 0x1f)
  csrr a0, mscratch
  EXPECT(a0, 0x1c)

  CASE(4)  /* rd = rs1 */
  li a0, 77
  csrrw a0, mscratch, a0
  EXPECT(a0, 0x1c)
  csrr a0, mscratch
  EXPECT(a0, 77)

  CASE(5)  /* mstatus: MIE/MPIE writable, MPP reads as M */
  li a1, 0xffffffff
  csrw mstatus, a1
  csrr a0, mstatus
  EXPECT(a0, 0x1888)
  csrw mstatus, zero
  csrr a0, mstatus
  EXPECT(a0, 0x1800)
  csrr a0, mstatush
  EXPECT(a0, 0)

  CASE(6)  /* mie: MTIE, MEIE */
  li a1, 0xffffffff
  csrw mie, a1
  csrr a0, mie
  EXPECT(a0, 0x880)
  csrw mie, zero

  CASE(7)  /* mtvec: base plus direct/vectored mode */
  la s5, trap_record
  li a1, 0x80001001
  csrw mtvec, a1
  csrr a0, mtvec
  EXPECT(a0, 0x80001001)
  li a1, 0x80001007             /* reserved mode 3 reads as vectored */
  csrw mtvec, a1
  csrr a0, mtvec
  EXPECT(a0, 0x80001001)
  li a1, 0x80001045             /* vectored: base aligned to 64 bytes */
  csrw mtvec, a1
  csrr a0, mtvec
  EXPECT(a0, 0x80001041)
  li a1, 0x80001044             /* direct: 4-byte aligned */
  csrw mtvec, a1
  csrr a0, mtvec
  EXPECT(a0, 0x80001044)
  csrw mtvec, s5

  CASE(8)  /* mepc clears its two low bits; mcause, mtval hold anything */
  li a1, 0x80000003
  csrw mepc, a1
  csrr a0, mepc
  EXPECT(a0, 0x80000000)
  li a1, 0x8000000b
  csrw mcause, a1
  csrr a0, mcause
  EXPECT(a0, 0x8000000b)
  li a1, 0xdeadbeef
  csrw mtval, a1
  csrr a0, mtval
  EXPECT(a0, 0xdeadbeef)

  CASE(9)  /* mip reads with nothing pending */
  csrr a0, mip
  EXPECT(a0, 0)
  NO_TRAP(csrw mip, zero)

  CASE(10)  /* minstret counts exactly the instructions retired */
  csrr a0, minstret
  nop
  nop
  nop
  csrr a1, minstret
  sub a1, a1, a0
  EXPECT(a1, 4)
  csrr a0, instret
  csrr a1, minstret
  sub a1, a1, a0
  EXPECT(a1, 1)

  CASE(11)  /* mcycle advances; cycle is its alias; time advances */
  csrr a0, mcycle
  csrr a1, cycle
  sub a2, a1, a0
  li t0, 1
  blt a2, t0, fail
  li t0, 8
  bge a2, t0, fail
  csrr a0, time
  nop
  nop
  csrr a1, time
  beq a0, a1, fail

  CASE(12)  /* counters are writable through the m* names */
  li a1, 0x100
  csrw mcycle, a1
  csrr a0, mcycle
  li t0, 0x100
  blt a0, t0, fail
  li t0, 0x110
  bge a0, t0, fail
  li a1, 7
  csrw mcycleh, a1
  csrr a0, mcycleh
  EXPECT(a0, 7)
  csrr a0, cycleh
  EXPECT(a0, 7)
  li a1, 1000
  csrw minstret, a1
  csrr a0, minstret
  EXPECT(a0, 1000)
  li a1, 3
  csrw minstreth, a1
  csrr a0, minstreth
  EXPECT(a0, 3)
  csrr a0, instreth
  EXPECT(a0, 3)
  csrr a0, timeh
  EXPECT(a0, 0)

  CASE(13)  /* unimplemented CSRs trap as illegal, with the instruction in mtval */
  TRAPS(2, csrr a0, satp)
  la t0, 8b
  lw t0, 0(t0)
  bne s4, t0, fail
  TRAPS(2, csrw medeleg, zero)
  TRAPS(2, csrr a0, mcounteren)
  TRAPS(2, csrr a0, 0x7c1)   /* custom space beside ucxcfg */
  TRAPS(2, csrr a0, 0xfff)
  TRAPS(2, csrr a0, pmpcfg0)
  TRAPS(2, csrr a0, sstatus)

  CASE(14)  /* writing a read-only CSR traps; reading it does not */
  TRAPS(2, csrw cycle, zero)
  TRAPS(2, csrw mhartid, zero)
  TRAPS(2, csrrwi x0, time, 1)
  TRAPS(2, csrrsi a0, instret, 1)
  TRAPS(2, csrrc a0, mvendorid, a1)
  NO_TRAP(csrrs a0, cycle, x0)
  NO_TRAP(csrrci a0, mimpid, 0)

  CASE(15)  /* a trapping CSR write changes nothing and writes no rd */
  li a1, 55
  csrw mscratch, a1
  li a0, 99
  TRAPS(2, csrrw a0, cycle, a1)
  EXPECT(a0, 99)

  CASE(17)  /* no debug triggers: tselect and tdata1 read 0, writes are ignored */
  li a1, 0x80000000
  NO_TRAP(csrw tselect, a1)
  csrr a0, tselect
  EXPECT(a0, 0)
  csrr a0, tdata1
  EXPECT(a0, 0)

  CASE(16)  /* misa writes are ignored (WARL) */
  NO_TRAP(csrw misa, zero)
  csrr a0, misa
  EXPECT(a0, 0x40001100)

  j pass
  TRAP_HANDLER
TEST_END
