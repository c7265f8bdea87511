/* LiteDRAM's DDR3 power-up and mode-register sequence, as its generator
   wrote it (init_sequence in the core's generated sdram_phy.h), run through
   DRAMCTL: the DFII takes the DRAM from the controller, the sequence runs,
   the DFII gives it back. mk/firmware.mk compiles this once per core, with
   that core's generated headers on the include path and LITEDRAM_INIT
   naming the function; LiteX's CSR accessors are the two below. */
#include <stdint.h>

#include "dramctl.h"
#include "litedram_init.h"

#define CSR_ACCESSORS_DEFINED

/* The generated code cannot stop on a failed access, and the boot ROM has
   no RAM data to note one in: LITEDRAM_INIT reads the DFII's control back
   at the end instead (an access that timed out leaves DRAMCTL busy, so
   every later one fails too). */
static inline unsigned long csr_read_simple(unsigned long addr) {
  uint32_t value = 0;
  (void)dramctl_csr_read((uint32_t)addr, &value);
  return value;
}

static inline void csr_write_simple(unsigned long value, unsigned long addr) {
  (void)dramctl_csr_write((uint32_t)addr, (uint32_t)value);
}

#include <generated/csr.h>
#include <generated/sdram_phy.h>

dramctl_status_t LITEDRAM_INIT(void) {
  init_sequence();
  sdram_dfii_control_write(DFII_CONTROL_SEL);
  uint32_t control = 0;
  const dramctl_status_t s = dramctl_csr_read(CSR_SDRAM_DFII_CONTROL_ADDR, &control);
  if (s != DRAMCTL_OK) return s;
  return control == DFII_CONTROL_SEL ? DRAMCTL_OK : DRAMCTL_E_BUS;
}
