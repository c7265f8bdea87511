#!/usr/bin/python3
"""Write an ELF's image as a $readmemh file for a memory of SIZE bytes at
BASE (one 32-bit little-endian word per line), e.g. the boot ROM and the RAM
image a bitstream starts with.

usage: elf2hex.py FILE.elf --base RAM_BASE --size BYTES -o OUT.hex
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elfimage import ElfError, elf_image  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("elf")
    ap.add_argument("--base", type=lambda s: int(s, 0), required=True)
    ap.add_argument("--size", type=lambda s: int(s, 0), required=True)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    try:
        addr, image, _ = elf_image(args.elf)
    except ElfError as e:
        sys.exit(f"elf2hex: {e}")
    if addr < args.base or addr + len(image) > args.base + args.size:
        sys.exit(f"elf2hex: {args.elf} ({addr:#x}+{len(image)}) does not fit {args.base:#x}+{args.size}")
    mem = bytearray(args.size)
    mem[addr - args.base:addr - args.base + len(image)] = image
    with open(args.output, "w") as f:
        for i in range(0, args.size, 4):
            f.write(f"{int.from_bytes(mem[i:i + 4], 'little'):08x}\n")


if __name__ == "__main__":
    main()
