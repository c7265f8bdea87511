#include "irq.h"

#include <stdio.h>
#include <stdlib.h>

#include "csr.h"
#include "soc_regs.h"

static irq_handler_t handlers[32];
static irq_handler_t external_handlers[32];

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
static void external_dispatch(void) {
  uint32_t pending = SYSCTL_IRQ_PENDING & SYSCTL_IRQ_ENABLE;
  for (unsigned s = 0; pending; s++, pending >>= 1) {
    if ((pending & 1) && external_handlers[s]) external_handlers[s]();
  }
}

void irq_attach_external(unsigned source, irq_handler_t handler) {
  external_handlers[source & 31] = handler;
  SYSCTL_IRQ_ENABLE |= 1u << source;
  irq_attach(IRQ_EXTERNAL, external_dispatch);
}

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
