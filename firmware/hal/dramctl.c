#include "dramctl.h"

#include "soc_regs.h"
#include "timer.h"

/* LiteDRAM's csr.h (mk/litedram.mk), CSR_BASE 0: the same in the board's
   core and in its simulation core. */
#define LITEDRAM_INIT_DONE_ADDR 0x0u
#define LITEDRAM_INIT_ERROR_ADDR 0x4u

/* An access takes a few cycles of each clock; a millisecond means the
   controller's clock is not running. */
#define DRAMCTL_TIMEOUT_US 1000u

bool dramctl_present(void) { return SYSCTL_FEATURES & SYSCTL_FEATURES_LITEDRAM_MASK; }

static dramctl_status_t access(uint32_t addr, bool write) {
  if (!dramctl_present()) return DRAMCTL_E_ABSENT;
  const uint64_t deadline = timer_now() + (uint64_t)SYSCTL_CLK_HZ / 1000000u * DRAMCTL_TIMEOUT_US;
  /* A previous access that timed out may still hold the crossing. */
  while (DRAMCTL_STATUS & DRAMCTL_STATUS_BUSY_MASK)
    if (timer_now() > deadline) return DRAMCTL_E_TIMEOUT;
  DRAMCTL_ADDR = addr;
  DRAMCTL_CMD = write ? DRAMCTL_CMD_WRITE_MASK : 0u;
  uint32_t status;
  while ((status = DRAMCTL_STATUS) & DRAMCTL_STATUS_BUSY_MASK)
    if (timer_now() > deadline) return DRAMCTL_E_TIMEOUT;
  return (status & DRAMCTL_STATUS_BUS_ERROR_MASK) ? DRAMCTL_E_BUS : DRAMCTL_OK;
}

dramctl_status_t dramctl_csr_read(uint32_t addr, uint32_t *value) {
  const dramctl_status_t s = access(addr, false);
  if (s == DRAMCTL_OK) *value = DRAMCTL_DATA;
  return s;
}

dramctl_status_t dramctl_csr_write(uint32_t addr, uint32_t value) {
  if (!dramctl_present()) return DRAMCTL_E_ABSENT;
  if (DRAMCTL_STATUS & DRAMCTL_STATUS_BUSY_MASK) return DRAMCTL_E_TIMEOUT;
  DRAMCTL_DATA = value;
  return access(addr, true);
}

dramctl_status_t dramctl_init(void) {
  dramctl_status_t s = dramctl_csr_write(LITEDRAM_INIT_DONE_ADDR, 1u);
  if (s != DRAMCTL_OK) return s;
  uint32_t error = 0;
  if ((s = dramctl_csr_read(LITEDRAM_INIT_ERROR_ADDR, &error)) != DRAMCTL_OK) return s;
  const uint32_t status = DRAMCTL_STATUS;
  if (error || !(status & DRAMCTL_STATUS_INIT_DONE_MASK) || (status & DRAMCTL_STATUS_INIT_ERROR_MASK))
    return DRAMCTL_E_NOT_READY;
  return DRAMCTL_OK;
}

const char *dramctl_strerror(dramctl_status_t status) {
  switch (status) {
    case DRAMCTL_OK: return "ok";
    case DRAMCTL_E_ABSENT: return "no LiteDRAM";
    case DRAMCTL_E_TIMEOUT: return "controller not answering";
    case DRAMCTL_E_BUS: return "bus error";
    case DRAMCTL_E_NOT_READY: return "init_done not set";
    case DRAMCTL_E_NO_INIT: return "no DDR3 initialisation in this program";
    case DRAMCTL_E_LEVELING: return "read levelling: nothing reads back";
  }
  return "unknown";
}
