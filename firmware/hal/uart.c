#include "uart.h"

#include "csr.h"
#include "irq.h"
#include "soc_regs.h"

#define RX_RING_SIZE 1024u /* a power of two */

static volatile uint8_t rx_ring[RX_RING_SIZE];
static volatile uint32_t rx_head, rx_tail; /* free-running; head written only by the ISR */
static volatile bool rx_paused; /* the ring was full: the FIFO is left to fill, RTS stops the host */
static bool rx_buffered;
/* Ctrl-C stays in the byte stream (a line editor sees it in order) and is
   also counted, so a busy program can poll for it; one taken that way is
   skipped when the stream reaches it. */
static volatile uint32_t ctrl_c_seen; /* written only by the ISR */
static uint32_t ctrl_c_handled, ctrl_c_skip;

#define CTRL_C 0x03

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
    uint8_t byte = (uint8_t)(UART_DATA & UART_DATA_BYTE_MASK);
    if (byte == CTRL_C) ctrl_c_seen++;
    rx_ring[rx_head % RX_RING_SIZE] = byte;
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
  while (rx_buffered) {
    if (rx_tail == rx_head) return -1;
    int c = rx_ring[rx_tail % RX_RING_SIZE];
    rx_tail++;
    if (rx_paused) { /* room again: drain the FIFO on the next interrupt */
      rx_paused = false;
      UART_IRQ_ENABLE = UART_IRQ_ENABLE_RX_VALID_MASK;
    }
    if (c != CTRL_C) return c;
    if (ctrl_c_skip == 0) {
      ctrl_c_handled++;
      return c;
    }
    ctrl_c_skip--;
  }
  uint32_t d = UART_DATA;
  return (d & UART_DATA_RX_EMPTY_MASK) ? -1 : (int)(d & UART_DATA_BYTE_MASK);
}

/* Buffered, the core sleeps in wfi until the receive interrupt. The ring is
   checked with interrupts masked, so a byte that arrives between the check
   and wfi leaves its interrupt pending and wfi returns at once. */
int uart_getc(void) {
  for (;;) {
    uint32_t mie = CSR_READ(mstatus) & MSTATUS_MIE;
    CSR_CLEAR(mstatus, MSTATUS_MIE);
    int c = uart_try_getc();
    if (c < 0 && rx_buffered && mie) __asm__ volatile("wfi");
    CSR_SET(mstatus, mie);
    if (c >= 0) return c;
  }
}

bool uart_take_interrupt(void) {
  if (ctrl_c_seen == ctrl_c_handled) return false;
  ctrl_c_handled++;
  ctrl_c_skip++;
  return true;
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
