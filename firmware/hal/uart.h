/* Polled UART driver (the console and stdio use it). */
#ifndef HAL_UART_H
#define HAL_UART_H

#include <stdbool.h>
#include <stdint.h>

void uart_set_baud(uint32_t baud);
void uart_putc(char c);
int uart_getc(void);      /* blocks (sleeping in wfi when buffered) */
int uart_try_getc(void);  /* -1 when nothing has arrived */
void uart_flush(void);    /* waits until the last bit has left */
/* Receive errors since the last call (overrun, framing), cleared by reading. */
uint32_t uart_take_errors(void);
/* Receive through the RX interrupt into a software ring buffer, so that input
   arriving while the program is busy (printing, computing) is kept. Needs
   interrupts enabled globally. */
void uart_rx_buffer_enable(void);
/* Whether a Ctrl-C arrived that nobody has read or taken (buffered mode), so
   a long computation can poll for it without reading the input; the one
   taken is then skipped in the byte stream. */
bool uart_take_interrupt(void);

#endif
