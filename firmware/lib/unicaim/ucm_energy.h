/* Energy and latency model of the UniCAIM array and of the two designs the
 * paper compares it with, in integer femtojoules and picoseconds (no FPU on
 * the SoC). Every coefficient, and where it comes from, is in ucm_energy.c;
 * docs/unicaim.md sets the resulting figures beside the paper's.
 *
 * Two uses: turn the block's event counters into the energy and latency the
 * modeled FeFET array would have spent (ucm_cost_of_counters), and cost one
 * attention-scoring step analytically for any sequence length (the
 * ucm_step_* functions), for the sequence-length sweeps. */
#ifndef UCM_ENERGY_H
#define UCM_ENERGY_H

#include <stdint.h>

#include "ucm_model.h"

typedef struct {
  uint64_t energy_fj;
  uint64_t latency_ps;
  uint64_t area_um2; /* of the hardware that did it (step models only) */
} ucm_cost_t;

/* One decode step of one head: n cached keys of dim components, k of them
 * selected, on an array of the given cell bits, query bits and converters. */
typedef struct {
  uint32_t n, dim, k;
  uint32_t cell_bits, q_bits, adc_bits, adc_count;
} ucm_step_t;

/* What the counted events cost on the modeled device; before/after are
 * counter snapshots (UCM_CNT_* order). */
ucm_cost_t ucm_cost_of_counters(const uint32_t *before, const uint32_t *after, const ucm_geom_t *geom);

/* UniCAIM: top-k by one CAM search (a race the reference current stops at k), no ADC. */
ucm_cost_t ucm_step_topk_unicaim(const ucm_step_t *s);
/* UniCAIM: exact scores of the k selected through the shared ADCs. */
ucm_cost_t ucm_step_exact_unicaim(const ucm_step_t *s);
/* Sort-based top-k (CIMFormer-like): an O(n log n) comparator sort of the n
 * scores (which that design computes densely; see ucm_step_dense). */
ucm_cost_t ucm_step_topk_sort(const ucm_step_t *s);
/* Dense current-domain scoring of every key (TranCIM-like), SRAM cells. */
ucm_cost_t ucm_step_dense(const ucm_step_t *s);
/* Area of each design for n x dim keys (um^2). */
uint64_t ucm_area_unicaim(const ucm_step_t *s);
uint64_t ucm_area_sram_cim(const ucm_step_t *s);

#endif /* UCM_ENERGY_H */
