/* Driver for the UniCAIM array block: keys into slots, CAM top-k search,
 * exact scores, accumulation, eviction victim, slot flags and counters.
 * Two backends behind one handle: the block on the bus (ucm_open_mmio) and
 * the golden model (ucm_open_model), so the same calling code runs on the
 * SoC and on the host. Every call returns UCM_OK or a negative UCM_E_* code;
 * nothing waits forever. */
#ifndef UCM_H
#define UCM_H

#include <stdint.h>

#include "ucm_arith.h"
#include "ucm_model.h"

enum {
  UCM_OK = 0,
  UCM_E_CMD = -1,      /* unknown operation */
  UCM_E_BANK = -2,     /* bank out of range */
  UCM_E_SLOT = -3,     /* slot out of range (argument or list entry) */
  UCM_E_K = -4,        /* k of 0 or above the bank's valid slots */
  UCM_E_COUNT = -5,    /* list length 0 or above SLOTS */
  UCM_E_BUSY = -6,     /* an access while the block was busy was dropped */
  UCM_E_NOVICTIM = -7, /* no valid unprotected slot to evict */
  UCM_E_TIMEOUT = -8,  /* the block did not finish (never seen from working hardware) */
  UCM_E_ABSENT = -9,   /* no array block in this SoC */
  UCM_E_RANGE = -10,   /* a sense-line trim out of its range (the block kept the last one) */
};

/* SEARCH flags. */
enum {
  UCM_SEARCH_THRESHOLD = 1, /* select S >= threshold, at most k */
  UCM_SEARCH_FORCE_PROTECTED = 2,
  UCM_SEARCH_ACCUMULATE = 4, /* charge-sharing accumulator update in the same search */
};

typedef struct ucm ucm_t;
struct ucm {
  uint32_t (*read)(ucm_t *u, uint32_t offset);
  void (*write)(ucm_t *u, uint32_t offset, uint32_t value);
  ucm_model_t *model; /* the model backend's state */
  ucm_geom_t geom;
  uint32_t score_bits;
};

/* How a search with accumulation updates the accumulators: the sense-line
 * circuit, or (linear, an ablation) acc += (x - acc) >> alpha. */
typedef struct {
  uint8_t linear, alpha;
  ucm_sense_t sense;
} ucm_accumulation_t;

/* Device settings (registers other than the per-bank steps). */
typedef struct {
  uint8_t query_step; /* CAM query quantisation step */
  ucm_accumulation_t accumulation;
  uint8_t adc_gain, adc_shift;
  uint8_t adc_bits;   /* converter resolution in use, 2..geom.adc_bits (0: all of it) */
  uint8_t sigma;       /* cell variation, about sigma/64 levels */
  uint8_t read_noise;  /* sense-line noise, about read_noise/8 S units */
  uint16_t stuck_rate; /* stuck cells per 65536 */
  uint32_t seed;
  uint32_t acc_init; /* accumulator of a newly written key */
} ucm_config_t;

typedef struct {
  int valid, protect;
  uint16_t pos;
  uint32_t acc;
  uint32_t valid_count; /* in the slot's bank */
} ucm_slot_info_t;

/* The block's counters (UCM_CNT_* indices, ucm_model.h). */
typedef struct {
  uint32_t v[UCM_COUNTERS];
} ucm_counters_t;

/* The block on the bus; UCM_E_ABSENT when the SoC was built without it. */
int ucm_open_mmio(ucm_t *u);
/* The golden model (already initialised with ucm_model_init). */
int ucm_open_model(ucm_t *u, ucm_model_t *model);

/* UCM_E_RANGE when the sense line's trim is out of range (the rest is set). */
int ucm_configure(ucm_t *u, const ucm_config_t *cfg);
int ucm_set_step(ucm_t *u, unsigned bank, uint8_t step);
/* The charge-domain accumulation alone (the query step kept) and the
 * accumulator a new key starts at; UCM_E_RANGE as ucm_configure. */
int ucm_set_accumulation(ucm_t *u, const ucm_accumulation_t *a, uint32_t acc_init);
int ucm_reset_bank(ucm_t *u, unsigned bank);
/* The sense line's trim in use (SENSE_TIME, SENSE_CAP). */
void ucm_read_sense(ucm_t *u, ucm_sense_t *trim);

/* Quantise an int8 key (geom.dim components) into a slot: valid, given
 * position, accumulator acc_init. */
int ucm_write_key(ucm_t *u, unsigned bank, unsigned slot, uint16_t pos, const int8_t *key, int protect);
int ucm_set_protect(ucm_t *u, unsigned bank, unsigned slot, int protect);
int ucm_invalidate(ucm_t *u, unsigned bank, unsigned slot);

/* Load the query (geom.dim int8 components) used by search and exact. */
void ucm_load_query(ucm_t *u, const int8_t *query);

/* CAM search of the loaded query: up to k slots (flags UCM_SEARCH_*),
 * written in slot order to slots[] and their similarities to sims[] (either
 * may be NULL). Returns the number selected, or an error. The selection
 * stays in the block's list for ucm_exact_selected. */
int ucm_search(ucm_t *u, unsigned bank, unsigned k, unsigned flags, int32_t threshold, uint16_t *slots,
               int32_t *sims);

/* Exact (current-domain) scores of the loaded query for n slots. ideal:
 * digital dot product instead of the ADC. */
int ucm_exact(ucm_t *u, unsigned bank, const uint16_t *slots, unsigned n, int ideal, int32_t *scores);
/* The same for the n slots the last search left in the list. */
int ucm_exact_selected(ucm_t *u, unsigned bank, unsigned n, int ideal, int32_t *scores);

/* Digital accumulation: acc += addend (saturating) for each valid slot. */
int ucm_accumulate(ucm_t *u, unsigned bank, const uint16_t *slots, const uint16_t *addends, unsigned n);

/* Min-detect: the slot to evict (>= 0) or UCM_E_NOVICTIM. */
int ucm_find_victim(ucm_t *u, unsigned bank);

int ucm_read_slot(ucm_t *u, unsigned bank, unsigned slot, ucm_slot_info_t *info);
void ucm_read_counters(ucm_t *u, ucm_counters_t *c);
void ucm_clear_counters(ucm_t *u);

/* A short name for an error code. */
const char *ucm_strerror(int err);

#endif /* UCM_H */
