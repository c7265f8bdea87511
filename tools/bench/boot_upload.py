#!/usr/bin/python3
"""Measure a bootloader upload in the simulator: uploads APP through the
boot ROM and prints BENCH <name> <kbit/s of image data> kbps, from the
bootloader's cycle count at the simulated clock (50 MHz)."""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import boot_tests  # noqa: E402
import uartctl  # noqa: E402

CLK_HZ = 50_000_000


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sim", required=True)
    ap.add_argument("--boot", required=True)
    ap.add_argument("--app", required=True)
    ap.add_argument("--name", required=True)
    args = ap.parse_args()
    proc, port = boot_tests.start_sim(args.sim, args.boot)
    try:
        line = uartctl.upload(port, args.app, announce=sys.stderr, idle=600)
    finally:
        proc.kill()
        proc.wait()
    m = re.search(r"RUN 0x[0-9a-f]+ (\d+) bytes (\d+) cycles", line)
    if not m:
        sys.exit(f"boot_upload: unexpected answer '{line}'")
    nbytes, cycles = int(m.group(1)), int(m.group(2))
    print(f"BENCH {args.name} {nbytes * 8 / (cycles / CLK_HZ) / 1000:.1f} kbps")


if __name__ == "__main__":
    main()
