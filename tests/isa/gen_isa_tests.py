#!/usr/bin/python3
"""Generate the table-driven parts of the ISA suite: every RV32IM register
and immediate operation, every branch, every load/store width and offset,
and the packed dot products (custom-0, docs/soc/core.md), over edge values, with
expected results from an independent Python model.

usage: gen_isa_tests.py OUTDIR     (writes gen_alu.S, gen_muldiv.S, gen_branch.S, gen_mem.S, gen_mem_ext.S,
                                    gen_dot.S)
       gen_isa_tests.py --list     (their names, for make and the test runner)
"""
import os
import random
import sys

M32 = 0xFFFFFFFF
EDGES = [0, 1, 2, 3, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE,
         0x55555555, 0xAAAAAAAA, 31, 32, 0x0000FFFF, 0xFFFF0000, 0x12345678, 0xDEADBEEF]


def s32(x):
    x &= M32
    return x - (1 << 32) if x & 0x80000000 else x


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def rv_div(a, b):
    if b == 0:
        return M32
    if s32(a) == -(1 << 31) and s32(b) == -1:
        return a
    return trunc_div(s32(a), s32(b)) & M32


def rv_rem(a, b):
    if b == 0:
        return a
    if s32(a) == -(1 << 31) and s32(b) == -1:
        return 0
    sa, sb = s32(a), s32(b)
    return (sa - trunc_div(sa, sb) * sb) & M32


R_OPS = {
    "add": lambda a, b: (a + b) & M32,
    "sub": lambda a, b: (a - b) & M32,
    "sll": lambda a, b: (a << (b & 31)) & M32,
    "slt": lambda a, b: int(s32(a) < s32(b)),
    "sltu": lambda a, b: int(a < b),
    "xor": lambda a, b: a ^ b,
    "srl": lambda a, b: a >> (b & 31),
    "sra": lambda a, b: (s32(a) >> (b & 31)) & M32,
    "or": lambda a, b: a | b,
    "and": lambda a, b: a & b,
}
MD_OPS = {
    "mul": lambda a, b: (a * b) & M32,
    "mulh": lambda a, b: ((s32(a) * s32(b)) >> 32) & M32,
    "mulhsu": lambda a, b: ((s32(a) * b) >> 32) & M32,
    "mulhu": lambda a, b: ((a * b) >> 32) & M32,
    "div": rv_div,
    "divu": lambda a, b: M32 if b == 0 else a // b,
    "rem": rv_rem,
    "remu": lambda a, b: a if b == 0 else a % b,
}


def s8(x, i):
    b = (x >> (8 * i)) & 0xFF
    return b - 256 if b & 0x80 else b


def s16(x, i):
    h = (x >> (16 * i)) & 0xFFFF
    return h - 65536 if h & 0x8000 else h


# The dot products: (funct3, model of rd's new value from rd, rs1, rs2).
DOT_OPS = {
    "dot4": (0, lambda acc, a, b: (acc + sum(s8(a, i) * s8(b, i) for i in range(4))) & M32),
    "dotlo": (1, lambda acc, a, b: (acc + s8(a, 0) * s16(b, 0) + s8(a, 1) * s16(b, 1)) & M32),
    "dothi": (2, lambda acc, a, b: (acc + s8(a, 2) * s16(b, 0) + s8(a, 3) * s16(b, 1)) & M32),
}


def dot_insn(name, rd, rs1, rs2, zero=False):
    """A packed dot product; ZERO: the form that starts from zero (funct7 1)."""
    return f".insn r 0x0b, {DOT_OPS[name][0]}, {int(zero)}, {rd}, {rs1}, {rs2}"


def exp2_model(z):
    """ucx.exp2 from its definition (docs/soc/core.md), not the firmware's table:
    2^-z for z in Q16 rounded to 1/256, in Q16 rounded; 0 from 2^21 up."""
    if z >> 21:
        return 0
    i = ((z >> 8) & 255) + ((z >> 7) & 1)
    entry = round(2 ** 24 * 2 ** (-i / 256)) >> 7
    return ((entry >> ((z >> 16) & 31)) + 1) >> 1


def exp2_insn(rd, rs1):
    return f".insn r 0x0b, 3, 0, {rd}, {rs1}, x0"


I_OPS = {"addi": "add", "slti": "slt", "sltiu": "sltu", "xori": "xor", "ori": "or", "andi": "and"}
SHIFT_I = {"slli": "sll", "srli": "srl", "srai": "sra"}
IMMS = [0, 1, -1, 2, 2047, -2048, 0x555, -0x556, 100, -100]
BRANCHES = {
    "beq": lambda a, b: a == b, "bne": lambda a, b: a != b,
    "blt": lambda a, b: s32(a) < s32(b), "bge": lambda a, b: s32(a) >= s32(b),
    "bltu": lambda a, b: a < b, "bgeu": lambda a, b: a >= b,
}

HEADER = '#include "test_env.h"\n\nTEST_BEGIN\n'
FOOTER = "  j pass\nTEST_END\n"


class Writer:
    def __init__(self):
        self.lines = [HEADER]
        self.case = 0

    def start(self):
        self.case += 1
        self.lines.append(f"  CASE({self.case})")

    def emit(self, *ins):
        self.lines += ["  " + i for i in ins]

    def text(self):
        return "\n".join(self.lines) + "\n" + FOOTER


def reg_cases(w, ops, pairs):
    for name, fn in ops.items():
        for a, b in pairs:
            exp = fn(a, b)
            # Plain form, then rd = rs1 and rs1 = rs2 forms (forwarding paths).
            w.start()
            w.emit(f"li a1, {a:#x}", f"li a2, {b:#x}", f"{name} a3, a1, a2", f"EXPECT(a3, {exp:#x})")
        for a in EDGES[:8]:
            w.start()
            w.emit(f"li a1, {a:#x}", f"{name} a1, a1, a1", f"EXPECT(a1, {fn(a, a):#x})")
        w.start()
        w.emit("li a1, 5", "li a2, 7", f"{name} x0, a1, a2", "bnez x0, fail")


def gen_alu():
    w = Writer()
    rng = random.Random(1)
    pairs = [(a, b) for a in EDGES for b in EDGES]
    pairs += [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(40)]
    reg_cases(w, R_OPS, pairs)
    for name, base in I_OPS.items():
        for a in EDGES:
            for imm in IMMS:
                w.start()
                w.emit(f"li a1, {a:#x}", f"{name} a3, a1, {imm}",
                       f"EXPECT(a3, {R_OPS[base](a, imm & M32):#x})")
    for name, base in SHIFT_I.items():
        for a in EDGES:
            for sh in (0, 1, 4, 15, 16, 30, 31):
                w.start()
                w.emit(f"li a1, {a:#x}", f"{name} a3, a1, {sh}", f"EXPECT(a3, {R_OPS[base](a, sh):#x})")
    for imm in (0, 1, 0x7FFFF, 0x80000, 0xFFFFF, 0x12345):
        w.start()
        w.emit(f"lui a3, {imm:#x}", f"EXPECT(a3, {(imm << 12) & M32:#x})")
    # auipc: compare against the label address of the same instruction.
    for imm in (0, 1, 0xFFFFF, 0x80000):
        w.start()
        w.emit(f"1: auipc a3, {imm:#x}", "la a4, 1b", f"li a5, {(imm << 12) & M32:#x}",
               "add a4, a4, a5", "bne a3, a4, fail")
    # Back-to-back dependency chain through every forwarding distance.
    w.start()
    w.emit("li a1, 1", "add a1, a1, a1", "add a1, a1, a1", "nop", "add a1, a1, a1", "nop", "nop",
           "add a1, a1, a1", "EXPECT(a1, 16)")
    return w.text()


def gen_muldiv():
    w = Writer()
    rng = random.Random(2)
    pairs = [(a, b) for a in EDGES for b in EDGES]
    pairs += [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(60)]
    pairs += [(rng.getrandbits(32), rng.getrandbits(rng.randint(1, 12))) for _ in range(40)]
    reg_cases(w, MD_OPS, pairs)
    # A division result used at once, and a multiply feeding a divide.
    w.start()
    w.emit("li a1, 1000", "li a2, 7", "div a3, a1, a2", "addi a3, a3, 1", "EXPECT(a3, 143)")
    w.start()
    w.emit("li a1, 300", "li a2, 3", "mul a3, a1, a2", "divu a4, a3, a2", "rem a5, a3, a4",
           "EXPECT(a4, 300)", "EXPECT(a5, 0)")
    # Each half of the product forwarded to the very next instruction, to both
    # operands, to a branch, and a product of products.
    w.start()
    w.emit("li a1, 0x12345678", "li a2, 0x9abcdef1", "mulhu a3, a1, a2", "addi a3, a3, 1",
           "mul a4, a1, a2", "add a5, a4, a4", "mulh a6, a1, a2", "sub a6, a6, a3",
           f"EXPECT(a3, {((0x12345678 * 0x9abcdef1) >> 32) + 1:#x})",
           f"EXPECT(a5, {(2 * 0x12345678 * 0x9abcdef1) & M32:#x})",
           f"EXPECT(a6, {(((0x12345678 * (0x9abcdef1 - (1 << 32))) >> 32) - ((0x12345678 * 0x9abcdef1) >> 32) - 1) & M32:#x})")
    w.start()
    w.emit("li a1, 3", "li a2, 4", "mul a3, a1, a2", "mul a4, a1, a1", "mul a6, a3, a4",
           "mulhsu a7, a6, a6", "mul a5, a3, a3", "beq a5, a3, fail",
           "EXPECT(a6, 108)", "EXPECT(a7, 0)", "EXPECT(a5, 144)")
    return w.text()


def gen_dot():
    w = Writer()
    rng = random.Random(3)
    vals = EDGES + [0x80808080, 0x7F7F7F7F, 0x80007FFF, 0x7FFF8000, 0x01FF80FF]
    triples = [(rng.choice(vals), a, b) for a in vals for b in vals]
    triples += [(rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32)) for _ in range(60)]
    # Sums that wrap: the largest products onto an accumulator near the limits.
    triples += [(acc, a, b) for acc in (0x7FFFFFFF, 0x80000000, 0x7FFF0000)
                for a, b in ((0x80808080, 0x80808080), (0x80808080, 0x80008000), (0x7F7F7F7F, 0x7FFF7FFF))]
    for name, (_, fn) in DOT_OPS.items():
        for acc, a, b in triples:
            w.start()
            w.emit(f"li a3, {acc:#x}", f"li a1, {a:#x}", f"li a2, {b:#x}", dot_insn(name, "a3", "a1", "a2"),
                   f"EXPECT(a3, {fn(acc, a, b):#x})")
        # rd = rs1, rd = rs2, rs1 = rs2 = rd (each a register read twice or thrice).
        for acc, a, b in triples[:12]:
            w.start()
            w.emit(f"li a1, {acc:#x}", f"li a2, {b:#x}", dot_insn(name, "a1", "a1", "a2"),
                   f"EXPECT(a1, {fn(acc, acc, b):#x})")
            w.start()
            w.emit(f"li a2, {acc:#x}", f"li a1, {a:#x}", dot_insn(name, "a2", "a1", "a2"),
                   f"EXPECT(a2, {fn(acc, a, acc):#x})")
            w.start()
            w.emit(f"li a1, {acc:#x}", dot_insn(name, "a1", "a1", "a1"), f"EXPECT(a1, {fn(acc, acc, acc):#x})")
        w.start()
        w.emit("li a1, 0x01010101", "li a2, 0x01010101", dot_insn(name, "x0", "a1", "a2"), "bnez x0, fail")
        # The forms from zero: rd's old value takes no part, whatever it is
        # (a stale value, rs1 or rs2 itself, a load's result just before).
        for acc, a, b in triples[::3]:
            w.start()
            w.emit(f"li a3, {acc:#x}", f"li a1, {a:#x}", f"li a2, {b:#x}", dot_insn(name, "a3", "a1", "a2", True),
                   f"EXPECT(a3, {fn(0, a, b):#x})")
        for acc, a, b in triples[:6]:
            w.start()
            w.emit(f"li a1, {acc:#x}", f"li a2, {b:#x}", dot_insn(name, "a1", "a1", "a2", True),
                   f"EXPECT(a1, {fn(0, acc, b):#x})")
            w.start()
            w.emit(f"li a1, {a:#x}", f"li a2, {acc:#x}", dot_insn(name, "a2", "a1", "a2", True),
                   f"EXPECT(a2, {fn(0, a, acc):#x})")
        w.start()
        w.emit("la a0, dot_data", "li a1, 0x01020304", "li a2, 0x01010101", "lw a3, 4(a0)",
               dot_insn(name, "a3", "a1", "a2", True), f"EXPECT(a3, {fn(0, 0x01020304, 0x01010101):#x})")
    # Forwarding: every operand from the instruction just before (ALU, load,
    # multiply, another dot), at distances 1-3, and the result into the next
    # instruction, a branch and a store.
    a, b = 0xF3057F80, 0x12348765
    dot4, lo = DOT_OPS["dot4"][1], DOT_OPS["dotlo"][1]
    w.start()
    w.emit(f"li a1, {a:#x}", f"li a2, {b:#x}", "li a3, 5", "addi a3, a3, 1", dot_insn("dot4", "a3", "a1", "a2"),
           f"EXPECT(a3, {dot4(6, a, b):#x})")
    w.start()
    w.emit(f"li a1, {a:#x}", "li a2, 7", "li a3, 3", "addi a1, a1, 1", "addi a2, a2, -9",
           dot_insn("dotlo", "a3", "a1", "a2"), f"EXPECT(a3, {lo(3, a + 1, (7 - 9) & M32):#x})")
    w.start()
    w.emit("la a0, dot_data", f"li a1, {a:#x}", "li a3, 0", "lw a2, 0(a0)", dot_insn("dot4", "a3", "a1", "a2"),
           "lw a3, 4(a0)", dot_insn("dot4", "a3", "a1", "a2"), "lw a1, 8(a0)", dot_insn("dothi", "a3", "a1", "a2"),
           f"EXPECT(a3, {DOT_OPS['dothi'][1](dot4(0x11111111, a, 0x55AA807F), 0xDEADBEEF, 0x55AA807F):#x})")
    w.start()
    w.emit("li a1, 0x10000", "li a2, 0x30000", "mul a3, a1, a2", "mulhu a4, a1, a2",
           dot_insn("dot4", "a3", "a4", "a4"), f"EXPECT(a3, {dot4(0, 3, 3):#x})")
    chain = [dot_insn("dot4", "a3", "a1", "a2")] * 3 + ["nop", dot_insn("dot4", "a3", "a1", "a2"), "nop", "nop",
                                                        dot_insn("dot4", "a3", "a1", "a2")]
    acc = 0
    for _ in range(5):
        acc = dot4(acc, a, b)
    w.start()
    w.emit(f"li a1, {a:#x}", f"li a2, {b:#x}", "li a3, 0", *chain, f"EXPECT(a3, {acc:#x})")
    w.start()
    w.emit(f"li a1, {a:#x}", f"li a2, {b:#x}", "li a3, 0", dot_insn("dot4", "a3", "a1", "a2"),
           dot_insn("dotlo", "a1", "a3", "a2"), f"EXPECT(a1, {lo(a, dot4(0, a, b), b):#x})")
    # A dot product's sum is complete in WB only: an instruction that uses it
    # right after waits, and a dot product taking it as rs1 or rs2 and as its
    # accumulator at once must see it in both.
    w.start()
    w.emit(f"li a1, {a:#x}", f"li a2, {b:#x}", "li a3, 7", "li a0, 100", dot_insn("dot4", "a3", "a1", "a2"),
           "sub a4, a0, a3", "mul a5, a3, a3", f"EXPECT(a4, {(100 - dot4(7, a, b)) & M32:#x})",
           f"EXPECT(a5, {(dot4(7, a, b) ** 2) & M32:#x})")
    first = dot4(7, a, b)
    w.start()
    w.emit(f"li a1, {a:#x}", f"li a2, {b:#x}", "li a3, 7", dot_insn("dot4", "a3", "a1", "a2"),
           dot_insn("dot4", "a3", "a3", "a2"), f"EXPECT(a3, {dot4(first, first, b):#x})")
    w.start()
    w.emit(f"li a1, {a:#x}", f"li a2, {b:#x}", "li a3, 7", dot_insn("dot4", "a3", "a1", "a2"),
           dot_insn("dothi", "a3", "a1", "a3"), dot_insn("dotlo", "a3", "a1", "a2"),
           f"EXPECT(a3, {lo(DOT_OPS['dothi'][1](first, a, first), a, b):#x})")
    w.start()
    w.emit(f"li a1, {a:#x}", f"li a2, {b:#x}", "li a3, 7", dot_insn("dot4", "a3", "a1", "a2"),
           dot_insn("dotlo", "a3", "a1", "a2", True), dot_insn("dot4", "a3", "a1", "a2"),
           f"EXPECT(a3, {dot4(lo(0, a, b), a, b):#x})")
    w.start()
    w.emit("li a1, 0x01010101", "li a3, -4", dot_insn("dot4", "a3", "a1", "a1"), "bnez a3, fail",
           "la a0, dot_data", "li a3, 9", dot_insn("dot4", "a3", "a1", "a1"), "sw a3, 12(a0)", "lw a4, 12(a0)",
           "EXPECT(a4, 13)")
    text = w.text()
    return text + ("\n  .data\n  .align 4\ndot_data: .word 0x55AA807F, 0x11111111, 0xDEADBEEF, 0\n")


def gen_exp2():
    w = Writer()
    rng = random.Random(5)
    # Every rounding edge of the index (z[7], z[15:8] = 255 carrying into the
    # next power), every shift, the range's end and beyond it.
    zs = [0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x17F, 0x180, 0xFF7F, 0xFF80, 0xFFFF, 0x10000, 0x1007F, 0x10080,
          0x11FF80, 17 << 16, (18 << 16) - 1, 0x1EFFFF, 0x1FFF7F, 0x1FFF80, 0x1FFFFF, 0x200000, 0x200001,
          0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFE00000]
    zs += [(n << 16) | k for n in range(0, 32, 3) for k in (0x0000, 0x4A80, 0xB37F)]
    zs += [rng.getrandbits(21) for _ in range(80)] + [rng.getrandbits(32) for _ in range(20)]
    for z in zs:
        w.start()
        w.emit(f"li a1, {z:#x}", "li a3, 0x5A5A5A5A", exp2_insn("a3", "a1"), f"EXPECT(a3, {exp2_model(z):#x})")
    # rd = rs1; a load's result as the operand; the result into the next
    # instruction (it waits), a dot product's accumulator, another exp2, a
    # store; rd = x0 writes nothing.
    z = 0x2A1C5
    w.start()
    w.emit(f"li a1, {z:#x}", exp2_insn("a1", "a1"), f"EXPECT(a1, {exp2_model(z):#x})")
    w.start()
    w.emit("la a0, exp2_data", "lw a1, 0(a0)", exp2_insn("a3", "a1"), "sub a4, zero, a3",
           f"EXPECT(a4, {-exp2_model(0x180) & M32:#x})")
    e = exp2_model(0x180)
    w.start()
    w.emit("li a1, 0x180", "li a2, 0x01010101", exp2_insn("a3", "a1"), dot_insn("dot4", "a3", "a2", "a2"),
           f"EXPECT(a3, {DOT_OPS['dot4'][1](e, 0x01010101, 0x01010101):#x})")
    w.start()
    w.emit("li a1, 0x3FFFFF", exp2_insn("a3", "a1"), exp2_insn("a3", "a3"), exp2_insn("a4", "a3"),
           f"EXPECT(a4, {exp2_model(exp2_model(exp2_model(0x3FFFFF))):#x})")
    w.start()
    w.emit("la a0, exp2_data", "li a1, 0x10000", exp2_insn("a3", "a1"), "sw a3, 4(a0)", "lw a4, 4(a0)",
           f"EXPECT(a4, {exp2_model(0x10000):#x})")
    w.start()
    w.emit("li a1, 0x10", exp2_insn("x0", "a1"), "bnez x0, fail")
    return w.text() + "\n  .data\n  .align 4\nexp2_data: .word 0x180, 0\n"


def gen_branch():
    w = Writer()
    vals = [0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 5]
    for name, fn in BRANCHES.items():
        for a in vals:
            for b in vals:
                taken = fn(a, b)
                w.start()
                # Forward branch.
                w.emit(f"li a1, {a:#x}", f"li a2, {b:#x}", "li a3, 0", f"{name} a1, a2, 1f",
                       "li a3, 1", f"1: EXPECT(a3, {0 if taken else 1})")
                # Backward branch: taken once, then falls through.
                w.start()
                w.emit("li a4, 0", "j 3f", "2: addi a4, a4, 1", "j 4f",
                       f"3: li a1, {a:#x}", f"li a2, {b:#x}", f"{name} a1, a2, 2b",
                       f"4: EXPECT(a4, {1 if taken else 0})")
    # jal / jalr link values and targets.
    w.start()
    w.emit("jal a1, 1f", "0: j fail", "1: la a2, 0b", "bne a1, a2, fail")
    w.start()
    w.emit("la a1, 1f", "jalr a2, 0(a1)", "0: j fail", "1: la a3, 0b", "bne a2, a3, fail")
    w.start()  # low bit of the jalr target is cleared
    w.emit("la a1, 1f", "addi a1, a1, -3", "jalr ra, 4(a1)", "j fail", "1: nop")
    w.start()  # rd == rs1: the link must not disturb the target
    w.emit("la a1, 1f", "jalr a1, 0(a1)", "0: j fail", "1: la a3, 0b", "bne a1, a3, fail")
    w.start()  # x0 as link register
    w.emit("jal x0, 1f", "j fail", "1: bnez x0, fail")
    return w.text()


def gen_mem(external=False):
    """Stores of every width and offset into a 16-byte window, then loads of
    every width and offset, checked against a byte model; then load-use
    hazards. EXTERNAL: the window is in external memory (1 MB past EXT_BASE,
    clear of the program when it is there too), whose
    answers come after a variable number of cycles, with RAM accesses mixed
    in."""
    w = Writer()
    rng = random.Random(3)
    mem = bytearray(16)
    # s0: the window (cleared: external memory starts with whatever it holds); s2: RAM.
    w.emit("li s0, 0x40100000" if external else "la s0, scratch", "la s2, scratch", "addi s2, s2, 32",
           "sw zero, 0(s0)", "sw zero, 4(s0)", "sw zero, 8(s0)", "sw zero, 12(s0)")
    stores = [("sw", 4, o) for o in (0, 4, 8, 12)] + [("sh", 2, o) for o in (0, 2, 6, 10, 14)] + \
             [("sb", 1, o) for o in range(16)]
    for k in range(3):
        rng.shuffle(stores)
        for op, size, off in stores:
            v = rng.getrandbits(32)
            w.start()
            w.emit(f"li a1, {v:#x}", f"{op} a1, {off}(s0)")
            mem[off:off + size] = (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
            for lop, lsize, signed in (("lb", 1, True), ("lbu", 1, False), ("lh", 2, True),
                                       ("lhu", 2, False), ("lw", 4, False)):
                for loff in range(0, 16, lsize):
                    if rng.random() > 0.35 and not (loff == off and lsize == size):
                        continue
                    val = int.from_bytes(mem[loff:loff + lsize], "little", signed=signed) & M32
                    w.start()
                    w.emit(f"{lop} a2, {loff}(s0)", f"EXPECT(a2, {val:#x})")
    # A load used by the very next instruction, and a store of a just-loaded value.
    w.start()
    w.emit("li a1, 41", "sw a1, 0(s0)", "lw a2, 0(s0)", "addi a2, a2, 1", "EXPECT(a2, 42)")
    w.start()
    w.emit("li a1, 0x5a5a", "sw a1, 4(s0)", "lw a2, 4(s0)", "sw a2, 8(s0)", "lw a3, 8(s0)",
           "EXPECT(a3, 0x5a5a)")
    # Load-use hazards: the loaded value consumed by the very next instruction
    # in every role (branch operand, jump base, address, store data, CSR).
    w.start()
    w.emit("li a1, 7", "sw a1, 0(s0)", "lw a2, 0(s0)", "li a3, 7", "bne a2, a3, fail")
    w.start()
    w.emit("la a1, 1f", "sw a1, 4(s0)", "lw a2, 4(s0)", "jalr x0, 0(a2)", "j fail", "1: nop")
    w.start()  # pointer chasing: the loaded word is the next address
    w.emit("addi a1, s0, 8", "sw a1, 0(s0)", "li a3, 0x1234", "sw a3, 8(s0)", "lw a2, 0(s0)",
           "lw a4, 0(a2)", "EXPECT(a4, 0x1234)")
    w.start()  # loaded address and loaded data of a store
    w.emit("addi a1, s0, 12", "sw a1, 0(s0)", "li a3, 0x55", "sw a3, 4(s0)", "lw a2, 0(s0)",
           "lw a5, 4(s0)", "sw a5, 0(a2)", "lw a6, 12(s0)", "EXPECT(a6, 0x55)")
    w.start()
    w.emit("li a1, 0x99", "sw a1, 0(s0)", "lw a2, 0(s0)", "csrw mscratch, a2", "csrr a3, mscratch",
           "EXPECT(a3, 0x99)")
    w.start()  # a load into x0 creates no dependency and no value
    w.emit("li a1, 5", "sw a1, 0(s0)", "lw x0, 0(s0)", "add a2, x0, x0", "EXPECT(a2, 0)")
    w.start()  # two loads back to back, both used at once
    w.emit("li a1, 3", "sw a1, 0(s0)", "li a1, 4", "sw a1, 4(s0)", "lw a2, 0(s0)", "lw a3, 4(s0)",
           "mul a4, a2, a3", "EXPECT(a4, 12)")
    w.start()  # a division waits for its loaded dividend, then runs to the end
    w.emit("li a1, 100", "sw a1, 0(s0)", "li a3, 7", "lw a2, 0(s0)", "divu a4, a2, a3", "EXPECT(a4, 14)")
    w.start()  # one operand loaded, the other written two instructions back; both loaded
    w.emit("li a1, 5", "sw a1, 0(s0)", "li a3, 9", "lw a2, 0(s0)", "add a4, a3, a2", "add a5, a2, a2",
           "EXPECT(a4, 14)", "EXPECT(a5, 10)")
    w.start()  # a jump through a just-loaded address: the stale value (2) would trap
    w.emit("la a1, 1f", "sw a1, 0(s0)", "li a2, 2", "lw a2, 0(s0)", "jalr x0, 0(a2)", "j fail", "1: nop")
    w.start()  # negative offsets
    w.emit("addi s1, s0, 16", "li a1, 0x77", "sb a1, -1(s1)", "lbu a2, 15(s0)", "EXPECT(a2, 0x77)")
    w.start()  # this window and RAM back to back, each value used at once
    w.emit("li a1, 0x1111", "sw a1, 0(s0)", "li a1, 0x2222", "sw a1, 0(s2)", "lw a2, 0(s0)", "lw a3, 0(s2)",
           "add a4, a2, a3", "lw a5, 0(s0)", "sw a5, 4(s2)", "lw a6, 4(s2)", "EXPECT(a4, 0x3333)",
           "EXPECT(a6, 0x1111)")
    w.start()  # a dot product whose accumulator and operand are loaded
    w.emit("li a1, 0x01020304", "sw a1, 0(s0)", "li a1, 10", "sw a1, 4(s0)", "lw a3, 4(s0)", "lw a2, 0(s0)",
           ".insn r 0x0b, 0, 0, a3, a2, a2", "EXPECT(a3, 40)")
    text = w.text()
    return text + "\n  .data\n  .align 4\nscratch: .zero 48\n"


GENERATORS = {"gen_alu": gen_alu, "gen_muldiv": gen_muldiv, "gen_branch": gen_branch, "gen_mem": gen_mem,
              "gen_mem_ext": lambda: gen_mem(external=True), "gen_dot": gen_dot, "gen_exp2": gen_exp2}


def main():
    if sys.argv[1] == "--list":
        print(" ".join(GENERATORS))
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, gen in GENERATORS.items():
        with open(os.path.join(out, f"{name}.S"), "w") as f:
            f.write(gen())


if __name__ == "__main__":
    main()
