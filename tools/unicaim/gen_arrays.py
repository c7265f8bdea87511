#!/usr/bin/python3
"""The UniCAIM array configurations (rtl/unicaim/arrays.toml) as make
variables and a C header.

usage: gen_arrays.py arrays.toml --mk OUT.mk --c OUT.h

UCM_ARRAY_NAMES lists the configurations; for each NAME (upper-cased below):
  UCM_<NAME>_<FIELD>    each field (BANKS, SLOTS, DIM, CELL_BITS, ...)
  UCM_<NAME>_BLOCK_G    ucm_block's Verilator parameters (-GBanks=...)
  UCM_<NAME>_SOC_G      soc_top's (-GUcmBanks=...)
  UCM_<NAME>_BLOCK_CH   ucm_block's for Yosys chparam (-set Banks ...)
  UCM_<NAME>_SOC_CH     soc_top's and the board wrappers' for chparam, without the banks
  UCM_<NAME>_SOC_PARAMS soc_top's and the board wrappers' as NAME=VALUE (UcmBanks=...),
                        for a build that writes them in both tools' forms
  UCM_ARRAY_<NAME>      (C) a ucm_geom_t initialiser, and UCM_<NAME>_<FIELD>
"""
import argparse
import sys
import tomllib

# Field, ucm_block parameter, ucm_geom_t member.
FIELDS = [("banks", "Banks"), ("slots", "Slots"), ("dim", "Dim"), ("cell_bits", "CellBits"),
          ("q_bits", "QBits"), ("adc_bits", "AdcBits"), ("adc_count", "AdcCount"), ("lanes", "Lanes")]


def check(name, cfg):
    missing = [f for f, _ in FIELDS if f not in cfg]
    unknown = [k for k in cfg if k not in dict(FIELDS)]
    if missing or unknown:
        sys.exit(f"gen_arrays.py: [{name}]: missing {missing}, unknown {unknown}")
    for f, _ in FIELDS:
        if not isinstance(cfg[f], int) or cfg[f] < 1:
            sys.exit(f"gen_arrays.py: [{name}] {f} = {cfg[f]!r} is not a positive integer")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("toml")
    ap.add_argument("--mk", required=True)
    ap.add_argument("--c", required=True)
    args = ap.parse_args()
    with open(args.toml, "rb") as f:
        arrays = tomllib.load(f)
    mk = [f"# Generated from {args.toml} by tools/unicaim/gen_arrays.py: do not edit.",
          "UCM_ARRAY_NAMES := " + " ".join(arrays)]
    c = [f"/* Generated from {args.toml} by tools/unicaim/gen_arrays.py: do not edit. */",
         "#ifndef UCM_ARRAYS_H", "#define UCM_ARRAYS_H", ""]
    for name, cfg in arrays.items():
        check(name, cfg)
        up = name.upper()
        for f, _ in FIELDS:
            mk.append(f"UCM_{up}_{f.upper()} := {cfg[f]}")
        mk.append(f"UCM_{up}_BLOCK_G := " + " ".join(f"-G{p}={cfg[f]}" for f, p in FIELDS))
        mk.append(f"UCM_{up}_SOC_G := " + " ".join(f"-GUcm{p}={cfg[f]}" for f, p in FIELDS))
        mk.append(f"UCM_{up}_BLOCK_CH := " + " ".join(f"-set {p} {cfg[f]}" for f, p in FIELDS))
        mk.append(f"UCM_{up}_SOC_CH := " + " ".join(f"-set Ucm{p} {cfg[f]}" for f, p in FIELDS[1:]))
        mk.append(f"UCM_{up}_SOC_PARAMS := " + " ".join(f"Ucm{p}={cfg[f]}" for f, p in FIELDS))
        c += [f"#define UCM_{up}_{f.upper()} {cfg[f]}" for f, _ in FIELDS]
        members = ", ".join(f".{f} = {cfg[f]}" for f, _ in FIELDS)
        c.append(f"#define UCM_ARRAY_{up} {{{members}}}")
    c += ["", "#endif"]
    with open(args.mk, "w") as f:
        f.write("\n".join(mk) + "\n")
    with open(args.c, "w") as f:
        f.write("\n".join(c) + "\n")


if __name__ == "__main__":
    main()
