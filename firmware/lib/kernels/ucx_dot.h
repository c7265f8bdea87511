/* The packed dot products (the SoC's custom-0 instructions, docs/soc/core.md):
   ACC plus the sum of four or two signed products, wrapping at 32 bits.
     ucx_dot4(acc, a, b)   acc + s8(a.b0)*s8(b.b0) + ... + s8(a.b3)*s8(b.b3)
     ucx_dotlo(acc, a, b)  acc + s8(a.b0)*s16(b.h0) + s8(a.b1)*s16(b.h1)
     ucx_dothi(acc, a, b)  acc + s8(a.b2)*s16(b.h0) + s8(a.b3)*s16(b.h1)
   and ucx_dot4z / ucx_dotloz / ucx_dothiz(a, b), the same from zero (one
   instruction where a chain would start with a zeroed register).
   On the SoC each is one instruction; on the host, or built with
   UCX_NO_DOT (make UCX_DOT=0), the same arithmetic in C. */
#ifndef UCX_DOT_H
#define UCX_DOT_H

#include <stdint.h>

/* A word of packed int8 or int16 elements at a 4-byte aligned address. */
typedef uint32_t __attribute__((may_alias)) ucx_word_t;
static inline uint32_t ucx_word(const void *p) { return *(const ucx_word_t *)p; }

#if defined(__riscv) && !defined(UCX_NO_DOT)

/* NAME accumulates into ACC; NAME##z starts from zero (funct7 1: the
   accumulator read is x0). */
#define UCX_DOT_INSN(name, funct3)                                                    \
  static inline int32_t name(int32_t acc, uint32_t a, uint32_t b) {                   \
    __asm__(".insn r 0x0b, " #funct3 ", 0, %0, %1, %2" : "+r"(acc) : "r"(a), "r"(b)); \
    return acc;                                                                       \
  }                                                                                   \
  static inline int32_t name##z(uint32_t a, uint32_t b) {                             \
    int32_t sum;                                                                      \
    __asm__(".insn r 0x0b, " #funct3 ", 1, %0, %1, %2" : "=r"(sum) : "r"(a), "r"(b)); \
    return sum;                                                                       \
  }
UCX_DOT_INSN(ucx_dot4, 0)
UCX_DOT_INSN(ucx_dotlo, 1)
UCX_DOT_INSN(ucx_dothi, 2)
#undef UCX_DOT_INSN

#else

static inline int32_t ucx_s8(uint32_t w, int i) { return (int8_t)(w >> (8 * i)); }
static inline int32_t ucx_s16(uint32_t w, int i) { return (int16_t)(w >> (16 * i)); }

/* Unsigned sums: the wrap is defined, as the instruction's. */
static inline int32_t ucx_dot4(int32_t acc, uint32_t a, uint32_t b) {
  uint32_t s = (uint32_t)acc;
  for (int i = 0; i < 4; i++) s += (uint32_t)(ucx_s8(a, i) * ucx_s8(b, i));
  return (int32_t)s;
}
static inline int32_t ucx_dotlo(int32_t acc, uint32_t a, uint32_t b) {
  return (int32_t)((uint32_t)acc + (uint32_t)(ucx_s8(a, 0) * ucx_s16(b, 0)) + (uint32_t)(ucx_s8(a, 1) * ucx_s16(b, 1)));
}
static inline int32_t ucx_dothi(int32_t acc, uint32_t a, uint32_t b) {
  return (int32_t)((uint32_t)acc + (uint32_t)(ucx_s8(a, 2) * ucx_s16(b, 0)) + (uint32_t)(ucx_s8(a, 3) * ucx_s16(b, 1)));
}
static inline int32_t ucx_dot4z(uint32_t a, uint32_t b) { return ucx_dot4(0, a, b); }
static inline int32_t ucx_dotloz(uint32_t a, uint32_t b) { return ucx_dotlo(0, a, b); }
static inline int32_t ucx_dothiz(uint32_t a, uint32_t b) { return ucx_dothi(0, a, b); }

#endif
#endif
