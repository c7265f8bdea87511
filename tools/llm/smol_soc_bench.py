#!/usr/bin/python3
"""SmolLM2 on the simulated SoC (sim_smol, llm_smol.elf): one forward pass's
cycles at position 0 by phase, cycles per multiply-accumulate beside the
core's floor, the weights' bytes a token reads from external memory, a
prompt's cycles per token when 8 positions share a pass over the weights,
and three tokens through the array (kv unicaim) against the host's.

usage: smol_soc_bench.py --sim SIM --elf ELF --host LLM_HOST --image IMAGE
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FLOOR_CYCLES_PER_MAC = 0.75  # int8 x int16: a load and two packed dot products per word of four weights
PROMPT, STEPS = "The", 3
# A prompt of 9 tokens: 8 read in one pass (the build's batch), the last decoded.
PREFILL = "one two three four five six seven eight nine"


def macs_per_token(image):
    """Multiply-accumulates of one forward pass, from the image's header."""
    with open(image, "rb") as f:
        h = struct.unpack("<32I", f.read(128))
    dim, hidden, layers, heads, kv_heads, vocab = h[5], h[6], h[7], h[8], h[9], h[10]
    kv_dim = dim // heads * kv_heads
    return layers * (2 * dim * dim + 2 * kv_dim * dim + 3 * hidden * dim) + vocab * dim


def matrix_bytes(image):
    """Bytes of the image before the final norm: the embedding and layers (the classifier is tied)."""
    with open(image, "rb") as f:
        h = struct.unpack("<32I", f.read(128))
    return h[15] - h[13] + (h[16] - h[13] if h[12] == 0 else 0)  # off_final - off_embed (+ the classifier)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("--sim", "--elf", "--host", "--image"):
        ap.add_argument(opt, required=True)
    args = ap.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as script:
        script.write(f"bench 0\nstory -n {len(PREFILL.split()) + 1} {PREFILL}\n"
                     f"kv unicaim\nstory -n {STEPS} --ids {PROMPT}\nstats\nexit 0\n")
        script.flush()
        out = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "uartctl.py"), "sim", "--sim", args.sim,
                              "--elf", args.elf, "--script", script.name, "--timeout", "3600"],
                             capture_output=True, text=True)
    text = out.stdout.replace("\r", "")
    if out.returncode:
        sys.exit(f"smol_soc_bench.py: the session failed (rc {out.returncode}):\n{text[-2000:]}{out.stderr[-1000:]}")
    bench = dict(re.findall(r"^BENCH (\S+) (\S+)", text, re.M))
    for name in ("decode", "matmul", "attention", "other"):
        print(f"BENCH lm_smol_{name}_cycles_pos0 {bench[f'lm_{name}_cycles_pos0']} cycles")
    macs = macs_per_token(args.image)
    matmul = int(bench["lm_matmul_cycles_pos0"])
    print(f"BENCH lm_smol_macs_per_token {macs} macs")
    print(f"BENCH lm_smol_matmul_cycles_per_mac {matmul / macs:.3f} cycles (floor {FLOOR_CYCLES_PER_MAC})")
    print(f"BENCH lm_smol_matmul_floor_cycles {int(FLOOR_CYCLES_PER_MAC * macs)} cycles")
    print(f"BENCH lm_smol_weight_bytes_per_token {matrix_bytes(args.image)} bytes")
    print(f"BENCH lm_smol_dcache_hit_pct {bench['dcache_hit_pct_llm']} pct")
    prefill = re.findall(r"cycles/token decode (\d+), prefill (\d+)", text)
    if prefill:
        print(f"BENCH lm_smol_prefill_cycles_per_token {prefill[0][1]} cycles (8 positions a pass)")
    m = re.search(r"^TOKENS(.*)$", text, re.M)
    soc = m.group(1).split() if m else None
    host = subprocess.run([args.host, args.image, "--context", "1024", "--kv", "unicaim", "--slices", "3",
                           "-n", str(STEPS), "-i", PROMPT, "--ids"], capture_output=True, text=True)
    h = re.search(r"^TOKENS(.*)$", host.stdout, re.M)
    want = h.group(1).split() if h else None
    print(f"BENCH lm_smol_soc_array_tokens_match_host {int(soc is not None and soc == want)} bool "
          f"(soc {soc}, host {want})")
    if len(prefill) > 1:
        print(f"BENCH lm_smol_soc_array_decode_cycles {prefill[-1][0]} cycles (positions 0-{STEPS - 1})")


if __name__ == "__main__":
    main()
