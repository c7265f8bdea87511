#include "iss_soc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soc_regs.h"

enum { PERIPH_WINDOW = 4096, PERIPH_COUNT = 5 }; /* UART, TIMER, GPIO, SYSCTL, DRAMCTL (soc_top) */

static bool in_region(uint32_t addr, uint32_t base, uint32_t bytes) { return addr - base < bytes; }

int iss_soc_init(iss_soc_t *s, const iss_config_t *cfg, char *why, int why_len) {
  memset(s, 0, sizeof *s);
  s->cfg = *cfg;
  s->rom = calloc(cfg->rom_bytes, 1);
  s->ram = calloc(cfg->ram_bytes, 1);
  s->ext = cfg->ext_bytes ? calloc(cfg->ext_bytes, 1) : NULL;
  if (!s->rom || !s->ram || (cfg->ext_bytes && !s->ext)) {
    snprintf(why, (size_t)why_len, "out of memory for the SoC's memories");
    return -1;
  }
  s->mtimecmp = UINT64_MAX;
  s->uart_divisor = cfg->clk_hz / cfg->baud;
  if (cfg->array) {
    s->array_mem = malloc(ucm_model_bytes(cfg->array));
    if (!s->array_mem || ucm_model_init(&s->array, cfg->array, s->array_mem)) {
      snprintf(why, (size_t)why_len, "the array's golden model refuses its geometry (or memory ran out)");
      return -1;
    }
    s->has_array = true;
  }
  return 0;
}

void iss_soc_free(iss_soc_t *s) {
  free(s->rom);
  free(s->ram);
  free(s->ext);
  free(s->array_mem);
}

/* The memory holding ADDR, and its offset there; NULL where none is. */
static uint8_t *memory_at(iss_soc_t *s, uint32_t addr) {
  if (in_region(addr, ROM_BASE, s->cfg.rom_bytes)) return s->rom + (addr - ROM_BASE);
  if (in_region(addr, RAM_BASE, s->cfg.ram_bytes)) return s->ram + (addr - RAM_BASE);
  if (in_region(addr, EXT_BASE, s->cfg.ext_bytes)) return s->ext + (addr - EXT_BASE);
  return NULL;
}

int iss_soc_poke(iss_soc_t *s, uint32_t addr, uint8_t byte) {
  uint8_t *m = memory_at(s, addr);
  if (!m) return -1;
  *m = byte;
  return 0;
}

int iss_fetch(iss_soc_t *s, uint32_t addr, uint32_t *word) {
  uint8_t *m = memory_at(s, addr);
  if (!m) return -1;
  memcpy(word, m, 4);
  return 0;
}

/* ---------------------------------------------------------------- devices */

static uint32_t uart_status(const iss_soc_t *s) {
  return UART_STATUS_TX_IDLE_MASK | (s->rx_count ? UART_STATUS_RX_VALID_MASK : 0) |
         (s->rx_count == ISS_UART_FIFO ? UART_STATUS_RX_FULL_MASK : 0) |
         ((uint32_t)s->rx_count << UART_STATUS_RX_LEVEL_LSB);
}

static int uart_access(iss_soc_t *s, uint32_t off, bool write, uint32_t wdata, uint32_t *rdata) {
  switch (off) {
    case UART_DATA_OFFSET:
      if (write) {
        s->uart_tx(s->uart_ctx, (uint8_t)wdata);
      } else if (!s->rx_count) {
        *rdata = UART_DATA_RX_EMPTY_MASK;
      } else {
        *rdata = s->rx[s->rx_head];
        s->rx_head = (s->rx_head + 1) % ISS_UART_FIFO;
        s->rx_count--;
      }
      return 0;
    case UART_STATUS_OFFSET: /* the sticky errors never rise here: writing 1 clears nothing */
      *rdata = uart_status(s);
      return 0;
    case UART_DIVISOR_OFFSET:
      if (write) s->uart_divisor = (wdata & UART_DIVISOR_CYCLES_MASK) < 4 ? 4 : (wdata & UART_DIVISOR_CYCLES_MASK);
      *rdata = s->uart_divisor << UART_DIVISOR_CYCLES_LSB;
      return 0;
    case UART_IRQ_ENABLE_OFFSET:
      if (write) {
        s->uart_irq_rx = wdata & UART_IRQ_ENABLE_RX_VALID_MASK;
        s->uart_irq_tx = wdata & UART_IRQ_ENABLE_TX_EMPTY_MASK;
      }
      *rdata = (s->uart_irq_rx ? UART_IRQ_ENABLE_RX_VALID_MASK : 0) |
               (s->uart_irq_tx ? UART_IRQ_ENABLE_TX_EMPTY_MASK : 0);
      return 0;
  }
  return -1;
}

static int timer_access(iss_soc_t *s, uint32_t off, bool write, uint32_t wdata, uint32_t *rdata) {
  uint64_t mtime = iss_mtime(s);
  switch (off) {
    case TIMER_MTIME_LO_OFFSET:
      if (write) s->mtime_offset = ((mtime & ~0xffffffffull) | wdata) - s->cycle;
      *rdata = (uint32_t)mtime;
      return 0;
    case TIMER_MTIME_HI_OFFSET:
      if (write) s->mtime_offset = (((uint64_t)wdata << 32) | (uint32_t)mtime) - s->cycle;
      *rdata = (uint32_t)(mtime >> 32);
      return 0;
    case TIMER_MTIMECMP_LO_OFFSET:
      if (write) s->mtimecmp = (s->mtimecmp & ~0xffffffffull) | wdata;
      *rdata = (uint32_t)s->mtimecmp;
      return 0;
    case TIMER_MTIMECMP_HI_OFFSET:
      if (write) s->mtimecmp = ((uint64_t)wdata << 32) | (uint32_t)s->mtimecmp;
      *rdata = (uint32_t)(s->mtimecmp >> 32);
      return 0;
  }
  return -1;
}

/* The inputs are tied low: no input changes, so nothing becomes pending. */
static int gpio_access(iss_soc_t *s, uint32_t off, bool write, uint32_t wdata, uint32_t *rdata) {
  switch (off) {
    case GPIO_OUT_OFFSET:
      if (write) s->gpio_out = wdata & 0xff;
      *rdata = s->gpio_out;
      return 0;
    case GPIO_IN_OFFSET:
    case GPIO_IRQ_PENDING_OFFSET:
      *rdata = 0;
      return 0;
    case GPIO_IRQ_ENABLE_OFFSET:
      if (write) s->gpio_irq_enable = wdata & 0xff;
      *rdata = s->gpio_irq_enable;
      return 0;
  }
  return -1;
}

static int sysctl_access(iss_soc_t *s, uint32_t off, bool write, uint32_t wdata, uint32_t *rdata) {
  const iss_config_t *c = &s->cfg;
  const uint32_t features = SYSCTL_FEATURES_SIM_MASK | (s->has_array ? SYSCTL_FEATURES_UNICAIM_MASK : 0) |
                            (c->ext_bytes ? SYSCTL_FEATURES_EXT_MASK : 0);
  *rdata = 0;
  switch (off) {
    case SYSCTL_CLK_HZ_OFFSET: *rdata = c->clk_hz; break;
    case SYSCTL_RAM_SIZE_OFFSET: *rdata = c->ram_bytes; break;
    case SYSCTL_ROM_SIZE_OFFSET: *rdata = c->rom_bytes; break;
    case SYSCTL_FEATURES_OFFSET: *rdata = features; break;
    case SYSCTL_BAUD_OFFSET: *rdata = c->baud; break;
    case SYSCTL_EXT_SIZE_OFFSET: *rdata = c->ext_bytes; break;
    case SYSCTL_DCACHE_HITS_OFFSET:
    case SYSCTL_DCACHE_MISSES_OFFSET: break; /* no cache */
    case SYSCTL_EXIT_OFFSET:
      s->exit_valid = true;
      s->exit_code = wdata;
      break;
    case SYSCTL_IRQ_PENDING_OFFSET: *rdata = iss_irq_sources(s); break;
    case SYSCTL_IRQ_ENABLE_OFFSET:
      if (write) s->irq_enable = wdata & 0xf;
      *rdata = s->irq_enable;
      break;
    case SYSCTL_SOFT_IRQ_OFFSET:
      if (write) s->soft_irq = wdata & SYSCTL_SOFT_IRQ_RAISE_MASK;
      *rdata = s->soft_irq ? SYSCTL_SOFT_IRQ_RAISE_MASK : 0;
      break;
    case SYSCTL_SCRATCH_OFFSET:
      if (write) s->scratch = wdata;
      *rdata = s->scratch;
      break;
    case SYSCTL_DCACHE_LINE_OFFSET: *rdata = c->ext_bytes ? 32 : 0; break; /* soc_top's DcacheLineBytes */
    default: return -1;
  }
  return 0;
}

typedef int (*device_fn)(iss_soc_t *s, uint32_t off, bool write, uint32_t wdata, uint32_t *rdata);

/* A peripheral register access at ADDR (4 KiB windows from PERIPH_BASE);
   the registers the regmap marks read-only or write-only refuse the other
   direction. DRAMCTL (window 4) answers every access with an error: there
   is no LiteDRAM here. */
static int periph_access(iss_soc_t *s, uint32_t addr, bool write, uint32_t wdata, uint32_t *rdata) {
  static const struct {
    device_fn fn;
    uint32_t read_only, write_only;
  } devices[PERIPH_COUNT] = {
      {uart_access, UART_READ_ONLY, UART_WRITE_ONLY},
      {timer_access, TIMER_READ_ONLY, TIMER_WRITE_ONLY},
      {gpio_access, GPIO_READ_ONLY, GPIO_WRITE_ONLY},
      {sysctl_access, SYSCTL_READ_ONLY, SYSCTL_WRITE_ONLY},
      {0, 0, 0},
  };
  const unsigned index = (addr - PERIPH_BASE) / PERIPH_WINDOW, off = addr % PERIPH_WINDOW;
  if (!devices[index].fn) return -1;
  if (off < 128 && (off & 3) == 0 &&
      (((write ? devices[index].read_only : devices[index].write_only) >> (off / 4)) & 1))
    return -1;
  uint32_t ignored;
  return devices[index].fn(s, off, write, wdata, rdata ? rdata : &ignored);
}

/* ---------------------------------------------------------------- the data bus */

static uint32_t lanes_of(int bytes, uint32_t value) {
  return bytes == 1 ? (value & 0xff) * 0x01010101u : bytes == 2 ? (value & 0xffff) * 0x00010001u : value;
}

int iss_load(iss_soc_t *s, uint32_t addr, int bytes, uint32_t *value) {
  const uint8_t *m = memory_at(s, addr);
  if (m) {
    uint32_t v = 0;
    memcpy(&v, m, (size_t)bytes);
    *value = v;
    return 0;
  }
  uint32_t word;
  if (in_region(addr, PERIPH_BASE, PERIPH_COUNT * PERIPH_WINDOW)) {
    if (periph_access(s, addr, false, 0, &word)) return -1;
  } else if (s->has_array && in_region(addr, ARRAY_BASE, ARRAY_SIZE)) {
    if (ucm_model_read(&s->array, addr - ARRAY_BASE, &word)) return -1;
  } else {
    return -1;
  }
  const uint32_t v = word >> (8 * (addr & 3));
  *value = bytes == 4 ? v : v & ((1u << (8 * bytes)) - 1);
  return 0;
}

/* The tohost word of the riscv-tests protocol: (case << 1) | 1 ends the run. */
static void watch_tohost(iss_soc_t *s, uint32_t addr, uint32_t wdata) {
  if (s->cfg.tohost && addr == s->cfg.tohost && (wdata & 1)) {
    s->exit_valid = true;
    s->exit_code = wdata >> 1;
  }
}

int iss_store(iss_soc_t *s, uint32_t addr, int bytes, uint32_t value) {
  const uint32_t wdata = lanes_of(bytes, value);
  watch_tohost(s, addr, wdata);
  if (!in_region(addr, ROM_BASE, s->cfg.rom_bytes)) {
    uint8_t *m = memory_at(s, addr);
    if (m) {
      memcpy(m, &value, (size_t)bytes);
      return 0;
    }
  }
  if (in_region(addr, PERIPH_BASE, PERIPH_COUNT * PERIPH_WINDOW)) return periph_access(s, addr, true, wdata, 0);
  if (s->has_array && in_region(addr, ARRAY_BASE, ARRAY_SIZE))
    return ucm_model_write(&s->array, addr - ARRAY_BASE, wdata, ((1u << bytes) - 1) << (addr & 3));
  return -1;
}

int iss_cmo(iss_soc_t *s, uint32_t addr) {
  const bool mapped = memory_at(s, addr) || in_region(addr, PERIPH_BASE, PERIPH_COUNT * PERIPH_WINDOW) ||
                      (s->has_array && in_region(addr, ARRAY_BASE, ARRAY_SIZE));
  return mapped ? 0 : -1;
}

unsigned iss_uart_room(const iss_soc_t *s) { return ISS_UART_FIFO - s->rx_count; }

void iss_uart_receive(iss_soc_t *s, uint8_t byte) {
  if (s->rx_count == ISS_UART_FIFO) return;
  s->rx[(s->rx_head + s->rx_count) % ISS_UART_FIFO] = byte;
  s->rx_count++;
}
