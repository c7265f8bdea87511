#include "ucm_baselines.h"

/* ---------------------------------------------------------------- coefficients
 * fJ, ps, um^2; 45 nm unless said.
 *
 * Digital logic and SRAM (Horowitz, "Computing's energy problem", ISSCC
 * 2014, 45 nm): 8-bit multiply 0.2 pJ, 32-bit add 0.1 pJ, 64-bit read of a
 * 32 KB SRAM 20 pJ.
 *   E_MAC8        300 fJ: an int8 multiply and a 32-bit accumulate.
 *   E_SRAM_BYTE   2500 fJ: a byte of a key read from a 32 KB SRAM bank.
 *   E_CMP         100 fJ: a compare-and-swap of two scores (a 32-bit add).
 *   A_SRAM_BIT    0.346 um^2: a 6T cell at 45 nm.
 *   A_MAC8        250 um^2: an 8 x 8 multiplier with its adder (45 nm cells).
 *   A_CMP         200 um^2: a comparator with its registers.
 * Digital SRAM CIM (the compute in the array, no key read-out)
 *   E_DCIM_MAC8   127 fJ per int8 MAC: CIMFormer's peak 15.71 TOPS/W (JSSC
 *                 2024, 28 nm; 2 operations a MAC), not scaled to 45 nm (which
 *                 would make the SRAM CIM designs costlier).
 *   E_DCIM_MAC16  509 fJ per int16 MAC (TranCIM's attention precision, JSSC
 *                 2023): 4 x the int8 MAC, bit-serial over twice the input
 *                 bits into twice-wide weights.
 *   A_DCIM_BIT    0.60 um^2: an 8T compute cell with its share of the
 *                 bit-serial adder tree (6T 0.346 um^2 + read port + logic).
 *   A_TREE        2560 um^2 per row engine: a DIM-input (128) adder tree, ~20
 *                 um^2 an input.
 *   Bit-serial: a key takes one cycle per input bit (8 or 16).
 * ReRAM analog thresholding (Sprint, Yazdanbakhsh et al., MICRO 2022)
 *   E_RERAM_CELL  4 fJ per cell per input bit plane: 0.2 V read across ~10 uS
 *                 (2 uA) for 10 ns.
 *   E_THRESHOLD   20 fJ per key: the in-memory threshold comparator (no ADC).
 *   T_RERAM_READ  10 ns per input bit plane; the approximate scores use the
 *                 4 most significant query bits against 4-bit keys (2 cells
 *                 of 2 bits), all crossbars at once.
 *   E_RERAM_BYTE  1000 fJ per byte read out digitally for the recompute.
 *   A_RERAM_CELL  0.05 um^2: 1T1R (~25 F^2 at 45 nm); A_THRESHOLD 50 um^2 a key.
 *   The kept keys are read out (64 per 10 ns read) and recomputed in digital
 *   on the 64 row engines.
 * All designs: 64 row engines at 1 GHz, like the array's 64 ADCs.
 * Choices without a primary source (ucm_baseline_params_t, swept by
 * ucm_report --sensitivity): the 64 engines, the top-k spread perfectly
 * over them, CIMFormer's MAC energy at its 28 nm figure. */
enum {
  E_MAC8 = 300,
  E_SRAM_BYTE = 2500,
  E_CMP = 100,
  A_SRAM_BIT_X1000 = 346,
  A_MAC8 = 250,
  A_CMP = 200,
  E_DCIM_MAC8 = 127,
  E_DCIM_MAC16 = 509,
  A_DCIM_BIT_X100 = 60,
  A_TREE = 2560,
  E_RERAM_CELL = 4,
  E_THRESHOLD = 20,
  T_RERAM_READ = 10000,
  E_RERAM_BYTE = 1000,
  A_RERAM_CELL_X100 = 5,
  A_THRESHOLD = 50,
  T_CYCLE = 1000,
  SPRINT_QUERY_BITS = 4,
  SPRINT_CELLS = 2,
};

static uint64_t ceil_div(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

static uint32_t log2_ceil(uint32_t n) {
  uint32_t b = 0;
  while ((1u << b) < n) b++;
  return b;
}

const ucm_baseline_params_t ucm_baseline_defaults = {.engines = 64, .topk = UCM_TOPK_SPREAD, .dcim_mac_x100 = 100};

/* The top k of N scores on P's comparators: a sort, N log2 N compare-and-
   swaps spread over them, or a bitonic network (log2 N (log2 N + 1) / 2
   stages of N / 2 compare-and-swaps, each stage on the comparators in turn). */
static ucm_cost_t sort_scores(uint32_t n, const ucm_baseline_params_t *p) {
  const uint64_t lg = log2_ceil(n);
  if (p->topk == UCM_TOPK_BITONIC) {
    const uint64_t stages = lg * (lg + 1) / 2, half = ((uint64_t)1 << lg) / 2;
    ucm_cost_t c = {stages * half * E_CMP, stages * ceil_div(half, p->engines) * T_CYCLE};
    return c;
  }
  const uint64_t compares = (uint64_t)n * lg;
  ucm_cost_t c = {compares * E_CMP, ceil_div(compares, p->engines) * T_CYCLE};
  return c;
}

/* Digital dot products of N keys read from SRAM, one key per engine cycle. */
static ucm_cost_t digital_scores(uint32_t n, uint32_t dim, const ucm_baseline_params_t *p) {
  ucm_cost_t c = {(uint64_t)n * dim * (E_MAC8 + E_SRAM_BYTE), ceil_div(n, p->engines) * T_CYCLE};
  return c;
}

/* Digital CIM: N keys, bit-serial over INPUT_BITS cycles a key and engine. */
static ucm_cost_t dcim_scores(uint32_t n, uint32_t dim, uint32_t mac_fj, uint32_t input_bits,
                              const ucm_baseline_params_t *p) {
  ucm_cost_t c = {(uint64_t)n * dim * mac_fj * p->dcim_mac_x100 / 100,
                  ceil_div((uint64_t)n * input_bits, p->engines) * T_CYCLE};
  return c;
}

static ucm_cost_t plus(ucm_cost_t a, ucm_cost_t b) {
  ucm_cost_t c = {a.energy_fj + b.energy_fj, a.latency_ps + b.latency_ps};
  return c;
}

const char *ucm_baseline_name(ucm_baseline_t b) {
  static const char *const names[UCM_BASELINES] = {"digital", "trancim", "cimformer", "sprint"};
  return (unsigned)b < UCM_BASELINES ? names[b] : "?";
}

ucm_cost_t ucm_baseline_step(ucm_baseline_t b, const ucm_step_t *s) {
  return ucm_baseline_step_with(b, s, &ucm_baseline_defaults);
}

ucm_cost_t ucm_baseline_step_with(ucm_baseline_t b, const ucm_step_t *s, const ucm_baseline_params_t *p) {
  switch (b) {
    case UCM_BASE_DIGITAL:
      return plus(digital_scores(s->n, s->dim, p), sort_scores(s->n, p));
    case UCM_BASE_TRANCIM:
      return dcim_scores(s->n, s->dim, E_DCIM_MAC16, 16, p);
    case UCM_BASE_CIMFORMER:
      return plus(dcim_scores(s->n, s->dim, E_DCIM_MAC8, 8, p), sort_scores(s->n, p));
    case UCM_BASE_SPRINT: {
      ucm_cost_t prune = {(uint64_t)s->n * s->dim * SPRINT_CELLS * SPRINT_QUERY_BITS * E_RERAM_CELL +
                              (uint64_t)s->n * E_THRESHOLD,
                          (uint64_t)SPRINT_QUERY_BITS * T_RERAM_READ};
      ucm_cost_t fetch = {(uint64_t)s->k * s->dim * (E_RERAM_BYTE + E_MAC8), ceil_div(s->k, p->engines) * T_RERAM_READ};
      return plus(prune, fetch);
    }
    default: {
      ucm_cost_t none = {0, 0};
      return none;
    }
  }
}

uint64_t ucm_baseline_area(ucm_baseline_t b, const ucm_step_t *s) {
  uint64_t cells = (uint64_t)s->n * s->dim;
  switch (b) {
    case UCM_BASE_DIGITAL:
      return cells * 8 * A_SRAM_BIT_X1000 / 1000 + (uint64_t)ucm_baseline_defaults.engines * (s->dim * A_MAC8 + A_CMP);
    case UCM_BASE_TRANCIM:
      return cells * 16 * A_DCIM_BIT_X100 / 100 + (uint64_t)ucm_baseline_defaults.engines * A_TREE;
    case UCM_BASE_CIMFORMER:
      return cells * 8 * A_DCIM_BIT_X100 / 100 + (uint64_t)ucm_baseline_defaults.engines * (A_TREE + A_CMP);
    case UCM_BASE_SPRINT:
      return cells * 4 * A_RERAM_CELL_X100 / 100 + (uint64_t)s->n * A_THRESHOLD + (uint64_t)ucm_baseline_defaults.engines * s->dim * A_MAC8;
    default:
      return 0;
  }
}
