/* Energy and latency of the modeled UniCAIM array, in integer femtojoules
 * and picoseconds (no FPU on the SoC), from its device event counters:
 * every physical event the block counts has one energy and one latency,
 * sourced in ucm_energy.c. The emulation's busy cycles play no part: the
 * block finds a CAM race's outcome by radix passes, the device by one race.
 *
 * The console's stats, prune_eval and ucm_report all price events here;
 * the designs the paper compares with are in ucm_baselines.h. */
#ifndef UCM_ENERGY_H
#define UCM_ENERGY_H

#include <stdint.h>

#include "ucm_arith.h"
#include "ucm_model.h"

typedef struct {
  uint64_t energy_fj;
  uint64_t latency_ps;
} ucm_cost_t;

/* Per kind of event. */
typedef struct {
  ucm_cost_t search;      /* CAM races (precharge, race, IRef1 setting) over the valid rows */
  ucm_cost_t acc_charge;  /* charge sharing into the accumulators, in the race's cycle */
  ucm_cost_t acc_digital; /* digital adds (ACC_ADD: the project's ablation) */
  ucm_cost_t min_detect;  /* FE-inverter min-detects */
  ucm_cost_t convert;     /* current-domain reads and their ADC conversions */
  ucm_cost_t write;       /* cell programming */
  ucm_cost_t total;
} ucm_cost_detail_t;

/* The coefficients without a primary source (ucm_energy.c says why each
 * value): ucm_report --sensitivity sweeps each over its plausible range;
 * everything else prices with ucm_price_defaults. */
typedef struct {
  uint32_t adc_step_ps;  /* a SAR conversion step */
  uint32_t adc_10b_fj;   /* a 10-bit conversion (halved per bit fewer) */
  uint32_t cell_mac_fj;  /* a cell's current for one query bit plane */
  uint32_t precharge_ps; /* the sense line's precharge before a race */
  uint32_t iref_ps;      /* IRef1 settling */
} ucm_price_params_t;
extern const ucm_price_params_t ucm_price_defaults;

/* What the events counted in DELTA (UCM_CNT_* order, differences of two
 * snapshots) cost on an array of G's geometry (G->adc_bits: the resolution
 * in use) with the sense line's TRIM (ucm_read_sense; zero fields: reset
 * values). */
ucm_cost_detail_t ucm_price_events(const uint32_t *delta, const ucm_geom_t *g, const ucm_sense_t *trim);
/* The same with coefficients P. */
ucm_cost_detail_t ucm_price_events_with(const uint32_t *delta, const ucm_geom_t *g, const ucm_sense_t *trim,
                                        const ucm_price_params_t *p);
/* The total between two counter snapshots. */
ucm_cost_t ucm_cost_of_events(const uint32_t *before, const uint32_t *after, const ucm_geom_t *g,
                              const ucm_sense_t *trim);

/* The events of an array that keeps N keys and scores every one through
 * the ADCs for each of QUERIES queries (no search, no pruning), writing
 * WRITES keys: the same array without pruning, for "against unpruned". */
void ucm_unpruned_events(uint32_t *delta, const ucm_geom_t *g, uint32_t n, uint32_t queries, uint32_t writes);

/* Area of the array: ROWS x G->dim cells of G->cell_bits bits holding keys
 * of KEY_BITS per component (a 1-bit cell needs KEY_BITS of them, a 3-bit
 * cell one for up to 3), and G->adc_count converters; um^2. */
uint64_t ucm_area_um2(const ucm_geom_t *g, uint32_t rows, uint32_t key_bits);

#endif /* UCM_ENERGY_H */
