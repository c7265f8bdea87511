/* LiteDRAM's DDR3 initialisation for one core, run through DRAMCTL: the
   power-up and mode-register sequence as its generator wrote it
   (init_sequence in the core's generated sdram_phy.h, the DFII driving the
   DRAM), the DRAM handed back to the controller, its user port opened, and
   on a PHY that needs it (the board's A7DDRPHY) read levelling. mk/firmware.mk
   compiles this once per core, with that core's generated headers on the
   include path and LITEDRAM_INIT naming the function; LiteX's CSR
   accessors are the two below. */
#include <stdbool.h>
#include <stdint.h>

#include "dramctl.h"
#include "litedram_init.h"
#include "soc_regs.h"

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

/* init_done opens the user port; LiteDRAM's own flags and DRAMCTL's copies
   of them must agree that it is open. */
static dramctl_status_t open_user_port(void) {
  dramctl_status_t s = dramctl_csr_write(CSR_DDRCTRL_INIT_DONE_ADDR, 1u);
  uint32_t error = 0;
  if (s == DRAMCTL_OK) s = dramctl_csr_read(CSR_DDRCTRL_INIT_ERROR_ADDR, &error);
  if (s != DRAMCTL_OK) return s;
  const uint32_t status = DRAMCTL_STATUS;
  if (error || !(status & DRAMCTL_STATUS_INIT_DONE_MASK) || (status & DRAMCTL_STATUS_INIT_ERROR_MASK))
    return DRAMCTL_E_NOT_READY;
  return DRAMCTL_OK;
}

#ifdef SDRAM_PHY_READ_LEVELING_CAPABLE
#include "dcache.h"
#include "read_leveling.h"

/* The pattern: LEVEL_BYTES at the start of the DDR3, every word different,
   so that no wrong bitslip or delay reads it back by chance. */
#define LEVEL_BYTES 256u

static uint32_t level_word(unsigned i) {
  const uint32_t x = 0x9E3779B9u * (i + 1u);
  return x ^ (x >> 15);
}

/* Byte k of memory travels on byte lane k % SDRAM_PHY_MODULES of DQ. */
static bool lane_reads_back(unsigned module) {
  uint32_t mask = 0;
  for (unsigned k = 0; k < 4; k++)
    if (k % SDRAM_PHY_MODULES == module) mask |= 0xFFu << (8 * k);
  volatile uint32_t *p = (volatile uint32_t *)EXT_BASE;
  (void)dcache_invalidate(p, LEVEL_BYTES);  /* the next reads come from the DRAM */
  for (unsigned i = 0; i < LEVEL_BYTES / 4; i++)
    if ((p[i] ^ level_word(i)) & mask) return false;
  return true;
}

static void set_read_delay(unsigned bitslip, unsigned taps) {
  ddrphy_rdly_dq_bitslip_rst_write(1);
  for (unsigned b = 0; b < bitslip; b++) ddrphy_rdly_dq_bitslip_write(1);
  ddrphy_rdly_dq_rst_write(1);
  for (unsigned t = 0; t < taps; t++) ddrphy_rdly_dq_inc_write(1);
}

/* Per byte lane: every bitslip and delay tap, the pattern read back at each
   (writes do not depend on them), then the middle of the widest window. */
static dramctl_status_t read_leveling(void) {
  volatile uint32_t *p = (volatile uint32_t *)EXT_BASE;
  for (unsigned i = 0; i < LEVEL_BYTES / 4; i++) p[i] = level_word(i);
  (void)dcache_flush(p, LEVEL_BYTES);
  for (unsigned module = 0; module < SDRAM_PHY_MODULES; module++) {
    uint32_t ok[SDRAM_PHY_BITSLIPS] = {0};
    ddrphy_dly_sel_write(1u << module);
    for (unsigned b = 0; b < SDRAM_PHY_BITSLIPS; b++) {
      set_read_delay(b, 0);
      for (unsigned t = 0; t < SDRAM_PHY_DELAYS; t++) {
        if (lane_reads_back(module)) ok[b] |= 1u << t;
        ddrphy_rdly_dq_inc_write(1);
      }
    }
    const read_level_t best = read_level_choose(ok, SDRAM_PHY_BITSLIPS, SDRAM_PHY_DELAYS);
    if (best.width == 0) {
      ddrphy_dly_sel_write(0);
      return DRAMCTL_E_LEVELING;
    }
    set_read_delay(best.bitslip, best.delay);
  }
  ddrphy_dly_sel_write(0);
  return DRAMCTL_OK;
}
#endif

dramctl_status_t LITEDRAM_INIT(void) {
  init_sequence();
  sdram_dfii_control_write(DFII_CONTROL_SEL);
  uint32_t control = 0;
  dramctl_status_t s = dramctl_csr_read(CSR_SDRAM_DFII_CONTROL_ADDR, &control);
  if (s == DRAMCTL_OK && control != DFII_CONTROL_SEL) s = DRAMCTL_E_BUS;
  if (s == DRAMCTL_OK) s = open_user_port();
#ifdef SDRAM_PHY_READ_LEVELING_CAPABLE
  if (s == DRAMCTL_OK) s = read_leveling();
#endif
  return s;
}
