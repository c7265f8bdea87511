/* The block against the golden model: a seeded sequence of driver calls runs
   through both, and every result must agree -- return codes, selections,
   similarities, exact scores, slot metadata, victims, counters. The driver
   test and a board's self-test run it; a mismatch is printed (the first
   ten) and counted. */
#ifndef UNICAIM_UCM_CHECK_H
#define UNICAIM_UCM_CHECK_H

#include <stdint.h>

#include "ucm.h"
#include "ucm_model.h"

typedef struct {
  ucm_t *hw, *ref;              /* the block (MMIO) and the golden model */
  const ucm_model_t *model;     /* ref's state */
  uint16_t *sel_hw, *sel_ref;   /* scratch: the geometry's slots each */
  int32_t *val_hw, *val_ref;
  uint32_t rng;                 /* the sequence's seed */
  unsigned failures;
  unsigned checks;              /* comparisons made (a run that compared nothing passes nothing) */
} ucm_check_t;

/* Counts a failure (and prints it) unless OK. */
void ucm_check(ucm_check_t *c, int ok, const char *what, int hw, int ref);
/* OPS random driver calls on banks 0..BANKS-1 of both. */
void ucm_check_ops(ucm_check_t *c, unsigned banks, unsigned ops);
/* Both sides' counters agree; the block's are returned in HW. */
void ucm_check_counters(ucm_check_t *c, ucm_counters_t *hw);

#endif
