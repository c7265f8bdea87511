/* The functional simulator's hart: RV32IM, Zicsr, Zifencei, Zicbom and the
   packed dot products (custom-0), machine mode only, with the core's CSRs,
   traps and interrupts as docs/soc/core.md gives them (rtl/core/ is the
   reference: what it decodes as illegal is illegal here). One instruction
   a cycle; no pipeline, caches or wait states. */
#ifndef RV_HART_H
#define RV_HART_H

#include <stdbool.h>
#include <stdint.h>

#include "iss_soc.h"

typedef struct {
  uint32_t x[32], pc;
  bool mie, mpie, mtie, meie, dot_enable;
  bool mtvec_vectored;
  uint32_t mtvec_base; /* 4-byte aligned (64 when vectored) */
  uint32_t mepc, mcause, mtval, mscratch;
  uint64_t mcycle_offset; /* mcycle = the SoC's cycle + mcycle_offset */
  uint64_t minstret;
  bool sleeping; /* in wfi until an interrupt mie enables is pending */
  /* Optional: called with each instruction's address as it executes
     (--profile counts them). */
  void (*profile)(void *ctx, uint32_t pc);
  void *profile_ctx;
} rv_hart_t;

typedef enum {
  RV_BUDGET,   /* the cycles asked for have passed */
  RV_EXIT,     /* the program wrote EXIT or tohost */
  RV_SLEEPING, /* in wfi, and only the UART can wake it */
} rv_stop_t;

void rv_reset(rv_hart_t *h, uint32_t pc);
/* Runs until CYCLES more have passed on S's clock (asleep, time moves to
   the timer's compare at once), or the program exits or sleeps for input. */
rv_stop_t rv_run(rv_hart_t *h, iss_soc_t *s, uint64_t cycles);

#endif
