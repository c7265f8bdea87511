/* The UniCAIM array's element arithmetic: the exact integer rules the RTL
 * (rtl/unicaim/) implements, shared by the golden model and the tests.
 * docs/unicaim.md states each rule in prose. */
#ifndef UCM_ARITH_H
#define UCM_ARITH_H

#include <stdint.h>

/* A cell's conductance in eighths of a cell level; |e| <= UCM_CELL_MAX. */
#define UCM_CELL_FRAC_BITS 3
#define UCM_CELL_MAX 31

/* PRNG domains: each kind of draw hashes its own stream. */
enum { UCM_DRAW_VARIATION = 0, UCM_DRAW_STUCK = 1, UCM_DRAW_READ_NOISE = 2 };

/* The counter-based PRNG: lowbias32 over seed + serial, index and domain. */
uint32_t ucm_draw(uint32_t seed, uint32_t serial, uint32_t index, uint32_t domain);

/* Approximately Gaussian sample from one draw (sum of its four bytes, centred):
 * range -510..510, standard deviation 147.8. */
int32_t ucm_gauss(uint32_t draw);

/* Scale a gauss() sample by an 8-bit sigma: round(g * sigma * 7 / 8192),
 * i.e. standard deviation about sigma / 7.9 units. */
int32_t ucm_scale_noise(int32_t gauss, uint32_t sigma);

/* int8 key component -> ideal cell level (1-bit: +-1; 3-bit: -3..3), by step. */
int32_t ucm_key_level(int32_t k, uint32_t step, uint32_t cell_bits);

/* int8 query component -> CAM drive level -2..2, by step. */
int32_t ucm_query_level(int32_t q, uint32_t step);

/* Stored conductance of one written cell: level in eighths, plus variation,
 * unless the cell is stuck at the full level. */
int32_t ucm_cell_value(int32_t k, uint32_t step, uint32_t cell_bits, uint32_t sigma, uint32_t stuck_rate,
                       uint32_t variation_draw, uint32_t stuck_draw);

/* Converter resolution in use: ADC_CFG.BITS when 2..built_bits, else built_bits. */
uint32_t ucm_adc_bits_in_use(uint32_t cfg_bits, uint32_t built_bits);

/* Signed ADC_BITS converter: sat((current * gain) >> shift). */
static inline int32_t ucm_adc(int32_t current, uint32_t gain, uint32_t shift, uint32_t adc_bits) {
  int32_t code = (current * (int32_t)gain) >> shift;
  int32_t hi = (1 << (adc_bits - 1)) - 1;
  return code > hi ? hi : code < -hi - 1 ? -hi - 1 : code;
}

/* Width of the signed CAM similarity for a row of dim cells. */
uint32_t ucm_score_bits(uint32_t dim);

/* Charge sharing: acc + ((x - acc) >> alpha), x the similarity mapped onto
 * the unsigned 32-bit range. */
uint32_t ucm_charge_share(uint32_t acc, int32_t s, uint32_t score_bits, uint32_t alpha);

/* The sense line (docs/unicaim.md, "The sense line as a circuit"). Voltages
 * are in units of 2^-16 mV, rates in 2^-24 octaves of decay per mismatch
 * unit. */

/* The sense line's trim (SENSE_TIME, SENSE_CAP; ranges in soc_regs.h); a
 * zero field means its reset value. */
typedef struct {
  uint16_t ts_ps;   /* sampling time */
  uint16_t vpre_mv; /* precharge voltage */
  uint8_t csl_ff, cacc_ff;
} ucm_sense_t;

/* TRIM with its zero fields at their reset values. */
ucm_sense_t ucm_sense_resolved(const ucm_sense_t *trim);

/* floor(2^24 / n), n >= 1: the reciprocal ROM. */
uint32_t ucm_recip24(uint32_t n);

/* 2^16 * 2^(-f/256) for f < 256: E(0) = 2^30, E(f+1) = round(E(f) * round(2^30 *
 * 2^(-1/256)) / 2^30), returned as round(E(f) / 2^14). */
uint32_t ucm_exp2_neg(uint32_t f);

/* Decay per mismatch unit in the sampling time: log2(e) * t_s * g_u / C_SL,
 * (TS * SENSE_RATE_K * recip24(CSL)) >> 24. */
uint32_t ucm_sense_rate(uint32_t ts_ps, uint32_t csl_ff);

/* The charge-sharing weight C_SL / (C_SL + C_ACC) in 2^-16: (CSL *
 * recip24(CSL + CACC)) >> 8. */
uint32_t ucm_share_weight(uint32_t csl_ff, uint32_t cacc_ff);

/* 31 * sum |level| over a query's CAM levels: the row current's
 * similarity-free part (a mismatch unit per cell level eighth per drive half). */
uint32_t ucm_query_drive(const int8_t *qlevel, uint32_t dim);

/* The sampled sense-line voltage of a row with similarity S (read noise
 * included): mismatch M = max(0, DRIVE - S), decay z = M * RATE, V = V_pre *
 * 2^(-z): (VPRE * exp2_neg(z[23:16])) >> z[..:24], 0 once that shift
 * reaches 32. */
uint32_t ucm_sense_voltage(int32_t s, uint32_t drive, uint32_t rate, uint32_t vpre_mv);

/* Charge sharing of C_SL at V with C_ACC at ACC: acc + ((v - acc) * w) >> 16,
 * the shift flooring. */
uint32_t ucm_charge_circuit(uint32_t acc, uint32_t v, uint32_t w);

/* Whether a SENSE_TIME or SENSE_CAP value has every field in range (bits
 * outside the fields are ignored). */
int ucm_sense_time_ok(uint32_t value);
int ucm_sense_cap_ok(uint32_t value);

#endif /* UCM_ARITH_H */
