#include "policy_spec.h"

#include <stdio.h>
#include <string.h>

const char *policy_from_spec(kv_policy_t *p, const char *spec, int max_budget, int slots, char *err, size_t size) {
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
