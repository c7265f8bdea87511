#include "ddr3.h"

/* bootrom.elf carries no LiteDRAM initialisation (it needs the generated
   core's headers, mk/litedram.mk): a SoC with LiteDRAM boots
   bootrom_ddr3.elf. */
dramctl_status_t boot_ddr3_init(void) { return DRAMCTL_E_NO_INIT; }
