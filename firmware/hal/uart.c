#include "uart.h"

#include "irq.h"
#include "soc_regs.h"

#define RX_RING_SIZE 1024u /* a power of two */

static volatile uint8_t rx_ring[RX_RING_SIZE];
static volatile uint32_t rx_head, rx_tail; /* free-running; head written only by the ISR */
static volatile bool rx_paused; /* the ring was full: the FIFO is left to fill, RTS stops the host */
static bool rx_buffered;

/* Drains the receive FIFO into the ring; with the ring full it stops and
   masks itself, so the bytes wait in the FIFO (and, once it is nearly
   full, in the host: the UART's RTS) until uart_try_getc makes room. */
static void uart_rx_isr(void) {
  while (UART_STATUS & UART_STATUS_RX_VALID_MASK) {
    if (rx_head - rx_tail >= RX_RING_SIZE) {
      rx_paused = true;
      UART_IRQ_ENABLE = 0;
      return;
    }
    rx_ring[rx_head % RX_RING_SIZE] = (uint8_t)(UART_DATA & UART_DATA_BYTE_MASK);
    rx_head++;
  }
}

void uart_rx_buffer_enable(void) {
  rx_buffered = true;
  UART_IRQ_ENABLE = UART_IRQ_ENABLE_RX_VALID_MASK;
  irq_attach_external(SYSCTL_IRQ_PENDING_UART_LSB, uart_rx_isr);
}

void uart_set_baud(uint32_t baud) {
  UART_DIVISOR = SYSCTL_CLK_HZ / baud;
}

void uart_putc(char c) {
  while (UART_STATUS & UART_STATUS_TX_FULL_MASK) {
  }
  UART_DATA = (uint8_t)c;
}

int uart_try_getc(void) {
  if (rx_buffered) {
    if (rx_tail == rx_head) return -1;
    int c = rx_ring[rx_tail % RX_RING_SIZE];
    rx_tail++;
    if (rx_paused) { /* room again: drain the FIFO on the next interrupt */
      rx_paused = false;
      UART_IRQ_ENABLE = UART_IRQ_ENABLE_RX_VALID_MASK;
    }
    return c;
  }
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
