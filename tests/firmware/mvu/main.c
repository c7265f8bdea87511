/* The matrix-vector unit (rtl/mvu/mvu.sv through hal/mvu.h) against the
 * definition of its sum, written from llm_model.h's layout accessors: per
 * row, over the groups, scale * (codes . x) + offset * SUM, in 64 bits. On
 * random matrices of 1 to 64 groups and 1 to 17 tiles (an odd number of
 * steps, rows padding the last tile), on the extremes of every operand, and
 * with results read late (more than the unit holds, while the core's own
 * accesses to external memory share the port). Then misuse: a result read
 * with none to come, starts the unit must refuse, a write during a run and
 * a store of a byte into its input window, each dropped with its flag. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dcache.h"
#include "llm_model.h"
#include "mvu.h"
#include "soc_regs.h"

#define MAX_TILES 17
#define MAX_GROUPS 64
#define MAX_COLS (MAX_GROUPS * LLM_GROUP)
#define MIN_CHECKS 1500

#define EXT __attribute__((section(".ext_bss"), aligned(64)))
static int8_t codes[MAX_TILES * 4 * MAX_COLS] EXT;
static int32_t params[MAX_TILES * MAX_GROUPS * 8] EXT;
static uint32_t traffic[4096] EXT; /* the core's own accesses during a run */
static int16_t x[MAX_COLS];
static int32_t sums[MAX_GROUPS];
static int64_t want[MAX_TILES * 4];
static uint32_t rng = 12345;
static unsigned checks, failures;

static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static void check(int ok, const char *what, long a, long b) {
  checks++;
  if (!ok && failures++ < 12) printf("FAIL %s (%ld, %ld)\n", what, a, b);
}

/* Operands: random, or (EXTREME) the ends of each type's range. */
static int32_t pick(int extreme, int32_t lo, int32_t hi) {
  if (extreme) return rnd() & 1 ? lo : hi;
  return lo + (int32_t)(rnd() % ((uint32_t)(hi - lo) + 1u));
}

/* A matrix of TILES x GROUPS, its inputs, and each row's expected sum. */
static llm_qmat_t make(int rows, int groups, int extreme, int true_sums) {
  llm_qmat_t m = {rows, groups * LLM_GROUP, LLM_GROUP, 0, 0, params, codes};
  const int tiles = (rows + 3) / 4, cols = groups * LLM_GROUP;
  /* Rows past ROWS pad the last tile with zeros, as in an image. */
  for (int i = 0; i < tiles * 4 * cols; i++) codes[i] = (i / 4 % 4) < rows - i / (4 * cols) * 4 ? (int8_t)pick(extreme, -128, 127) : 0;
  for (int i = 0; i < tiles * groups * 8; i++)
    params[i] = (i / 2 % 4) < rows - i / (8 * groups) * 4 ? (extreme ? pick(1, INT32_MIN, INT32_MAX) : (int32_t)rnd()) : 0;
  for (int c = 0; c < cols; c++) x[c] = (int16_t)pick(extreme, -32768, 32767);
  for (int j = 0; j < groups; j++) {
    int32_t s = 0;
    for (int i = 0; i < LLM_GROUP; i++) s += x[j * LLM_GROUP + i];
    sums[j] = true_sums ? s : (int32_t)rnd();
  }
  for (int r = 0; r < tiles * 4; r++) {
    uint64_t acc = 0; /* wraps as the unit's 64-bit sums do */
    for (int j = 0; j < groups && r < rows; j++) {
      int32_t dot = 0;
      for (int i = 0; i < LLM_GROUP; i++) dot += llm_qmat_at(&m, r, j * LLM_GROUP + i) * x[j * LLM_GROUP + i];
      acc += (uint64_t)((int64_t)llm_qmat_group(&m, r, j, 0) * dot) +
             (uint64_t)((int64_t)llm_qmat_group(&m, r, j, 1) * sums[j]);
    }
    want[r] = (int64_t)acc;
  }
  /* The unit reads memory, not the cache. */
  dcache_clean(codes, sizeof codes);
  dcache_clean(params, sizeof params);
  return m;
}

/* Rows past ROWS in the last tile are zeros: their sums (0) are checked
   too (they are what the kernel throws away). */
static void expect_results(const char *what, int rows) {
  for (int r = 0; r < (rows + 3) / 4 * 4; r++) {
    int64_t got = mvu_result();
    check(got == want[r], what, (long)r, (long)(got - want[r]));
  }
}

static uint32_t status(void) { return MVU_STATUS; }

static void run_shape(int rows, int groups, int extreme, int true_sums) {
  llm_qmat_t m = make(rows, groups, extreme, true_sums);
  int err = mvu_start(m.q, m.scale, (unsigned)(rows + 3) / 4, (unsigned)groups, x, sums);
  check(err == MVU_OK, mvu_strerror(err), rows, groups);
  if (err == MVU_OK) expect_results("row sum", rows);
}

/* More results than the unit holds, read after the core has worked through
   external memory itself (its misses share the port with the run). */
static void late_reads(void) {
  llm_qmat_t m = make(MAX_TILES * 4, 1, 0, 1);
  uint32_t stalls = MVU_STALL_CYCLES;
  check(mvu_start(m.q, m.scale, MAX_TILES, 1, x, sums) == MVU_OK, "late start", 0, 0);
  for (unsigned i = 0; i < 4096; i++) traffic[i] = i * 2654435761u;
  for (unsigned i = 0; i < 4096; i++) check(traffic[i] == i * 2654435761u, "traffic word", (long)i, 0);
  check(((status() & MVU_STATUS_RESULTS_MASK) >> MVU_STATUS_RESULTS_LSB) <= 32, "results held", 0, 0);
  check(MVU_STALL_CYCLES != stalls, "the unit waited for reads", 0, 0);
  expect_results("late row sum", MAX_TILES * 4);
  check(!(status() & MVU_STATUS_BUSY_MASK), "idle after the run", 0, 0);
}

static void misuse(void) {
  MVU_STATUS = MVU_STATUS_ERR_START_MASK | MVU_STATUS_ERR_BUSY_MASK | MVU_STATUS_ERR_EMPTY_MASK;
  /* A result with none to come: 0 at once, flagged. */
  uint32_t lo = MVU_RESULT_LO;
  check(lo == 0 && (status() & MVU_STATUS_ERR_EMPTY_MASK), "empty read", (long)lo, (long)status());
  MVU_STATUS = MVU_STATUS_ERR_EMPTY_MASK;
  check(!(status() & MVU_STATUS_ERR_EMPTY_MASK), "ERR_EMPTY cleared", 0, 0);

  /* Refused starts: misaligned, no tiles, no groups, too many groups. */
  const uint32_t at = (uint32_t)((uintptr_t)codes - EXT_BASE), pat = (uint32_t)((uintptr_t)params - EXT_BASE);
  const uint32_t bad[4][4] = {{at + 4, pat, 1, 1}, {at, pat, 0, 1}, {at, pat, 1, 0}, {at, pat, 1, MAX_GROUPS + 1}};
  for (int i = 0; i < 4; i++) {
    MVU_CODES = bad[i][0];
    MVU_PARAMS = bad[i][1];
    MVU_TILES = bad[i][2];
    MVU_GROUPS = bad[i][3];
    MVU_CTRL = MVU_CTRL_START_MASK;
    check((status() & (MVU_STATUS_ERR_START_MASK | MVU_STATUS_BUSY_MASK)) == MVU_STATUS_ERR_START_MASK,
          "start refused", i, (long)status());
    MVU_STATUS = MVU_STATUS_ERR_START_MASK;
  }
  check(mvu_start(x, params, 1, 1, x, sums) == MVU_ERR_PLACE, "matrix in RAM refused", 0, 0);
  check(mvu_start(codes, params, 1, MAX_GROUPS + 1, x, sums) == MVU_ERR_SHAPE, "too wide refused", 0, 0);

  /* Writes during a run are dropped: the sums are the inputs' of the start. */
  llm_qmat_t m = make(MAX_TILES * 4, 48, 0, 1);
  check(mvu_start(m.q, m.scale, MAX_TILES, 48, x, sums) == MVU_OK, "busy start", 0, 0);
  volatile uint32_t *xw = (volatile uint32_t *)(MVU_BASE + MVU_X_WINDOW);
  xw[0] = 0x7fff7fff;
  MVU_GROUPS = 2;
  check((status() & MVU_STATUS_ERR_BUSY_MASK) != 0, "write while busy flagged", 0, (long)status());
  expect_results("row sum after dropped writes", MAX_TILES * 4);
  check(MVU_GROUPS == 48, "GROUPS kept", (long)MVU_GROUPS, 48);
  MVU_STATUS = MVU_STATUS_ERR_BUSY_MASK;

  /* A byte stored into X is dropped (the window takes words). */
  m = make(4, 1, 0, 1);
  check(mvu_start(m.q, m.scale, 1, 1, x, sums) == MVU_OK, "start", 0, 0);
  expect_results("row sum", 4);
  *(volatile uint8_t *)(MVU_BASE + MVU_X_WINDOW) = 0x55;
  check((status() & MVU_STATUS_ERR_BUSY_MASK) != 0, "byte store flagged", 0, (long)status());
  MVU_CODES = (uint32_t)((uintptr_t)m.q - EXT_BASE);
  MVU_PARAMS = (uint32_t)((uintptr_t)m.scale - EXT_BASE);
  MVU_TILES = 1;
  MVU_GROUPS = 1;
  MVU_CTRL = MVU_CTRL_START_MASK;
  expect_results("row sum after a dropped byte", 4);
}

int main(void) {
  if (!mvu_present()) {
    printf("no matrix-vector unit\n");
    return 1;
  }
  const uint32_t caps = MVU_CAPS;
  printf("mvu: %lu groups, %lu results\n", (unsigned long)(caps & MVU_CAPS_MAX_GROUPS_MASK),
         (unsigned long)((caps & MVU_CAPS_RESULT_DEPTH_MASK) >> MVU_CAPS_RESULT_DEPTH_LSB));
  check(mvu_max_groups() == MAX_GROUPS, "MAX_GROUPS", (long)mvu_max_groups(), MAX_GROUPS);
  const int shapes[][2] = {{4, 1}, {8, 2}, {4, 3}, {12, 3}, {5, 2}, {36, 18}, {68, 48}, {8, 64}, {3, 7}};
  for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    run_shape(shapes[i][0], shapes[i][1], 0, 1);
    run_shape(shapes[i][0], shapes[i][1], 0, 0);
  }
  for (int i = 0; i < 4; i++) run_shape(8, 5, 1, i & 1);
  late_reads();
  misuse();
  printf("mvu: %u checks, %u failures\n", checks, failures);
  if (checks < MIN_CHECKS) printf("FAIL: fewer than %d checks ran\n", MIN_CHECKS);
  printf(failures == 0 && checks >= MIN_CHECKS ? "mvu PASS\n" : "mvu FAIL\n");
  return failures != 0 || checks < MIN_CHECKS;
}
