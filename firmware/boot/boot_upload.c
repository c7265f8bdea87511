#include "boot_upload.h"

#include "crc32.h"

void boot_put_str(const boot_port_t *p, const char *s) {
  while (*s) p->put_char(*s++);
}

void boot_put_hex(const boot_port_t *p, uint32_t v) {
  boot_put_str(p, "0x");
  for (int i = 28; i >= 0; i -= 4) p->put_char("0123456789abcdef"[(v >> i) & 15]);
}

static void put_dec(const boot_port_t *p, uint32_t v) {
  char buf[11];
  int n = 0;
  do {
    buf[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) p->put_char(buf[--n]);
}

static bool get_word(const boot_port_t *p, uint32_t *w) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) {
    int b = p->get_byte(p->now() + p->second);
    if (b < 0) return false;
    v |= (uint32_t)b << (8 * i);
  }
  *w = v;
  return true;
}

static void refuse(const boot_port_t *p, const char *reason) {
  boot_put_str(p, "ERR ");
  boot_put_str(p, reason);
  boot_put_str(p, "\r\n");
}

bool boot_wait_for(const boot_port_t *p, const char *magic, uint64_t deadline) {
  int matched = 0;
  while (matched < 4) {
    int b = p->get_byte(deadline);
    if (b < 0) return false;
    matched = (b == magic[matched]) ? matched + 1 : (b == magic[0]);
  }
  return true;
}

void boot_receive(const boot_port_t *p) {
  boot_put_str(p, "HDR\r\n");
  uint32_t addr, len, crc, entry;
  if (!boot_wait_for(p, BOOT_HEADER_MAGIC, p->now() + 5 * p->second) || !get_word(p, &addr) ||
      !get_word(p, &len) || !get_word(p, &crc) || !get_word(p, &entry)) {
    refuse(p, "timeout in header");
    return;
  }
  const uint32_t ram_end = p->ram_base + p->ram_bytes - BOOT_STACK_RESERVE;
  const bool load_only = entry == BOOT_NO_ENTRY;
  if ((addr & 3) || (!load_only && (entry & 3))) {
    refuse(p, "misaligned address or entry");
    return;
  }
  const bool in_ram = addr >= p->ram_base && addr < ram_end && len <= ram_end - addr;
  const bool in_ext = addr >= p->ext_base && addr - p->ext_base < p->ext_bytes && len <= p->ext_bytes - (addr - p->ext_base);
  if (len == 0 || (!in_ram && !in_ext)) {
    refuse(p, p->ext_bytes ? "image outside RAM and external memory" : "image outside RAM");
    return;
  }
  if (!load_only && (entry < addr || entry - addr >= len)) {
    refuse(p, "entry outside the image");
    return;
  }
  boot_put_str(p, "OK\r\n");
  uint64_t t0 = p->now();
  uint8_t *dst = p->ram(addr);
  for (uint32_t i = 0; i < len; i++) {
    int b = p->get_byte(p->now() + p->second);
    if (b < 0) {
      refuse(p, "timeout in data (truncated upload)");
      return;
    }
    dst[i] = (uint8_t)b;
    if ((i + 1) % BOOT_BLOCK_BYTES == 0 || i + 1 == len) p->put_char('K');
  }
  uint32_t cycles = (uint32_t)(p->now() - t0);
  if (crc32_update(0, dst, len) != crc) {
    refuse(p, "crc mismatch");
    return;
  }
  if (load_only) {
    boot_put_str(p, "\r\nLOADED ");
    boot_put_hex(p, addr);
  } else {
    boot_put_str(p, "\r\nRUN ");
    boot_put_hex(p, entry);
  }
  p->put_char(' ');
  put_dec(p, len);
  boot_put_str(p, " bytes ");
  put_dec(p, cycles);
  boot_put_str(p, " cycles\r\n");
  if (!load_only) p->start(entry);
}
