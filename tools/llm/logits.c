#include "logits.h"

#include <math.h>

int logits_argmax(const int32_t *x, int n) {
  int b = 0;
  for (int i = 1; i < n; i++)
    if (x[i] > x[b]) b = i;
  return b;
}

void logits_log_softmax(const int32_t *x, int n, double *out) {
  double max = x[logits_argmax(x, n)] / 65536.0, sum = 0;
  for (int i = 0; i < n; i++) sum += exp(x[i] / 65536.0 - max);
  double lse = max + log(sum);
  for (int i = 0; i < n; i++) out[i] = x[i] / 65536.0 - lse;
}
