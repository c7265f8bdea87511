#include "sampler.h"

#include "fixmath.h"

void llm_sampler_init(llm_sampler_t *s, int vocab_size, int32_t temperature, int32_t topp, uint64_t seed,
                      int32_t *probs, uint16_t *order) {
  s->vocab_size = vocab_size;
  s->temperature = temperature;
  s->topp = topp;
  s->rng = seed ? seed : 0x2545F4914F6CDD1Dull;
  s->probs = probs;
  s->order = order;
}

static uint32_t random_u32(uint64_t *state) {
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return (uint32_t)((*state * 0x2545F4914F6CDD1Dull) >> 32);
}

static int argmax(const int32_t *x, int n) {
  int best = 0;
  for (int i = 1; i < n; i++) {
    if (x[i] > x[best]) best = i;
  }
  return best;
}

int llm_sample(llm_sampler_t *s, const int32_t *logits) {
  const int n = s->vocab_size;
  if (s->temperature <= 0) return argmax(logits, n);

  /* Softmax of logits / temperature (one reciprocal, Q16). */
  int32_t max = logits[argmax(logits, n)];
  int64_t inv_temp = ((int64_t)FX_ONE << 16) / s->temperature;
  int64_t sum = 0;
  for (int i = 0; i < n; i++) {
    int64_t d = (((int64_t)logits[i] - max) * inv_temp) >> 16;
    s->probs[i] = fx_exp_neg(d < INT32_MIN ? INT32_MIN : (int32_t)d);
    sum += s->probs[i];
  }
  if (s->topp <= 0 || s->topp >= FX_ONE) {
    uint64_t r = ((uint64_t)random_u32(&s->rng) * (uint64_t)sum) >> 32; /* in [0, sum) */
    for (int i = 0; i < n; i++) {
      if (r < (uint64_t)s->probs[i]) return i;
      r -= (uint64_t)s->probs[i];
    }
    return n - 1;
  }

  /* Top-p: the smallest set of most likely tokens whose mass exceeds topp.
     Candidates below (1 - topp) / (n - 1) cannot be in it (llama2.c's cut). */
  int64_t cutoff = ((FX_ONE - (int64_t)s->topp) * sum / FX_ONE) / (n - 1);
  int count = 0;
  for (int i = 0; i < n; i++) {
    if (s->probs[i] >= cutoff) s->order[count++] = (uint16_t)i;
  }
  /* Insertion sort, descending (ties by lower id: deterministic). */
  for (int i = 1; i < count; i++) {
    uint16_t id = s->order[i];
    int j = i - 1;
    while (j >= 0 && (s->probs[s->order[j]] < s->probs[id] ||
                      (s->probs[s->order[j]] == s->probs[id] && s->order[j] > id))) {
      s->order[j + 1] = s->order[j];
      j--;
    }
    s->order[j + 1] = id;
  }
  int64_t limit = (int64_t)s->topp * sum / FX_ONE, mass = 0;
  int last = count - 1;
  for (int i = 0; i < count; i++) {
    mass += s->probs[s->order[i]];
    if (mass > limit) {
      last = i;
      break;
    }
  }
  uint64_t r = ((uint64_t)random_u32(&s->rng) * (uint64_t)mass) >> 32;
  for (int i = 0; i <= last; i++) {
    if (r < (uint64_t)s->probs[s->order[i]]) return s->order[i];
    r -= (uint64_t)s->probs[s->order[i]];
  }
  return s->order[last];
}
