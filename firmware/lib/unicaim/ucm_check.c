#include "ucm_check.h"

#include <stdio.h>

static uint32_t rnd(ucm_check_t *c) {
  c->rng ^= c->rng << 13;
  c->rng ^= c->rng >> 17;
  c->rng ^= c->rng << 5;
  return c->rng;
}

void ucm_check(ucm_check_t *c, int ok, const char *what, int hw, int ref) {
  c->checks++;
  if (!ok && c->failures++ < 10) printf("FAIL %s: block %d model %d\n", what, hw, ref);
}
/* Each side evaluated once: they are often the operation itself. */
#define SAME(what, a, b)                        \
  do {                                          \
    int hw_ = (int)(a), ref_ = (int)(b);        \
    ucm_check(c, hw_ == ref_, what, hw_, ref_); \
  } while (0)

static void random_vector(ucm_check_t *c, int8_t *v, unsigned dim) {
  for (unsigned d = 0; d < dim; d++) v[d] = (int8_t)(rnd(c) % 4 ? (int)(rnd(c) % 61) - 30 : (int)rnd(c));
}

static void one_op(ucm_check_t *c, unsigned banks, unsigned slots, unsigned dim) {
  int8_t v[256];
  unsigned bank = rnd(c) % banks, slot = rnd(c) % slots;
  unsigned r = rnd(c) % 100;
  if (r < 35) {
    random_vector(c, v, dim);
    int protect = rnd(c) % 8 == 0;
    uint16_t pos = (uint16_t)(rnd(c) % 64); /* repeats: min-detect ties on position */
    SAME("write_key", ucm_write_key(c->hw, bank, slot, pos, v, protect),
         ucm_write_key(c->ref, bank, slot, pos, v, protect));
  } else if (r < 60) {
    random_vector(c, v, dim);
    ucm_load_query(c->hw, v);
    ucm_load_query(c->ref, v);
    unsigned k = 1 + rnd(c) % (c->model->valid_count[bank] + 2); /* sometimes too many: UCM_E_K */
    unsigned flags = rnd(c) % 8;
    int32_t thr = (int32_t)(rnd(c) % 400) - 200;
    int a = ucm_search(c->hw, bank, k, flags, thr, c->sel_hw, c->val_hw);
    int b = ucm_search(c->ref, bank, k, flags, thr, c->sel_ref, c->val_ref);
    SAME("search count", a, b);
    for (int i = 0; i < a && i < b; i++) {
      SAME("search slot", c->sel_hw[i], c->sel_ref[i]);
      SAME("search similarity", c->val_hw[i], c->val_ref[i]);
    }
    if (a > 0 && a == b) {
      int ideal = rnd(c) % 2;
      SAME("exact_selected", ucm_exact_selected(c->hw, bank, (unsigned)a, ideal, c->val_hw),
           ucm_exact_selected(c->ref, bank, (unsigned)b, ideal, c->val_ref));
      for (int i = 0; i < a; i++) SAME("exact score", c->val_hw[i], c->val_ref[i]);
    }
  } else if (r < 70) {
    unsigned n = 1 + rnd(c) % 16;
    uint16_t addends[16];
    for (unsigned i = 0; i < n; i++) {
      c->sel_hw[i] = (uint16_t)(rnd(c) % slots);
      addends[i] = (uint16_t)rnd(c);
    }
    SAME("accumulate", ucm_accumulate(c->hw, bank, c->sel_hw, addends, n),
         ucm_accumulate(c->ref, bank, c->sel_hw, addends, n));
  } else if (r < 80) {
    SAME("find_victim", ucm_find_victim(c->hw, bank), ucm_find_victim(c->ref, bank));
  } else if (r < 88) {
    int protect = rnd(c) % 2;
    if (rnd(c) % 2) {
      SAME("set_protect", ucm_set_protect(c->hw, bank, slot, protect),
           ucm_set_protect(c->ref, bank, slot, protect));
    } else {
      SAME("invalidate", ucm_invalidate(c->hw, bank, slot), ucm_invalidate(c->ref, bank, slot));
    }
  } else if (r < 96) {
    ucm_slot_info_t a, b;
    SAME("read_slot", ucm_read_slot(c->hw, bank, slot, &a), ucm_read_slot(c->ref, bank, slot, &b));
    SAME("slot valid", a.valid, b.valid);
    SAME("slot protect", a.protect, b.protect);
    SAME("slot pos", a.pos, b.pos);
    SAME("slot acc", a.acc, b.acc);
    SAME("valid count", a.valid_count, b.valid_count);
  } else {
    ucm_config_t cfg = {.query_step = (uint8_t)(1 + rnd(c) % 20),
                        .accumulation = {.linear = (uint8_t)(rnd(c) % 2),
                                         .alpha = (uint8_t)(rnd(c) % 8),
                                         .sense = {.ts_ps = (uint16_t)(rnd(c) % 3000),
                                                   .vpre_mv = (uint16_t)(rnd(c) % 1600),
                                                   .csl_ff = (uint8_t)rnd(c),
                                                   .cacc_ff = (uint8_t)rnd(c)}},
                        .adc_gain = (uint8_t)(1 + rnd(c) % 8),
                        .adc_shift = (uint8_t)(rnd(c) % 4),
                        .sigma = (uint8_t)(rnd(c) % 2 ? rnd(c) % 40 : 0),
                        .read_noise = (uint8_t)(rnd(c) % 2 ? rnd(c) % 40 : 0),
                        .stuck_rate = (uint16_t)(rnd(c) % 2 ? rnd(c) % 2000 : 0),
                        .seed = rnd(c),
                        .acc_init = rnd(c) % 4 ? 0 : rnd(c)};
    SAME("configure", ucm_configure(c->hw, &cfg), ucm_configure(c->ref, &cfg));
    uint8_t step = (uint8_t)(1 + rnd(c) % 30);
    SAME("set_step", ucm_set_step(c->hw, bank, step), ucm_set_step(c->ref, bank, step));
  }
}


void ucm_check_ops(ucm_check_t *c, unsigned banks, unsigned ops) {
  const ucm_geom_t *g = &c->hw->geom;
  for (unsigned i = 0; i < ops; i++) one_op(c, banks, g->slots, g->dim);
}

void ucm_check_counters(ucm_check_t *c, ucm_counters_t *hw) {
  ucm_counters_t ref;
  ucm_read_counters(c->hw, hw);
  ucm_read_counters(c->ref, &ref);
  for (unsigned i = 0; i < UCM_COUNTERS; i++) {
    if (hw->v[i] != ref.v[i]) printf("counter %u differs\n", i);
    SAME("counter", hw->v[i], ref.v[i]);
  }
}
