#!/usr/bin/python3
"""Turn a Yosys `stat -json` report into BENCH lines.

usage: yosys_stat.py STAT.json --prefix NAME --arch ecp5|xc7
  ecp5: NAME_lut4_ecp5 (LUT4 cells), NAME_ff_ecp5 (TRELLIS_FF), NAME_ccu2c_ecp5,
        NAME_dsp_ecp5 (MULT18X18D), NAME_bram_ecp5 (DP16KD)
  xc7:  NAME_lut_xc7 (LUT1..LUT6), NAME_ff_xc7 (FD*), NAME_bram_xc7 (RAMB18/36),
        NAME_dsp_xc7 (DSP48E1)
"""
import argparse
import json
import re


def cells(path):
    with open(path) as f:
        text = f.read()
    # Yosys prints log lines before the JSON when teeing; take the object.
    data = json.loads(text[text.index("{"):])
    return data["design"]["num_cells_by_type"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("stat")
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--arch", choices=["ecp5", "xc7"], required=True)
    args = ap.parse_args()
    c = cells(args.stat)
    count = lambda pattern: sum(v for k, v in c.items() if re.fullmatch(pattern, k))
    p = args.prefix
    if args.arch == "ecp5":
        rows = [("lut4", count("LUT4"), "luts"), ("ff", count("TRELLIS_FF"), "ffs"),
                ("ccu2c", count("CCU2C"), "cells"), ("dsp", count("MULT18X18D"), "dsps"),
                ("bram", count("DP16KD"), "brams")]
    else:
        rows = [("lut", count(r"LUT\d"), "luts"), ("ff", count(r"FD\w*"), "ffs"),
                ("bram", count(r"RAMB(18|36)E1"), "brams"), ("dsp", count("DSP48E1"), "dsps")]
    for name, value, unit in rows:
        print(f"BENCH {p}_{name}_{args.arch} {value} {unit}")


if __name__ == "__main__":
    main()
