/* The cache under a pruning policy on scripted sequences, on the SoC: the
 * steps of the host's kv_trace (firmware/lib/kv/kv_trace.h) with the
 * array policies on the block itself, for tests/policy_reference.py's
 * cases. From the UART, case after case:
 *   POLICY SLOTS PROMPT HEAD N ATTENDED   (POLICY as "NAME:BUDGET:key=value")
 * then N lines of HEAD key and HEAD query values (int8); "end" stops.
 * Prints "CASE k" before a case's KEPT (and ATTENDED) lines, a refusal as
 * "CASE k refused: ...", and "kv_trace: K cases" at the end. The block's
 * bank has DIM cells: an array policy takes HEAD = DIM (one cell per
 * component, as the references model). */
#include <stdio.h>

#include "kv_array.h"
#include "kv_policy.h"
#include "kv_trace.h"
#include "sysctl.h"

#define MAX_SLOTS 128
#define MAX_HEAD 64

static uint32_t arena[(MAX_SLOTS * MAX_HEAD * 4 + MAX_SLOTS * 64 + 4096) / 4];
static int32_t att[MAX_SLOTS * 2];
static kv_cache_t kv;
static ucm_t array;

/* One case's header read and its cache set up: 0, or why not. */
static const char *start(const char *spec, int slots, int prompt, int hs, int n, int attended, int array_ok) {
  static char why[160];
  if (slots < 2 || slots > MAX_SLOTS || prompt < 1 || prompt >= slots || hs < 8 || hs > MAX_HEAD || hs % 8 ||
      n < 1 || n > slots || (attended && n > hs))
    return "SLOTS 2..128, PROMPT 1..SLOTS-1, HEAD 8..64 (a multiple of 8), N 1..SLOTS (HEAD attended)";
  if (kv_bytes(1, 1, hs, slots) > sizeof arena) return "the cache does not fit the test's arena";
  kv_init(&kv, 1, 1, hs, slots, att, arena);
  kv_policy_t policy;
  const char *refused = kv_policy_from_spec(&policy, spec, slots, slots, why, sizeof why);
  if (refused) return refused;
  if (policy.ops->flags & KV_POLICY_ARRAY) {
    if (!array_ok) return "no array in this SoC";
    if (array.geom.dim != (uint32_t)hs) return "an array policy takes HEAD = the bank's cells";
    int err = kv_use_unicaim(&kv, &array, 0, KV_EXACT_DIGITAL);
    if (err) return ucm_strerror(err);
  }
  refused = kv_set_policy(&kv, &policy);
  if (refused) return refused;
  kv_begin(&kv, prompt);
  return 0;
}

int main(void) {
  const int array_ok = ucm_open_mmio(&array) == UCM_OK;
  char spec[128];
  int cases = 0;
  while (scanf("%127s", spec) == 1 && spec[0] != 'e') {
    int slots, prompt, hs, n, attended;
    if (scanf("%d %d %d %d %d", &slots, &prompt, &hs, &n, &attended) != 5) break;
    const char *why = start(spec, slots, prompt, hs, n, attended, array_ok);
    if (why) printf("CASE %d refused: %s\n", cases, why);
    else printf("CASE %d\n", cases);
    int8_t key[MAX_HEAD], q[MAX_HEAD];
    for (int pos = 0; pos < n; pos++) {
      for (int i = 0, v; i < 2 * hs && scanf("%d", &v) == 1; i++) /* a refused case's lines are read too */
        if (!why) (i < hs ? key : q)[i % hs] = (int8_t)v;
      if (!why) kv_trace_step(&kv, pos, key, q, 0, attended);
    }
    if (kv.error) printf("CASE %d array error: %s\n", cases, ucm_strerror(kv.error));
    cases++;
  }
  printf("kv_trace: %d cases\n", cases);
  sysctl_exit(0);
  return 0;
}
