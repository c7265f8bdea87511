/* cpubench: integer kernels timed with the cycle and instret counters.
   Prints a table and BENCH lines; exits non-zero if a kernel's self-check fails. */
#include <stdio.h>

#include "csr.h"
#include "kernels.h"

typedef struct {
  const char *name;
  int (*run)(void);
} kernel_t;

static const kernel_t kernels[] = {
    {"sort", kernel_sort},     {"crc32", kernel_crc32},       {"matmul", kernel_matmul},
    {"string", kernel_string}, {"division", kernel_division},
};

static void print_ratio(const char *label, uint64_t num, uint64_t den) {
  uint64_t milli = den ? num * 1000 / den : 0;
  printf("%s%llu.%03llu", label, (unsigned long long)(milli / 1000),
         (unsigned long long)(milli % 1000));
}

int main(void) {
  uint64_t total_cycles = 0, total_instret = 0;
  int failures = 0;
  printf("%-10s %10s %10s %7s %s\n", "kernel", "cycles", "instret", "CPI", "check");
  for (unsigned i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
    uint64_t c0 = read_cycle(), i0 = read_instret();
    int bad = kernels[i].run();
    uint64_t dc = read_cycle() - c0, di = read_instret() - i0;
    total_cycles += dc;
    total_instret += di;
    failures += bad != 0;
    printf("%-10s %10llu %10llu ", kernels[i].name, (unsigned long long)dc, (unsigned long long)di);
    print_ratio("  ", dc, di);
    printf(" %s\n", bad ? "FAIL" : "ok");
    printf("BENCH cpubench_%s_cpi ", kernels[i].name);
    print_ratio("", dc, di);
    printf(" cpi\n");
  }
  printf("BENCH cpubench_cycles %llu cycles\n", (unsigned long long)total_cycles);
  printf("BENCH cpubench_cpi ");
  print_ratio("", total_cycles, total_instret);
  printf(" cpi\n");
  return failures;
}
