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
   An image may go to RAM or to external memory (sysctl EXT_SIZE; code there
   runs through the instruction cache, fence.i before the jump; LiteDRAM's
   is opened first, "DDR3 ok", and left out after "DDR3 FAIL <reason>");
   a program in pieces sends each but the last with entry 0xFFFFFFFF, which
   is answered "LOADED <address> ..." and followed by the next upload.
   A bad header (misaligned, outside RAM, overlapping the bootloader's stack,
   entry outside the image), a stall of more than a second (a fifth in the
   simulator), or a CRC mismatch
   is refused with a message, and the image is never started; the bootloader
   then waits for another upload. The protocol is boot_upload.c; this file
   is the hardware under it. */
#include <stdbool.h>
#include <stdint.h>

#include "boot_upload.h"
#include "ddr3.h"
#include "icache.h"
#include "soc_regs.h"
#include "timer.h"

void boot_main(void) __attribute__((noreturn));

static void put_char(char c) {
  while (UART_STATUS & UART_STATUS_TX_FULL_MASK) {
  }
  UART_DATA = (uint8_t)c;
}

/* A byte, or -1 when none arrives before DEADLINE (0 = wait forever). */
static int get_byte(uint64_t deadline) {
  for (;;) {
    uint32_t d = UART_DATA;
    if (!(d & UART_DATA_RX_EMPTY_MASK)) return (int)(d & UART_DATA_BYTE_MASK);
    if (deadline && timer_now() > deadline) return -1;
  }
}

static uint8_t *ram(uint32_t addr) { return (uint8_t *)addr; }

static void start(uint32_t entry) __attribute__((noreturn));
static void start(uint32_t entry) {
  while (!(UART_STATUS & UART_STATUS_TX_IDLE_MASK)) {
  }
  /* Receive errors so far were the link's (a byte cut by reset, noise before
     the handshake), not the program's input. */
  UART_STATUS = UART_STATUS_RX_OVERRUN_MASK | UART_STATUS_FRAME_ERROR_MASK;
  icache_sync();
  ((void (*)(void))entry)();
  for (;;) {
  }
}

void boot_main(void) {
  uint32_t ext_bytes = SYSCTL_FEATURES & SYSCTL_FEATURES_EXT_MASK ? SYSCTL_EXT_SIZE : 0;
  const dramctl_status_t dram = dramctl_present() ? boot_ddr3_init() : DRAMCTL_OK;
  if (dram != DRAMCTL_OK) ext_bytes = 0;
  /* The time unit of every wait: a second on a board, a fifth of one in the
     simulator (whose clock runs about ten times slower than real time). */
  const boot_port_t port = {
      .get_byte = get_byte,
      .put_char = put_char,
      .now = timer_now,
      .ram = ram,
      .start = start,
      .ram_base = RAM_BASE,
      .ram_bytes = SYSCTL_RAM_SIZE,
      .ext_base = EXT_BASE,
      .ext_bytes = ext_bytes,
      .second = (SYSCTL_FEATURES & SYSCTL_FEATURES_SIM_MASK) ? SYSCTL_CLK_HZ / 5 : SYSCTL_CLK_HZ,
  };
  if (dramctl_present()) {
    boot_put_str(&port, dram == DRAMCTL_OK ? "\r\nDDR3 ok" : "\r\nDDR3 FAIL ");
    if (dram != DRAMCTL_OK) boot_put_str(&port, dramctl_strerror(dram));
  }
  boot_put_str(&port, "\r\nUCBOOT 1 ram ");
  boot_put_hex(&port, RAM_BASE);
  put_char('+');
  boot_put_hex(&port, SYSCTL_RAM_SIZE);
  boot_put_str(&port, " waiting\r\n");
  if (!boot_wait_for(&port, BOOT_MAGIC, timer_now() + port.second)) {
    boot_put_str(&port, "BOOT ");
    boot_put_hex(&port, RAM_BASE);
    boot_put_str(&port, "\r\n");
    start(RAM_BASE);
  }
  for (;;) {
    boot_receive(&port);
    boot_wait_for(&port, BOOT_MAGIC, 0); /* after a refusal or a piece: only a new upload, never the old RAM */
  }
}
