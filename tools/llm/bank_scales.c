#include "bank_scales.h"

#include <stdlib.h>

struct bank_samples {
  int32_t *v[2]; /* key scales, head factors */
  size_t n[2], cap[2];
};

int bank_scales_init(bank_scales_t *b, int banks) {
  b->banks = banks;
  b->of = calloc((size_t)banks, sizeof *b->of);
  return b->of ? 0 : -1;
}

static int push(struct bank_samples *s, int which, int32_t v) {
  if (s->n[which] == s->cap[which]) {
    size_t cap = s->cap[which] ? 2 * s->cap[which] : 1024;
    int32_t *grown = realloc(s->v[which], sizeof *grown * cap);
    if (!grown) return -1;
    s->v[which] = grown, s->cap[which] = cap;
  }
  s->v[which][s->n[which]++] = v;
  return 0;
}

int bank_scales_add(bank_scales_t *b, const prompt_tape_t *t) {
  int err = 0;
  for (int bank = 0; bank < t->layers * t->kv_heads; bank++) /* key_scale: [bank][pos] */
    for (int pos = 0; pos < t->n; pos++)
      err |= push(&b->of[bank], 0, t->key_scale[(size_t)bank * (size_t)t->n + (size_t)pos]);
  for (int i = 0; i < t->n_calls; i++) {
    int layer, kvh, count;
    const int32_t *factor = prompt_tape_head_factors(t, i, &layer, &kvh, &count);
    for (int j = 0; j < count; j++) err |= push(&b->of[layer * t->kv_heads + kvh], 1, factor[j]);
  }
  return err;
}

static int ascending(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

int bank_scales_trim(bank_scales_t *b, int percentile, int32_t *out) {
  for (int h = 0; h < b->banks; h++)
    for (int which = 0; which < 2; which++) {
      struct bank_samples *s = &b->of[h];
      if (!s->n[which]) return -1;
      qsort(s->v[which], s->n[which], sizeof(int32_t), ascending);
      size_t at = (s->n[which] * (size_t)percentile + 99) / 100;
      int32_t v = s->v[which][at ? at - 1 : 0];
      out[2 * h + which] = v > 1 ? v : 1;
    }
  return 0;
}

void bank_scales_free(bank_scales_t *b) {
  for (int h = 0; b->of && h < b->banks; h++) free(b->of[h].v[0]), free(b->of[h].v[1]);
  free(b->of);
  b->of = 0;
}
