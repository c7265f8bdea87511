/* picolibc stdio on the UART: stdin, stdout and stderr are one stream.
   "\n" goes out as "\r\n" so that serial terminals start a new line. */
#include <stdio.h>
#include <stdlib.h>

#include "sysctl.h"
#include "uart.h"

static int stream_put(char c, FILE *f) {
  (void)f;
  if (c == '\n') uart_putc('\r');
  uart_putc(c);
  return (unsigned char)c;
}

static int stream_get(FILE *f) {
  (void)f;
  return uart_getc();
}

static FILE uart_stream = FDEV_SETUP_STREAM(stream_put, stream_get, NULL, _FDEV_SETUP_RW);
FILE *const stdin = &uart_stream;
FILE *const stdout = &uart_stream;
FILE *const stderr = &uart_stream;

void _exit(int status) { sysctl_exit(status); }
