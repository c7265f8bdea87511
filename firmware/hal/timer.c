#include "timer.h"

#include "soc_regs.h"

uint64_t timer_now(void) {
  uint32_t hi, lo;
  do {
    hi = TIMER_MTIME_HI;
    lo = TIMER_MTIME_LO;
  } while (hi != TIMER_MTIME_HI);
  return ((uint64_t)hi << 32) | lo;
}

void timer_set_compare(uint64_t when) {
  /* No spurious interrupt while the halves are written one at a time. */
  TIMER_MTIMECMP_HI = 0xffffffffu;
  TIMER_MTIMECMP_LO = (uint32_t)when;
  TIMER_MTIMECMP_HI = (uint32_t)(when >> 32);
}

void timer_disable(void) {
  TIMER_MTIMECMP_HI = 0xffffffffu;
  TIMER_MTIMECMP_LO = 0xffffffffu;
}

void timer_delay_us(uint32_t us) {
  uint64_t end = timer_now() + (uint64_t)us * (SYSCTL_CLK_HZ / 1000000u);
  while (timer_now() < end) {
  }
}
