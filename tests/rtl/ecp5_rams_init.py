#!/usr/bin/python3
"""Initial contents of ecp5_rams' ROM, RAM and 2-bit memory, as hex files
for $readmemh (read by Yosys into the DP16KDs' INITVAL and by the RTL in
the testbench). Loops in an initial block took Yosys minutes to unroll.

usage: ecp5_rams_init.py DIR   (writes DIR/ecp5_rams_{rom,ram,bits}.hex)
"""
import os
import sys

M32 = 0xFFFFFFFF


def write(path, words, digits):
    with open(path, "w") as f:
        f.writelines(f"{w:0{digits}x}\n" for w in words)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "ecp5_rams_rom.hex"), [((i * 0x9E3779B1) ^ (i >> 3)) & M32 for i in range(4096)], 8)
    write(os.path.join(out, "ecp5_rams_ram.hex"), [~(i * 0x85EBCA6B) & M32 for i in range(2048)], 8)
    write(os.path.join(out, "ecp5_rams_bits.hex"), [(i ^ (i >> 5)) & 3 for i in range(16384)], 1)


if __name__ == "__main__":
    main()
