/* llm_host: the firmware's integer inference, built for the host.
   usage: llm_host MODEL.ucm [-n steps] [-t temperature] [-p topp] [-s seed]
                   [-i prompt] [--ids] [--encode] [--kv unicaim [--top-k K] [--ideal | --digital]]
                   [--policy NAME:BUDGET[:KEY=VALUE...]] [--sigma S] [--slices N] [--batch N]
                   [--time] [--portable] [--chat] [--context N]
   Prints the story; with --ids, one line "TOKENS id id ..." (what the SoC
   test compares against); --encode prints only the prompt's tokens that
   way. --kv unicaim attends through the UniCAIM golden
   model (one bank per layer and KV head, a slot per position), as the SoC's
   "kv unicaim K" does through the block; --sigma sets its cell variation,
   --slices its cells per key component (a simulator built with that DIM).
   --policy is the console's "policy NAME BUDGET [KEY=VALUE...]" with
   colons for spaces (kv_policy_from_spec); a refused one is named with the
   reason. --batch N reads the prompt N tokens a pass (the same tokens, but
   with the array's read noise, whose draws follow the order of searches).
   --time prints the prefill's and the decode's wall time; --portable runs
   the portable kernels instead of the host's vectorized ones (the same
   results, host_kernels.c). --chat puts the prompt in the model's chat
   template (chat.h) as the user's turn; the answer is the assistant's.
   --context N holds N positions (and the array N slots a bank), as a
   firmware build for less memory does (llm_smol.elf: 1024). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chat.h"
#include "generate.h"
#include "host_file.h"
#include "host_kernels.h"
#include "llm_model.h"
#include "kv_array.h"
#include "kv_backend.h"
#include "kv_policy.h"
#include "sampler.h"
#include "tokenizer.h"
#include "transformer.h"
#include "ucm.h"
#include "ucm_arrays.h"

typedef struct {
  int ids;
  int count;
  int tokens[65536];
} emit_ctx_t;

static int emit(int token, const char *text, void *ctx) {
  emit_ctx_t *c = ctx;
  if (c->count < 65536) c->tokens[c->count++] = token;
  if (!c->ids) {
    fputs(text, stdout);
    fflush(stdout);
  }
  return 0;
}

/* The state's clock in --time runs: wall nanoseconds. */
static uint64_t wall_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int32_t q16(const char *s) { return (int32_t)(atof(s) * 65536.0 + 0.5); }

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: llm_host MODEL.ucm [-n steps] [-t temp] [-p topp] [-s seed] [-i prompt] [--ids]\n");
    return 2;
  }
  int steps = 256, ids = 0, encode_only = 0, unicaim = 0, top_k = 0, sigma = 0, slices = 1, batch = 1;
  int timing = 0, portable = 0, chat = 0, context = 0;
  kv_exact_t exact = KV_EXACT_ADC;
  int32_t temperature = 0, topp = q16("0.9");
  kv_policy_t policy;
  const char *policy_spec = NULL; /* the cache keeps everything unless told */
  uint64_t seed = 1;
  const char *prompt = "";
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--ids")) ids = 1;
    else if (!strcmp(argv[i], "--time")) timing = 1;
    else if (!strcmp(argv[i], "--chat")) chat = 1;
    else if (!strcmp(argv[i], "--portable")) portable = 1;
    else if (!strcmp(argv[i], "--encode")) encode_only = 1;
    else if (i + 1 < argc && !strcmp(argv[i], "-n")) steps = atoi(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "-t")) temperature = q16(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "-p")) topp = q16(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "-s")) seed = strtoull(argv[++i], NULL, 0);
    else if (i + 1 < argc && !strcmp(argv[i], "-i")) prompt = argv[++i];
    else if (i + 1 < argc && !strcmp(argv[i], "--kv") && !strcmp(argv[i + 1], KV_BACKEND_UNICAIM)) unicaim = 1, i++;
    else if (i + 1 < argc && !strcmp(argv[i], "--kv") && !strcmp(argv[i + 1], KV_BACKEND_DENSE)) unicaim = 0, i++;
    else if (i + 1 < argc && !strcmp(argv[i], "--top-k")) top_k = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--ideal")) exact = KV_EXACT_CELLS;
    else if (!strcmp(argv[i], "--digital")) exact = KV_EXACT_DIGITAL;
    else if (i + 1 < argc && !strcmp(argv[i], "--policy")) policy_spec = argv[++i];
    else if (i + 1 < argc && !strcmp(argv[i], "--sigma")) sigma = atoi(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "--slices")) slices = atoi(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "--batch")) batch = atoi(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "--context")) context = atoi(argv[++i]);
    else {
      fprintf(stderr, "llm_host: bad argument '%s'\n", argv[i]);
      return 2;
    }
  }
  if (!portable) host_kernels_install();
  llm_model_t model;
  if (host_open_model("llm_host", argv[1], &model)) return 2;
  if (context < 0 || context > model.seq_len) {
    fprintf(stderr, "llm_host: --context takes 1 to %d\n", model.seq_len);
    return 2;
  }
  if (context) model.seq_len = context; /* as the firmware's LLM_MAX_CONTEXT cuts it */
  if (batch < 1 || batch > LLM_MAX_BATCH) {
    fprintf(stderr, "llm_host: --batch takes 1 to %d\n", LLM_MAX_BATCH);
    return 2;
  }
  if (slices < 1 || slices > KV_SLICES_MAX) {
    fprintf(stderr, "llm_host: --slices takes 1 to %d\n", KV_SLICES_MAX);
    return 2;
  }
  if (steps <= 0 || steps > model.seq_len) steps = model.seq_len;
  void *arena = malloc(llm_state_bytes(&model, batch));
  llm_state_t state;
  llm_state_init(&state, &model, arena, batch);
  /* The simulator's array (arrays.toml [sim]), shaped for this model. */
  ucm_geom_t geom = UCM_ARRAY_SIM;
  geom.banks = (uint32_t)(model.n_layers * model.n_kv_heads);
  geom.slots = (uint32_t)model.seq_len;
  geom.dim = (uint32_t)(model.head_size * slices);
  ucm_model_t array_model;
  ucm_t array;
  if (unicaim) {
    void *mem = malloc(ucm_model_bytes(&geom));
    int err = mem && !ucm_model_init(&array_model, &geom, mem) ? ucm_open_model(&array, &array_model) : UCM_E_ABSENT;
    if (!err) err = kv_use_unicaim(&state.kv, &array, top_k < 0 ? 0 : (unsigned)top_k, exact);
    if (err) {
      fprintf(stderr, "llm_host: array: %s\n", ucm_strerror(err));
      return 2;
    }
    ucm_config_t device;
    kv_device_defaults(&device);
    device.sigma = (uint8_t)sigma;
    ucm_configure(&array, &device);
  }
  char why[192];
  const char *refused = policy_spec ? kv_policy_from_spec(&policy, policy_spec, model.seq_len, state.kv.slots, why,
                                                       sizeof why) : NULL;
  if (policy_spec && !refused) refused = kv_set_policy(&state.kv, &policy);
  if (refused) {
    fprintf(stderr, "llm_host: policy '%s': %s\n", policy_spec, refused);
    return 2;
  }
  int32_t *probs = malloc(sizeof(int32_t) * (size_t)model.vocab_size);
  uint16_t *order = malloc(sizeof(uint16_t) * (size_t)model.vocab_size);
  llm_sampler_t sampler;
  llm_sampler_init(&sampler, model.vocab_size, temperature, topp, seed, probs, order);

  if (chat) { /* the prompt as a user's turn of the model's chat template */
    size_t size = strlen(prompt) + 4096;
    char *text = malloc(size);
    if (llm_chat_prompt(&model, prompt, text, size) < 0) {
      fprintf(stderr, "llm_host: --chat: this model has no chat template\n");
      return 2;
    }
    prompt = text;
  }
  /* The encoder starts from one token per byte, then merges. */
  size_t room = strlen(prompt) + 2;
  int *tokens = malloc(sizeof(int) * room);
  size_t work_bytes = llm_encode_work_bytes(&model, strlen(prompt));
  char *work = malloc(work_bytes);
  int n = llm_encode(&model, prompt, model.add_bos, tokens, (int)room, work, work_bytes);
  if (n == LLM_ENCODE_UNKNOWN) {
    fprintf(stderr, "llm_host: the prompt has a character this model's vocabulary cannot encode\n");
    return 2;
  }
  if (n < 0) {
    fprintf(stderr, "llm_host: the prompt is longer than the encoder takes (%d bytes)\n", LLM_ENCODE_MAX_BYTES);
    return 2;
  }
  if (encode_only) {
    printf("TOKENS");
    for (int k = 0; k < n; k++) printf(" %d", tokens[k]);
    printf("\n");
    return 0;
  }
  if (n > steps) {
    fprintf(stderr, "llm_host: the prompt is longer than the context (%d positions)\n", steps);
    return 2;
  }
  static emit_ctx_t ctx;
  ctx.ids = ids;
  llm_gen_stats_t stats;
  if (timing) state.clock = wall_ns;
  llm_generate(&state, &sampler, tokens, n, steps, emit, &ctx, &stats);
  if (state.kv.error) {
    fprintf(stderr, "llm_host: array: %s\n", ucm_strerror(state.kv.error));
    return 1;
  }
  if (ids) {
    printf("TOKENS");
    for (int i = 0; i < ctx.count; i++) printf(" %d", ctx.tokens[i]);
  }
  printf("\n");
  if (timing)
    printf("TIME prefill %d tokens %.3f s, decode %d tokens %.3f s\n", n - 1, stats.prefill_cycles / 1e9,
           stats.generated, stats.decode_cycles / 1e9);
  return 0;
}
