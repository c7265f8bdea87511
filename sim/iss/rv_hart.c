#include "rv_hart.h"

#include "fixmath.h"

#include <string.h>

enum {
  EXC_INSTR_MISALIGNED = 0,
  EXC_INSTR_FAULT = 1,
  EXC_ILLEGAL = 2,
  EXC_BREAKPOINT = 3,
  EXC_LOAD_MISALIGNED = 4,
  EXC_LOAD_FAULT = 5,
  EXC_STORE_MISALIGNED = 6,
  EXC_STORE_FAULT = 7,
  EXC_ECALL_M = 11,
};
enum { IRQ_TIMER = 7, IRQ_EXTERNAL = 11 };

enum {
  OPC_LOAD = 0x03,
  OPC_CUSTOM0 = 0x0b,
  OPC_MISC_MEM = 0x0f,
  OPC_OP_IMM = 0x13,
  OPC_AUIPC = 0x17,
  OPC_STORE = 0x23,
  OPC_OP = 0x33,
  OPC_LUI = 0x37,
  OPC_BRANCH = 0x63,
  OPC_JALR = 0x67,
  OPC_JAL = 0x6f,
  OPC_SYSTEM = 0x73,
};

enum {
  CSR_MSTATUS = 0x300,
  CSR_MISA = 0x301,
  CSR_MIE = 0x304,
  CSR_MTVEC = 0x305,
  CSR_MSTATUSH = 0x310,
  CSR_MSCRATCH = 0x340,
  CSR_MEPC = 0x341,
  CSR_MCAUSE = 0x342,
  CSR_MTVAL = 0x343,
  CSR_MIP = 0x344,
  CSR_TSELECT = 0x7a0,
  CSR_TDATA1 = 0x7a1,
  CSR_TDATA2 = 0x7a2,
  CSR_UCXCFG = 0x7c0,
  CSR_MCYCLE = 0xb00,
  CSR_MINSTRET = 0xb02,
  CSR_MCYCLEH = 0xb80,
  CSR_MINSTRETH = 0xb82,
  CSR_CYCLE = 0xc00,
  CSR_TIME = 0xc01,
  CSR_INSTRET = 0xc02,
  CSR_CYCLEH = 0xc80,
  CSR_TIMEH = 0xc81,
  CSR_INSTRETH = 0xc82,
  CSR_MVENDORID = 0xf11,
  CSR_MARCHID = 0xf12,
  CSR_MIMPID = 0xf13,
  CSR_MHARTID = 0xf14,
  CSR_MCONFIGPTR = 0xf15,
};

#define MCAUSE_INTERRUPT (1u << 31)
#define MSTATUS_MIE 0x8u
#define MSTATUS_MPIE 0x80u
#define MSTATUS_MPP_M 0x1800u
#define MIE_MTIE 0x80u
#define MIE_MEIE 0x800u

void rv_reset(rv_hart_t *h, uint32_t pc) {
  memset(h, 0, sizeof *h);
  h->pc = pc;
  h->dot_enable = true;
}

static int32_t sext(uint32_t value, int bits) { return (int32_t)(value << (32 - bits)) >> (32 - bits); }

static void trap(rv_hart_t *h, bool irq, uint32_t cause, uint32_t tval) {
  h->mepc = h->pc;
  h->mcause = (irq ? MCAUSE_INTERRUPT : 0) | cause;
  h->mtval = tval;
  h->mpie = h->mie;
  h->mie = false;
  h->pc = irq && h->mtvec_vectored ? (h->mtvec_base & ~0x3fu) | (cause & 15) << 2 : h->mtvec_base;
}

static uint64_t mcycle(const rv_hart_t *h, const iss_soc_t *s) { return s->cycle + h->mcycle_offset; }

/* The CSR's value, or false for one the core does not have. */
static bool csr_read(const rv_hart_t *h, const iss_soc_t *s, uint32_t csr, uint32_t *v) {
  switch (csr) {
    case CSR_MSTATUS: *v = MSTATUS_MPP_M | (h->mpie ? MSTATUS_MPIE : 0) | (h->mie ? MSTATUS_MIE : 0); return true;
    case CSR_MISA: *v = 0x40001100u; return true; /* MXL 32, I, M */
    case CSR_MIE: *v = (h->meie ? MIE_MEIE : 0) | (h->mtie ? MIE_MTIE : 0); return true;
    case CSR_MTVEC: *v = h->mtvec_base | h->mtvec_vectored; return true;
    case CSR_MSCRATCH: *v = h->mscratch; return true;
    case CSR_UCXCFG: *v = h->dot_enable; return true;
    case CSR_MEPC: *v = h->mepc; return true;
    case CSR_MCAUSE: *v = h->mcause; return true;
    case CSR_MTVAL: *v = h->mtval; return true;
    case CSR_MIP: *v = (iss_ext_irq(s) ? MIE_MEIE : 0) | (iss_timer_irq(s) ? MIE_MTIE : 0); return true;
    case CSR_MCYCLE: case CSR_CYCLE: *v = (uint32_t)mcycle(h, s); return true;
    case CSR_MCYCLEH: case CSR_CYCLEH: *v = (uint32_t)(mcycle(h, s) >> 32); return true;
    case CSR_MINSTRET: case CSR_INSTRET: *v = (uint32_t)h->minstret; return true;
    case CSR_MINSTRETH: case CSR_INSTRETH: *v = (uint32_t)(h->minstret >> 32); return true;
    case CSR_TIME: *v = (uint32_t)iss_mtime(s); return true;
    case CSR_TIMEH: *v = (uint32_t)(iss_mtime(s) >> 32); return true;
    case CSR_MIMPID: *v = 1; return true;
    case CSR_MHARTID: case CSR_MSTATUSH: case CSR_MVENDORID: case CSR_MARCHID: case CSR_MCONFIGPTR:
    case CSR_TSELECT: case CSR_TDATA1: case CSR_TDATA2: *v = 0; return true;
  }
  return false;
}

/* Writes V to a CSR csr_read knows (mip and the zero ones ignore it).
   Returns whether the instruction is kept out of minstret (it wrote it). */
static bool csr_write(rv_hart_t *h, const iss_soc_t *s, uint32_t csr, uint32_t v) {
  /* A counter written now reads V at the next instruction. */
  const uint64_t next = s->cycle + 1;
  switch (csr) {
    case CSR_MSTATUS:
      h->mie = v & MSTATUS_MIE;
      h->mpie = v & MSTATUS_MPIE;
      break;
    case CSR_MIE:
      h->mtie = v & MIE_MTIE;
      h->meie = v & MIE_MEIE;
      break;
    case CSR_MTVEC:
      h->mtvec_vectored = v & 1;
      h->mtvec_base = v & (h->mtvec_vectored ? ~0x3fu : ~0x3u);
      break;
    case CSR_MSCRATCH: h->mscratch = v; break;
    case CSR_UCXCFG: h->dot_enable = v & 1; break;
    case CSR_MEPC: h->mepc = v & ~3u; break;
    case CSR_MCAUSE: h->mcause = v & (MCAUSE_INTERRUPT | 0x1fu); break;
    case CSR_MTVAL: h->mtval = v; break;
    case CSR_MCYCLE: h->mcycle_offset = ((mcycle(h, s) & ~0xffffffffull) | v) - next; break;
    case CSR_MCYCLEH: h->mcycle_offset = (((uint64_t)v << 32) | (uint32_t)mcycle(h, s)) - next; break;
    case CSR_MINSTRET: h->minstret = (h->minstret & ~0xffffffffull) | v; return true;
    case CSR_MINSTRETH: h->minstret = ((uint64_t)v << 32) | (uint32_t)h->minstret; return true;
  }
  return false;
}

/* ucx.dot4 / dotlo / dothi: the sum of the products (docs/soc/core.md). */
static uint32_t dot(uint32_t funct3, uint32_t a, uint32_t b) {
  if (funct3 == 0) {
    int32_t sum = 0;
    for (int i = 0; i < 4; i++) sum += (int8_t)(a >> (8 * i)) * (int8_t)(b >> (8 * i));
    return (uint32_t)sum;
  }
  const uint32_t bytes = funct3 == 1 ? a : a >> 16;
  return (uint32_t)((int8_t)bytes * (int16_t)b + (int8_t)(bytes >> 8) * (int16_t)(b >> 16));
}

static uint32_t muldiv(uint32_t funct3, uint32_t a, uint32_t b) {
  const int32_t sa = (int32_t)a, sb = (int32_t)b;
  switch (funct3) {
    case 0: return a * b;
    case 1: return (uint32_t)(((int64_t)sa * sb) >> 32);
    case 2: return (uint32_t)(((int64_t)sa * (int64_t)(uint64_t)b) >> 32);
    case 3: return (uint32_t)(((uint64_t)a * b) >> 32);
    case 4: return b == 0 ? 0xffffffffu : (sa == INT32_MIN && sb == -1) ? a : (uint32_t)(sa / sb);
    case 5: return b == 0 ? 0xffffffffu : a / b;
    case 6: return b == 0 ? a : (sa == INT32_MIN && sb == -1) ? 0 : (uint32_t)(sa % sb);
    default: return b == 0 ? a : a % b;
  }
}

/* OP and OP-IMM's ALU (SUB and SRA by ALT). */
static uint32_t alu(uint32_t funct3, bool alt, uint32_t a, uint32_t b) {
  switch (funct3) {
    case 0: return alt ? a - b : a + b;
    case 1: return a << (b & 31);
    case 2: return (int32_t)a < (int32_t)b;
    case 3: return a < b;
    case 4: return a ^ b;
    case 5: return alt ? (uint32_t)((int32_t)a >> (b & 31)) : a >> (b & 31);
    case 6: return a | b;
    default: return a & b;
  }
}

static bool branch_taken(uint32_t funct3, uint32_t a, uint32_t b) {
  switch (funct3) {
    case 0: return a == b;
    case 1: return a != b;
    case 4: return (int32_t)a < (int32_t)b;
    case 5: return (int32_t)a >= (int32_t)b;
    case 6: return a < b;
    default: return a >= b;
  }
}

static bool wake(const rv_hart_t *h, const iss_soc_t *s) {
  return (h->mtie && iss_timer_irq(s)) || (h->meie && iss_ext_irq(s));
}

/* Executes the instruction at pc. false when it trapped (not retired). */
static bool execute(rv_hart_t *h, iss_soc_t *s, bool *uncounted) {
  uint32_t insn;
  const uint32_t pc = h->pc;
  if (pc - RAM_BASE < s->cfg.ram_bytes) memcpy(&insn, s->ram + (pc - RAM_BASE), 4);
  else if (iss_fetch(s, pc, &insn)) return trap(h, false, EXC_INSTR_FAULT, pc), false;

  const uint32_t opcode = insn & 0x7f, rd = (insn >> 7) & 31, funct3 = (insn >> 12) & 7;
  const uint32_t rs1 = (insn >> 15) & 31, funct7 = insn >> 25;
  const uint32_t a = h->x[rs1], b = h->x[(insn >> 20) & 31];
  const uint32_t imm_i = (uint32_t)((int32_t)insn >> 20);
  uint32_t result = 0, next = pc + 4;
  bool writes_rd = true;

  switch (opcode) {
    case OPC_LUI: result = insn & 0xfffff000u; break;
    case OPC_AUIPC: result = pc + (insn & 0xfffff000u); break;
    case OPC_JAL: {
      const uint32_t imm = (uint32_t)sext(((insn >> 31) << 20) | (((insn >> 12) & 0xff) << 12) |
                                              (((insn >> 20) & 1) << 11) | (((insn >> 21) & 0x3ff) << 1), 21);
      next = pc + imm;
      if (next & 3) return trap(h, false, EXC_INSTR_MISALIGNED, next), false;
      result = pc + 4;
      break;
    }
    case OPC_JALR:
      if (funct3) goto illegal;
      next = (a + imm_i) & ~1u;
      if (next & 3) return trap(h, false, EXC_INSTR_MISALIGNED, next), false;
      result = pc + 4;
      break;
    case OPC_BRANCH: {
      if (funct3 == 2 || funct3 == 3) goto illegal;
      writes_rd = false;
      if (branch_taken(funct3, a, b)) {
        const uint32_t imm = (uint32_t)sext(((insn >> 31) << 12) | (((insn >> 7) & 1) << 11) |
                                                (((insn >> 25) & 0x3f) << 5) | (((insn >> 8) & 0xf) << 1), 13);
        next = pc + imm;
        if (next & 3) return trap(h, false, EXC_INSTR_MISALIGNED, next), false;
      }
      break;
    }
    case OPC_LOAD: {
      if (funct3 == 3 || funct3 >= 6) goto illegal;
      const int bytes = 1 << (funct3 & 3);
      const uint32_t addr = a + imm_i;
      if (addr & (uint32_t)(bytes - 1)) return trap(h, false, EXC_LOAD_MISALIGNED, addr), false;
      uint32_t v = 0;
      if (addr - RAM_BASE < s->cfg.ram_bytes) memcpy(&v, s->ram + (addr - RAM_BASE), (size_t)bytes);
      else if (iss_load(s, addr, bytes, &v)) return trap(h, false, EXC_LOAD_FAULT, addr), false;
      result = funct3 == 0 ? (uint32_t)(int8_t)v : funct3 == 1 ? (uint32_t)(int16_t)v : v;
      break;
    }
    case OPC_STORE: {
      if (funct3 > 2) goto illegal;
      writes_rd = false;
      const int bytes = 1 << funct3;
      const uint32_t addr = a + (uint32_t)sext(((insn >> 25) << 5) | rd, 12);
      if (addr & (uint32_t)(bytes - 1)) return trap(h, false, EXC_STORE_MISALIGNED, addr), false;
      if (addr - RAM_BASE < s->cfg.ram_bytes && addr != s->cfg.tohost)
        memcpy(s->ram + (addr - RAM_BASE), &b, (size_t)bytes);
      else if (iss_store(s, addr, bytes, b)) return trap(h, false, EXC_STORE_FAULT, addr), false;
      break;
    }
    case OPC_OP_IMM:
      if ((funct3 == 1 && funct7) || (funct3 == 5 && funct7 && funct7 != 0x20)) goto illegal;
      result = alu(funct3, funct3 == 5 && funct7 == 0x20, a, imm_i);
      break;
    case OPC_OP:
      if (funct7 == 1) result = muldiv(funct3, a, b);
      else if (funct7 == 0 || (funct7 == 0x20 && (funct3 == 0 || funct3 == 5))) result = alu(funct3, funct7, a, b);
      else goto illegal;
      break;
    case OPC_CUSTOM0:
      if (!h->dot_enable) goto illegal;
      if (funct3 == 3) { /* ucx.exp2: rs2 and funct7 0 */
        if (funct7 || ((insn >> 20) & 31)) goto illegal;
        result = (uint32_t)fx_exp2_neg_coarse(a);
        break;
      }
      if (funct7 > 1 || funct3 > 2) goto illegal;
      result = (funct7 ? 0 : h->x[rd]) + dot(funct3, a, b); /* funct7 1: from zero */
      break;
    case OPC_MISC_MEM:
      writes_rd = false;
      if (funct3 == 2) { /* cbo.inval/clean/flush at rs1 */
        if (rd || (insn >> 22) || ((insn >> 20) & 3) == 3) goto illegal;
        if (iss_cmo(s, a)) return trap(h, false, EXC_STORE_FAULT, a), false;
      } else if (funct3 > 1) {
        goto illegal;
      }
      break; /* fence, fence.i: nothing is reordered or cached here */
    case OPC_SYSTEM: {
      if (funct3 == 0) {
        writes_rd = false;
        if (rd || rs1) goto illegal;
        switch (insn >> 20) {
          case 0x000: return trap(h, false, EXC_ECALL_M, 0), false;
          case 0x001: return trap(h, false, EXC_BREAKPOINT, pc), false;
          case 0x302:
            next = h->mepc;
            h->mie = h->mpie;
            h->mpie = true;
            break;
          case 0x105:
            if (!wake(h, s)) {
              h->sleeping = true;
              return true; /* retires when it wakes */
            }
            break;
          default: goto illegal;
        }
        break;
      }
      if (funct3 == 4) goto illegal;
      const uint32_t csr = insn >> 20, operand = (funct3 & 4) ? rs1 : a;
      const bool write = (funct3 & 3) == 1 || rs1 != 0;
      uint32_t old;
      if (!csr_read(h, s, csr, &old) || (write && (csr >> 10) == 3)) goto illegal;
      if (write) {
        const uint32_t v = (funct3 & 3) == 1 ? operand : (funct3 & 3) == 2 ? old | operand : old & ~operand;
        *uncounted = csr_write(h, s, csr, v);
      }
      result = old;
      break;
    }
    default:
      goto illegal;
  }
  if (writes_rd && rd) h->x[rd] = result;
  h->pc = next;
  return true;
illegal:
  trap(h, false, EXC_ILLEGAL, insn);
  return false;
}

rv_stop_t rv_run(rv_hart_t *h, iss_soc_t *s, uint64_t cycles) {
  const uint64_t end = s->cycle + cycles;
  while (s->cycle < end) {
    if (h->sleeping) {
      if (!wake(h, s)) {
        if (!h->mtie) return RV_SLEEPING;
        /* Only the timer can wake it (or the host's input, between runs). */
        const uint64_t due = s->mtimecmp - s->mtime_offset;
        s->cycle = due > s->cycle && due < end ? due : end;
        continue;
      }
      h->sleeping = false; /* the wfi retires */
      h->pc += 4;
      h->minstret++;
      s->cycle++;
      continue;
    }
    if (h->mie && wake(h, s)) {
      trap(h, true, h->meie && iss_ext_irq(s) ? IRQ_EXTERNAL : IRQ_TIMER, 0);
      s->cycle++;
      continue;
    }
    if (h->profile) h->profile(h->profile_ctx, h->pc);
    bool uncounted = false;
    if (execute(h, s, &uncounted) && !uncounted && !h->sleeping) h->minstret++;
    s->cycle++;
    if (s->exit_valid) return RV_EXIT;
  }
  return RV_BUDGET;
}
