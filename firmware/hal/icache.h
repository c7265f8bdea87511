/* The instruction cache in front of external memory (docs/soc/memory.md): code
   written to memory -- an upload, a patched routine -- runs after
   icache_sync(). It is fence.i: the instruction cache drops every line, and
   as its refills read through the data cache, they see what the stores
   wrote whether or not it has reached the SDRAM. Code in RAM or ROM is
   fetched directly; fence.i is what RISC-V asks for there too. */
#ifndef HAL_ICACHE_H
#define HAL_ICACHE_H

static inline void icache_sync(void) {
  /* fence.i, spelled out: -march=rv32im_zicsr has no Zifencei mnemonic. */
  __asm__ volatile(".insn i 0x0f, 1, x0, x0, 0" ::: "memory");
}

#endif
