/* The language model's grouped matrix-vector products (SmolLM2's) on the
   matrix-vector unit (hal/mvu.h): installed as llm_kernels' matmul_grouped,
   so transformer.c calls it where it would run tile_groups; the results are
   the same integers (the unit sums as tile_groups does and the scaling is
   the same code). */
#ifndef MVU_MATMUL_H
#define MVU_MATMUL_H

#include <stddef.h>

/* With a unit in the SoC: writes back any of the IMAGE's lines the data
   cache holds dirty (the unit reads memory, not the cache) and installs the
   kernel; returns whether it did. */
int mvu_matmul_install(const void *image, size_t bytes);
/* Switches an installed kernel off (the portable kernel runs) or on again. */
void mvu_matmul_enable(int on);
/* Whether the kernel is installed and on. */
int mvu_matmul_enabled(void);

#endif
