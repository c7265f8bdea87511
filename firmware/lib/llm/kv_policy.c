/* The pruning policies' parameters: names, defaults, one-parameter
   assignments and a description. What each policy does with them is in
   kv_prune.c (which positions stay) and kv_attend.c (which are attended). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvcache.h"

const char *kv_policy_name(kv_policy_kind_t kind) {
  static const char *const names[KV_POLICIES] = {"dense", "streamingllm", "h2o", "tova",
                                                 "snapkv", "quest", "unicaim"};
  return (unsigned)kind < KV_POLICIES ? names[kind] : "?";
}

int kv_policy_make(kv_policy_t *p, const char *name, int budget) {
  *p = (kv_policy_t){.kind = KV_KEEP_ALL, .budget = budget};
  while (strcmp(name, kv_policy_name(p->kind)))
    if (++p->kind == KV_POLICIES) return -1;
  switch (p->kind) {
  case KV_STREAMING:
    p->sinks = budget > 8 ? 4 : 1;
    break;
  case KV_H2O:
    p->window = budget / 2;
    break;
  case KV_SNAPKV:
    p->window = budget / 8 < 4 ? 4 : budget / 8 > 32 ? 32 : budget / 8;
    if (p->window > budget - 2) p->window = budget > 2 ? budget - 2 : 0;
    break;
  case KV_QUEST:
    p->page = 16;
    while (p->page > KV_PAGE_MIN && p->page > budget / 2) p->page /= 2;
    break;
  case KV_HYBRID:
    p->reserve = budget / 2;
    p->top_k = budget / 2 > 1 ? budget / 2 : 1;
    p->protect = 32768; /* an attention probability of 0.5 */
    p->spare = budget / 10 > 1 ? budget / 10 : 1; /* the brief's 5-10% spare cache */
    p->span = 6;
    p->question = 16;
    break;
  default:
    break;
  }
  return 0;
}

/* VALUE as a whole non-negative number (decimal, or hex after 0x). */
static int parse_count(const char *text, long max, long *value) {
  char *end;
  long v = strtol(text, &end, 0);
  if (end == text || *end || v < 0 || v > max) return -1;
  *value = v;
  return 0;
}

int kv_policy_param(kv_policy_t *p, const char *assignment) {
  const char *eq = strchr(assignment, '=');
  if (!eq) return -1;
  size_t key_len = (size_t)(eq - assignment);
  long v;
  if (parse_count(eq + 1, 0x7fffffffL, &v)) return -1;
#define KEY(name) (key_len == sizeof name - 1 && !strncmp(assignment, name, key_len))
  int unicaim = p->kind == KV_HYBRID;
  if (KEY("sinks") && p->kind == KV_STREAMING && v <= 65535) p->sinks = (int)v;
  else if (KEY("window") && (p->kind == KV_H2O || p->kind == KV_SNAPKV) && v <= 65535) p->window = (int)v;
  else if (KEY("page") && p->kind == KV_QUEST && v >= KV_PAGE_MIN && v <= 65535) p->page = (int)v;
  else if (KEY("m") && unicaim && v <= 65535) p->reserve = (int)v;
  else if (KEY("k") && unicaim && v <= 65535) p->top_k = (int)v;
  else if (KEY("adapt") && unicaim && v <= 65535) p->adapt = (int)v;
  else if (KEY("protect") && unicaim && v <= 1000) p->protect = (int)((v * 65536 + 500) / 1000);
  else if (KEY("spare") && unicaim && v <= 65535) p->spare = (int)v;
  else if (KEY("observe") && unicaim && v <= 65535) p->observe = (int)v;
  else if (KEY("question") && unicaim && v <= 65535) p->question = (int)v;
  else if (KEY("span") && unicaim && v <= 65535) p->span = (int)v;
  else if (KEY("binary") && unicaim) p->binary_layers = (uint32_t)v;
  else return -1;
#undef KEY
  return 0;
}

int kv_policy_parse(kv_policy_t *p, int argc, char *const *argv, int max_budget) {
  long budget = 0;
  if (argc < 1 || (argc == 1) != !strcmp(argv[0], "dense")) return -1;
  if (argc >= 2 && parse_count(argv[1], max_budget, &budget)) return -1;
  if (kv_policy_make(p, argv[0], (int)budget) || (argc >= 2 && budget < 1)) return -1;
  for (int i = 2; i < argc; i++)
    if (kv_policy_param(p, argv[i])) return -1;
  return 0;
}

void kv_policy_describe(const kv_policy_t *p, char *out, size_t size) {
  const char *name = kv_policy_name(p->kind);
  switch (p->kind) {
  case KV_KEEP_ALL:
    snprintf(out, size, "dense, every position kept");
    break;
  case KV_STREAMING:
    snprintf(out, size, "%s, budget %d, sinks %d", name, p->budget, p->sinks);
    break;
  case KV_H2O:
  case KV_SNAPKV:
    snprintf(out, size, "%s, budget %d, window %d", name, p->budget, p->window);
    break;
  case KV_QUEST:
    snprintf(out, size, "%s, budget %d, page %d", name, p->budget, p->page);
    break;
  case KV_HYBRID:
    snprintf(out, size, "%s, budget %d (H %d + M %d), k %d, adapt %d, protect %d/1000 span %d in %d spare, "
             "marked by the last %d prompt queries, observe %d, binary layers 0x%lx", name, p->budget,
             p->budget - p->reserve, p->reserve, p->top_k, p->adapt, (int)(((long)p->protect * 1000 + 32768) / 65536),
             p->span, p->spare, p->question, p->observe, (unsigned long)p->binary_layers);
    break;
  default:
    snprintf(out, size, "%s", name);
    break;
  }
}
