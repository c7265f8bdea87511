#!/usr/bin/python3
"""Simulator speed in CPU time: runs one program on each simulator in turn,
ROUNDS times (interleaved, so a busy machine slows them alike), and prints
each one's simulated cycles and instructions per CPU-second over all its
runs as BENCH lines, NAME_cycles_per_cpu_s and NAME_instret_per_cpu_s. The
CPU time is the child's (getrusage), so simulators of older commits, whose
summary line has no CPU time, are measured the same way.

usage: sim_speed.py --elf PROGRAM [--input TEXT] [--rounds N] NAME=SIMULATOR...
TEXT (backslash escapes allowed) is the UART input of every run. With a
simulator named base, each other one's speed relative to it is printed too.
"""
import argparse
import re
import resource
import subprocess
import sys

SIM_LINE = re.compile(r"^SIM cycles=(\d+) instret=(\d+) ", re.M)


def child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elf", required=True)
    ap.add_argument("--input", default="", help="UART input of each run")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("sims", nargs="+", metavar="NAME=SIMULATOR")
    args = ap.parse_args()
    sims = [s.split("=", 1) for s in args.sims]
    if any(len(s) != 2 for s in sims):
        sys.exit("sim_speed: give each simulator as NAME=PATH")
    text = args.input.encode().decode("unicode_escape")
    totals = {name: [0, 0, 0.0] for name, _ in sims}
    for _ in range(args.rounds):
        for name, path in sims:
            before = child_cpu()
            done = subprocess.run([path, "--elf", args.elf], input=text, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True)
            m = SIM_LINE.search(done.stderr)
            if done.returncode != 0 or not m:
                sys.exit(f"sim_speed: {path} failed (status {done.returncode}):\n{done.stderr[-500:]}")
            for i, v in enumerate((int(m.group(1)), int(m.group(2)), child_cpu() - before)):
                totals[name][i] += v
    for name, (cycles, instret, cpu) in totals.items():
        print(f"BENCH {name}_cycles_per_cpu_s {cycles / cpu:.0f} hz")
        print(f"BENCH {name}_instret_per_cpu_s {instret / cpu:.0f} ips")
        print(f"BENCH {name}_cpu_s {cpu:.2f} s")
    base = next((t for name, t in totals.items() if name.endswith("base")), None)
    for name, (cycles, _, cpu) in totals.items():
        if base and not name.endswith("base"):
            print(f"BENCH {name}_speedup_vs_base {(cycles / cpu) / (base[0] / base[2]):.2f} x")


if __name__ == "__main__":
    main()
