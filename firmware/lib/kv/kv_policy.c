/* Policies by name and parameter: parsing, checking and describing them
   from their tables, for every console and host tool. */
#include "kv_policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const kv_policy_ops_t *kv_policy_find(const char *name) {
  for (int i = 0; kv_policies[i]; i++)
    if (!strcmp(name, kv_policies[i]->name)) return kv_policies[i];
  return 0;
}

void kv_policy_names(char *out, size_t size) {
  size_t used = 0;
  if (size) out[0] = '\0';
  for (int i = 0; kv_policies[i] && used < size; i++)
    used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", kv_policies[i]->name);
}

void kv_policy_make(kv_policy_t *p, const kv_policy_ops_t *ops, int budget) {
  memset(p, 0, sizeof *p);
  p->ops = ops;
  p->budget = ops->flags & KV_POLICY_NO_BUDGET ? 0 : budget;
  if (ops->defaults) ops->defaults(p);
}

const kv_param_t *kv_policy_find_param(const kv_policy_ops_t *ops, const char *key, size_t key_len) {
  for (const kv_param_t *q = ops->params; q && q->key; q++)
    if (strlen(q->key) == key_len && !strncmp(q->key, key, key_len)) return q;
  return 0;
}

const char *kv_param_within_budget(const kv_policy_t *p, const char *key, int or_equal) {
  static char why[80];
  const kv_param_t *q = kv_policy_find_param(p->ops, key, strlen(key));
  int32_t v = q ? p->v[q->index] : 0;
  if (v < p->budget || (or_equal && v == p->budget)) return 0;
  snprintf(why, sizeof why, "%s=%ld must be %s the budget (%d)", key, (long)v, or_equal ? "at most" : "below",
           p->budget);
  return why;
}

/* TEXT as a whole number (decimal, or hex after 0x) in [min, max]. */
static int parse_number(const char *text, int32_t min, int32_t max, int32_t *value) {
  char *end;
  long long v = strtoll(text, &end, 0);
  if (end == text || *end || v < min || v > max) return -1;
  *value = (int32_t)v;
  return 0;
}

/* "key, key" of OPS's parameters. */
static void param_names(const kv_policy_ops_t *ops, char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (const kv_param_t *q = ops->params; q && q->key && used < size; q++)
    used += (size_t)snprintf(out + used, size - used, "%s%s", q == ops->params ? "" : ", ", q->key);
}

const char *kv_policy_param(kv_policy_t *p, const char *assignment, char *err, size_t size) {
  const char *eq = strchr(assignment, '=');
  const kv_param_t *q = eq ? kv_policy_find_param(p->ops, assignment, (size_t)(eq - assignment)) : 0;
  if (!q) {
    char names[128];
    param_names(p->ops, names, sizeof names);
    snprintf(err, size, "%s has no parameter '%.*s' (%s)", p->ops->name, eq ? (int)(eq - assignment) : 32,
             assignment, names[0] ? names : "none");
    return err;
  }
  if (parse_number(eq + 1, q->min, q->max, &p->v[q->index])) {
    snprintf(err, size, "%s=%.16s out of range (%ld..%ld)", q->key, eq + 1, (long)q->min, (long)q->max);
    return err;
  }
  return 0;
}

const char *kv_policy_parse(kv_policy_t *p, int argc, char *const *argv, int max_budget, int slots, char *err,
                            size_t size) {
  const kv_policy_ops_t *ops = argc >= 1 ? kv_policy_find(argv[0]) : 0;
  if (!ops) {
    char names[160];
    kv_policy_names(names, sizeof names);
    snprintf(err, size, "unknown policy '%.32s' (%s)", argc >= 1 ? argv[0] : "", names);
    return err;
  }
  int first_param = 1;
  int32_t budget = 0;
  if (!(ops->flags & KV_POLICY_NO_BUDGET)) {
    /* Positions, or "P%": P percent of the context (prune_eval's unit). */
    char word[12];
    size_t len = argc >= 2 ? strlen(argv[1]) : 0;
    int pct = len > 1 && len < sizeof word && argv[1][len - 1] == '%';
    if (pct) {
      memcpy(word, argv[1], len - 1);
      word[len - 1] = '\0';
    }
    if (argc < 2 || (pct ? parse_number(word, 1, 100, &budget) : parse_number(argv[1], 1, max_budget, &budget))) {
      snprintf(err, size, "%s needs a budget of 1..%d positions or 1..100%% of them%s%.16s%s", ops->name,
               max_budget, argc < 2 ? "" : " (got '", argc < 2 ? "" : argv[1], argc < 2 ? "" : "')");
      return err;
    }
    if (pct) budget = budget * max_budget / 100 > 0 ? budget * max_budget / 100 : 1;
    first_param = 2;
  }
  kv_policy_t next;
  kv_policy_make(&next, ops, budget);
  for (int i = first_param; i < argc; i++)
    if (kv_policy_param(&next, argv[i], err, size)) return err;
  const char *why = ops->settle ? ops->settle(&next, slots) : 0;
  if (why) {
    snprintf(err, size, "%s", why);
    return err;
  }
  *p = next;
  return 0;
}

const char *kv_policy_from_spec(kv_policy_t *p, const char *spec, int max_budget, int slots, char *err,
                                size_t size) {
  char text[256], *words[24];
  int n = 0;
  if (strlen(spec) >= sizeof text) {
    snprintf(err, size, "policy spec longer than %u characters", (unsigned)sizeof text - 1);
    return err;
  }
  strcpy(text, spec);
  for (char *w = strtok(text, ":"); w; w = strtok(NULL, ":")) {
    if (n == (int)(sizeof words / sizeof words[0])) {
      snprintf(err, size, "policy spec with more than %d words", n);
      return err;
    }
    words[n++] = w;
  }
  return kv_policy_parse(p, n, words, max_budget, slots, err, size);
}

void kv_policy_describe(const kv_policy_t *p, char *out, size_t size) {
  size_t used = (size_t)snprintf(out, size, "%s", p->ops->name);
  if (p->ops->flags & KV_POLICY_NO_BUDGET) {
    if (used < size) snprintf(out + used, size - used, ", every position kept");
    return;
  }
  if (used < size) used += (size_t)snprintf(out + used, size - used, ", budget %d positions", p->budget);
  for (const kv_param_t *q = p->ops->params; q && q->key && used < size; q++)
    used += (size_t)snprintf(out + used, size - used, ", %s %ld", q->key, (long)p->v[q->index]);
}
