#include "mvu.h"

#include <stddef.h>

#include "soc_regs.h"

int mvu_present(void) { return (SYSCTL_FEATURES & SYSCTL_FEATURES_MVU_MASK) != 0; }

unsigned mvu_max_groups(void) {
  return mvu_present() ? (MVU_CAPS & MVU_CAPS_MAX_GROUPS_MASK) >> MVU_CAPS_MAX_GROUPS_LSB : 0;
}

/* Whether [p, p + bytes) lies in external memory, 64-byte aligned. */
static int placed(const void *p, size_t bytes) {
  uintptr_t a = (uintptr_t)p;
  return a >= EXT_BASE && !(a & 63) && a - EXT_BASE <= SYSCTL_EXT_SIZE && bytes <= SYSCTL_EXT_SIZE - (a - EXT_BASE);
}

int mvu_start(const void *codes, const void *params, unsigned tiles, unsigned groups, const int16_t *x,
              const int32_t *sums) {
  if (!mvu_present()) return MVU_ERR_NONE;
  if (!tiles || tiles > MVU_TILES_COUNT_MASK || !groups || groups > mvu_max_groups()) return MVU_ERR_SHAPE;
  if (!placed(codes, (size_t)tiles * groups * 128) || !placed(params, (size_t)tiles * groups * 32))
    return MVU_ERR_PLACE;
  /* The inputs as words: two int16 each, element 2i low. */
  volatile uint32_t *xw = (volatile uint32_t *)(MVU_BASE + MVU_X_WINDOW);
  volatile uint32_t *sw = (volatile uint32_t *)(MVU_BASE + MVU_SUM_WINDOW);
  for (unsigned i = 0; i < groups * 16; i++) xw[i] = (uint16_t)x[2 * i] | (uint32_t)(uint16_t)x[2 * i + 1] << 16;
  for (unsigned j = 0; j < groups; j++) sw[j] = (uint32_t)sums[j];
  MVU_CODES = (uint32_t)((uintptr_t)codes - EXT_BASE);
  MVU_PARAMS = (uint32_t)((uintptr_t)params - EXT_BASE);
  MVU_TILES = tiles;
  MVU_GROUPS = groups;
  MVU_STATUS = MVU_STATUS_ERR_START_MASK;
  MVU_CTRL = MVU_CTRL_START_MASK;
  return (MVU_STATUS & MVU_STATUS_ERR_START_MASK) ? MVU_ERR_REFUSED : MVU_OK;
}

const char *mvu_strerror(int err) {
  switch (err) {
    case MVU_OK: return "ok";
    case MVU_ERR_NONE: return "no matrix-vector unit in this SoC";
    case MVU_ERR_PLACE: return "matrix not in external memory or not 64-byte aligned";
    case MVU_ERR_SHAPE: return "no tiles, or more groups than the unit holds";
    case MVU_ERR_REFUSED: return "the unit refused the run";
    default: return "unknown error";
  }
}
