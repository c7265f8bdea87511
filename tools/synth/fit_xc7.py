#!/usr/bin/python3
"""Check a Yosys synth_xilinx `stat -json` against an Artix-7 part's
capacity; prints BENCH <prefix>_lut / _bram lines and exits 1 if it does not
fit. usage: fit_xc7.py STAT.json --part xc7a35t|xc7a100t --prefix NAME"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from yosys_stat import cells  # noqa: E402

# LUTs, 36 Kbit block RAMs, DSP slices (Xilinx 7 series data sheet).
PARTS = {"xc7a35t": (20800, 50, 90), "xc7a100t": (63400, 135, 240)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stat")
    ap.add_argument("--part", choices=PARTS, required=True)
    ap.add_argument("--prefix", required=True)
    args = ap.parse_args()
    c = cells(args.stat)
    luts = sum(v for k, v in c.items() if k.startswith("LUT") and k[3:].isdigit())
    bram = c.get("RAMB36E1", 0) + c.get("RAMB18E1", 0) / 2
    dsp = c.get("DSP48E1", 0)
    cap_lut, cap_bram, cap_dsp = PARTS[args.part]
    print(f"BENCH {args.prefix}_lut {luts} luts")
    print(f"BENCH {args.prefix}_bram {bram:g} ramb36")
    fits = luts <= cap_lut and bram <= cap_bram and dsp <= cap_dsp
    print(f"# {args.part}: {luts}/{cap_lut} LUT, {bram:g}/{cap_bram} RAMB36, {dsp}/{cap_dsp} DSP -> "
          f"{'fits' if fits else 'DOES NOT FIT'}")
    sys.exit(0 if fits else 1)


if __name__ == "__main__":
    main()
