/* The banks' trimmed scales for unicaim's per-bank scale ablation (scale=1,
   kv_cache_t.bank_scale): what a chip designer would set per bank from
   development prompts -- a percentile of the keys' own scales and of the
   queries' head factors that reached the bank -- instead of normalising
   every key and query on its own. */
#ifndef BANK_SCALES_H
#define BANK_SCALES_H

#include <stdint.h>

#include "prompt_tape.h"

typedef struct {
  int banks;
  struct bank_samples *of; /* [bank]: the key scales and head factors seen */
} bank_scales_t;

/* 0, or -1 when memory runs out. */
int bank_scales_init(bank_scales_t *b, int banks);
/* Every key scale and query head factor of a recorded prompt. */
int bank_scales_add(bank_scales_t *b, const prompt_tape_t *t);
/* OUT[2 h], OUT[2 h + 1]: bank h's key scale and head factor at PERCENTILE
   (1..100) of those seen (sorted in place), at least 1. -1 when a bank saw
   none. */
int bank_scales_trim(bank_scales_t *b, int percentile, int32_t *out);
void bank_scales_free(bank_scales_t *b);

#endif
