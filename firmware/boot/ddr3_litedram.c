#include "ddr3.h"

#include "litedram_init.h"
#include "soc_regs.h"
#include "timer.h"

/* LiteX's cdelay(i) is a loop of i iterations on a CPU at the controller's
   clock (100 MHz): at least i cycles of it. */
void cdelay(int i) { timer_delay_us(((uint32_t)i + 99u) / 100u); }

/* The initialisation for the core the SoC has: the board's PHY or
   LiteDRAM's model of it (their CSR maps differ). */
dramctl_status_t boot_ddr3_init(void) {
  return (DRAMCTL_STATUS & DRAMCTL_STATUS_PHY_MODEL_MASK) ? litedram_init_model() : litedram_init_board();
}
