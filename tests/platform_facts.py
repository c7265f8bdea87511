"""Platform facts typed once: memory addresses in rtl/soc/regmap.toml, each
platform's clock, console rate and memory sizes in boards/boards.toml, array
geometry in rtl/unicaim/arrays.toml. scan() lists the lines elsewhere in the
sources that type one of them again: a region's or block's base as a number,
a platform's baud, a default for a parameter those files set, or a literal
given to one in a build rule."""
import os
import re
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ("firmware", "tools", "tests", "mk", "sim", "rtl", "boards", "linker", "Makefile")
EXTENSIONS = (".c", ".h", ".cpp", ".S", ".py", ".mk", ".sv", ".v", ".ld", ".tcl", "Makefile")
# The descriptions themselves, and the ISA tests, whose constants are data
# (sign bits, CSR values), not addresses.
EXEMPT = {os.path.join("tools", "unicaim", "gen_arrays.py"), os.path.join("tools", "platform", "gen_platform.py"),
          os.path.join("tests", "platform_facts.py")}
EXEMPT_DIRS = (os.path.join("tests", "isa") + os.sep,)
# Testbenches configure the modules they test; the refusal tests give bad
# parameters on purpose: build rules and the RTL's own defaults are checked.
RULE_FILES = (".mk", "Makefile", ".tcl", ".sv", ".v", ".ld")
TESTBENCHES = os.path.join("tests", "rtl") + os.sep

GEOMETRY = r"(?:Ucm\w+|Banks|Slots|Dim|CellBits|QBits|AdcBits|AdcCount|Lanes)"
PLATFORM = r"(?:ClkHz|ClkMhz|Baud|RamBytes|RomBytes|SdramBytes|ExtBytes)"
NUMBER = r"(?!0\b)[0-9][0-9_]*"  # 0 is "none", not a platform's figure
# A default in a parameter list, a Verilator -G or Yosys chparam literal, a
# linker size given by hand, a hex image's base or size typed in a rule.
RULES = [
    (re.compile(rf"\bparameter\s+int\s+unsigned\s+(?:{GEOMETRY}|{PLATFORM})\s*=\s*{NUMBER}"), "a parameter default"),
    (re.compile(rf"-G(?:{GEOMETRY}|{PLATFORM})={NUMBER}\b"), "a -G literal"),
    (re.compile(rf"-set (?:{GEOMETRY}|{PLATFORM}) {NUMBER}\b"), "a chparam literal"),
    (re.compile(rf"--defsym=(?:RAM|EXT)_LIMIT={NUMBER}"), "a memory size"),
    (re.compile(rf"--(?:base|size) (?:0x)?{NUMBER}"), "an image's base or size"),
    (re.compile(rf"\.(?:{GEOMETRY}|{PLATFORM})\s*\(\s*{NUMBER}"), "a literal connected to a parameter"),
]
# One of each kind, which scan_line must see (the test checks the scanner).
PLANTED = ["  parameter int unsigned UcmBanks = 20,", "  parameter int unsigned RamBytes = 65536,",
           "\tpython3 tools/elf2hex.py $< --base 0x80000000 --size 16384 -o $@",
           "  localparam logic [31:0] Base = 32'h4000_0000;", "  .Baud (115_200),",
           "verilator -GUcmSlots=128 top.sv", "-Wl,--defsym=RAM_LIMIT=128K", "uart_set_baud(3125000);"]
HEX = re.compile(r"(?:0x|\d*'h)([0-9a-fA-F_]+)")


def facts():
    """The addresses and bauds, as numbers."""
    with open(os.path.join(ROOT, "rtl", "soc", "regmap.toml"), "rb") as f:
        regmap = tomllib.load(f)
    with open(os.path.join(ROOT, "boards", "boards.toml"), "rb") as f:
        boards = tomllib.load(f)
    bases = {r["base"] for r in regmap["region"]} | {b["base"] for b in regmap["block"]}
    bauds = {p["baud"] for p in boards.values()}
    return bases, bauds


def scan_line(line, bases, bauds, rules=True):
    """What the line types again, or None; with rules, parameter and build-rule literals too."""
    for rule, what in RULES if rules else ():
        if rule.search(line):
            return what
    for m in HEX.finditer(line):
        if int(m.group(1).replace("_", ""), 16) in bases:
            return "a memory address"
    for m in re.finditer(r"(?<![\w.])([0-9][0-9_]*)(?![\w.])", line):
        if int(m.group(1).replace("_", "")) in bauds:
            return "a baud"
    return None


def scan():
    bases, bauds = facts()
    found = []
    for top in SOURCES:
        full = os.path.join(ROOT, top)
        paths = [top] if os.path.isfile(full) else [
            os.path.relpath(os.path.join(d, f), ROOT) for d, _, fs in os.walk(full) for f in fs]
        for path in sorted(paths):
            if path in EXEMPT or path.startswith(EXEMPT_DIRS) or not path.endswith(EXTENSIONS):
                continue
            with open(os.path.join(ROOT, path), errors="replace") as f:
                for number, line in enumerate(f, 1):
                    what = scan_line(line, bases, bauds,
                                     path.endswith(RULE_FILES) and not path.startswith(TESTBENCHES))
                    if what:
                        found.append(f"{path}:{number}: {what}: {line.strip()[:100]}")
    return found
