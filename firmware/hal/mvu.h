/* The matrix-vector unit beside external memory (rtl/mvu/mvu.sv, docs/soc/mvu.md
   "Matrix-vector unit"): a grouped int8 matrix in external memory times an
   int16 vector, one 64-bit sum per row, streamed past the data cache. */
#ifndef HAL_MVU_H
#define HAL_MVU_H

#include <stdint.h>

enum {
  MVU_OK = 0,
  MVU_ERR_NONE = -1,     /* no unit in this SoC */
  MVU_ERR_PLACE = -2,    /* the matrix is not in external memory, or not 64-byte aligned */
  MVU_ERR_SHAPE = -3,    /* no tiles, or more groups than the unit holds */
  MVU_ERR_REFUSED = -4,  /* the unit refused the run (STATUS.ERR_START) */
};

/* Whether the SoC has the unit. */
int mvu_present(void);
/* Groups of 32 inputs the unit holds (0: no unit). */
unsigned mvu_max_groups(void);
/* Starts a run: TILES tiles of 4 rows, GROUPS groups a row, the codes at
   CODES and the parameters at PARAMS (llm_model.h's grouped layout), times
   the GROUPS * 32 inputs X with their group sums SUMS. Its 4 * TILES row
   sums are then read in order with mvu_result. */
int mvu_start(const void *codes, const void *params, unsigned tiles, unsigned groups, const int16_t *x,
              const int32_t *sums);
/* The next row's sum (the load waits for it while the run works). */
static inline int64_t mvu_result(void);
const char *mvu_strerror(int err);

#include "soc_regs.h"

static inline int64_t mvu_result(void) {
  uint32_t lo = MVU_RESULT_LO;
  uint32_t hi = MVU_RESULT_HI;
  return (int64_t)((uint64_t)hi << 32 | lo);
}

#endif
