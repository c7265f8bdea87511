/* What the array block costs and saves on this SoC, from its own counters
 * and the core's cycle counter in one run (build/sim_paper: the paper's
 * 576 x 128 array, one bank):
 *   cam_search_cycles_<S>x<D>  one CAM search over every slot (k = 64; also
 *                               k = 8 and 256, and threshold mode: it does not
 *                               depend on k)
 *   exact_cycles_k<K>_d<D>     exact scores of K slots (K = 16, 64, 128)
 *   attn_speedup_512x<D>       one attention step over 512 cached keys: dense
 *                               software attention on this core against the
 *                               block (CAM top-k, exact scores of the k
 *                               selected, softmax, values of the selected),
 *                               the dense step at its best: summing every
 *                               value row or only those of non-zero weights
 *                               (as the firmware's dense path does),
 *                               whichever is faster on this data. */
#include <stdint.h>
#include <stdio.h>

#include "attention.h"
#include "csr.h"
#include "fixmath.h"
#include "ucm.h"

#define MAX_DIM 256
#define ATTN_KEYS 512
#define TOP_K 32 /* the headline selection: 6.25% of 512 */

static int16_t keys[ATTN_KEYS * MAX_DIM]; /* int8 values, held as the firmware's cache holds keys */
static _Alignas(4) int8_t values[ATTN_KEYS * MAX_DIM]; /* attn_values reads rows a word at a time */
static int8_t key_row[MAX_DIM];
static _Alignas(4) int8_t query[MAX_DIM]; /* attn_dots reads it a word at a time */
static int32_t scores[ATTN_KEYS], out[MAX_DIM];
static uint16_t selected[ATTN_KEYS];
static uint32_t rng = 2026;

static int8_t rnd8(void) {
  rng = rng * 1664525u + 1013904223u;
  return (int8_t)(rng >> 24);
}

/* Probabilities (Q16, unnormalised order kept) from Q16 scores. */
static void softmax(int32_t *a, int n) {
  int32_t max = INT32_MIN;
  for (int i = 0; i < n; i++)
    if (a[i] > max) max = a[i];
  int64_t sum = 0;
  for (int i = 0; i < n; i++) {
    a[i] = fx_exp_neg(a[i] - max);
    sum += a[i];
  }
  int32_t inv = (int32_t)fx_recip32((uint32_t)sum);
  for (int i = 0; i < n; i++) a[i] = (int32_t)(((int64_t)a[i] * inv) >> 16);
}

/* Dot products (|.| < 2^21 for D = 128) to Q16 scores: / sqrt(D), one scale. */
static void to_scores(int32_t *a, int n, int32_t scale_q16) {
  for (int i = 0; i < n; i++) a[i] = (int32_t)(((int64_t)a[i] * scale_q16) >> 16);
}

/* SKIP: the value sums only over the non-zero weights. */
static void dense_attention(int n, int dim, int skip) {
  attn_dots(scores, query, keys, (size_t)dim, n, dim);
  to_scores(scores, n, 64);
  softmax(scores, n);
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (skip && !scores[i]) continue;
    scores[m] = scores[i];
    selected[m++] = (uint16_t)i;
  }
  attn_values_rows(out, scores, values, (size_t)dim, selected, m, dim, 0);
}

/* Exact scores are in eighths of a cell level: the key step turns them back
 * into int8 units. */
static int block_attention(ucm_t *u, int k, int dim, int step) {
  ucm_load_query(u, query);
  int n = ucm_search(u, 0, (unsigned)k, 0, 0, selected, 0);
  if (n < 0) return n;
  int err = ucm_exact_selected(u, 0, (unsigned)n, 0, scores);
  if (err) return err;
  (void)dim;
  to_scores(scores, n, 64 * step / 8);
  softmax(scores, n);
  attn_values_rows(out, scores, values, (size_t)dim, selected, n, dim, 0);
  return n;
}

static uint32_t counter_delta(ucm_t *u, int idx, const ucm_counters_t *before) {
  ucm_counters_t now;
  ucm_read_counters(u, &now);
  return now.v[idx] - before->v[idx];
}

int main(void) {
  ucm_t u;
  int err = ucm_open_mmio(&u);
  if (err) {
    printf("ucmbench: %s\n", ucm_strerror(err));
    return 1;
  }
  const unsigned slots = u.geom.slots, dim = u.geom.dim;
  if (dim > MAX_DIM || slots < 64) {
    printf("ucmbench: array too small or rows too long (%u x %u)\n", slots, dim);
    return 1;
  }
  printf("array %u slots x %u dims, %lu-bit cells, %lu lanes, %lu ADCs\n", slots, dim,
         (unsigned long)u.geom.cell_bits, (unsigned long)u.geom.lanes, (unsigned long)u.geom.adc_count);
  const int step = 16; /* keys in -128..127 -> levels -3..3 */
  ucm_config_t cfg = {.query_step = 24, .accumulation = {.linear = 1, .alpha = 2}, .adc_gain = 1, .adc_shift = 3, .seed = 1};
  ucm_configure(&u, &cfg);
  ucm_set_step(&u, 0, (uint8_t)step);
  ucm_reset_bank(&u, 0);
  for (unsigned s = 0; s < slots; s++) {
    for (unsigned d = 0; d < dim; d++) keys[(s % ATTN_KEYS) * dim + d] = key_row[d] = rnd8();
    if (ucm_write_key(&u, 0, s, (uint16_t)s, key_row, 0)) return 1;
  }
  for (unsigned d = 0; d < dim; d++) query[d] = rnd8();
  ucm_load_query(&u, query);

  ucm_counters_t c;
  static const unsigned ks[] = {64, 8, 256};
  for (unsigned i = 0; i < 3; i++) {
    ucm_read_counters(&u, &c);
    if (ucm_search(&u, 0, ks[i], 0, 0, 0, 0) != (int)ks[i]) return 1;
    uint32_t cyc = counter_delta(&u, UCM_CNT_CYC_SEARCH, &c);
    if (i == 0) printf("BENCH cam_search_cycles_%ux%u %lu cycles\n", slots, dim, (unsigned long)cyc);
    printf("BENCH cam_search_cycles_%ux%u_k%u %lu cycles\n", slots, dim, ks[i], (unsigned long)cyc);
  }
  ucm_read_counters(&u, &c);
  int nthr = ucm_search(&u, 0, slots, UCM_SEARCH_THRESHOLD, 0, 0, 0);
  printf("BENCH cam_search_cycles_%ux%u_threshold %lu cycles (%d selected)\n", slots, dim,
         (unsigned long)counter_delta(&u, UCM_CNT_CYC_SEARCH, &c), nthr);

  static const unsigned ns[] = {64, 16, 128};
  for (unsigned i = 0; i < 3; i++) {
    for (unsigned j = 0; j < ns[i]; j++) selected[j] = (uint16_t)(j * 4 % slots);
    ucm_read_counters(&u, &c);
    if (ucm_exact(&u, 0, selected, ns[i], 0, scores)) return 1;
    printf("BENCH exact_cycles_k%u_d%u %lu cycles (%lu ADC rounds)\n", ns[i], dim,
           (unsigned long)counter_delta(&u, UCM_CNT_CYC_EXACT, &c),
           (unsigned long)counter_delta(&u, UCM_CNT_EV_ADC_ROUND, &c));
  }

  /* Attention over 512 cached keys: only slots 0..511 stay valid. */
  unsigned n = slots < ATTN_KEYS ? slots : ATTN_KEYS;
  for (unsigned s = n; s < slots; s++) ucm_invalidate(&u, 0, s);
  for (unsigned i = 0; i < n * dim; i++) values[i] = rnd8();
  uint64_t t0 = read_cycle();
  dense_attention((int)n, (int)dim, 0);
  uint64_t dense = read_cycle() - t0;
  printf("BENCH attn_dense_cycles_%ux%u %llu cycles\n", n, dim, (unsigned long long)dense);
  t0 = read_cycle();
  dense_attention((int)n, (int)dim, 1);
  uint64_t dense_skip = read_cycle() - t0;
  printf("BENCH attn_dense_skip_cycles_%ux%u %llu cycles\n", n, dim, (unsigned long long)dense_skip);
  if (dense_skip < dense) dense = dense_skip;
  static const int tops[] = {TOP_K, 16, 64, 128};
  for (unsigned i = 0; i < 4; i++) {
    ucm_read_counters(&u, &c);
    t0 = read_cycle();
    int got = block_attention(&u, tops[i], (int)dim, step);
    uint64_t block = read_cycle() - t0;
    if (got != tops[i]) return 1;
    uint32_t busy = counter_delta(&u, UCM_CNT_CYC_SEARCH, &c) + counter_delta(&u, UCM_CNT_CYC_EXACT, &c);
    printf("BENCH attn_block_cycles_%ux%u_k%d %llu cycles (block busy %lu)\n", n, dim, tops[i],
           (unsigned long long)block, (unsigned long)busy);
    unsigned long x100 = (unsigned long)(dense * 100 / block);
    if (i == 0)
      printf("BENCH attn_speedup_%ux%u %lu.%02lu x (k=%d)\n", n, dim, x100 / 100, x100 % 100, tops[i]);
    printf("BENCH attn_speedup_%ux%u_k%d %lu.%02lu x\n", n, dim, tops[i], x100 / 100, x100 % 100);
  }
  return 0;
}
