/* kv_trace: the key/value cache under a pruning policy, step by step, for a
   scripted sequence: tests/policy_reference.py compares the positions each
   step keeps with its own models of the policies, written from their papers.
   usage: kv_trace POLICY SLOTS PROMPT HEAD [--attended | --scaled KEY:FACTOR] < SCRIPT
   One layer and one KV head of HEAD components, SLOTS positions at most,
   the first PROMPT positions the prompt. SCRIPT has a line per position:
   HEAD key components then HEAD query components, int8; with --scaled two
   more, the key's scale and the query's head factor, and the bank's
   trimmed scales KEY:FACTOR (kv_cache_t.bank_scale) for scale=1. Each step and what
   it prints: firmware/lib/kv/kv_trace.h (the SoC runs the same steps,
   tests/firmware/kv_trace). A policy that runs on the array gets one bank
   of SLOTS rows of HEAD 3-bit cells on the golden model (one cell per
   component, no noise), its exact scores from the cached keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv_array.h"
#include "kv_policy.h"
#include "kv_trace.h"
#include "ucm_arrays.h"
#include "ucm_model.h"

int main(int argc, char **argv) {
  const int attended = argc == 6 && !strcmp(argv[5], "--attended");
  const int scaled = argc == 7 && !strcmp(argv[5], "--scaled");
  int32_t bank_scale[2] = {0, 0};
  if ((argc != 5 && !attended && !scaled) ||
      (scaled && (sscanf(argv[6], "%d:%d", &bank_scale[0], &bank_scale[1]) != 2 || bank_scale[0] < 1 ||
                  bank_scale[1] < 1))) {
    fprintf(stderr, "usage: kv_trace POLICY SLOTS PROMPT HEAD [--attended | --scaled KEY:FACTOR] < SCRIPT\n"
                    "  (KEY and FACTOR at least 1)\n");
    return 2;
  }
  const int slots = atoi(argv[2]), prompt = atoi(argv[3]), hs = atoi(argv[4]);
  if (slots < 2 || slots > 4096 || prompt < 1 || prompt >= slots || hs < 4 || hs > KV_MAX_HEAD_SIZE || hs % 4) {
    fprintf(stderr, "kv_trace: SLOTS 2..4096, PROMPT 1..SLOTS-1, HEAD 4..%d (a multiple of 4)\n", KV_MAX_HEAD_SIZE);
    return 2;
  }
  kv_cache_t kv;
  int32_t *att = malloc(sizeof(int32_t) * (size_t)slots * 2);
  void *arena = malloc(kv_bytes(1, 1, hs, slots));
  if (!att || !arena) return 2;
  kv_init(&kv, 1, 1, hs, slots, att, arena);
  ucm_geom_t geom = UCM_ARRAY_SIM;
  geom.banks = 1, geom.slots = (uint32_t)slots, geom.dim = (uint32_t)hs, geom.cell_bits = 3, geom.lanes = 1;
  ucm_model_t model;
  ucm_t array;
  void *cells = malloc(ucm_model_bytes(&geom));
  if (!cells || ucm_model_init(&model, &geom, cells) || ucm_open_model(&array, &model) ||
      kv_use_unicaim(&kv, &array, 0, KV_EXACT_DIGITAL))
    return 2;
  if (scaled) kv.bank_scale = bank_scale;
  kv_policy_t policy;
  char why[160];
  const char *refused = kv_policy_from_spec(&policy, argv[1], slots, kv.slots, why, sizeof why);
  if (!refused && !(policy.ops->flags & KV_POLICY_ARRAY)) kv_use_dense(&kv);
  if (!refused) refused = kv_set_policy(&kv, &policy);
  if (refused) {
    fprintf(stderr, "kv_trace: policy '%s' refused: %s\n", argv[1], refused);
    return 2;
  }
  kv_begin(&kv, prompt);
  int8_t key[KV_MAX_HEAD_SIZE], q[KV_MAX_HEAD_SIZE];
  const int numbers = 2 * hs + (scaled ? 2 : 0);
  for (int pos = 0; pos < slots; pos++) {
    int v, got = 0;
    kv_trace_scales_t scales;
    for (int i = 0; i < numbers && scanf("%d", &v) == 1; i++, got++) {
      if (i < hs) key[i] = (int8_t)v;
      else if (i < 2 * hs) q[i - hs] = (int8_t)v;
      else if (i == 2 * hs) scales.key_scale = v;
      else scales.head_factor = v;
    }
    if (got == 0) break;
    if (attended && pos >= hs) {
      fprintf(stderr, "kv_trace: --attended takes at most HEAD (%d) positions\n", hs);
      return 2;
    }
    if (got != numbers) {
      fprintf(stderr, "kv_trace: position %d has %d numbers, not %d\n", pos, got, numbers);
      return 2;
    }
    kv_trace_step(&kv, pos, key, q, scaled ? &scales : 0, attended);
  }
  return 0;
}
