/* The system commands every console offers: what the SoC is, and its
   cycle, instruction and time counters. Apart from console.c, which the
   host fuzzes without the hardware. */
#include <stdio.h>

#include "console.h"
#include "csr.h"
#include "dcache.h"
#include "soc_regs.h"
#include "sysctl.h"

int console_cmd_info(int argc, char **argv) {
  (void)argc;
  (void)argv;
  uint32_t misa = CSR_READ(misa);
  printf("cpu      RV32%s%s, mimpid %lu, hart %lu\n", (misa & (1u << 8)) ? "I" : "?",
         (misa & (1u << 12)) ? "M" : "", (unsigned long)CSR_READ(mimpid),
         (unsigned long)CSR_READ(mhartid));
  printf("clock    %lu Hz\n", (unsigned long)SYSCTL_CLK_HZ);
  printf("ram      %lu KiB at 0x%08x\n", (unsigned long)(SYSCTL_RAM_SIZE / 1024), RAM_BASE);
  printf("rom      %lu KiB at 0x%08x\n", (unsigned long)(SYSCTL_ROM_SIZE / 1024), ROM_BASE);
  if (sysctl_ext_size()) {
    printf("ext      %lu MiB at 0x%08x, data cache of %u-byte lines\n", (unsigned long)(sysctl_ext_size() >> 20),
           EXT_BASE, dcache_line_bytes());
  }
  printf("uart     %lu baud\n", (unsigned long)SYSCTL_BAUD);
  printf("platform %s%s\n", sysctl_is_sim() ? "simulation" : "board",
         (SYSCTL_FEATURES & SYSCTL_FEATURES_UNICAIM_MASK) ? ", UniCAIM block" : "");
  return 0;
}

int console_cmd_counters(int argc, char **argv) {
  (void)argc;
  (void)argv;
  static uint64_t last_cycle, last_instret;
  uint64_t cycle = read_cycle(), instret = read_instret(), time = read_time();
  uint64_t dc = cycle - last_cycle, di = instret - last_instret;
  printf("cycle    %llu\n", (unsigned long long)cycle);
  printf("instret  %llu\n", (unsigned long long)instret);
  printf("time     %llu (%llu us)\n", (unsigned long long)time,
         (unsigned long long)(time / (SYSCTL_CLK_HZ / 1000000u)));
  /* CPI as a fixed-point ratio: no floating point in the firmware. */
  uint64_t cpi_milli = di ? dc * 1000 / di : 0;
  printf("since last: %llu cycles, %llu instructions, CPI %llu.%03llu\n", (unsigned long long)dc,
         (unsigned long long)di, (unsigned long long)(cpi_milli / 1000),
         (unsigned long long)(cpi_milli % 1000));
  last_cycle = cycle;
  last_instret = instret;
  return 0;
}
