/* fixmath_vectors: the integer transformer's fixed-point helpers
   (firmware/lib/kernels/fixmath.h) on test vectors, for tests/llm_tests.py's
   comparison with exact arithmetic written from their definitions.
   stdin: one vector a line, "NAME ARG...", integers; stdout: the result. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fixmath.h"

int main(void) {
  char name[32];
  long long a, b, c;
  while (scanf("%31s", name) == 1) {
    if (!strcmp(name, "mul_shift") && scanf("%lld %lld %lld", &a, &b, &c) == 3)
      printf("%" PRId32 "\n", fx_mul_shift((int32_t)a, (int32_t)b, (int)c));
    else if (!strcmp(name, "mul_round_shift") && scanf("%lld %lld %lld", &a, &b, &c) == 3)
      printf("%" PRId32 "\n", llm_mul_round_shift((int64_t)a, (int32_t)b, (int)c));
    else if (!strcmp(name, "mulh") && scanf("%lld %lld", &a, &b) == 2)
      printf("%" PRId32 "\n", fx_mulh((int32_t)a, (int32_t)b));
    else if (!strcmp(name, "mulhu") && scanf("%lld %lld", &a, &b) == 2)
      printf("%" PRIu32 "\n", fx_mulhu((uint32_t)a, (uint32_t)b));
    else if (!strcmp(name, "isqrt") && scanf("%lld", &a) == 1)
      printf("%" PRIu32 "\n", fx_isqrt64((uint64_t)a));
    else if (!strcmp(name, "div64_small") && scanf("%lld %lld", &a, &b) == 2)
      printf("%" PRIu64 "\n", fx_div64_small((uint64_t)a, (uint32_t)b));
    else if (!strcmp(name, "recip") && scanf("%lld", &a) == 1)
      printf("%" PRIu32 "\n", fx_recip32((uint32_t)a));
    else if (!strcmp(name, "div_const") && scanf("%lld %lld", &a, &b) == 2)
      printf("%" PRIu32 "\n", fx_div_const((uint32_t)a, (uint32_t)b));
    else if (!strcmp(name, "headroom") && scanf("%lld", &a) == 1)
      printf("%d\n", fx_headroom((uint64_t)a));
    else if (!strcmp(name, "exp_neg") && scanf("%lld", &a) == 1)
      printf("%" PRId32 "\n", fx_exp_neg((int32_t)a));
    else if (!strcmp(name, "exp2_neg_coarse") && scanf("%lld", &a) == 1)
      printf("%" PRId32 "\n", fx_exp2_neg_coarse((int32_t)a));
    else {
      fprintf(stderr, "fixmath_vectors: bad vector '%s'\n", name);
      return 2;
    }
  }
  return 0;
}
