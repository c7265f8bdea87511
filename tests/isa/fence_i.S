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
