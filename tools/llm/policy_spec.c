#include "policy_spec.h"

#include <string.h>

int policy_from_spec(kv_policy_t *p, const char *spec, int max_budget) {
  char text[256], *words[16];
  int n = 0;
  if (strlen(spec) >= sizeof text) return -1;
  strcpy(text, spec);
  for (char *w = strtok(text, ":"); w; w = strtok(NULL, ":")) {
    if (n == 16) return -1;
    words[n++] = w;
  }
  return kv_policy_parse(p, n, words, max_budget);
}
