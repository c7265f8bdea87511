#!/usr/bin/python3
"""SmolLM2 on the Arty A7-100T's board simulator (arty-rtl: the SoC at
50 MHz, its DDR3 through LiteDRAM's controller and DDR3 model at 100 MHz):
llm_smol.elf with the model image (170 MB) preloaded into the DDR3 model's
banks (--ext-preloaded: through the simulated UART it would take hours;
only the 128 KiB of code and buffers is uploaded), one forward pass's
cycles at position 0 by phase beside the fast simulator's, and a few
tokens against the host's.

usage: smol_arty_bench.py --sim ARTY_RTL --elf ELF --host LLM_HOST --image IMAGE [--fast SMOL_SOC_TXT]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

from smol_soc_bench import FLOOR_CYCLES_PER_MAC, macs_per_token

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROMPT, STEPS = "The", 3
SILENCE_S = 7200  # a forward pass prints nothing for ~25 minutes of simulation


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("--sim", "--elf", "--host", "--image"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--fast", help="the fast simulator's figures (smol_soc.txt), for the ratio")
    args = ap.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as script:
        script.write(f"bench 0\nstory -n {STEPS} --ids {PROMPT}\nstats\nexit 0\n")
        script.flush()
        out = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "uartctl.py"), "sim", "--sim", args.sim,
                              "--upload", args.elf, "--ext-preloaded", "--script", script.name,
                              "--timeout", str(SILENCE_S)], capture_output=True, text=True)
    text = out.stdout.replace("\r", "")
    if out.returncode:
        sys.exit(f"smol_arty_bench.py: the session failed (rc {out.returncode}):\n{text[-2000:]}{out.stderr[-1000:]}")
    bench = dict(re.findall(r"^BENCH (\S+) (\S+)", text, re.M))
    for name in ("decode", "matmul", "attention", "other"):
        print(f"BENCH lm_smol_{name}_cycles_pos0_arty {bench[f'lm_{name}_cycles_pos0']} cycles")
    matmul = int(bench["lm_matmul_cycles_pos0"])
    print(f"BENCH lm_smol_matmul_cycles_per_mac_arty {matmul / macs_per_token(args.image):.3f} cycles "
          f"(floor {FLOOR_CYCLES_PER_MAC})")
    print(f"BENCH lm_smol_dcache_hit_pct_arty {bench['dcache_hit_pct_llm']} pct")
    if args.fast and os.path.exists(args.fast):
        fast = dict(re.findall(r"^BENCH (\S+) (\S+)", open(args.fast).read(), re.M))
        if "lm_smol_decode_cycles_pos0" in fast:
            ratio = int(bench["lm_decode_cycles_pos0"]) / int(fast["lm_smol_decode_cycles_pos0"])
            print(f"BENCH lm_smol_decode_arty_vs_fast_sim {ratio:.3f} x")
    m = re.search(r"^TOKENS(.*)$", text, re.M)
    soc = m.group(1).split() if m else None
    host = subprocess.run([args.host, args.image, "--context", "1024", "-n", str(STEPS), "-i", PROMPT, "--ids"],
                          capture_output=True, text=True)
    h = re.search(r"^TOKENS(.*)$", host.stdout, re.M)
    want = h.group(1).split() if h else None
    print(f"BENCH lm_smol_arty_tokens_match_host {int(soc is not None and soc == want)} bool "
          f"(soc {soc}, host {want})")
    decode = re.findall(r"cycles/token decode (\d+)", text)
    if decode:
        print(f"BENCH lm_smol_story_decode_cycles_arty {decode[-1]} cycles (positions 0-{STEPS - 1}, mean)")
    run = re.search(r"^stats: the run takes .*$", text, re.M)
    if run:
        print(f"# the story of {STEPS} tokens on a 50 MHz board: {run.group(0)[len('stats: '):]}")


if __name__ == "__main__":
    main()
