/* Integer kernels for cpubench. Each runs its workload and returns 0 when
   its own check of the result passes. */
#ifndef CPUBENCH_KERNELS_H
#define CPUBENCH_KERNELS_H

int kernel_sort(void);
int kernel_crc32(void);
int kernel_matmul(void);
int kernel_string(void);
int kernel_division(void);

#endif
