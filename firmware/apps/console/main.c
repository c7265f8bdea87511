/* The interactive UART console: system information, counters, LEDs.
   The demos grow from this command table. */
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "csr.h"
#include "gpio.h"
#include "irq.h"
#include "soc_regs.h"
#include "sysctl.h"
#include "timer.h"
#include "uart.h"

static int cmd_echo(int argc, char **argv) {
  for (int i = 1; i < argc; i++) printf(i > 1 ? " %s" : "%s", argv[i]);
  printf("\n");
  return 0;
}

static int cmd_info(int argc, char **argv) {
  (void)argc;
  (void)argv;
  uint32_t misa = CSR_READ(misa);
  printf("cpu      RV32%s%s, mimpid %lu, hart %lu\n", (misa & (1u << 8)) ? "I" : "?",
         (misa & (1u << 12)) ? "M" : "", (unsigned long)CSR_READ(mimpid),
         (unsigned long)CSR_READ(mhartid));
  printf("clock    %lu Hz\n", (unsigned long)SYSCTL_CLK_HZ);
  printf("ram      %lu KiB at 0x%08x\n", (unsigned long)(SYSCTL_RAM_SIZE / 1024), RAM_BASE);
  printf("rom      %lu KiB at 0x%08x\n", (unsigned long)(SYSCTL_ROM_SIZE / 1024), ROM_BASE);
  printf("uart     %lu baud\n", (unsigned long)SYSCTL_BAUD);
  printf("platform %s%s\n", sysctl_is_sim() ? "simulation" : "board",
         (SYSCTL_FEATURES & SYSCTL_FEATURES_UNICAIM_MASK) ? ", UniCAIM block" : "");
  return 0;
}

static int cmd_counters(int argc, char **argv) {
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

static int cmd_led(int argc, char **argv) {
  uint32_t value;
  if (argc != 2 || !cmd_parse_u32(argv[1], &value) || value > 0xff) {
    printf("error: usage: led <0..255>\n");
    return -1;
  }
  gpio_write(value);
  printf("leds 0x%02lx, buttons 0x%02lx\n", (unsigned long)gpio_read_outputs(),
         (unsigned long)gpio_read_inputs());
  return 0;
}

static int cmd_sleep(int argc, char **argv) {
  int32_t ms;
  if (argc != 2 || !cmd_parse_i32_range(argv[1], 0, 10000, &ms)) {
    printf("error: usage: sleep <0..10000 ms>\n");
    return -1;
  }
  timer_delay_us((uint32_t)ms * 1000u);
  return 0;
}

static const cmd_t commands[] = {
    {"help", "", "this list", console_cmd_help},
    {"echo", "<words...>", "print the words", cmd_echo},
    {"info", "", "system information", cmd_info},
    {"counters", "", "cycle/instret/time and CPI since last call", cmd_counters},
    {"led", "<0..255>", "set the LEDs, show the buttons", cmd_led},
    {"sleep", "<ms>", "wait on the timer", cmd_sleep},
    {"exit", "[code]", "end the program (simulation: exit code)", console_cmd_exit},
    {NULL, NULL, NULL, NULL},
};

int main(void) {
  uart_rx_buffer_enable();
  irq_global_enable();
  printf("\nUniCAIM SoC console. Type 'help'.\n");
  console_run(commands);
}
