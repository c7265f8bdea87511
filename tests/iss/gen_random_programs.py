#!/usr/bin/python3
"""Random RV32IM + Zicsr + packed-dot programs for comparing the functional
simulator with the RTL instruction by instruction: after every random
instruction the program stores the register it wrote (and the trap handler
mcause, mtval and the trapping pc) into a trace, then prints the trace, the
data area and every register in hex over the UART and exits. Both
simulators must print the same text.

Instructions: every ALU, shift, multiply and divide form on random and edge
values, lui/auipc, loads and stores of every width on a data area (some
misaligned: traps), forward branches and jal, the three dot products
(accumulating or from zero), ucx.exp2 (on a register, often one made small
enough to be in its range), csrrw/s/c(i) on mscratch, ecall, ebreak and
illegal words (a custom-0 word with a reserved funct7, ucx.exp2 with an rs2,
an unknown CSR).

usage: gen_random_programs.py OUTDIR [--count 16] [--length 300] [--seed 1]
       gen_random_programs.py --list [--count 16]
"""
import argparse
import os
import random

EDGES = [0, 1, 2, 31, 32, (1 << 31) - 1, 1 << 31, (1 << 32) - 1, 0xFFFF8000, 0x8000, 0x7F, 0x80, 0xFF]
# x28: trace pointer, x29: the handler's scratch, x30: traps taken, x31: the data area.
WRITABLE = list(range(1, 28))
ALU_R = ["add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
         "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"]
ALU_I = ["addi", "slti", "sltiu", "xori", "ori", "andi"]
SHIFT_I = ["slli", "srli", "srai"]
LOADS = [("lb", 1), ("lh", 2), ("lw", 4), ("lbu", 1), ("lhu", 2)]
STORES = [("sb", 1), ("sh", 2), ("sw", 4)]
BRANCHES = ["beq", "bne", "blt", "bge", "bltu", "bgeu"]
DOTS = [0, 1, 2]  # ucx.dot4, dotlo, dothi (funct3)
DATA_BYTES = 256


def names(count):
    return [f"random_{i:02d}" for i in range(count)]


def reg(rng):
    return f"x{rng.randrange(32)}"


def dest(rng):
    return f"x{rng.choice(WRITABLE)}"


def trace(rd):
    return [f"  sw {rd}, 0(x28)", "  addi x28, x28, 4"]


def instruction(rng, label):
    """One random instruction and its trace lines (a branch or jal may skip some)."""
    kind = rng.choices(["r", "i", "shift", "u", "load", "store", "branch", "jal", "dot", "exp2", "csr", "trap"],
                       [24, 10, 5, 3, 10, 8, 8, 2, 8, 3, 5, 3])[0]
    rd = dest(rng)
    if kind == "r":
        return [f"  {rng.choice(ALU_R)} {rd}, {reg(rng)}, {reg(rng)}"] + trace(rd)
    if kind == "i":
        return [f"  {rng.choice(ALU_I)} {rd}, {reg(rng)}, {rng.randint(-2048, 2047)}"] + trace(rd)
    if kind == "shift":
        return [f"  {rng.choice(SHIFT_I)} {rd}, {reg(rng)}, {rng.randrange(32)}"] + trace(rd)
    if kind == "u":
        return [f"  {rng.choice(['lui', 'auipc'])} {rd}, {rng.randrange(1 << 20)}"] + trace(rd)
    if kind in ("load", "store"):
        op, width = rng.choice(LOADS if kind == "load" else STORES)
        offset = rng.randrange(0, DATA_BYTES, width)
        if width > 1 and rng.random() < 0.1:
            offset += 1  # misaligned: a trap
        if kind == "load":
            return [f"  {op} {rd}, {offset}(x31)"] + trace(rd)
        return [f"  {op} {reg(rng)}, {offset}(x31)"]
    if kind == "branch":
        return [f"  {rng.choice(BRANCHES)} {reg(rng)}, {reg(rng)}, {label}"]
    if kind == "jal":
        return [f"  jal {rd}, {label}"] + trace(rd)
    if kind == "dot":
        return [f"  .insn r 0x0b, {rng.choice(DOTS)}, {rng.randint(0, 1)}, {rd}, {reg(rng)}, {reg(rng)}"] + trace(rd)
    if kind == "exp2":
        if rng.random() < 0.6:  # rd = a register shifted into the range, then its exponential
            return [f"  srli {rd}, {reg(rng)}, {rng.randint(10, 13)}", f"  .insn r 0x0b, 3, 0, {rd}, {rd}, x0"] + trace(rd)
        return [f"  .insn r 0x0b, 3, 0, {rd}, {reg(rng)}, x0"] + trace(rd)
    if kind == "csr":
        op = rng.choice(["csrrw", "csrrs", "csrrc"])
        if rng.random() < 0.5:
            return [f"  {op}i {rd}, mscratch, {rng.randrange(32)}"] + trace(rd)
        return [f"  {op} {rd}, mscratch, {reg(rng)}"] + trace(rd)
    return [rng.choice(["  ecall", "  ebreak", f"  .insn r 0x0b, 0, {rng.randint(2, 127)}, x1, x2, x3",
                        f"  .insn r 0x0b, 3, 0, x1, x2, x{rng.randint(1, 31)}", "  csrr x1, 0x7ff"])]


def program(rng, length):
    out = ['#include "soc_regs.h"',
           "  .section .text.init, \"ax\"",
           "  .globl _start",
           "_start:",
           "  la t0, handler",
           "  csrw mtvec, t0",
           "  la x31, data",
           "  la x28, trace",
           "  li x30, 0"]
    for r in WRITABLE:
        out.append(f"  li x{r}, {rng.choice(EDGES) if rng.random() < 0.3 else rng.randrange(1 << 32)}")
    pending = []  # [label, random instructions left before it]
    for i in range(length):
        label = f"skip_{i}"
        lines = instruction(rng, label)
        for p in pending:
            p[1] -= 1
        out += [f"{p[0]}:" for p in pending if p[1] < 0] + lines
        pending = [p for p in pending if p[1] >= 0]
        if lines[0].endswith(label):  # a branch or jal over the next 1-3
            pending.append([label, rng.randint(1, 3)])
    out += [f"{p[0]}:" for p in pending]
    out += ["  la t6, regs"] + [f"  sw x{r}, {4 * r}(t6)" for r in range(1, 32)]
    # Print the data area, the registers and the trace as far as it reached, as hex words.
    out += ["  la s0, data",
            "  mv s1, x28",
            "  call print_words",
            "  li t0, UART_BASE",  # the last byte out before the simulation ends
            "7: lw t1, UART_STATUS_OFFSET(t0)",
            "  andi t1, t1, UART_STATUS_TX_IDLE_MASK",
            "  beqz t1, 7b",
            "  li t0, SYSCTL_BASE",
            "  sw zero, SYSCTL_EXIT_OFFSET(t0)",
            "1: j 1b",
            "",
            "print_words:  /* [s0, s1) as 8-digit hex words, one a line */",
            "  mv s2, ra",
            "2: bgeu s0, s1, 5f",
            "  lw s3, 0(s0)",
            "  li s4, 28",
            "3: srl a0, s3, s4",
            "  andi a0, a0, 15",
            "  addi a0, a0, 48",
            "  li t1, 58",
            "  blt a0, t1, 4f",
            "  addi a0, a0, 39",
            "4: call putc",
            "  addi s4, s4, -4",
            "  bgez s4, 3b",
            "  li a0, 10",
            "  call putc",
            "  addi s0, s0, 4",
            "  j 2b",
            "5: mv ra, s2",
            "  ret",
            "",
            "putc:  /* a0, once the transmit FIFO has room */",
            "  li t0, UART_BASE",
            "6: lw t1, UART_STATUS_OFFSET(t0)",
            "  andi t1, t1, UART_STATUS_TX_FULL_MASK",
            "  bnez t1, 6b",
            "  sw a0, UART_DATA_OFFSET(t0)",
            "  ret",
            "",
            "  .align 2",
            "handler:  /* records mcause, mtval and mepc, skips the instruction */",
            "  csrr x29, mcause",
            "  sw x29, 0(x28)",
            "  csrr x29, mtval",
            "  sw x29, 4(x28)",
            "  csrr x29, mepc",
            "  sw x29, 8(x28)",
            "  addi x28, x28, 12",
            "  addi x29, x29, 4",
            "  csrw mepc, x29",
            "  addi x30, x30, 1",
            "  mret",
            "",
            "  .section .tohost, \"aw\", @progbits",
            "  .globl tohost",
            "tohost: .word 0",
            "  .data",
            "  .align 4",
            "data:"]
    out += [f"  .word 0x{rng.randrange(1 << 32):08x}" for _ in range(DATA_BYTES // 4)]
    out += ["regs: .space 128", "trace: .space " + str(length * 16)]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", nargs="?")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--count", type=int, default=16)
    ap.add_argument("--length", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.list:
        print(" ".join(names(args.count)))
        return
    os.makedirs(args.outdir, exist_ok=True)
    for i, name in enumerate(names(args.count)):
        with open(os.path.join(args.outdir, name + ".S"), "w") as f:
            f.write(program(random.Random(args.seed * 1000 + i), args.length))


if __name__ == "__main__":
    main()
