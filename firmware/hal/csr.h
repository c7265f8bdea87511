/* CSR access and the Zicntr counters. */
#ifndef HAL_CSR_H
#define HAL_CSR_H

#include <stdint.h>

#define CSR_READ(name) ({ uint32_t v_; __asm__ volatile("csrr %0, " #name : "=r"(v_)); v_; })
#define CSR_WRITE(name, v) __asm__ volatile("csrw " #name ", %0" ::"r"((uint32_t)(v)))
#define CSR_SET(name, v) __asm__ volatile("csrs " #name ", %0" ::"r"((uint32_t)(v)))
#define CSR_CLEAR(name, v) __asm__ volatile("csrc " #name ", %0" ::"r"((uint32_t)(v)))

#define MSTATUS_MIE (1u << 3)
#define MIE_MTIE (1u << 7)
#define MIE_MEIE (1u << 11)
#define MCAUSE_IRQ (1u << 31)

/* 64-bit reads of a counter pair, retried when the high half ticks over. */
#define COUNTER64(lo, hi)                                   \
  static inline uint64_t read_##lo(void) {                  \
    uint32_t h, l, h2;                                      \
    do {                                                    \
      h = CSR_READ(hi);                                     \
      l = CSR_READ(lo);                                     \
      h2 = CSR_READ(hi);                                    \
    } while (h != h2);                                      \
    return ((uint64_t)h << 32) | l;                         \
  }
COUNTER64(cycle, cycleh)
COUNTER64(instret, instreth)
COUNTER64(time, timeh)
#undef COUNTER64

#endif
