/* The integer model's Q16 logits, read on the host. */
#ifndef LOGITS_H
#define LOGITS_H

#include <stdint.h>

/* The first index of the largest logit. */
int logits_argmax(const int32_t *x, int n);

/* out[i] = log softmax(x)[i]. */
void logits_log_softmax(const int32_t *x, int n, double *out);

#endif
