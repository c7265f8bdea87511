#include "dramctl.h"

#include "soc_regs.h"
#include "timer.h"

/* An access takes a few cycles of each clock; a millisecond means the
   controller's clock is not running. */
#define DRAMCTL_TIMEOUT_US 1000u

bool dramctl_present(void) { return SYSCTL_FEATURES & SYSCTL_FEATURES_LITEDRAM_MASK; }

static uint64_t deadline(void) {
  return timer_now() + (uint64_t)SYSCTL_CLK_HZ / 1000000u * DRAMCTL_TIMEOUT_US;
}

/* Until STATUS.BUSY falls (a previous access may still hold the crossing),
   or the deadline passes; the last STATUS read. */
static bool wait_idle(uint64_t until, uint32_t *status) {
  while ((*status = DRAMCTL_STATUS) & DRAMCTL_STATUS_BUSY_MASK)
    if (timer_now() > until) return false;
  return true;
}

static dramctl_status_t access(uint32_t addr, bool write, const uint32_t *wdata) {
  if (!dramctl_present()) return DRAMCTL_E_ABSENT;
  const uint64_t until = deadline();
  uint32_t status;
  if (!wait_idle(until, &status)) return DRAMCTL_E_TIMEOUT;
  if (write) DRAMCTL_DATA = *wdata;
  DRAMCTL_ADDR = addr;
  DRAMCTL_CMD = write ? DRAMCTL_CMD_WRITE_MASK : 0u;
  if (!wait_idle(until, &status)) return DRAMCTL_E_TIMEOUT;
  return (status & DRAMCTL_STATUS_BUS_ERROR_MASK) ? DRAMCTL_E_BUS : DRAMCTL_OK;
}

dramctl_status_t dramctl_csr_read(uint32_t addr, uint32_t *value) {
  const dramctl_status_t s = access(addr, false, 0);
  if (s == DRAMCTL_OK) *value = DRAMCTL_DATA;
  return s;
}

dramctl_status_t dramctl_csr_write(uint32_t addr, uint32_t value) { return access(addr, true, &value); }

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
