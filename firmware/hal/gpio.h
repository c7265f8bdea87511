/* LEDs and buttons. */
#ifndef HAL_GPIO_H
#define HAL_GPIO_H

#include <stdint.h>

void gpio_write(uint32_t levels);
uint32_t gpio_read_outputs(void);
uint32_t gpio_read_inputs(void);
/* Rising-edge interrupts for the inputs in MASK. */
void gpio_irq_enable(uint32_t mask);
/* Edges seen since the last call, cleared by reading. */
uint32_t gpio_take_edges(void);

#endif
