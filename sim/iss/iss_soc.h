/* The SoC around the functional simulator's hart: the memories and the
   devices at their regmap.toml addresses, with the behaviour docs/soc/
   gives each (the array block is its golden model, ucm_model.c). What a
   functional model leaves out: the caches (their counters read 0, cbo.*
   is done at once), the matrix-vector unit and LiteDRAM (FEATURES says
   they are absent, so the firmware takes its software paths), UART bit
   timing (a byte written leaves at once; the receive FIFO fills from the
   host as it has room) and every wait state: one instruction, one cycle. */
#ifndef ISS_SOC_H
#define ISS_SOC_H

#include <stdbool.h>
#include <stdint.h>

#include "soc_regs.h"
#include "ucm_model.h"

enum { ISS_UART_FIFO = 32 };

typedef struct {
  uint32_t clk_hz, baud;
  uint32_t rom_bytes, ram_bytes, ext_bytes; /* ext 0: none */
  const ucm_geom_t *array;                  /* NULL: no array block */
  uint32_t tohost;                          /* riscv-tests' tohost word (0: not watched) */
} iss_config_t;

typedef struct {
  iss_config_t cfg;
  uint8_t *rom, *ram, *ext;
  uint64_t cycle; /* the clock: one an instruction, and the cycles asleep */

  uint64_t mtime_offset, mtimecmp; /* mtime = cycle + mtime_offset */

  uint8_t rx[ISS_UART_FIFO];
  unsigned rx_head, rx_count;
  uint32_t uart_divisor;
  bool uart_irq_rx, uart_irq_tx;
  void (*uart_tx)(void *ctx, uint8_t byte);
  void *uart_ctx;

  uint32_t gpio_out, gpio_irq_enable;

  uint32_t irq_enable, scratch;
  bool soft_irq;
  bool exit_valid;
  uint32_t exit_code;

  ucm_model_t array;
  void *array_mem;
  bool has_array;
} iss_soc_t;

/* 0, or -1 with the reason in WHY (out of memory, a geometry the block
   does not support). */
int iss_soc_init(iss_soc_t *s, const iss_config_t *cfg, char *why, int why_len);
void iss_soc_free(iss_soc_t *s);
/* Puts BYTE at ADDR of a memory (ELF loading); -1 where no memory is. */
int iss_soc_poke(iss_soc_t *s, uint32_t addr, uint8_t byte);

/* Bus accesses of the hart: 0, or -1 for an access fault. A load returns
   the bytes zero-extended; the hart has checked the alignment. */
int iss_fetch(iss_soc_t *s, uint32_t addr, uint32_t *word);
int iss_load(iss_soc_t *s, uint32_t addr, int bytes, uint32_t *value);
int iss_store(iss_soc_t *s, uint32_t addr, int bytes, uint32_t value);
/* cbo.*: done where anything is mapped, a fault elsewhere. */
int iss_cmo(iss_soc_t *s, uint32_t addr);

static inline uint64_t iss_mtime(const iss_soc_t *s) { return s->cycle + s->mtime_offset; }
static inline bool iss_timer_irq(const iss_soc_t *s) { return iss_mtime(s) >= s->mtimecmp; }

/* SYSCTL IRQ_PENDING: each source's level (the UART's TX FIFO is always
   empty here). */
static inline uint32_t iss_irq_sources(const iss_soc_t *s) {
  const bool uart = (s->uart_irq_rx && s->rx_count) || s->uart_irq_tx;
  const bool ucm = s->has_array && (s->array.status & UCM_STATUS_DONE_MASK) &&
                   (s->array.irq_enable & UCM_IRQ_ENABLE_DONE_MASK);
  return (uart ? SYSCTL_IRQ_PENDING_UART_MASK : 0) | (s->soft_irq ? SYSCTL_IRQ_PENDING_SOFT_MASK : 0) |
         (ucm ? SYSCTL_IRQ_PENDING_UCM_MASK : 0);
}
static inline bool iss_ext_irq(const iss_soc_t *s) { return (iss_irq_sources(s) & s->irq_enable) != 0; }

/* The receive FIFO's free bytes, and a byte from the host into it. */
unsigned iss_uart_room(const iss_soc_t *s);
void iss_uart_receive(iss_soc_t *s, uint8_t byte);

#endif
