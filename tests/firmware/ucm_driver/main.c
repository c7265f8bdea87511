/* The UniCAIM driver on the SoC: a seeded sequence of driver calls runs
 * through the block (MMIO) and through the golden model compiled into this
 * firmware, and every result must agree -- return codes, selections,
 * similarities, exact scores, slot metadata, victims, counters. Then the
 * driver's error codes for every misuse, and the block's interrupt. */
#include <stdint.h>
#include <stdio.h>

#include "irq.h"
#include "soc_regs.h"
#include "ucm.h"

#define OPS 400
/* The simulator's arrays; a board's build sets smaller ones (mk/boards.mk). */
#ifndef MAX_SLOTS
#define MAX_SLOTS 1024
#endif
#ifndef MODEL_BYTES
#define MODEL_BYTES (512 * 1024)
#endif

static uint32_t model_mem[MODEL_BYTES / 4];
static ucm_model_t model;
static ucm_t hw, ref;
static unsigned failures;
static uint32_t rng = 12345;

static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static void check(int ok, const char *what, int a, int b) {
  if (!ok && failures++ < 10) printf("FAIL %s: block %d model %d\n", what, a, b);
}
#define SAME(what, a, b) check((a) == (b), what, (int)(a), (int)(b))

static void random_vector(int8_t *v, unsigned dim) {
  for (unsigned d = 0; d < dim; d++) v[d] = (int8_t)(rnd() % 4 ? (int)(rnd() % 61) - 30 : (int)rnd());
}

static uint16_t sel_hw[MAX_SLOTS], sel_ref[MAX_SLOTS];
static int32_t val_hw[MAX_SLOTS], val_ref[MAX_SLOTS];

static void one_op(unsigned banks, unsigned slots, unsigned dim) {
  int8_t v[256];
  unsigned bank = rnd() % banks, slot = rnd() % slots;
  unsigned r = rnd() % 100;
  if (r < 35) {
    random_vector(v, dim);
    int protect = rnd() % 8 == 0;
    uint16_t pos = (uint16_t)(rnd() % 64); /* repeats: min-detect ties on position */
    SAME("write_key", ucm_write_key(&hw, bank, slot, pos, v, protect),
         ucm_write_key(&ref, bank, slot, pos, v, protect));
  } else if (r < 60) {
    random_vector(v, dim);
    ucm_load_query(&hw, v);
    ucm_load_query(&ref, v);
    unsigned k = 1 + rnd() % (model.valid_count[bank] + 2); /* sometimes too many: UCM_E_K */
    unsigned flags = rnd() % 8;
    int32_t thr = (int32_t)(rnd() % 400) - 200;
    int a = ucm_search(&hw, bank, k, flags, thr, sel_hw, val_hw);
    int b = ucm_search(&ref, bank, k, flags, thr, sel_ref, val_ref);
    SAME("search count", a, b);
    for (int i = 0; i < a && i < b; i++) {
      SAME("search slot", sel_hw[i], sel_ref[i]);
      SAME("search similarity", val_hw[i], val_ref[i]);
    }
    if (a > 0 && a == b) {
      int ideal = rnd() % 2;
      SAME("exact_selected", ucm_exact_selected(&hw, bank, (unsigned)a, ideal, val_hw),
           ucm_exact_selected(&ref, bank, (unsigned)b, ideal, val_ref));
      for (int i = 0; i < a; i++) SAME("exact score", val_hw[i], val_ref[i]);
    }
  } else if (r < 70) {
    unsigned n = 1 + rnd() % 16;
    uint16_t addends[16];
    for (unsigned i = 0; i < n; i++) {
      sel_hw[i] = (uint16_t)(rnd() % slots);
      addends[i] = (uint16_t)rnd();
    }
    SAME("accumulate", ucm_accumulate(&hw, bank, sel_hw, addends, n),
         ucm_accumulate(&ref, bank, sel_hw, addends, n));
  } else if (r < 80) {
    SAME("find_victim", ucm_find_victim(&hw, bank), ucm_find_victim(&ref, bank));
  } else if (r < 88) {
    int protect = rnd() % 2;
    if (rnd() % 2) {
      SAME("set_protect", ucm_set_protect(&hw, bank, slot, protect),
           ucm_set_protect(&ref, bank, slot, protect));
    } else {
      SAME("invalidate", ucm_invalidate(&hw, bank, slot), ucm_invalidate(&ref, bank, slot));
    }
  } else if (r < 96) {
    ucm_slot_info_t a, b;
    SAME("read_slot", ucm_read_slot(&hw, bank, slot, &a), ucm_read_slot(&ref, bank, slot, &b));
    SAME("slot valid", a.valid, b.valid);
    SAME("slot protect", a.protect, b.protect);
    SAME("slot pos", a.pos, b.pos);
    SAME("slot acc", a.acc, b.acc);
    SAME("valid count", a.valid_count, b.valid_count);
  } else {
    ucm_config_t cfg = {.query_step = (uint8_t)(1 + rnd() % 20),
                        .alpha = (uint8_t)(rnd() % 8),
                        .adc_gain = (uint8_t)(1 + rnd() % 8),
                        .adc_shift = (uint8_t)(rnd() % 4),
                        .sigma = (uint8_t)(rnd() % 2 ? rnd() % 40 : 0),
                        .read_noise = (uint8_t)(rnd() % 2 ? rnd() % 40 : 0),
                        .stuck_rate = (uint16_t)(rnd() % 2 ? rnd() % 2000 : 0),
                        .seed = rnd(),
                        .acc_init = rnd() % 4 ? 0 : rnd()};
    ucm_configure(&hw, &cfg);
    ucm_configure(&ref, &cfg);
    uint8_t step = (uint8_t)(1 + rnd() % 30);
    SAME("set_step", ucm_set_step(&hw, bank, step), ucm_set_step(&ref, bank, step));
  }
}

static volatile unsigned irq_count;
static void on_array_irq(void) {
  irq_count++;
  UCM_STATUS = UCM_STATUS_DONE_MASK; /* acknowledge */
  (void)UCM_STATUS;                  /* device writes land a cycle later */
}

static void misuse(unsigned banks, unsigned slots, unsigned dim) {
  int8_t v[256] = {1, 2, 3};
  ucm_slot_info_t info;
  check(ucm_write_key(&hw, banks, 0, 0, v, 0) == UCM_E_BANK, "bank out of range", 0, 0);
  check(ucm_write_key(&hw, 0, slots, 0, v, 0) == UCM_E_SLOT, "slot out of range", 0, 0);
  check(ucm_write_key(&hw, 300, 0, 0, v, 0) == UCM_E_BANK, "bank above 255", 0, 0);
  check(ucm_reset_bank(&hw, 0) == UCM_OK, "reset bank", 0, 0);
  check(ucm_search(&hw, 0, 1, 0, 0, sel_hw, val_hw) == UCM_E_K, "k above the valid count", 0, 0);
  check(ucm_write_key(&hw, 0, 3, 7, v, 1) == UCM_OK, "write protected", 0, 0);
  check(ucm_search(&hw, 0, 0, 0, 0, sel_hw, val_hw) == UCM_E_K, "k of 0", 0, 0);
  check(ucm_find_victim(&hw, 0) == UCM_E_NOVICTIM, "only protected slots: no victim", 0, 0);
  check(ucm_exact(&hw, 0, sel_hw, 0, 0, val_hw) == UCM_E_COUNT, "exact of 0 slots", 0, 0);
  sel_hw[0] = (uint16_t)slots;
  check(ucm_exact(&hw, 0, sel_hw, 1, 0, val_hw) == UCM_E_SLOT, "exact of a slot out of range", 0, 0);
  uint16_t add = 5;
  check(ucm_accumulate(&hw, 0, sel_hw, &add, 1) == UCM_E_SLOT, "accumulate out of range", 0, 0);
  check(ucm_read_slot(&hw, 0, 3, &info) == UCM_OK && info.acc == 0 && info.pos == 7 && info.protect,
        "refused accumulate changed nothing", 0, 0);
  UCM_CMD = 15;
  while (UCM_STATUS & UCM_STATUS_BUSY_MASK) {
  }
  check((UCM_STATUS & UCM_STATUS_ERR_CMD_MASK) != 0, "unknown operation", 0, 0);
  /* A register write while a search runs is dropped and reported. */
  for (unsigned s = 0; s < slots; s++) ucm_write_key(&hw, 1 % banks, s, (uint16_t)s, v, 0);
  UCM_CMD = UCM_OP_SEARCH | (1u % banks) << UCM_CMD_BANK_LSB | 1u << UCM_CMD_ARG_LSB;
  UCM_POS = 1234;
  while (UCM_STATUS & UCM_STATUS_BUSY_MASK) {
  }
  check((UCM_STATUS & UCM_STATUS_ERR_BUSY_MASK) && UCM_POS != 1234, "write while busy", 0, 0);
  UCM_STATUS = UCM_STATUS_ERR_BUSY_MASK;
  (void)dim;
  /* Completion interrupt. */
  irq_attach_external(SYSCTL_IRQ_PENDING_UCM_LSB, on_array_irq);
  irq_global_enable();
  UCM_STATUS = UCM_STATUS_DONE_MASK; /* DONE of the last command would interrupt at once */
  UCM_IRQ_ENABLE = UCM_IRQ_ENABLE_DONE_MASK;
  check(ucm_find_victim(&hw, 1 % banks) >= 0, "victim", 0, 0);
  for (int spin = 0; spin < 100 && !irq_count; spin++) {
  }
  check(irq_count == 1, "completion interrupt", (int)irq_count, 1);
  UCM_IRQ_ENABLE = 0;
}

int main(void) {
  int err = ucm_open_mmio(&hw);
  if (err) {
    printf("FAIL open: %s\n", ucm_strerror(err));
    return 1;
  }
  const ucm_geom_t *g = &hw.geom;
  printf("array: %lu banks x %lu slots x %lu dims, %lu-bit cells, %lu lanes\n", (unsigned long)g->banks,
         (unsigned long)g->slots, (unsigned long)g->dim, (unsigned long)g->cell_bits,
         (unsigned long)g->lanes);
  if (ucm_model_bytes(g) > sizeof model_mem || g->slots > MAX_SLOTS || g->dim > 256 ||
      ucm_model_init(&model, g, model_mem) || ucm_open_model(&ref, &model)) {
    printf("FAIL: geometry too large for this test\n");
    return 1;
  }
  ucm_clear_counters(&hw);
  unsigned banks = g->banks < 3 ? g->banks : 3; /* a few banks: fuller ones */
  for (unsigned i = 0; i < OPS; i++) one_op(banks, g->slots, g->dim);
  ucm_counters_t a, b;
  ucm_read_counters(&hw, &a);
  ucm_read_counters(&ref, &b);
  for (unsigned i = 0; i < UCM_COUNTERS; i++) {
    if (a.v[i] != b.v[i]) printf("counter %u differs\n", i);
    SAME("counter", a.v[i], b.v[i]);
  }
  printf("%u driver operations on block and model: %s\n", OPS, failures ? "MISMATCH" : "agree");
  printf("searches %lu, busy cycles: write %lu search %lu exact %lu\n", (unsigned long)a.v[UCM_CNT_EV_SEARCH],
         (unsigned long)a.v[UCM_CNT_CYC_WRITE], (unsigned long)a.v[UCM_CNT_CYC_SEARCH],
         (unsigned long)a.v[UCM_CNT_CYC_EXACT]);
  misuse(g->banks, g->slots, g->dim);
  printf("%s\n", failures ? "ucm_driver FAIL" : "ucm_driver PASS");
  return failures ? 1 : 0;
}
