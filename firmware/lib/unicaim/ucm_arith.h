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
int32_t ucm_adc(int32_t current, uint32_t gain, uint32_t shift, uint32_t adc_bits);

/* Width of the signed CAM similarity for a row of dim cells. */
uint32_t ucm_score_bits(uint32_t dim);

/* Charge sharing: acc + ((x - acc) >> alpha), x the similarity mapped onto
 * the unsigned 32-bit range. */
uint32_t ucm_charge_share(uint32_t acc, int32_t s, uint32_t score_bits, uint32_t alpha);

#endif /* UCM_ARITH_H */
