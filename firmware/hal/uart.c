#include "uart.h"

#include "soc_regs.h"

void uart_set_baud(uint32_t baud) {
  UART_DIVISOR = SYSCTL_CLK_HZ / baud;
}

void uart_putc(char c) {
  while (UART_STATUS & UART_STATUS_TX_FULL_MASK) {
  }
  UART_DATA = (uint8_t)c;
}

int uart_try_getc(void) {
  uint32_t d = UART_DATA;
  return (d & UART_DATA_RX_EMPTY_MASK) ? -1 : (int)(d & UART_DATA_BYTE_MASK);
}

int uart_getc(void) {
  int c;
  while ((c = uart_try_getc()) < 0) {
  }
  return c;
}

void uart_flush(void) {
  while (!(UART_STATUS & UART_STATUS_TX_IDLE_MASK)) {
  }
}

uint32_t uart_take_errors(void) {
  const uint32_t errors = UART_STATUS_RX_OVERRUN_MASK | UART_STATUS_FRAME_ERROR_MASK;
  uint32_t seen = UART_STATUS & errors;
  UART_STATUS = seen;
  return seen;
}
