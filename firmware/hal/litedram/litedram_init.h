/* LiteDRAM's DDR3 initialisation, one per core (litedram_init.c, compiled
   against each core's generated headers): the generated power-up sequence,
   the user port opened, read levelling where the PHY needs it. DRAMCTL_OK:
   external memory is usable. */
#ifndef HAL_LITEDRAM_INIT_H
#define HAL_LITEDRAM_INIT_H

#include "dramctl.h"

/* The board's core (A7DDRPHY, build/litedram/hw). */
dramctl_status_t litedram_init_board(void);
/* LiteDRAM's simulation core (its PHY and DDR3 model, build/litedram/sim). */
dramctl_status_t litedram_init_model(void);
/* Waits at least I cycles of the controller's clock (the sequence's delays). */
void cdelay(int i);

#endif
