/* System information and simulation control. */
#ifndef HAL_SYSCTL_H
#define HAL_SYSCTL_H

#include <stdbool.h>
#include <stdint.h>

uint32_t sysctl_clk_hz(void);
uint32_t sysctl_ram_size(void);
/* External memory at EXT_BASE in bytes (0: none). */
uint32_t sysctl_ext_size(void);
bool sysctl_is_sim(void);
/* Ends a simulation with CODE (0 = pass); on a board, halts with the code kept. */
void sysctl_exit(int code) __attribute__((noreturn));

#endif
