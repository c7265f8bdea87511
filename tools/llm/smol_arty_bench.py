#!/usr/bin/python3
"""SmolLM2 on the Arty A7-100T's board simulator (arty-rtl: the SoC at
50 MHz, its DDR3 through LiteDRAM's controller and DDR3 model at 100 MHz):
llm_smol_pos256.elf with the model image (170 MB) and the host engine's
saved context of positions 0-255 preloaded into the DDR3 model's banks
(--ext-preloaded: through the simulated UART they would take hours; only
the 128 KiB of code and buffers is uploaded): the forward pass at position
256 by phase beside the fast simulator's, its token and a story's tokens
against the host's.

usage: smol_arty_bench.py --sim ARTY_RTL --elf ELF --host LLM_HOST --image IMAGE --token256 FILE [--fast SMOL_SOC_TXT]
"""
import argparse
import os
import re

from smol_soc_bench import host_token, macs_per_token, matrix_bytes, pass_figures, session, tokens_match

PROMPT, STEPS = "The", 3
SILENCE_S = 7200  # a forward pass prints nothing for ~10 minutes of simulation


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("--sim", "--elf", "--host", "--image", "--token256"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--fast", help="the fast simulator's figures (smol_soc.txt), for the ratio")
    args = ap.parse_args()
    text = session(["--sim", args.sim, "--upload", args.elf, "--ext-preloaded", "--timeout", str(SILENCE_S)],
                   f"bench 256\nstory -n {STEPS} --ids {PROMPT}\nstats\nexit 0\n", "smol_arty_bench.py")
    bench, token = pass_figures(text, 256, "_arty")
    matmul, macs = int(bench["lm_matmul_cycles_pos256"]), macs_per_token(args.image)
    print(f"BENCH lm_smol_matmul_cycles_per_mac_arty {matmul / macs:.3f} cycles "
          f"(matrix-vector unit; floor {matrix_bytes(args.image) / 4 / macs:.3f}, a weight word a cycle)")
    print(f"BENCH lm_smol_dcache_hit_pct_arty {bench['dcache_hit_pct_llm']} pct")
    if args.fast and os.path.exists(args.fast):
        fast = dict(re.findall(r"^BENCH (\S+) (\S+)", open(args.fast).read(), re.M))
        if "lm_smol_decode_cycles_pos256" in fast:
            ratio = int(bench["lm_decode_cycles_pos256"]) / int(fast["lm_smol_decode_cycles_pos256"])
            print(f"BENCH lm_smol_decode_arty_vs_fast_sim {ratio:.3f} x")
    want = host_token(args.token256, 256)
    print(f"BENCH lm_smol_pos256_token_matches_host_arty {int(token is not None and token == want)} bool "
          f"(soc {token}, host {want}; positions 0-255 restored from the host's saved context)")
    tokens_match("lm_smol_arty_tokens_match_host", text, args.host, args.image, PROMPT, STEPS)
    decode = re.findall(r"cycles/token decode (\d+)", text)
    if decode:
        print(f"BENCH lm_smol_story_decode_cycles_arty {decode[-1]} cycles (positions 0-{STEPS - 1}, mean)")
    run = re.search(r"^stats: the run takes .*$", text, re.M)
    if run:
        print(f"# the story of {STEPS} tokens on a 50 MHz board: {run.group(0)[len('stats: '):]}")


if __name__ == "__main__":
    main()
