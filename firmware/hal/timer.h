/* Machine timer: mtime counts clock cycles. */
#ifndef HAL_TIMER_H
#define HAL_TIMER_H

#include <stdint.h>

uint64_t timer_now(void);
/* Raise the timer interrupt once mtime reaches WHEN. */
void timer_set_compare(uint64_t when);
void timer_disable(void);
void timer_delay_us(uint32_t us);

#endif
