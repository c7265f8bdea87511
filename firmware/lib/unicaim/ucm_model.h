/* Golden model of the UniCAIM block: the same state, register interface and
 * results as rtl/unicaim/, bit for bit, including the busy-cycle and device
 * event counters. Commands complete at once (the model is never busy).
 * Builds for the host and for the firmware; the caller provides the memory. */
#ifndef UCM_MODEL_H
#define UCM_MODEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint32_t banks, slots, dim;
  uint32_t cell_bits; /* 1 or 3 */
  uint32_t q_bits;    /* 2..8 */
  uint32_t adc_bits;  /* 2..16 */
  uint32_t adc_count;
  uint32_t lanes; /* power of two dividing slots */
} ucm_geom_t;

/* The block's counters, in register order: busy cycles per mode, then
 * device events. */
enum {
  UCM_CNT_CYC_WRITE,
  UCM_CNT_CYC_SEARCH,
  UCM_CNT_CYC_EXACT,
  UCM_CNT_CYC_ACC,
  UCM_CNT_CYC_VICTIM,
  UCM_CNT_CYC_MISC,
  UCM_CNT_EV_CELL_WRITE,
  UCM_CNT_EV_CELL_SEARCH,
  UCM_CNT_EV_ACC_CHARGE,
  UCM_CNT_EV_ADC_CONV,
  UCM_CNT_EV_ADC_ROUND,
  UCM_CNT_EV_MIN_DETECT,
  UCM_CNT_EV_SEARCH,
  UCM_CNT_EV_ACC_DIGITAL,
  UCM_COUNTERS
};

typedef struct {
  ucm_geom_t geom;
  uint32_t score_bits;
  /* Per slot (bank-major). */
  int8_t *cell; /* banks * slots * dim conductances */
  uint8_t *valid, *protect;
  uint16_t *pos;
  uint32_t *acc;
  uint32_t *valid_count; /* per bank */
  uint8_t *step;         /* per bank */
  int8_t *key, *query;   /* staging, dim each */
  uint32_t *list;        /* slots entries */
  int32_t *score;
  int32_t *similarity; /* SEARCH's per-slot S (the search memory) */
  int8_t *qlevel;      /* scratch: the query's CAM levels, dim */
  int8_t *plane_bits;  /* scratch: EXACT's query bit planes, a byte (0 / 1) a bit, UCM_MODEL_PLANES x dim */
  int8_t *qvalue;      /* scratch: EXACT's query as the signed q_bits-bit number its planes weigh */
  /* Registers. */
  uint32_t cmd, status, result, irq_enable, pos_reg, acc_init, threshold;
  uint32_t cam_cfg, adc_cfg, noise_cfg, seed, slot_meta, slot_acc, slot_valid_count;
  uint32_t sense_time, sense_cap;
  uint32_t write_serial, search_serial;
  uint32_t counter[UCM_COUNTERS];
} ucm_model_t;

/* Slots per bank the model holds at most (the GEOM register's field). */
#define UCM_MODEL_MAX_SLOTS 4096
/* Query bit planes (q_bits) the model converts at most: a query is int8. */
#define UCM_MODEL_PLANES 8

/* Bytes of storage ucm_model_init needs for this geometry. */
size_t ucm_model_bytes(const ucm_geom_t *geom);

/* Lay the model out in mem (ucm_model_bytes, 4-byte aligned) in its reset
 * state. Returns 0, or -1 for a geometry the block does not support. */
int ucm_model_init(ucm_model_t *m, const ucm_geom_t *geom, void *mem);

/* Bus access at a byte offset in the block's window. be: byte enables.
 * Returns 0, or -1 where the hardware answers with a bus error. */
int ucm_model_write(ucm_model_t *m, uint32_t offset, uint32_t value, uint32_t be);
int ucm_model_read(ucm_model_t *m, uint32_t offset, uint32_t *value);

#endif /* UCM_MODEL_H */
