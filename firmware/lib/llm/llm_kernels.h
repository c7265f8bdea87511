/* Kernels a build may replace with faster versions of the same integer
   arithmetic: the host's vectorized ones (tools/llm/host_kernels.c), to
   evaluate SmolLM2 at a useful speed, and the SoC's matrix-vector unit
   (firmware/lib/mvu); a run without them uses the portable kernels. Each
   replacement must give bit-identical results (tests compare both), and
   returns 0, or nonzero for a shape it does not take (the portable kernel
   runs then). */
#ifndef LLM_KERNELS_H
#define LLM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "llm_model.h"

typedef struct {
  /* transformer.c's matmul_grouped: out_b = W x_b for N int16 inputs. */
  int (*matmul_grouped)(int32_t *out, size_t out_stride, const llm_qmat_t *w, const int16_t *xq, size_t x_stride,
                        const int32_t *xsum, size_t sum_stride, const int32_t *xs, int n, int out_shift);
} llm_kernels_t;

/* NULL (the portable kernels) unless a host tool installed others. */
extern const llm_kernels_t *llm_kernels;

#endif
