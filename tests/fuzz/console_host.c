/* Host stand-ins for the UART driver the console library links against
   (the fuzzer calls console_execute only, so nothing is read). */
#include <stdlib.h>

#include "sysctl.h"
#include "uart.h"

void uart_putc(char c) { (void)c; }
int uart_getc(void) { return '\n'; }
uint32_t uart_take_errors(void) { return 0; }
void sysctl_exit(int code) { exit(code); }
