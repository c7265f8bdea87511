/* The language-model console: runs a llama2.c model (converted by
   tools/llm/convert.py and linked in) with the integer inference of
   firmware/lib/llm, streaming the story over the UART. */
#include <stdio.h>
#include <string.h>

#include "chat.h"
#include "console.h"
#include "csr.h"
#include "generate.h"
#include "irq.h"
#include "kv_array.h"
#include "kv_backend.h"
#include "kv_cost.h"
#include "kv_policy.h"
#include "llm_context.h"
#include "llm_model.h"
#include "mvu_matmul.h"
#include "sampler.h"
#include "soc_regs.h"
#include "sysctl.h"
#include "tokenizer.h"
#include "transformer.h"
#include "uart.h"
#include "ucm.h"
#include "ucm_arith.h"

/* Buffer sizes; a build for a board's RAM (llm_512k.elf, mk/boards.mk)
   cuts them to stories260K and caps the context (0: the model's own). */
#ifndef LLM_ARENA_BYTES
#define LLM_ARENA_BYTES (1536 * 1024) /* the retrieval model at 1024 positions needs 1.2 MiB */
#endif
#ifndef LLM_MAX_VOCAB
#define LLM_MAX_VOCAB 16384
#endif
#ifndef LLM_PROMPT_BYTES
#define LLM_PROMPT_BYTES 8192
#endif
#ifndef LLM_MAX_CONTEXT
#define LLM_MAX_CONTEXT 0
#endif
#ifndef LLM_EMIT_TOKENS
#define LLM_EMIT_TOKENS 1024 /* a story's tokens kept for --ids */
#endif
#ifndef LLM_CRC_MAX_BYTES
#define LLM_CRC_MAX_BYTES (16u << 20) /* images up to this size have their CRC checked at start */
#endif
#ifndef LLM_BATCH
#define LLM_BATCH 1 /* prompt tokens a forward pass reads (the state grows with it) */
#endif
#ifndef LLM_MVU
#define LLM_MVU 1 /* grouped products on the matrix-vector unit (0: a build for RAM alone leaves its code out) */
#endif
#ifndef LLM_MAX_PIECE
#define LLM_MAX_PIECE 64 /* the longest tokenizer piece the console encodes with */
#endif

extern const uint8_t llm_model_image[], llm_model_image_end[];
/* A saved context (llm_context.h), linked into a bench build only
   (context_blob.S): `bench` starts after its positions. */
extern const uint8_t llm_context_image[] __attribute__((weak)), llm_context_image_end[] __attribute__((weak));

static llm_model_t model;
static llm_state_t state;
/* A build with external memory (llm_ulx3s.elf) puts the state and the
   console's big buffers there (linker/ram.ld's .ext_bss). */
#ifdef LLM_BUFFERS_IN_EXT
#define BUFFER __attribute__((section(".ext_bss")))
#else
#define BUFFER
#endif
static uint32_t arena[LLM_ARENA_BYTES / 4] BUFFER;
/* The sampler's buffers and the encoder's share memory: a story encodes its
   prompt before the sampler starts. */
static union {
  struct {
    int32_t probs[LLM_MAX_VOCAB];
    uint16_t order[LLM_MAX_VOCAB];
  } sampler;
  uint16_t encoder[LLM_ENCODE_WORK_BYTES(LLM_PROMPT_BYTES, LLM_MAX_PIECE) / 2];
} scratch BUFFER;
static char work[512]; /* a policy's description */
static char prompt_text[LLM_PROMPT_BYTES] BUFFER; /* gathered by `prompt add`, used by the next story */
static char chat_text[LLM_PROMPT_BYTES] BUFFER;   /* a chat's prompt in its template */
static size_t prompt_len;
static int prompt_tokens[sizeof prompt_text + 2] BUFFER; /* the encoder starts from one token per byte */
static ucm_t array;
static int array_ok; /* the SoC has the block and it fits the model */
static int mvu_available; /* grouped weights in external memory and the unit to read them */
static ucm_config_t device; /* the array's settings (kv_device_defaults + the device command) */

typedef struct {
  int count;
  int quiet;  /* the prompt's tokens (a chat's template) are not echoed: progress instead */
  int prompt; /* its positions */
  int tokens[LLM_EMIT_TOKENS];
} emit_ctx_t;
static emit_ctx_t emitted;

/* Streams a token; a Ctrl-C from the terminal stops the story. */
static int emit(int token, const char *text, void *ctx) {
  emit_ctx_t *c = ctx;
  int at = c->count++; /* the prompt's echo comes first: positions 1.. of it */
  if (at < (int)(sizeof c->tokens / sizeof c->tokens[0])) c->tokens[at] = token;
  if (c->quiet && at + 1 < c->prompt) {
    if ((at + 1) % LLM_BATCH == 0 || at + 2 == c->prompt)
      printf("[prompt: %d of %d positions read]\n", at + 1, c->prompt);
  } else {
    fputs(text, stdout);
  }
  fflush(stdout);
  return uart_take_interrupt();
}

static void print_fixed(const char *label, uint64_t milli) {
  printf("%s%llu.%03llu", label, (unsigned long long)(milli / 1000), (unsigned long long)(milli % 1000));
}

/* Appends words to the prompt, separated by single spaces. */
static int append_words(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    size_t w = strlen(argv[i]);
    if (prompt_len + w + 2 > sizeof prompt_text) {
      printf("error: prompt too long (%u bytes at most)\n", (unsigned)sizeof prompt_text - 1);
      prompt_len = 0;
      prompt_text[0] = '\0';
      return -1;
    }
    if (prompt_len) prompt_text[prompt_len++] = ' ';
    memcpy(prompt_text + prompt_len, argv[i], w + 1);
    prompt_len += w;
  }
  return 0;
}

/* prompt [add words... | clear]: builds a prompt longer than a console line. */
static int cmd_prompt(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "add")) {
    if (append_words(argc - 2, argv + 2)) return -1;
  } else if (argc == 2 && !strcmp(argv[1], "clear")) {
    prompt_len = 0;
    prompt_text[0] = '\0';
  } else if (argc != 1) {
    printf("error: usage: prompt [add words... | clear]\n");
    return -1;
  }
  printf("prompt: %u bytes\n", (unsigned)prompt_len);
  return 0;
}

/* The last story's figures (the stats command). */
static struct {
  int valid, on_array;
  llm_gen_stats_t gen;
  uint64_t phase[LLM_PHASES];
  ucm_cost_t array, unpruned; /* modeled, over the story's forward passes */
} last;

/* stats: cycles per token, the cache's occupancy and evictions, and the
   array's modeled energy and latency against the same array without
   pruning (every cached key scored through the ADCs). */
static int cmd_stats(int argc, char **argv) {
  (void)argv;
  if (argc > 1 || !last.valid) {
    printf(argc > 1 ? "error: usage: stats\n" : "error: no story yet\n");
    return -1;
  }
  const llm_gen_stats_t *g = &last.gen;
  int forwards = g->prompt_tokens + g->generated - 1;
  uint64_t per_token = g->generated ? g->decode_cycles / (uint64_t)g->generated : 0;
  uint64_t prefill = g->prompt_tokens > 1 ? g->prefill_cycles / (uint64_t)(g->prompt_tokens - 1) : 0;
  uint64_t total = last.phase[0] + last.phase[1] + last.phase[2];
  printf("stats: prompt %d tokens, generated %d; cycles/token decode %llu, prefill %llu\n", g->prompt_tokens,
         g->generated, (unsigned long long)per_token, (unsigned long long)prefill);
  if (total) {
    printf("stats: matmul %llu%%, attention %llu%%, other %llu%%\n",
           (unsigned long long)(last.phase[LLM_PHASE_MATMUL] * 100 / total),
           (unsigned long long)(last.phase[LLM_PHASE_ATTENTION] * 100 / total),
           (unsigned long long)(last.phase[LLM_PHASE_OTHER] * 100 / total));
  }
  if (state.kv.error) printf("error: array: %s\n", ucm_strerror(state.kv.error));
  int heads = model.n_layers * model.n_kv_heads, cached = 0;
  for (int h = 0; h < heads; h++) cached += state.kv.used[h];
  const uint64_t run_cycles = g->prefill_cycles + g->decode_cycles;
  print_fixed("stats: the run takes ", run_cycles * 1000 / SYSCTL_CLK_HZ);
  print_fixed(" s at the SoC's clock (prefill ", g->prefill_cycles * 1000 / SYSCTL_CLK_HZ);
  print_fixed(" s, decode ", g->decode_cycles * 1000 / SYSCTL_CLK_HZ);
  printf(" s)\n");
  if (per_token) print_fixed("stats: ", (uint64_t)SYSCTL_CLK_HZ * 1000 / per_token);
  const int window = (state.kv.policy.ops->flags & KV_POLICY_NO_BUDGET) && state.kv.slots < model.seq_len;
  printf("%s tok/s at %lu MHz; kv cache %d of %d positions, policy %s%s, %lu evictions\n", per_token ? "" : "stats: -",
         (unsigned long)(SYSCTL_CLK_HZ / 1000000), cached / heads, model.seq_len, state.kv.policy.ops->name,
         window ? " (the newest only: banks smaller than the context)" : "", (unsigned long)state.kv.evictions);
  if (last.on_array && forwards > 0) {
    uint64_t fj = last.array.energy_fj / (uint64_t)forwards;
    uint64_t unpruned_fj = last.unpruned.energy_fj / (uint64_t)forwards;
    print_fixed("stats: array (modeled) ", fj);
    printf(" pJ/token, %llu ns/token; unpruned array ", (unsigned long long)(last.array.latency_ps /
           (uint64_t)forwards / 1000));
    print_fixed("", unpruned_fj);
    printf(" pJ/token, %llu ns/token", (unsigned long long)(last.unpruned.latency_ps / (uint64_t)forwards / 1000));
    /* One ratio, the larger over the smaller, named for its direction. */
    const int lower = unpruned_fj >= fj;
    const uint64_t hi = lower ? unpruned_fj : fj, lo = lower ? fj : unpruned_fj;
    if (lo) print_fixed(" (energy x", hi * 1000 / lo);
    printf("%s\n", !lo ? "" : lower ? " lower than unpruned)" : " higher than unpruned)");
  }
  return 0;
}

/* story [-n steps] [-t temp] [-p topp] [-s seed] [--ids] [prompt words...];
   CHAT: the prompt is a user's turn of the model's chat template, which is
   not echoed (the positions read are shown instead), and -n counts the
   answer's tokens. */
static int run_story(int argc, char **argv, int chat) {
  int32_t steps = 256, temp_milli = 0, topp_milli = 900, seed = 1;
  int show_ids = 0, i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(opt, "--ids")) {
      show_ids = 1;
      continue;
    }
    int ok = arg != NULL;
    if (ok && !strcmp(opt, "-n")) ok = cmd_parse_i32_range(arg, 1, model.seq_len, &steps);
    else if (ok && !strcmp(opt, "-t")) ok = cmd_parse_milli(arg, 10000, &temp_milli);
    else if (ok && !strcmp(opt, "-p")) ok = cmd_parse_milli(arg, 1000, &topp_milli);
    else if (ok && !strcmp(opt, "-s")) ok = cmd_parse_i32_range(arg, 0, 0x7fffffff, &seed);
    else if (ok) {
      printf("error: unknown option '%s' (-n -t -p -s --ids)\n", opt);
      return -1;
    }
    if (!ok) {
      printf("error: %s %s: want -n 1..%d, -t 0..10 (temperature), -p 0..1 (top-p), -s 0..2147483647\n", opt,
             arg ? arg : "(missing)", model.seq_len);
      return -1;
    }
    i++;
  }
  /* The prompt: the text gathered by `prompt add`, then the rest of the
     words; a refused story keeps it for the next. */
  size_t gathered = prompt_len;
  if (append_words(argc - i, argv + i)) return -1;
  const char *text = prompt_text;
  if (chat && llm_chat_prompt(&model, prompt_text, chat_text, sizeof chat_text) < 0) {
    printf("error: %s\n", model.chat_system ? "the chat's prompt is too long" : "this model has no chat template");
    prompt_len = gathered;
    prompt_text[prompt_len] = '\0';
    return -1;
  }
  if (chat) text = chat_text;
  size_t text_len = strlen(text);
  /* A piece covers at most max_token_length bytes: a prompt that needs
     more positions than STEPS even so is refused before it is encoded. */
  int n = !chat && (long)(text_len / (size_t)model.max_token_length) + 2 > (long)steps
              ? LLM_ENCODE_TOO_LONG
              : text_len + 1 > sizeof prompt_text ? LLM_ENCODE_TOO_LONG
              : llm_encode(&model, text, model.add_bos, prompt_tokens,
                           (int)(sizeof prompt_tokens / sizeof prompt_tokens[0]), (char *)scratch.encoder,
                           sizeof scratch.encoder);
  if (chat && n > 0) steps = n + steps - 1 > model.seq_len ? model.seq_len : n + steps - 1;
  if (n <= 0 || n > steps) {
    if (n == 0) printf("error: the story needs a prompt (this model does not start from BOS)\n");
    else if (n == LLM_ENCODE_UNKNOWN)
      printf("error: the prompt has a character this model's vocabulary cannot encode\n");
    else printf("error: the prompt (%u bytes) needs more positions than the %ld asked for (context %d)\n",
                (unsigned)prompt_len, (long)steps, model.seq_len);
    prompt_len = gathered;
    prompt_text[prompt_len] = '\0';
    return -1;
  }
  prompt_len = 0;
  prompt_text[0] = '\0';
  llm_sampler_t sampler;
  llm_sampler_init(&sampler, model.vocab_size, (int32_t)(((int64_t)temp_milli << 16) / 1000),
                   (int32_t)(((int64_t)topp_milli << 16) / 1000), (uint64_t)seed,
                   scratch.sampler.probs, scratch.sampler.order);
  emitted.count = 0;
  emitted.quiet = chat;
  emitted.prompt = n;
  memset(state.phase_cycles, 0, sizeof state.phase_cycles);
  ucm_counters_t before;
  if (kv_on_array(&state.kv)) ucm_read_counters(&array, &before);
  llm_gen_stats_t stats;
  llm_generate(&state, &sampler, prompt_tokens, n, (int)steps, emit, &emitted, &stats);
  printf("\n");
  if (stats.stopped) printf("story: stopped by Ctrl-C after %d tokens\n", stats.generated);
  if (show_ids) {
    printf("TOKENS");
    for (int k = 0; k < emitted.count; k++) printf(" %d", emitted.tokens[k]);
    printf("\n");
  }
  last.gen = stats;
  for (int ph = 0; ph < LLM_PHASES; ph++) last.phase[ph] = state.phase_cycles[ph];
  last.on_array = kv_on_array(&state.kv);
  if (last.on_array) {
    ucm_counters_t after;
    ucm_read_counters(&array, &after);
    ucm_geom_t priced = array.geom; /* conversions cost what the resolution in use costs */
    priced.adc_bits = ucm_adc_bits_in_use(device.adc_bits, array.geom.adc_bits);
    ucm_sense_t trim;
    ucm_read_sense(&array, &trim);
    last.array = ucm_cost_of_events(before.v, after.v, &priced, &trim);
    last.unpruned = (ucm_cost_t){0, 0};
    for (int pos = 0; pos < n + stats.generated - 1; pos++) {
      ucm_cost_t d = kv_unpruned_cost(&state.kv, model.n_heads, pos, &priced);
      last.unpruned.energy_fj += d.energy_fj;
      last.unpruned.latency_ps += d.latency_ps;
    }
  }
  last.valid = 1;
  return cmd_stats(0, NULL);
}

static int cmd_story(int argc, char **argv) { return run_story(argc, argv, 0); }
static int cmd_chat(int argc, char **argv) { return run_story(argc, argv, 1); }

/* bench [POS...]: greedy decoding from BOS up to the last POS; prints the
   cycles of the forward pass at each POS (total and by phase), and the mean
   over positions 0..15 as the prefill figure (prefill runs the same
   one-token forward here). Without POS, a whole story: the full context,
   positions 16, 256 and 500 in detail, the mean over the decoded positions
   (16 on) and a CURVE line every 16 positions. With external memory, the
   data cache's hit rate over the run too. Ends with the token the last
   position chose. A build with a saved context restores its positions (the
   host engine's greedy decoding from BOS, the same cache) instead of
   running them. */
static int cmd_bench(int argc, char **argv) {
  int32_t want[8] = {16, 256, 500};
  int n = argc - 1, last = 0, story = n == 0;
  if (n > 8) {
    printf("error: usage: bench [position...] (up to 8 positions below %d)\n", model.seq_len);
    return -1;
  }
  if (story) {
    if (model.seq_len <= 16) {
      printf("error: a story needs a context longer than 16 (the model's is %d)\n", model.seq_len);
      return -1;
    }
    n = 3;
    last = model.seq_len - 1;
  }
  for (int i = 0; i < argc - 1; i++) {
    if (!cmd_parse_i32_range(argv[i + 1], 0, model.seq_len - 1, &want[i])) {
      printf("error: bad position '%s'\n", argv[i + 1]);
      return -1;
    }
    if (want[i] > last) last = want[i];
  }
  llm_sampler_t sampler;
  llm_sampler_init(&sampler, model.vocab_size, 0, 0, 1, scratch.sampler.probs, scratch.sampler.order);
  int token = model.bos, first = 0;
  const size_t context_bytes = (size_t)(llm_context_image_end - llm_context_image); /* 0 without a context */
  if (context_bytes) {
    const char *error;
    first = llm_context_restore(&state, llm_context_image, context_bytes, &token, &error);
    if (first < 0) {
      printf("error: the linked context: %s\n", error);
      return -1;
    }
    for (int i = 0; i < n; i++)
      if (story || want[i] < first) {
        printf("error: this build starts after a saved context: positions %d to %d only\n", first, model.seq_len - 1);
        return -1;
      }
    printf("bench: positions 0-%d restored from the linked context\n", first - 1);
  }
  uint64_t prefill = 0, decode = 0;
  const int ext = sysctl_ext_size() != 0; /* the counters exist */
  const uint32_t hits0 = ext ? SYSCTL_DCACHE_HITS : 0, misses0 = ext ? SYSCTL_DCACHE_MISSES : 0;
  for (int pos = first; pos <= last; pos++) {
    memset(state.phase_cycles, 0, sizeof state.phase_cycles);
    uint64_t t0 = read_cycle();
    token = llm_sample(&sampler, llm_forward(&state, token, pos));
    uint64_t dt = read_cycle() - t0;
    if (pos < 16) prefill += dt;
    else decode += dt;
    if (pos == 15) printf("BENCH lm_prefill_cycles_per_token %llu cycles\n", (unsigned long long)(prefill / 16));
    if (story && pos % 16 == 0)
      printf("CURVE pos %d cycles %llu matmul %llu attention %llu other %llu\n", pos, (unsigned long long)dt,
             (unsigned long long)state.phase_cycles[LLM_PHASE_MATMUL],
             (unsigned long long)state.phase_cycles[LLM_PHASE_ATTENTION],
             (unsigned long long)state.phase_cycles[LLM_PHASE_OTHER]);
    for (int i = 0; i < n; i++) {
      if (want[i] != pos) continue;
      printf("BENCH lm_decode_cycles_pos%d %llu cycles\n", pos, (unsigned long long)dt);
      printf("BENCH lm_matmul_cycles_pos%d %llu cycles\n", pos,
             (unsigned long long)state.phase_cycles[LLM_PHASE_MATMUL]);
      printf("BENCH lm_attention_cycles_pos%d %llu cycles\n", pos,
             (unsigned long long)state.phase_cycles[LLM_PHASE_ATTENTION]);
      printf("BENCH lm_other_cycles_pos%d %llu cycles\n", pos,
             (unsigned long long)state.phase_cycles[LLM_PHASE_OTHER]);
      if (pos == 256) {
        print_fixed("BENCH lm_tok_per_s_at_50mhz ", 50000000ull * 1000 / dt);
        printf(" tok_per_s\n");
      }
    }
    if (llm_is_stop(&model, token)) token = model.eos; /* keep going past an end of story */
  }
  printf("bench: position %d chose token %d\n", last, token);
  if (story)
    printf("BENCH lm_decode_cycles_mean_%d %llu cycles\n", model.seq_len,
           (unsigned long long)(decode / (uint64_t)(model.seq_len - 16)));
  const uint64_t hits = ext ? SYSCTL_DCACHE_HITS - hits0 : 0;
  const uint64_t accesses = hits + (ext ? SYSCTL_DCACHE_MISSES - misses0 : 0);
  if (accesses) {
    print_fixed("BENCH dcache_hit_pct_llm ", hits * 100000 / accesses);
    printf(" pct\n");
  }
  return 0;
}

static int cmd_model(int argc, char **argv) {
  (void)argc;
  (void)argv;
  printf("model: dim %d, hidden %d, %d layers, %d heads (%d kv), vocab %d, context %d, image %lu bytes\n",
         model.dim, model.hidden_dim, model.n_layers, model.n_heads, model.n_kv_heads, model.vocab_size,
         model.seq_len, (unsigned long)model.image_bytes);
  if (LLM_MVU) printf("matrix-vector unit: %s\n", mvu_matmul_enabled() ? "on" : mvu_available ? "off" : "not used");
  return 0;
}

#if LLM_MVU
/* The grouped products on the matrix-vector unit or on the core (the same
   integers either way; a cycle comparison). */
static int cmd_mvu(int argc, char **argv) {
  if (argc == 2 && (!strcmp(argv[1], "on") || !strcmp(argv[1], "off"))) {
    if (!mvu_available) {
      printf("error: no matrix-vector unit for this model (none in the SoC, or the image is not in external memory)\n");
      return 1;
    }
    mvu_matmul_enable(!strcmp(argv[1], "on"));
  } else if (argc != 1) {
    printf("usage: mvu [on | off]\n");
    return 1;
  }
  printf("matrix-vector unit: %s\n", mvu_matmul_enabled() ? "on" : mvu_available ? "off" : "not used");
  return 0;
}
#endif

/* The policy, and what keeping everything means on banks smaller than the
   context: a window of the newest positions, not the reference. */
static void print_policy(void) {
  kv_policy_describe(&state.kv.policy, work, sizeof work);
  printf("policy: %s", work);
  if ((state.kv.policy.ops->flags & KV_POLICY_NO_BUDGET) && state.kv.slots < model.seq_len)
    printf(" -- but the array's banks hold %d of the %d positions: once full, the oldest leave (a window, "
           "not the reference; a pruning policy of %d positions fits)", state.kv.slots, model.seq_len, state.kv.slots);
  printf("\n");
}

/* kv [dense | unicaim [k] [ideal | digital]]: where attention runs; the
   block's exact scores through the ADCs, without them, or from the int8 keys;
   k: keys attended per step by the policies without a k of their own. A
   change shows the policy too (one that no longer fits keeps everything). */
static int cmd_kv(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], KV_BACKEND_DENSE) && argc == 2) {
    kv_use_dense(&state.kv);
  } else if (argc >= 2 && !strcmp(argv[1], KV_BACKEND_UNICAIM) && argc <= 4) {
    int32_t k = 0;
    kv_exact_t exact = argc < 4 ? KV_EXACT_ADC : !strcmp(argv[3], "ideal") ? KV_EXACT_CELLS : KV_EXACT_DIGITAL;
    if ((argc >= 3 && !cmd_parse_i32_range(argv[2], 0, model.seq_len, &k)) ||
        (argc == 4 && exact == KV_EXACT_DIGITAL && strcmp(argv[3], "digital"))) {
      printf("error: usage: kv unicaim [0..%d] [ideal | digital]\n", model.seq_len);
      return -1;
    }
    if (!array_ok) {
      printf("error: no array block for this model in this SoC\n");
      return -1;
    }
    int err = kv_use_unicaim(&state.kv, &array, (unsigned)k, exact);
    ucm_configure(&array, &device);
    if (err) {
      printf("error: array: %s\n", ucm_strerror(err));
      return -1;
    }
  } else if (argc != 1) {
    printf("error: usage: kv [dense | unicaim [k] [ideal | digital]]\n");
    return -1;
  }
  if (!kv_on_array(&state.kv)) {
    printf("kv: dense attention in software\n");
  } else {
    char top_k[12] = "all";
    if (state.kv.top_k) snprintf(top_k, sizeof top_k, "%u", state.kv.top_k);
    printf("kv: UniCAIM array, %d cell%s per key component, top-k %s%s\n", state.kv.slices,
           state.kv.slices > 1 ? "s" : "", top_k,
           state.kv.exact == KV_EXACT_CELLS ? ", ideal exact scores" :
           state.kv.exact == KV_EXACT_DIGITAL ? ", digital exact scores" : "");
  }
  if (argc > 1) print_policy();
  return 0;
}

/* policy list: every policy with its parameters and their ranges. */
static void list_policies(void) {
  for (int i = 0; kv_policies[i]; i++) {
    const kv_policy_ops_t *ops = kv_policies[i];
    printf("%s%s: %s\n", ops->name, ops->flags & KV_POLICY_ARRAY ? " (array)" : "", ops->summary);
    for (const kv_param_t *q = ops->params; q && q->key; q++)
      printf("  %s=%ld..%ld  %s\n", q->key, (long)q->min, (long)q->max, q->help);
  }
}

/* policy [list | NAME [BUDGET] [KEY=VALUE...]]: a refused one names the bad
   word and its range, and changes nothing. */
static int cmd_policy(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "list")) {
    list_policies();
    return 0;
  }
  if (argc > 1) {
    /* A policy that runs on the array moves attention onto it (as "kv
       unicaim" would) once its words are accepted for the array's banks. */
    const kv_policy_ops_t *ops = kv_policy_find(argv[1]);
    const int to_array = ops && (ops->flags & KV_POLICY_ARRAY) && !kv_on_array(&state.kv) && array_ok;
    const int slots = to_array ? kv_unicaim_slots(&state.kv, &array) : state.kv.slots;
    kv_policy_t p;
    const char *why = kv_policy_parse(&p, argc - 1, argv + 1, model.seq_len, slots, work, sizeof work);
    if (!why && to_array) {
      char *words[] = {"kv", KV_BACKEND_UNICAIM};
      if (cmd_kv(2, words)) return -1;
    }
    if (!why) why = kv_set_policy(&state.kv, &p);
    if (why) {
      printf("error: %s\n", why);
      return -1;
    }
  }
  print_policy();
  return 0;
}

/* device [sigma=S] [noise=N] [stuck=R] [gain=G] [shift=S]: the array's
   non-idealities and ADC scaling, kept across "kv unicaim". */
static int cmd_device(int argc, char **argv) {
  static const struct {
    const char *key;
    int32_t min, max;
  } keys[] = {{"sigma", 0, 255}, {"noise", 0, 255}, {"stuck", 0, 65535}, {"gain", 1, 255}, {"shift", 0, 15},
              {"adc", 0, 16}};
  enum { SIGMA, NOISE, STUCK, GAIN, SHIFT, ADC, KEYS };
  ucm_config_t next = device; /* a bad word changes nothing */
  const int32_t adc_max = array_ok ? (int32_t)array.geom.adc_bits : 16;
  for (int i = 1; i < argc; i++) {
    char *eq = strchr(argv[i], '=');
    unsigned k = 0;
    int32_t v = 0;
    if (eq) *eq = '\0';
    while (k < KEYS && (!eq || strcmp(argv[i], keys[k].key))) k++;
    if (!eq) {
      printf("error: '%s' needs a value (KEY=VALUE)\n", argv[i]);
      return -1;
    }
    if (k == KEYS) {
      printf("error: device has no setting '%s' (sigma, noise, stuck, gain, shift, adc)\n", argv[i]);
      return -1;
    }
    int32_t max = k == ADC ? adc_max : keys[k].max;
    if (!cmd_parse_i32_range(eq + 1, keys[k].min, max, &v) || (k == ADC && v == 1)) {
      if (k == ADC) printf("error: adc=%s out of range (2..%ld bits, 0: all)\n", eq + 1, (long)max);
      else printf("error: %s=%s out of range (%ld..%ld)\n", keys[k].key, eq + 1, (long)keys[k].min, (long)max);
      return -1;
    }
    if (k == SIGMA) next.sigma = (uint8_t)v;
    else if (k == NOISE) next.read_noise = (uint8_t)v;
    else if (k == STUCK) next.stuck_rate = (uint16_t)v;
    else if (k == GAIN) next.adc_gain = (uint8_t)v;
    else if (k == SHIFT) next.adc_shift = (uint8_t)v;
    else next.adc_bits = (uint8_t)v;
  }
  device = next;
  if (array_ok) ucm_configure(&array, &device);
  printf("device: sigma %u, noise %u, stuck %u/65536, adc gain %u shift %u, %lu-bit cells, %lu-bit ADC using %lu\n",
         device.sigma, device.read_noise, device.stuck_rate, device.adc_gain, device.adc_shift,
         (unsigned long)array.geom.cell_bits, (unsigned long)array.geom.adc_bits,
         (unsigned long)ucm_adc_bits_in_use(device.adc_bits, array.geom.adc_bits));
  return 0;
}

static const cmd_t commands[] = {
    CONSOLE_CMD_HELP,
    {"model", "", "the model's shape", cmd_model},
#if LLM_MVU
    {"mvu", "[on | off]", "grouped matrix products on the matrix-vector unit or the core", cmd_mvu},
#endif
    {"prompt", "[add words... | clear]", "gather a long prompt for the next story", cmd_prompt},
    {"story", "[-n N] [-t T] [-p P] [-s S] [--ids] [prompt]", "generate (greedy unless -t > 0); Ctrl-C stops it", cmd_story},
    {"chat", "[-n N] [-t T] [-p P] [-s S] [--ids] text", "the text as a user's turn of the chat template; N: the answer's tokens", cmd_chat},
    {"bench", "[position...]", "cycles of the forward pass at these positions (none: a whole story)", cmd_bench},
    {"stats", "", "the last story's cycles, cache and modeled energy", cmd_stats},
    {"kv", "[dense | unicaim [k] [ideal | digital]]", "attention in software or through the array block", cmd_kv},
    {"policy", "[list | name [positions | N%] [key=value...]]", "KV-cache pruning policy (budget: positions or % of the context)", cmd_policy},
    {"device", "[sigma= noise= stuck= gain= shift= adc=]", "the array's non-idealities and ADC", cmd_device},
    CONSOLE_CMDS_SYSTEM,
    {NULL, NULL, NULL, NULL},
};

int main(void) {
  uart_rx_buffer_enable();
  irq_global_enable();
  const char *error;
  size_t len = (size_t)(llm_model_image_end - llm_model_image);
  /* A large image came through the bootloader's checked upload (or the
     simulator's loader): its CRC again would take minutes at 40 cycles a
     byte; the rest of the image is checked all the same. */
  if (llm_model_open(&model, llm_model_image, len, len > LLM_CRC_MAX_BYTES ? LLM_OPEN_NO_CRC : 0, &error)) {
    printf("error: model image: %s\n", error);
    return 3;
  }
  if (LLM_MAX_CONTEXT && model.seq_len > LLM_MAX_CONTEXT) model.seq_len = LLM_MAX_CONTEXT;
  if (llm_state_bytes(&model, LLM_BATCH) > sizeof arena || model.vocab_size > LLM_MAX_VOCAB) {
    printf("error: the model needs %lu bytes of state; this build has %lu\n",
           (unsigned long)llm_state_bytes(&model, LLM_BATCH), (unsigned long)sizeof arena);
    return 3;
  }
  if (llm_encode_work_bytes(&model, sizeof prompt_text - 1) > sizeof scratch.encoder) {
    printf("error: the tokenizer's pieces (up to %d bytes) are longer than this build encodes (%d)\n",
           model.max_token_length, LLM_MAX_PIECE);
    return 3;
  }
  llm_state_init(&state, &model, arena, LLM_BATCH);
  state.clock = read_cycle;
  mvu_available = LLM_MVU && model.embed.group && mvu_matmul_install(llm_model_image, len);
  const ucm_geom_t *g = &array.geom;
  array_ok = ucm_open_mmio(&array) == UCM_OK && kv_block_slices(g, model.n_layers, model.n_kv_heads, model.head_size) > 0;
  kv_device_defaults(&device);
  printf("\nUniCAIM SoC language model console. ");
  cmd_model(0, NULL);
  console_run(commands);
}
