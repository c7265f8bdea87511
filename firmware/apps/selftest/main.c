/* The board self-test: what to run first on a new board (upload it with the
 * bootloader). Each check prints PASS, FAIL or SKIP with what it saw, then a
 * summary line; the exit code is the number of failures.
 *   uart    a key typed within the wait comes back (SKIP: none typed)
 *   leds    each LED lit in turn (for the eye), then FIRE1 pressed within
 *           the wait (SKIP: not pressed)
 *   memory  external memory: data lines, address lines, byte lanes, then
 *           every word with two patterns (in simulation 1 MiB at each end)
 *   array   the UniCAIM block against the golden model (kept in external
 *           memory) over a seeded sequence of driver calls
 * On a board each wait is ten seconds; in simulation a tenth of one. */
#include <stdint.h>
#include <stdio.h>

#include "gpio.h"
#include "memtest.h"
#include "soc_regs.h"
#include "sysctl.h"
#include "timer.h"
#include "uart.h"
#include "ucm.h"
#include "ucm_check.h"

#define ARRAY_OPS 400

static unsigned passed, failed, skipped;

static void result(const char *name, const char *status, const char *detail) {
  printf("%-7s %s%s%s\n", name, status, *detail ? "  " : "", detail);
  if (status[0] == 'P') passed++;
  else if (status[0] == 'F') failed++;
  else skipped++;
}

static uint64_t wait_cycles(void) {
  return sysctl_is_sim() ? sysctl_clk_hz() / 10 : 10ull * sysctl_clk_hz();
}

static void check_uart(void) {
  printf("uart: type a key within %s\n", sysctl_is_sim() ? "0.1 s" : "10 s");
  const uint64_t end = timer_now() + wait_cycles();
  int c = -1;
  while (c < 0 && timer_now() < end) c = uart_try_getc();
  char detail[32];
  snprintf(detail, sizeof detail, "got 0x%02x", c & 0xFF);
  result("uart", c < 0 ? "SKIP" : "PASS", c < 0 ? "nothing typed" : detail);
}

static void check_leds_and_button(void) {
  for (unsigned i = 0; i < 8; i++) {
    gpio_write(1u << i);
    timer_delay_us(sysctl_is_sim() ? 10 : 250000);
  }
  gpio_write(0);
  printf("leds: lit one at a time, 0 to 7 (check by eye); press FIRE1 within %s\n",
         sysctl_is_sim() ? "0.1 s" : "10 s");
  gpio_take_edges();
  const uint64_t end = timer_now() + wait_cycles();
  int pressed = 0;
  while (!pressed && timer_now() < end) pressed = (gpio_read_inputs() & 1) || (gpio_take_edges() & 1);
  gpio_write(pressed ? 0xFF : 0);
  result("button", pressed ? "PASS" : "SKIP", pressed ? "FIRE1 seen" : "not pressed");
}

static unsigned reports;
static void report(uintptr_t addr, uint32_t wrote, uint32_t read) {
  if (reports++ < 8)
    printf("  at 0x%08lx: wrote 0x%08lx read 0x%08lx (bits 0x%08lx)\n", (unsigned long)addr, (unsigned long)wrote,
           (unsigned long)read, (unsigned long)(wrote ^ read));
}

static void check_memory(uint32_t bytes) {
  char detail[80];
  if (!bytes) {
    result("memory", "SKIP", "no external memory in this build");
    return;
  }
  volatile uint32_t *base = (volatile uint32_t *)EXT_BASE;
  const uint32_t span = sysctl_is_sim() ? (1u << 20) : bytes / 2;
  unsigned bad = memtest_data_lines(base, report);
  bad += memtest_address_lines(base, bytes, report);
  bad += memtest_byte_lanes(base, report);
  bad += memtest_words(base, span, 0x5E1F7E57u, report);
  bad += memtest_words(base + (bytes - span) / 4, span, 0x0B0A4D5u, report);
  snprintf(detail, sizeof detail, "%lu MiB at 0x%08lx, %s%s", (unsigned long)(bytes >> 20), (unsigned long)EXT_BASE,
           span * 2 == bytes ? "every word" : "lines and both ends", bad ? ", words wrong above" : "");
  result("memory", bad ? "FAIL" : "PASS", detail);
}

static void check_array(uint32_t ext_bytes) {
  static ucm_t hw, ref;
  static ucm_model_t model;
  if (!(SYSCTL_FEATURES & SYSCTL_FEATURES_UNICAIM_MASK)) {
    result("array", "SKIP", "no UniCAIM block in this build");
    return;
  }
  int err = ucm_open_mmio(&hw);
  if (err) {
    result("array", "FAIL", ucm_strerror(err));
    return;
  }
  const ucm_geom_t *g = &hw.geom;
  /* The golden model and the scratch live in external memory, after the
     memory test. */
  const size_t scratch = (size_t)g->slots * 2 * (sizeof(uint16_t) + sizeof(int32_t));
  if (ucm_model_bytes(g) + scratch > ext_bytes) {
    result("array", "SKIP", "no external memory for the golden model (test_ucm_driver_128k.elf checks the block)");
    return;
  }
  uint8_t *mem = (uint8_t *)EXT_BASE;
  int32_t *vals = (int32_t *)(mem + ucm_model_bytes(g));
  uint16_t *sels = (uint16_t *)(vals + 2 * g->slots);
  if (ucm_model_init(&model, g, mem) || ucm_open_model(&ref, &model)) {
    result("array", "FAIL", "the golden model refuses this geometry");
    return;
  }
  ucm_check_t chk = {&hw, &ref, &model, sels, sels + g->slots, vals, vals + g->slots, 2027, 0, 0};
  for (unsigned b = 0; b < g->banks; b++) {
    ucm_reset_bank(&hw, b);
    ucm_reset_bank(&ref, b);
  }
  ucm_clear_counters(&hw);
  ucm_clear_counters(&ref);
  ucm_check_ops(&chk, g->banks < 3 ? g->banks : 3, ARRAY_OPS);
  ucm_counters_t counters;
  ucm_check_counters(&chk, &counters);
  char detail[96];
  snprintf(detail, sizeof detail, "%lu x %lu x %lu, %u driver calls against the golden model%s",
           (unsigned long)g->banks, (unsigned long)g->slots, (unsigned long)g->dim, ARRAY_OPS,
           chk.failures ? ": mismatches above" : "");
  result("array", chk.failures ? "FAIL" : "PASS", detail);
}

int main(void) {
  const uint32_t ext = sysctl_ext_size();
  printf("UniCAIM SoC self-test: %lu MHz, RAM %lu KiB, external memory %lu MiB\n",
         (unsigned long)(sysctl_clk_hz() / 1000000), (unsigned long)(sysctl_ram_size() >> 10),
         (unsigned long)(ext >> 20));
  check_uart();
  check_leds_and_button();
  check_memory(ext);
  check_array(ext);
  printf("selftest: %u passed, %u failed, %u skipped\n", passed, failed, skipped);
  uart_flush();
  return (int)failed;
}
