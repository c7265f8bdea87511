#!/usr/bin/python3
"""Splits a synthesized netlist's bidirectional top-level pins for simulation.

synth_ecp5 leaves the pins' I/O cells to nextpnr, so a bidirectional pin is
Yosys's generic tristate buffer ($_TBUF_) driving an inout port, and
Verilator (5.0) makes such a port a plain variable: what the netlist drives
and what the board drives cannot both be seen. Each inout port P driven by
$_TBUF_ cells becomes an input P (what the pin carries, which the harness
resolves) and two outputs, P_out and P_oe, one bit per buffer.

usage: gatelevel_pins.py NETLIST.v -o OUT.v
"""
import argparse
import re
import sys

TBUF = re.compile(r"^  \\\$_TBUF_ +\S+ +\(\n    \.A\((?P<a>.*)\),\n    \.E\((?P<e>.*)\),\n"
                  r"    \.Y\((?P<port>\w+)\[(?P<bit>\d+)\]\)\n  \);\n", re.M)


def split(text):
    ports = {}

    def replace(m):
        ports.setdefault(m["port"], set()).add(int(m["bit"]))
        out = f"{m['port']}_out[{m['bit']}]"
        oe = f"{m['port']}_oe[{m['bit']}]"
        return f"  assign {out} = {m['a']};\n  assign {oe} = {m['e']};\n"
    text = TBUF.sub(replace, text)
    for port in ports:
        decl = re.compile(rf"^  inout (\[\d+:\d+\] )?{port};\n", re.M)
        m = decl.search(text)
        if not m:
            raise SystemExit(f"gatelevel_pins: {port} is driven by tristate buffers but is not an inout port")
        width = m.group(1) or ""
        text = decl.sub(f"  input {width}{port};\n  output {width}{port}_out;\n  output {width}{port}_oe;\n",
                        text, count=1)
        text = re.sub(rf"^(module \w+ *\(.*)\b{port}\b", rf"\g<1>{port}, {port}_out, {port}_oe", text, count=1,
                      flags=re.M)
    if not ports:
        raise SystemExit("gatelevel_pins: no tristate buffer drives a top-level port")
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("netlist")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    with open(args.netlist) as f:
        text = f.read()
    with open(args.output, "w") as f:
        f.write(split(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
