/* LiteDRAM's control bus (the Arty's DDR3) through the DRAMCTL peripheral:
   single CSR accesses, each carried to the controller's clock (the DDR3's
   initialisation is firmware/hal/litedram/litedram_init.h). Present when
   SYSCTL FEATURES.LITEDRAM is. */
#ifndef HAL_DRAMCTL_H
#define HAL_DRAMCTL_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
  DRAMCTL_OK = 0,
  DRAMCTL_E_ABSENT = -1,    /* no LiteDRAM in this SoC */
  DRAMCTL_E_TIMEOUT = -2,   /* the controller did not answer (its clock stopped?) */
  DRAMCTL_E_BUS = -3,       /* LiteDRAM answered with a bus error */
  DRAMCTL_E_NOT_READY = -4, /* init_done did not rise, or init_error did */
  DRAMCTL_E_NO_INIT = -5,   /* this program has no DDR3 initialisation */
  DRAMCTL_E_LEVELING = -6,  /* read levelling found no setting that reads back */
} dramctl_status_t;

bool dramctl_present(void);
/* ADDR: a byte address in LiteDRAM's CSR space (its csr.h with CSR_BASE 0). */
dramctl_status_t dramctl_csr_read(uint32_t addr, uint32_t *value);
dramctl_status_t dramctl_csr_write(uint32_t addr, uint32_t value);
const char *dramctl_strerror(dramctl_status_t status);

#endif
