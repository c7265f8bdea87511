/* Traps: interrupt handlers by cause, and a report for unexpected exceptions. */
#ifndef HAL_IRQ_H
#define HAL_IRQ_H

#include <stdint.h>

#define IRQ_TIMER 7
#define IRQ_EXTERNAL 11

typedef void (*irq_handler_t)(void);

/* Install HANDLER for interrupt CAUSE (IRQ_TIMER or IRQ_EXTERNAL) and enable it in mie. */
void irq_attach(unsigned cause, irq_handler_t handler);
void irq_detach(unsigned cause);
void irq_global_enable(void);
void irq_global_disable(void);
/* Install HANDLER for one external source (a SYSCTL_IRQ_PENDING bit:
   SYSCTL_IRQ_PENDING_UART_LSB, ...) and enable the external interrupt. */
void irq_attach_external(unsigned source, irq_handler_t handler);

/* Called by trap_entry (start.S). */
void trap_dispatch(uint32_t mcause, uint32_t mepc, uint32_t mtval);

#endif
