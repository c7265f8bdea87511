/* UART bootloader in the boot ROM.

   After reset it announces itself ("UCBOOT 1 ...") and waits briefly for an
   upload; with none it starts the image already in RAM (from the bitstream).
   An upload (tools/uartctl.py upload) is:
     host: "UCB1" (repeated until answered)   -> boot: "HDR"
     host: "UCHD", load address, length, CRC-32, entry (4 x uint32, little
           endian; bytes before "UCHD" are skipped)
                                       -> boot: "OK" or "ERR <reason>"
     host: the image in blocks of 1024 bytes, each acknowledged with 'K'
                                       -> boot: "RUN <entry> ..." or "ERR <reason>"
   A bad header (misaligned, outside RAM, overlapping the bootloader's stack,
   entry outside the image), a stall of more than a second (a fifth in the
   simulator), or a CRC mismatch
   is refused with a message, and the image is never started; the bootloader
   then waits for another upload. */
#include <stdbool.h>
#include <stdint.h>

#include "crc32.h"
#include "soc_regs.h"
#include "timer.h"

#define BOOT_MAGIC "UCB1"
#define HEADER_MAGIC "UCHD"
#define BLOCK_BYTES 1024u
#define STACK_RESERVE 4096u /* top of RAM: the bootloader's stack */

void boot_main(void) __attribute__((noreturn));

static void put_char(char c) {
  while (UART_STATUS & UART_STATUS_TX_FULL_MASK) {
  }
  UART_DATA = (uint8_t)c;
}

static void put_str(const char *s) {
  while (*s) put_char(*s++);
}

static void put_hex(uint32_t v) {
  put_str("0x");
  for (int i = 28; i >= 0; i -= 4) put_char("0123456789abcdef"[(v >> i) & 15]);
}

static void put_dec(uint32_t v) {
  char buf[11];
  int n = 0;
  do {
    buf[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) put_char(buf[--n]);
}

/* A byte, or -1 when none arrives before DEADLINE (0 = wait forever). */
static int get_byte(uint64_t deadline) {
  for (;;) {
    uint32_t d = UART_DATA;
    if (!(d & UART_DATA_RX_EMPTY_MASK)) return (int)(d & UART_DATA_BYTE_MASK);
    if (deadline && timer_now() > deadline) return -1;
  }
}

static bool get_word(uint32_t *w, uint64_t ticks) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) {
    int b = get_byte(timer_now() + ticks);
    if (b < 0) return false;
    v |= (uint32_t)b << (8 * i);
  }
  *w = v;
  return true;
}

static void refuse(const char *reason) {
  put_str("ERR ");
  put_str(reason);
  put_str("\r\n");
}

static void start(uint32_t entry) __attribute__((noreturn));
static void start(uint32_t entry) {
  while (!(UART_STATUS & UART_STATUS_TX_IDLE_MASK)) {
  }
  /* fence.i, spelled out: -march=rv32im_zicsr has no Zifencei mnemonic. */
  __asm__ volatile(".insn i 0x0f, 1, x0, x0, 0" ::: "memory");
  ((void (*)(void))entry)();
  for (;;) {
  }
}

/* Waits for MAGIC until DEADLINE (0 = forever); false on timeout. */
static bool wait_for(const char *magic, uint64_t deadline) {
  int matched = 0;
  while (matched < 4) {
    int b = get_byte(deadline);
    if (b < 0) return false;
    matched = (b == magic[matched]) ? matched + 1 : (b == magic[0]);
  }
  return true;
}

/* One upload after the magic; returns only when it is refused. */
static void receive(uint64_t second) {
  put_str("HDR\r\n");
  uint32_t addr, len, crc, entry;
  if (!wait_for(HEADER_MAGIC, timer_now() + 5 * second) || !get_word(&addr, second) ||
      !get_word(&len, second) || !get_word(&crc, second) || !get_word(&entry, second)) {
    refuse("timeout in header");
    return;
  }
  const uint32_t ram_end = RAM_BASE + SYSCTL_RAM_SIZE - STACK_RESERVE;
  if ((addr & 3) || (entry & 3)) {
    refuse("misaligned address or entry");
    return;
  }
  if (len == 0 || addr < RAM_BASE || addr >= ram_end || len > ram_end - addr) {
    refuse("image outside RAM");
    return;
  }
  if (entry < addr || entry - addr >= len) {
    refuse("entry outside the image");
    return;
  }
  put_str("OK\r\n");
  uint64_t t0 = timer_now();
  uint8_t *dst = (uint8_t *)addr;
  for (uint32_t i = 0; i < len; i++) {
    int b = get_byte(timer_now() + second);
    if (b < 0) {
      refuse("timeout in data (truncated upload)");
      return;
    }
    dst[i] = (uint8_t)b;
    if ((i + 1) % BLOCK_BYTES == 0 || i + 1 == len) put_char('K');
  }
  uint32_t cycles = (uint32_t)(timer_now() - t0);
  if (crc32_update(0, dst, len) != crc) {
    refuse("crc mismatch");
    return;
  }
  put_str("\r\nRUN ");
  put_hex(entry);
  put_char(' ');
  put_dec(len);
  put_str(" bytes ");
  put_dec(cycles);
  put_str(" cycles\r\n");
  start(entry);
}

void boot_main(void) {
  /* The time unit of every wait: a second on a board, a fifth of one in the
     simulator (whose clock runs about ten times slower than real time). */
  const uint64_t second = (SYSCTL_FEATURES & SYSCTL_FEATURES_SIM_MASK) ? SYSCTL_CLK_HZ / 5 : SYSCTL_CLK_HZ;
  const uint64_t window = second;
  put_str("\r\nUCBOOT 1 ram ");
  put_hex(RAM_BASE);
  put_char('+');
  put_hex(SYSCTL_RAM_SIZE);
  put_str(" waiting\r\n");
  if (!wait_for(BOOT_MAGIC, timer_now() + window)) {
    put_str("BOOT ");
    put_hex(RAM_BASE);
    put_str("\r\n");
    start(RAM_BASE);
  }
  for (;;) {
    receive(second);
    wait_for(BOOT_MAGIC, 0); /* after a refusal: only a new upload, never the old RAM */
  }
}
