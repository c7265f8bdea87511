#!/usr/bin/python3
"""The UniCAIM array configurations (rtl/unicaim/arrays.toml) as make
variables, a C header and a SystemVerilog package.

usage: gen_arrays.py arrays.toml --mk OUT.mk --c OUT.h --sv OUT.sv

The configurations are numbered in the file's order from 1; 0 is none (no
array). soc_top and the board wrappers take the number (UcmArray) and read
the geometry from the package (ucm_arrays_pkg: UCM_ARRAY_<NAME> and one
function per field), so a geometry is typed only in arrays.toml.
UCM_ARRAY_NAMES lists the configurations; UCM_NAME_<name> is a name's
upper-case form (NAME below, and NONE for none); for each NAME:
  UCM_<NAME>_<FIELD>    each field (BANKS, SLOTS, DIM, CELL_BITS, ...)
  UCM_<NAME>_BLOCK_G    ucm_block's Verilator parameters (-GBanks=...)
  UCM_<NAME>_BLOCK_CH   ucm_block's for Yosys chparam (-set Banks ...)
  UCM_<NAME>_SOC_G      soc_top's Verilator parameter (-GUcmArray=N)
  UCM_<NAME>_SOC_PARAMS soc_top's and the board wrappers' as NAME=VALUE (UcmArray=N),
                        for a build that writes them in each tool's form
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


def sv_package(source, arrays):
    """Numbers and a constant function per field (Yosys reads no struct-typed
    parameters, so the wrappers pass a number): unknown numbers have no banks."""
    sv = [f"// Generated from {source} by tools/unicaim/gen_arrays.py: do not edit.",
          "// A configuration's number (0: none, no banks) and its fields.", "package ucm_arrays_pkg;"]
    sv += [f"  localparam int unsigned UCM_ARRAY_{name.upper()} = {i};" for i, name in enumerate(arrays, 1)]
    sv.append(f"  localparam int unsigned UCM_ARRAY_COUNT = {len(arrays)};")
    for f, _ in FIELDS:
        sv += ["", f"  function automatic int unsigned {f}(input int unsigned array);", "    case (array)"]
        sv += [f"      UCM_ARRAY_{name.upper()}: {f} = {cfg[f]};" for name, cfg in arrays.items()]
        sv += [f"      default: {f} = {0 if f == 'banks' else 1};", "    endcase", "  endfunction"]
    sv.append("endpackage : ucm_arrays_pkg")
    return "\n".join(sv) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("toml")
    ap.add_argument("--mk", required=True)
    ap.add_argument("--c", required=True)
    ap.add_argument("--sv", required=True)
    args = ap.parse_args()
    with open(args.toml, "rb") as f:
        arrays = tomllib.load(f)
    mk = [f"# Generated from {args.toml} by tools/unicaim/gen_arrays.py: do not edit.",
          "UCM_ARRAY_NAMES := " + " ".join(arrays)]
    c = [f"/* Generated from {args.toml} by tools/unicaim/gen_arrays.py: do not edit. */",
         "#ifndef UCM_ARRAYS_H", "#define UCM_ARRAYS_H", ""]
    mk += ["UCM_NAME_none := NONE", "UCM_NONE_SOC_G := -GUcmArray=0", "UCM_NONE_SOC_PARAMS := UcmArray=0"]
    for index, (name, cfg) in enumerate(arrays.items(), 1):
        check(name, cfg)
        up = name.upper()
        mk.append(f"UCM_NAME_{name} := {up}")
        for f, _ in FIELDS:
            mk.append(f"UCM_{up}_{f.upper()} := {cfg[f]}")
        mk.append(f"UCM_{up}_BLOCK_G := " + " ".join(f"-G{p}={cfg[f]}" for f, p in FIELDS))
        mk.append(f"UCM_{up}_BLOCK_CH := " + " ".join(f"-set {p} {cfg[f]}" for f, p in FIELDS))
        mk.append(f"UCM_{up}_SOC_G := -GUcmArray={index}")
        mk.append(f"UCM_{up}_SOC_PARAMS := UcmArray={index}")
        c += [f"#define UCM_{up}_{f.upper()} {cfg[f]}" for f, _ in FIELDS]
        members = ", ".join(f".{f} = {cfg[f]}" for f, _ in FIELDS)
        c.append(f"#define UCM_ARRAY_{up} {{{members}}}")
    c += ["", "#endif"]
    with open(args.sv, "w") as f:
        f.write(sv_package(args.toml, arrays))
    with open(args.mk, "w") as f:
        f.write("\n".join(mk) + "\n")
    with open(args.c, "w") as f:
        f.write("\n".join(c) + "\n")


if __name__ == "__main__":
    main()
