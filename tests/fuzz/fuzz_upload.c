/* libFuzzer target: the bootloader's upload protocol (boot_upload.c) fed
   arbitrary bytes as what the host sends, as boot_main runs it after the
   boot magic. Each byte read advances the clock one tick; the end of the
   input is silence, so every wait times out. Checked: nothing is written
   outside the RAM below the bootloader's stack and the external memory; an
   image starts only with a good CRC and its entry inside it, in RAM; every
   upload that returns was refused with a reason or loaded (LOADED). */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot_upload.h"
#include "crc32.h"
#include "soc_regs.h" /* RAM_BASE, EXT_BASE */

/* Smaller than any platform's: the fuzzer's memories. */
#define RAM_BYTES (64u * 1024u)
#define EXT_BYTES (16u * 1024u)

static uint8_t ram_bytes[RAM_BYTES], ext_bytes[EXT_BYTES];
static const uint8_t *input;
static size_t input_len, input_at;
static uint64_t clock_ticks;
static char said[256 + 2 * RAM_BYTES / 1024]; /* one upload's answers */
static size_t said_len;
static jmp_buf started;
static uint32_t started_entry;

static int get_byte(uint64_t deadline) {
  (void)deadline;
  clock_ticks++;
  return input_at < input_len ? input[input_at++] : -1;
}

static void put_char(char c) {
  if (said_len + 1 < sizeof said) said[said_len++] = c;
  said[said_len] = '\0';
}

static uint64_t now(void) { return clock_ticks; }

static uint8_t *ram(uint32_t addr) {
  if (addr >= EXT_BASE && addr - EXT_BASE < EXT_BYTES) return ext_bytes + (addr - EXT_BASE);
  if (addr < RAM_BASE || addr - RAM_BASE >= RAM_BYTES) abort();
  return ram_bytes + (addr - RAM_BASE);
}

static void start(uint32_t entry) {
  started_entry = entry;
  longjmp(started, 1);
}

static const boot_port_t port = {
    .get_byte = get_byte, .put_char = put_char, .now = now, .ram = ram, .start = start,
    .ram_base = RAM_BASE, .ram_bytes = RAM_BYTES, .ext_base = EXT_BASE, .ext_bytes = EXT_BYTES, .second = 100,
};

/* The header as sent: the image (LEN bytes at ADDR) must match its CRC. */
static void check_started(void) {
  const char *run = strstr(said, "RUN ");
  uint32_t addr = 0, len = 0;
  if (!strstr(said, "OK\r\n") || !run || sscanf(run + 4, "0x%*x %u", &len) != 1) abort();
  /* The last header the protocol took: find it in the input. */
  for (size_t i = input_at; i-- > 0;) {
    if (i + 20 <= input_len && !memcmp(input + i, BOOT_HEADER_MAGIC, 4)) {
      uint32_t w[4];
      memcpy(w, input + i + 4, sizeof w);
      if (w[1] != len || i + 20 + len != input_at) continue;
      addr = w[0];
      if (crc32_update(0, input + i + 20, len) != w[2] || w[3] != started_entry) abort();
      break;
    }
  }
  if (!addr || started_entry < addr || started_entry - addr >= len ||
      addr + len > RAM_BASE + RAM_BYTES - BOOT_STACK_RESERVE)
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input = data;
  input_len = size;
  input_at = 0;
  if (setjmp(started)) {
    check_started();
    return 0;
  }
  do {
    said_len = 0;
    said[0] = '\0';
    boot_receive(&port);
    /* A piece loaded, or a refusal naming its reason on one line. */
    const char *err = strstr(said, "ERR ");
    const char *loaded = strstr(said, "LOADED 0x");
    if (loaded ? !strstr(said, "OK\r\n") || err : !err || !strchr(err, '\n') || err[4] == '\r') abort();
  } while (boot_wait_for(&port, BOOT_MAGIC, 0));
  return 0;
}
