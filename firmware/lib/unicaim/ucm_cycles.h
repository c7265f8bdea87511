/* How many cycles the block is busy per command: the RTL's pipeline
 * (rtl/unicaim/ucm_block.sv) in one place for the golden model, which counts
 * them into the CYC_* counters; the co-simulation checks every one against
 * the block, cycle for cycle. ROWS = slots / lanes (a row of lanes per clock). */
#ifndef UCM_CYCLES_H
#define UCM_CYCLES_H

#include <stdint.h>

/* A key write: DIM cells, after two cycles of mixing the variation and stuck
 * draws and one of level and offset, plus the command's start and end. */
static inline uint32_t ucm_cycles_write(uint32_t dim) { return dim + 4; }

/* SLOT_CTRL, READ_SLOT: a metadata read and its write-back or answer. */
static inline uint32_t ucm_cycles_slot(void) { return 2; }

/* RESET_BANK: one row of metadata per cycle. */
static inline uint32_t ucm_cycles_reset(uint32_t rows) { return rows; }

/* SEARCH: each pass over the rows and its turn-around; the first (score)
 * pass is 6 cycles deeper (cells, similarity, read noise, the sense line's
 * decay, exponential and voltage, commit). */
static inline uint32_t ucm_cycles_search(uint32_t passes, uint32_t rows) { return passes * (rows + 1) + 6; }

/* EXACT of a list the block refuses: one cycle per entry checked. */
static inline uint32_t ucm_cycles_exact_checked(uint32_t n) { return n; }

/* EXACT: N keys, each Q_BITS planes LANES at a time, behind a fetch stage
 * and ahead of the converters' and the shift-add's. */
static inline uint32_t ucm_cycles_exact(uint32_t n, uint32_t q_bits, uint32_t lanes) {
  return 1 + n * ((q_bits + lanes - 1) / lanes) + 2;
}

/* ACC_ADD of a list the block refuses (one per entry checked), or done: a
 * read and a write per entry. */
static inline uint32_t ucm_cycles_acc_checked(uint32_t n) { return n; }
static inline uint32_t ucm_cycles_acc(uint32_t n) { return 2 * n; }

/* VICTIM: the rows' registered metadata compared, plus two stages. */
static inline uint32_t ucm_cycles_victim(uint32_t rows) { return rows + 2; }

#endif
