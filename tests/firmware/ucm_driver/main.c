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
#include "ucm_check.h"

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
static uint16_t sel_hw[MAX_SLOTS], sel_ref[MAX_SLOTS];
static int32_t val_hw[MAX_SLOTS], val_ref[MAX_SLOTS];
static ucm_check_t chk = {&hw, &ref, &model, sel_hw, sel_ref, val_hw, val_ref, 12345, 0, 0};

static void check(int ok, const char *what, int a, int b) { ucm_check(&chk, ok, what, a, b); }

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
  ucm_check_ops(&chk, banks, OPS);
  ucm_counters_t a;
  ucm_check_counters(&chk, &a);
  printf("%u driver operations on block and model, %u checks: %s\n", OPS, chk.checks,
         chk.failures ? "MISMATCH" : "agree");
  printf("searches %lu, busy cycles: write %lu search %lu exact %lu\n", (unsigned long)a.v[UCM_CNT_EV_SEARCH],
         (unsigned long)a.v[UCM_CNT_CYC_WRITE], (unsigned long)a.v[UCM_CNT_CYC_SEARCH],
         (unsigned long)a.v[UCM_CNT_CYC_EXACT]);
  misuse(g->banks, g->slots, g->dim);
  printf("%s\n", chk.failures ? "ucm_driver FAIL" : "ucm_driver PASS");
  return chk.failures ? 1 : 0;
}
