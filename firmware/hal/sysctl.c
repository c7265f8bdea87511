#include "sysctl.h"

#include "soc_regs.h"
#include "uart.h"

uint32_t sysctl_clk_hz(void) { return SYSCTL_CLK_HZ; }
uint32_t sysctl_ram_size(void) { return SYSCTL_RAM_SIZE; }
uint32_t sysctl_ext_size(void) { return (SYSCTL_FEATURES & SYSCTL_FEATURES_EXT_MASK) ? SYSCTL_EXT_SIZE : 0; }
bool sysctl_is_sim(void) { return SYSCTL_FEATURES & SYSCTL_FEATURES_SIM_MASK; }

void sysctl_exit(int code) {
  uart_flush();
  SYSCTL_EXIT = (uint32_t)code;
  for (;;) {
    __asm__ volatile("wfi");
  }
}
