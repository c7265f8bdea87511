/* The smallest complete program: stdio on the UART, counters, clean exit. */
#include <stdio.h>

#include "csr.h"
#include "sysctl.h"

int main(void) {
  printf("Hello from the UniCAIM SoC (RV32IM at %lu Hz).\n", (unsigned long)sysctl_clk_hz());
  printf("cycle=%llu instret=%llu\n", (unsigned long long)read_cycle(),
         (unsigned long long)read_instret());
  return 0;
}
