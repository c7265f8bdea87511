#include "irq.h"

#include <stdio.h>
#include <stdlib.h>

#include "csr.h"
#include "soc_regs.h"

static irq_handler_t handlers[32];

static uint32_t mie_bit(unsigned cause) { return 1u << cause; }

void irq_attach(unsigned cause, irq_handler_t handler) {
  handlers[cause & 31] = handler;
  CSR_SET(mie, mie_bit(cause));
}

void irq_detach(unsigned cause) {
  CSR_CLEAR(mie, mie_bit(cause));
  handlers[cause & 31] = 0;
}

void irq_global_enable(void) { CSR_SET(mstatus, MSTATUS_MIE); }
void irq_global_disable(void) { CSR_CLEAR(mstatus, MSTATUS_MIE); }
void irq_external_enable(uint32_t sources) { SYSCTL_IRQ_ENABLE = sources; }

static const char *exception_name(uint32_t cause) {
  static const char *const names[] = {
      "instruction address misaligned", "instruction access fault", "illegal instruction",
      "breakpoint", "load address misaligned", "load access fault",
      "store address misaligned", "store access fault", "ecall from U-mode",
      "ecall from S-mode", "reserved", "ecall from M-mode"};
  return cause < sizeof names / sizeof names[0] ? names[cause] : "unknown";
}

void trap_dispatch(uint32_t mcause, uint32_t mepc, uint32_t mtval) {
  if (mcause & MCAUSE_IRQ) {
    irq_handler_t h = handlers[mcause & 31];
    if (h) {
      h();
      return;
    }
  }
  /* An exception (or an interrupt nobody handles) is a firmware bug: say so and stop. */
  printf("\nFATAL: %s (mcause=0x%08lx mepc=0x%08lx mtval=0x%08lx)\n",
         (mcause & MCAUSE_IRQ) ? "unhandled interrupt" : exception_name(mcause),
         (unsigned long)mcause, (unsigned long)mepc, (unsigned long)mtval);
  exit(128 + (int)(mcause & 31));
}
