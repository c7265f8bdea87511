/* Choosing the next token from Q16 logits: greedy (temperature 0), or seeded
   temperature sampling with optional top-p, all in integers. */
#ifndef LLM_SAMPLER_H
#define LLM_SAMPLER_H

#include <stdint.h>

typedef struct {
  int vocab_size;
  int32_t temperature; /* Q16; 0 = greedy */
  int32_t topp;        /* Q16; 0 or >= 65536 = off */
  uint64_t rng;        /* xorshift64* state, never 0 */
  int32_t *probs;      /* [vocab_size] work space */
  uint16_t *order;     /* [vocab_size] work space */
} llm_sampler_t;

void llm_sampler_init(llm_sampler_t *s, int vocab_size, int32_t temperature, int32_t topp, uint64_t seed,
                      int32_t *probs, uint16_t *order);
/* Returns the token; modifies nothing in LOGITS. */
int llm_sample(llm_sampler_t *s, const int32_t *logits);

#endif
