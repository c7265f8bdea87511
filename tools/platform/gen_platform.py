#!/usr/bin/python3
"""The platforms (boards/boards.toml) with the memory map (rtl/soc/regmap.toml)
and the array configurations (rtl/unicaim/arrays.toml) as make variables and
the linker's MEMORY regions.

usage: gen_platform.py boards.toml regmap.toml arrays.toml --mk OUT.mk --ld OUT.ld

OUT.mk:
  SOC_<REGION>_BASE, SOC_<REGION>_SIZE   every region of the memory map
  PLATFORMS                              the platforms' names
  PLATFORM_<NAME>_<FIELD>                each field (CLK_MHZ, BAUD, RAM_BYTES, EXT_BYTES, ARRAY)
  PLATFORM_<NAME>_PARAMS                 the SoC's parameters as NAME=VALUE (ClkMhz, Baud,
                                         RamBytes, SdramBytes, and UcmArray from the array's
                                         UCM_<ARRAY>_SOC_PARAMS): every board wrapper's list
OUT.ld: MEMORY with each region that has `memory` attributes, at its base and
largest size; a program limits RAM and EXT to its platform's (linker/sections.ld).
"""
import argparse
import sys
import tomllib

FIELDS = ("clk_mhz", "baud", "ram_bytes", "ext_bytes", "array")


def fail(msg):
    sys.exit(f"gen_platform.py: {msg}")


def load(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


def check(name, plat, regions, arrays):
    missing = [f for f in FIELDS if f not in plat]
    unknown = [k for k in plat if k not in FIELDS]
    if missing or unknown:
        fail(f"[{name}]: missing {missing}, unknown {unknown}")
    for f in FIELDS[:-1]:
        if not isinstance(plat[f], int) or plat[f] < 0:
            fail(f"[{name}] {f} = {plat[f]!r} is not a non-negative integer")
    ram, ext = plat["ram_bytes"], plat["ext_bytes"]
    if ram & (ram - 1) or not 0 < ram <= regions["RAM"]["size"]:
        fail(f"[{name}] ram_bytes = {ram} is not a power of two up to the RAM region's {regions['RAM']['size']}")
    if ext > regions["EXT"]["size"]:
        fail(f"[{name}] ext_bytes = {ext} exceeds the EXT region's {regions['EXT']['size']}")
    if plat["array"] != "none" and plat["array"] not in arrays:
        fail(f"[{name}] array = {plat['array']!r} is none or one of {', '.join(arrays)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards")
    ap.add_argument("regmap")
    ap.add_argument("arrays")
    ap.add_argument("--mk", required=True)
    ap.add_argument("--ld", required=True)
    args = ap.parse_args()
    platforms = load(args.boards)
    regions = {r["name"]: r for r in load(args.regmap).get("region", [])}
    arrays = list(load(args.arrays))
    for need in ("ROM", "RAM", "EXT"):
        if need not in regions:
            fail(f"{args.regmap} has no {need} region")

    sources = f"{args.boards}, {args.regmap} and {args.arrays}"
    mk = [f"# Generated from {sources} by tools/platform/gen_platform.py: do not edit."]
    for name, r in regions.items():
        mk += [f"SOC_{name}_BASE := 0x{r['base']:08x}", f"SOC_{name}_SIZE := {r['size']}"]
    mk.append("PLATFORMS := " + " ".join(platforms))
    for name, plat in platforms.items():
        check(name, plat, regions, arrays)
        up = "PLATFORM_" + name.upper().replace("-", "_")
        mk.append(f"PLATFORM_NAME_{name} := {up}")
        mk += [f"{up}_{f.upper()} := {plat[f]}" for f in FIELDS]
        # The memories apart: a build may choose its own clock, rate and array.
        mk.append(f"{up}_MEMORY_PARAMS := RamBytes={plat['ram_bytes']} SdramBytes={plat['ext_bytes']}")
        mk.append(f"{up}_PARAMS = ClkMhz={plat['clk_mhz']} Baud={plat['baud']} $({up}_MEMORY_PARAMS) "
                  f"$(UCM_{plat['array'].upper()}_SOC_PARAMS)")

    ld = [f"/* Generated from {args.regmap} by tools/platform/gen_platform.py: do not edit. */", "MEMORY", "{"]
    ld += [f"  {name} ({r['memory']}) : ORIGIN = 0x{r['base']:08x}, LENGTH = {r['size']}"
           for name, r in regions.items() if "memory" in r]
    ld.append("}")
    for path, lines in ((args.mk, mk), (args.ld, ld)):
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
