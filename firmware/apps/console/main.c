/* The interactive UART console: system information, counters, LEDs.
   The demos grow from this command table. */
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "gpio.h"
#include "irq.h"
#include "timer.h"
#include "uart.h"

static int cmd_echo(int argc, char **argv) {
  for (int i = 1; i < argc; i++) printf(i > 1 ? " %s" : "%s", argv[i]);
  printf("\n");
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
    CONSOLE_CMD_HELP,
    {"echo", "<words...>", "print the words", cmd_echo},
    {"led", "<0..255>", "set the LEDs, show the buttons", cmd_led},
    {"sleep", "<ms>", "wait on the timer", cmd_sleep},
    CONSOLE_CMDS_SYSTEM,
    {NULL, NULL, NULL, NULL},
};

int main(void) {
  uart_rx_buffer_enable();
  irq_global_enable();
  printf("\nUniCAIM SoC console. Type 'help'.\n");
  console_run(commands);
}
