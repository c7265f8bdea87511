/* Installs the host's vectorized kernels (llm_kernels.h, attention.h) when the CPU has
   AVX2; returns whether it did. */
#ifndef HOST_KERNELS_H
#define HOST_KERNELS_H

int host_kernels_install(void);

#endif
