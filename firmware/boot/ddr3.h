/* The bootloader's DDR3 initialisation (LiteDRAM's, the Arty's): in
   bootrom_ddr3.elf ddr3_litedram.c, in bootrom.elf ddr3_absent.c. */
#ifndef BOOT_DDR3_H
#define BOOT_DDR3_H

#include "dramctl.h"

/* Initialises the DDR3 and opens LiteDRAM's user port. */
dramctl_status_t boot_ddr3_init(void);

#endif
