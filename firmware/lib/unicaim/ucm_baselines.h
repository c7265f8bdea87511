/* The designs the UniCAIM paper compares with, as per-operation cost
 * models of one decode step of one attention head: N cached keys of DIM
 * components, K of them kept for exact attention. Each coefficient and its
 * source is in ucm_baselines.c; ucm_report sets them beside the array's
 * own counted events (ucm_energy.h) and docs/unicaim.md beside the paper.
 *
 * Every design gets the same parallel hardware as the array's 64 ADCs: 64
 * row engines (digital dot-product units, comparators), so latency ratios
 * compare the methods, not the number of units. */
#ifndef UCM_BASELINES_H
#define UCM_BASELINES_H

#include <stdint.h>

#include "ucm_energy.h"

typedef enum {
  UCM_BASE_DIGITAL,   /* keys in SRAM, digital int8 dot products, then a sort for the top k */
  UCM_BASE_TRANCIM,   /* TranCIM (JSSC 2023): digital bitline-transpose SRAM CIM, INT16 attention, every key */
  UCM_BASE_CIMFORMER, /* CIMFormer (JSSC 2024): digital SRAM CIM, INT8, every key, then a sort-based top k */
  UCM_BASE_SPRINT,    /* Sprint (MICRO 2022): ReRAM analog thresholding of every key, digital recompute of the kept */
  UCM_BASELINES
} ucm_baseline_t;

typedef struct {
  uint32_t n, dim, k;
} ucm_step_t;

/* How the sort-based designs find their top k. */
typedef enum {
  UCM_TOPK_SPREAD,  /* n log2 n compare-and-swaps spread evenly over the engines (a lower bound) */
  UCM_TOPK_BITONIC, /* a bitonic sorting network of the engines' comparators, stage after stage */
} ucm_topk_hw_t;

/* The baselines' choices without a primary source (ucm_baselines.c):
   ucm_report --sensitivity sweeps them; ucm_baseline_defaults otherwise. */
typedef struct {
  uint32_t engines;       /* row engines and comparators of every design */
  ucm_topk_hw_t topk;
  uint32_t dcim_mac_x100; /* the digital CIM MAC energies, percent (100: CIMFormer's 28 nm figure) */
} ucm_baseline_params_t;
extern const ucm_baseline_params_t ucm_baseline_defaults;

const char *ucm_baseline_name(ucm_baseline_t b);
/* One step's energy and latency, and the design's area for N keys (um^2). */
ucm_cost_t ucm_baseline_step(ucm_baseline_t b, const ucm_step_t *s);
/* The same with choices P. */
ucm_cost_t ucm_baseline_step_with(ucm_baseline_t b, const ucm_step_t *s, const ucm_baseline_params_t *p);
uint64_t ucm_baseline_area(ucm_baseline_t b, const ucm_step_t *s);

#endif /* UCM_BASELINES_H */
