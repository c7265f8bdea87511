/* Prints cpu_exp2_pkg.sv: ucx.exp2's table (cpu_exp2) from the firmware's
   own, so that the core and fx_exp2_neg_coarse cannot disagree. */
#include <stdio.h>

#include "fixmath.h"

#define ENTRIES (int)(sizeof fx_exp2_fine_table / sizeof fx_exp2_fine_table[0])

int main(void) {
  printf("// Generated from firmware/lib/kernels/fixmath.c by tools/core/gen_exp2_pkg.c: do not edit.\n");
  printf("// round(2^24 * 2^(-i / 256)) >> 7 for i = 0..%d (ucx.exp2, cpu_exp2).\n", ENTRIES - 1);
  printf("package cpu_exp2_pkg;\n");
  printf("  function automatic logic [17:0] exp2_entry(input logic [8:0] index);\n");
  printf("    unique case (index)\n");
  for (int i = 0; i < ENTRIES; i++) printf("      9'd%d: exp2_entry = 18'd%d;\n", i, (int)fx_exp2_fine_table[i]);
  printf("      default: exp2_entry = 18'd0;  // beyond 256: no index reaches it\n");
  printf("    endcase\n");
  printf("  endfunction\n");
  printf("endpackage : cpu_exp2_pkg\n");
  return 0;
}
