/* fence.i: code written through the data bus runs after fence.i. */
#include "test_env.h"

TEST_BEGIN
  CASE(1)
  la a0, patch
  li a1, 0x02a00513             /* li a0, 42 */
  sw a1, 0(a0)
  fence.i
  li a0, 0
patch:
  li a0, 7
  EXPECT(a0, 42)

  CASE(2)  /* copy a routine to data memory and call it */
  la a0, routine
  la a1, buffer
  lw t0, 0(a0)
  sw t0, 0(a1)
  lw t0, 4(a0)
  sw t0, 4(a1)
  fence.i
  li a0, 5
  jalr ra, 0(a1)
  EXPECT(a0, 6)

  CASE(3)  /* patch the same place twice */
  la a0, patch2
  li a1, 0x00100593             /* li a1, 1 */
  sw a1, 0(a0)
  fence.i
  jal ra, patch2
  EXPECT(a1, 1)
  la a0, patch2
  li a1, 0x00200593             /* li a1, 2 */
  sw a1, 0(a0)
  fence.i
  jal ra, patch2
  EXPECT(a1, 2)

  CASE(4)  /* a jump the branch target buffer has learnt, patched into an addi:
              the buffer still guesses the jump, ID must fall through */
  li s1, 0
  li s2, 4
  li s3, 0
hop_loop:
hop:
  j hop_over                    /* patched into addi s1, s1, 16 */
  addi s1, s1, 1
hop_over:
  addi s2, s2, -1
  bnez s2, hop_loop
  bnez s3, hop_done
  EXPECT(s1, 0)
  la a0, hop
  li a1, 0x01048493             /* addi s1, s1, 16 */
  sw a1, 0(a0)
  fence.i
  li s3, 1
  li s2, 2
  j hop_loop
hop_done:
  EXPECT(s1, 34)
  j pass

patch2:
  li a1, 0
  ret

routine:
  addi a0, a0, 1
  ret
TEST_END

  .data
  .align 4
buffer: .zero 16
