#include "ucm_arith.h"

#include "soc_regs.h"

uint32_t ucm_draw(uint32_t seed, uint32_t serial, uint32_t index, uint32_t domain) {
  uint32_t x = seed + serial * 0x9E3779B9u + index * 0x85EBCA77u + domain * 0xC2B2AE3Du;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}

int32_t ucm_gauss(uint32_t draw) {
  return (int32_t)((draw & 0xFF) + ((draw >> 8) & 0xFF) + ((draw >> 16) & 0xFF) + (draw >> 24)) - 510;
}

int32_t ucm_scale_noise(int32_t gauss, uint32_t sigma) {
  return (gauss * (int32_t)sigma * 7 + 4096) >> 13; /* arithmetic shift: floor */
}

int32_t ucm_key_level(int32_t k, uint32_t step, uint32_t cell_bits) {
  if (cell_bits == 1) return k < 0 ? -1 : 1;
  if (step == 0) step = 1;
  uint32_t a = (uint32_t)(k < 0 ? -k : k) + step / 2;
  int32_t m = a >= 3 * step ? 3 : a >= 2 * step ? 2 : a >= step ? 1 : 0;
  return k < 0 ? -m : m;
}

int32_t ucm_query_level(int32_t q, uint32_t step) {
  if (step == 0) step = 1;
  uint32_t a = (uint32_t)(q < 0 ? -q : q) + step / 2;
  int32_t m = a >= 2 * step ? 2 : a >= step ? 1 : 0;
  return q < 0 ? -m : m;
}

int32_t ucm_cell_value(int32_t k, uint32_t step, uint32_t cell_bits, uint32_t sigma, uint32_t stuck_rate,
                       uint32_t variation_draw, uint32_t stuck_draw) {
  int32_t full = (cell_bits == 1 ? 1 : 3) << UCM_CELL_FRAC_BITS;
  if ((stuck_draw & 0xFFFF) < stuck_rate) return (stuck_draw >> 16) & 1 ? full : -full;
  int32_t e = ucm_key_level(k, step, cell_bits) * (1 << UCM_CELL_FRAC_BITS) +
              ucm_scale_noise(ucm_gauss(variation_draw), sigma);
  return e > UCM_CELL_MAX ? UCM_CELL_MAX : e < -UCM_CELL_MAX ? -UCM_CELL_MAX : e;
}

uint32_t ucm_adc_bits_in_use(uint32_t cfg_bits, uint32_t built_bits) {
  return cfg_bits < 2 || cfg_bits > built_bits ? built_bits : cfg_bits;
}

uint32_t ucm_score_bits(uint32_t dim) {
  /* |S| <= 2 * 31 * dim plus read noise (<= 111): clog2(64 * dim) + 2 bits. */
  uint32_t bits = 0;
  while ((1u << bits) < 64 * dim) bits++;
  return bits + 2;
}

uint32_t ucm_charge_share(uint32_t acc, int32_t s, uint32_t score_bits, uint32_t alpha) {
  uint32_t x = ((uint32_t)s + (1u << (score_bits - 1))) << (32 - score_bits);
  int64_t diff = (int64_t)x - (int64_t)acc;
  return (uint32_t)((int64_t)acc + (diff >> alpha));
}

ucm_sense_t ucm_sense_resolved(const ucm_sense_t *t) {
  ucm_sense_t r = *t;
  if (!r.ts_ps) r.ts_ps = UCM_SENSE_TS_RESET_PS;
  if (!r.vpre_mv) r.vpre_mv = UCM_SENSE_VPRE_RESET_MV;
  if (!r.csl_ff) r.csl_ff = UCM_SENSE_CSL_RESET_FF;
  if (!r.cacc_ff) r.cacc_ff = UCM_SENSE_CACC_RESET_FF;
  return r;
}

uint32_t ucm_recip24(uint32_t n) {
  return (1u << 24) / n;
}

uint32_t ucm_exp2_neg(uint32_t f) {
  /* The table is built once: 256 steps of the recurrence. */
  static uint32_t table[256];
  if (!table[0]) {
    uint64_t e = 1ull << 30;
    for (uint32_t i = 0; i < 256; i++) {
      table[i] = (uint32_t)((e + (1u << 13)) >> 14);
      e = (e * 1070838486ull + (1u << 29)) >> 30; /* round(2^30 * 2^(-1/256)) */
    }
  }
  return table[f & 255];
}

uint32_t ucm_sense_rate(uint32_t ts_ps, uint32_t csl_ff) {
  return (uint32_t)((uint64_t)ts_ps * UCM_SENSE_RATE_K * ucm_recip24(csl_ff) >> 24);
}

uint32_t ucm_share_weight(uint32_t csl_ff, uint32_t cacc_ff) {
  return (uint32_t)((uint64_t)csl_ff * ucm_recip24(csl_ff + cacc_ff) >> 8);
}

uint32_t ucm_query_drive(const int8_t *qlevel, uint32_t dim) {
  uint32_t sum = 0;
  for (uint32_t d = 0; d < dim; d++) sum += (uint32_t)(qlevel[d] < 0 ? -qlevel[d] : qlevel[d]);
  return UCM_CELL_MAX * sum;
}

uint32_t ucm_sense_voltage(int32_t s, uint32_t drive, uint32_t rate, uint32_t vpre_mv) {
  int64_t mismatch = (int64_t)drive - s;
  if (mismatch < 0) mismatch = 0;
  uint64_t z = (uint64_t)mismatch * rate;
  uint64_t octaves = z >> 24;
  if (octaves >= 32) return 0;
  return (vpre_mv * ucm_exp2_neg((uint32_t)(z >> 16) & 255)) >> octaves;
}

uint32_t ucm_charge_circuit(uint32_t acc, uint32_t v, uint32_t w) {
  int64_t step = ((int64_t)v - (int64_t)acc) * (int64_t)w;
  return (uint32_t)((int64_t)acc + (step >> 16));
}

static int in_range(uint32_t v, uint32_t lo, uint32_t hi) {
  return v >= lo && v <= hi;
}

int ucm_sense_time_ok(uint32_t value) {
  return in_range((value & UCM_SENSE_TIME_TS_MASK) >> UCM_SENSE_TIME_TS_LSB, UCM_SENSE_TS_MIN_PS, UCM_SENSE_TS_MAX_PS) &&
         in_range((value & UCM_SENSE_TIME_VPRE_MASK) >> UCM_SENSE_TIME_VPRE_LSB, UCM_SENSE_VPRE_MIN_MV,
                  UCM_SENSE_VPRE_MAX_MV);
}

int ucm_sense_cap_ok(uint32_t value) {
  return (value & UCM_SENSE_CAP_CSL_MASK) >> UCM_SENSE_CAP_CSL_LSB >= UCM_SENSE_CAP_MIN_FF &&
         (value & UCM_SENSE_CAP_CACC_MASK) >> UCM_SENSE_CAP_CACC_LSB >= UCM_SENSE_CAP_MIN_FF;
}
