/* kv_soak: a long run of the KV cache alone, far past any model's context:
   a PROMPT-position prefill, then STEPS decode steps of seeded synthetic keys,
   values and queries under every policy of the registry (in software, and
   every one again on the golden model of the array), the cache's invariants
   checked after every step: the size as the prompt rule and the capacity
   give, no slot leaked, no position twice, the protected positions kept,
   scores bounded, the banks agreeing with the slot tables; and the
   evictions counted exactly. A policy that keeps every generated position
   runs until its table is full.
   usage: kv_soak STEPS [BUDGET] */
#include <stdio.h>
#include <stdlib.h>

#include "kv_array.h"
#include "kv_policy.h"
#include "ucm.h"
#include "ucm_arrays.h"

enum { LAYERS = 1, KV_HEADS = 2, GROUP = 2, HEAD = 32, SLOTS = 1024, PROMPT = 256 };

static uint32_t rng_state = 1;

static int8_t draw(int spread) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return (int8_t)((int)(rng_state % (uint32_t)(2 * spread + 1)) - spread);
}

/* Keys share a few directions, so attention concentrates on some positions
   (heavy hitters) instead of spreading evenly. */
static void vector(int8_t *v, int pos) {
  for (int i = 0; i < HEAD; i++) v[i] = draw(40);
  if (pos % 7 == 0)
    for (int i = 0; i < HEAD; i += 4) v[i] = 120;
}

/* Evictions a head sees: the prompt compressed to its budget, then one per
   position past the capacity. */
static uint32_t expected_evictions(const kv_cache_t *kv, int steps) {
  int prompt = PROMPT < kv->slots ? PROMPT : kv->slots, kept = prompt < kv->prompt_keep ? prompt : kv->prompt_keep;
  int over = kept + steps - kv->capacity;
  return (uint32_t)((PROMPT - kept) + (over > 0 ? over : 0)) * KV_HEADS;
}

static int soak(kv_cache_t *kv, const kv_policy_ops_t *ops, int budget, int steps) {
  kv_policy_t p;
  kv_policy_make(&p, ops, budget);
  const char *why = kv_set_policy(kv, &p);
  if (why) {
    printf("%s: %s\n", ops->name, why);
    return -1;
  }
  if (kv->capacity >= kv->slots && PROMPT + steps > kv->slots) steps = kv->slots - PROMPT; /* keeps everything */
  kv_begin(kv, PROMPT);
  int8_t key8[HEAD], value[HEAD], q[GROUP][HEAD];
  int16_t key[HEAD];
  int32_t out[GROUP][HEAD];
  const int8_t *queries[GROUP] = {q[0], q[1]};
  int32_t *outs[GROUP] = {out[0], out[1]};
  const int32_t factor[GROUP] = {(1 << 24) / 127 / 6, (1 << 24) / 127 / 6}; /* 1/127 per unit, / sqrt(32) */
  for (int pos = 0; pos < PROMPT + steps; pos++) {
    for (int kvh = 0; kvh < KV_HEADS; kvh++) {
      vector(key8, pos);
      for (int i = 0; i < HEAD; i++) key[i] = (int16_t)(key8[i] * (1 << KV_KEY_INT8_SHIFT));
      vector(value, pos);
      kv_store(kv, 0, kvh, pos, key, (1 << 24) / KV_KEY_MAX, value, (1 << 24) / 127);
    }
    for (int kvh = 0; kvh < KV_HEADS; kvh++) {
      for (int j = 0; j < GROUP; j++) vector(q[j], 0);
      kv_attend(kv, 0, kvh, pos, GROUP, queries, factor, outs);
    }
    kv_end_step(kv, 0, pos);
    if (kv_check(kv, pos, GROUP) || kv->error) {
      printf("%s: invariant broken at position %d%s%s\n", ops->name, pos, kv->error ? ": " : "",
             kv->error ? ucm_strerror(kv->error) : "");
      return -1;
    }
  }
  uint32_t expected = expected_evictions(kv, steps);
  if (kv->evictions != expected) {
    printf("%s: %lu evictions, expected %lu\n", ops->name, (unsigned long)kv->evictions, (unsigned long)expected);
    return -1;
  }
  printf("%s%s: %d positions at a budget of %d, %lu evictions, invariants hold\n", ops->name,
         kv_on_array(kv) ? " (array)" : "", PROMPT + steps, budget, (unsigned long)kv->evictions);
  return 0;
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 0, budget = argc > 2 ? atoi(argv[2]) : 64;
  if (argc < 2 || argc > 3 || steps < 1 || PROMPT + steps > 65535 || budget < 18 || budget > PROMPT) {
    fprintf(stderr, "usage: kv_soak STEPS (1..%d) [BUDGET (18..%d)]\n", 65535 - PROMPT, PROMPT);
    return 2;
  }
  static int32_t att[GROUP * SLOTS];
  kv_cache_t kv;
  kv_init(&kv, LAYERS, KV_HEADS, HEAD, SLOTS, att, malloc(kv_bytes(LAYERS, KV_HEADS, HEAD, SLOTS)));
  ucm_geom_t geom = UCM_ARRAY_SIM; /* the simulator's device, in this cache's shape */
  geom.banks = LAYERS * KV_HEADS;
  geom.slots = SLOTS;
  geom.dim = HEAD;
  ucm_model_t model;
  ucm_t array;
  if (ucm_model_init(&model, &geom, malloc(ucm_model_bytes(&geom))) || ucm_open_model(&array, &model)) return 2;
  int failed = 0;
  for (int i = 0; kv_policies[i]; i++)
    if (!(kv_policies[i]->flags & KV_POLICY_ARRAY)) failed |= soak(&kv, kv_policies[i], budget, steps);
  if (kv_use_unicaim(&kv, &array, 0, KV_EXACT_ADC)) return 2;
  for (int i = 0; kv_policies[i]; i++) failed |= soak(&kv, kv_policies[i], budget, steps);
  return failed ? 1 : 0;
}
