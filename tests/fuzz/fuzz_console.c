/* libFuzzer target: the console's command-line handling (split, lookup,
   number parsing, dispatch) on arbitrary bytes. The commands here parse
   their arguments like the firmware's do and record what they accepted, so
   that a bad line can be checked to have changed nothing. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_parse.h"
#include "console.h"

static uint32_t leds;
static int32_t steps = 256;

static int cmd_led(int argc, char **argv) {
  uint32_t v;
  if (argc != 2 || !cmd_parse_u32(argv[1], &v) || v > 0xff) return -1;
  leds = v;
  return 0;
}

static int cmd_steps(int argc, char **argv) {
  int32_t v;
  if (argc != 2 || !cmd_parse_i32_range(argv[1], 1, 512, &v)) return -1;
  steps = v;
  return 0;
}

static int cmd_echo(int argc, char **argv) {
  size_t total = 0;
  for (int i = 1; i < argc; i++) total += strlen(argv[i]);
  return total > CONSOLE_LINE_MAX ? -1 : 0;
}

static const cmd_t table[] = {
    {"led", "<v>", "", cmd_led},
    {"steps", "<n>", "", cmd_steps},
    {"echo", "<w...>", "", cmd_echo},
    {NULL, NULL, NULL, NULL},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char line[CONSOLE_LINE_MAX];
  size_t n = size < sizeof line - 1 ? size : sizeof line - 1;
  memcpy(line, data, n);
  line[n] = '\0';
  uint32_t leds_before = leds;
  int32_t steps_before = steps;
  int rc = console_execute(table, line);
  /* A refused line leaves the state exactly as it was. */
  if (rc != 0 && (leds != leds_before || steps != steps_before)) abort();
  if (leds > 0xff || steps < 1 || steps > 512) abort();
  return 0;
}
