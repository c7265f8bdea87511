#!/usr/bin/python3
"""The ULX3S netlist boots: on the gate-level simulator (mk/board_sim.mk),
the boot ROM prints its banner, takes an upload of the console through the
bootloader, and the console answers `info` with the board's figures. Prints
what the SoC said, BENCH lines (the check's outcome, the simulator's speed)
and exits non-zero when the check fails."""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "tools", "platform"))

import boot_tests  # noqa: E402
import platforms  # noqa: E402
import uartctl  # noqa: E402

# What the ULX3S-85F build says (its platform's clock, RAM, SDRAM; the array).
ULX3S = platforms.platform("ulx3s-85f")
RAM_BASE, EXT_BASE = (platforms.regions()[r][0] for r in ("RAM", "EXT"))
EXPECTED = [f"UCBOOT 1 ram 0x{RAM_BASE:08x}+0x{ULX3S['ram_bytes']:08x} waiting",
            f"clock    {ULX3S['clk_mhz'] * 1000000} Hz",
            f"ram      {ULX3S['ram_bytes'] >> 10} KiB at 0x{RAM_BASE:08x}",
            f"ext      {ULX3S['ext_bytes'] >> 20} MiB at 0x{EXT_BASE:08x}, data cache of 32-byte lines",
            "platform board, UniCAIM block"]
IDLE_S = 600  # the gate-level simulator runs a few thousand cycles a second


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sim", required=True, help="the gate-level simulator (ulx3s-gl)")
    ap.add_argument("--app", required=True, help="the console's ELF")
    args = ap.parse_args()
    proc, port = boot_tests.start_pty([args.sim, "--uart-pty"])
    text = boot_tests.read_until(port, proc, rb"waiting", IDLE_S)
    try:
        line = uartctl.upload(port, args.app, announce=sys.stderr, idle=IDLE_S)
    except uartctl.UploadError as e:
        line = f"upload failed: {e}"
    text += line + "\n" + boot_tests.read_until(port, proc, rb"\n> ", IDLE_S)
    port.write(b"info\n")
    text += boot_tests.read_until(port, proc, rb"platform[^\n]*\n", IDLE_S)
    proc.terminate()
    rc, err = boot_tests.finish(proc)
    print(text.replace("\r", ""))
    print(err.strip())
    missing = [e for e in EXPECTED if e not in text] + ([] if line.startswith(f"RUN 0x{RAM_BASE:08x}") else ["RUN"])
    speed = re.search(r"BOARD cycles=(\d+) wall_s=([\d.]+) hz=(\d+)", err)
    print(f"BENCH ulx3s_netlist_boots {0 if missing else 1} bool")
    if speed:
        print(f"BENCH ulx3s_netlist_cycles {speed.group(1)} cycles")
        print(f"BENCH ulx3s_netlist_sim_hz {speed.group(3)} hz")
    if missing:
        print("gatelevel_boot: missing: " + "; ".join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
