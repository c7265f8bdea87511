#include "gpio.h"

#include "soc_regs.h"

void gpio_write(uint32_t levels) { GPIO_OUT = levels; }
uint32_t gpio_read_outputs(void) { return GPIO_OUT; }
uint32_t gpio_read_inputs(void) { return GPIO_IN; }
void gpio_irq_enable(uint32_t mask) { GPIO_IRQ_ENABLE = mask; }

uint32_t gpio_take_edges(void) {
  uint32_t edges = GPIO_IRQ_PENDING;
  GPIO_IRQ_PENDING = edges;
  return edges;
}
