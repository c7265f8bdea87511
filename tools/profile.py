#!/usr/bin/env python3
"""Cycles per function from a simulator profile (unicaim-sim --profile FILE):
each cycle is charged to the instruction in EX, so a function's figure
includes the bubbles it caused. Inlined code counts to the function it was
inlined into.
usage: profile.py ELF PROFILE [--top N] [--hot N]"""
import argparse
import bisect
import sys

from elfimage import ElfError, elf_functions


def read_profile(path):
    counts = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            parts = line.split()
            try:
                addr, cycles = int(parts[0], 16), int(parts[1])
            except (IndexError, ValueError):
                raise ValueError(f"{path}:{number}: expected 'ADDRESS CYCLES', got {line.strip()!r}")
            counts[addr] = cycles
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("elf")
    ap.add_argument("profile")
    ap.add_argument("--top", type=int, default=25, help="functions to list (default 25)")
    ap.add_argument("--hot", type=int, default=0, help="also list the N costliest instruction addresses")
    args = ap.parse_args()
    try:
        funcs = elf_functions(args.elf)
        counts = read_profile(args.profile)
    except (OSError, ElfError, ValueError) as e:
        sys.exit(f"profile: {e}")
    starts = [f[0] for f in funcs]
    per_func = {}

    def owner(addr):
        i = bisect.bisect_right(starts, addr) - 1
        if i >= 0 and addr < funcs[i][0] + max(funcs[i][1], 4):
            return funcs[i][2]
        return f"?{addr:08x}"

    for addr, cycles in counts.items():
        name = owner(addr)
        per_func[name] = per_func.get(name, 0) + cycles
    total = sum(counts.values()) or 1
    print(f"{total} cycles")
    for name, cycles in sorted(per_func.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"{cycles:12d} {100.0 * cycles / total:6.2f}%  {name}")
    if args.hot:
        print("hottest addresses:")
        for addr, cycles in sorted(counts.items(), key=lambda kv: -kv[1])[:args.hot]:
            print(f"  {addr:08x} {cycles:12d}  {owner(addr)}")


if __name__ == "__main__":
    main()
