#!/usr/bin/python3
"""SmolLM2 on the simulated SoC (sim_smol, llm_smol.elf): one forward pass's
cycles at position 0 by phase, with the grouped products on the
matrix-vector unit and (`mvu off`) on the core, cycles per
multiply-accumulate beside each one's floor (the unit: a weight word a
cycle; the core: a load and two packed dot products a word), the
weights' bytes a token reads from external memory, a
prompt's cycles per token when 8 positions share a pass over the weights,
and three tokens through the array (kv unicaim) against the host's. With
--elf256 (llm_smol_pos256.elf, positions 0-255 restored from the host
engine's saved context), the forward pass at position 256 and its token
against the host's (--token256: llm_context's TOKEN line).

usage: smol_soc_bench.py --sim SIM --elf ELF --host LLM_HOST --image IMAGE [--elf256 ELF --token256 FILE]
"""
import argparse
import ctypes
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORE_FLOOR_CYCLES_PER_MAC = 0.75  # int8 x int16: a load and two packed dot products per word of four weights
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


def session(uartctl_args, lines, what):
    """The console's output (carriage returns dropped) for LINES, sent by
    uartctl with UARTCTL_ARGS; exits naming WHAT if the session fails."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as script:
        script.write(lines)
        script.flush()
        # uartctl (and with it the simulator) ends if this script is killed.
        out = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "uartctl.py"), "sim", *uartctl_args,
                              "--script", script.name], capture_output=True, text=True,
                             preexec_fn=lambda: ctypes.CDLL(None).prctl(1, signal.SIGTERM))
    text = out.stdout.replace("\r", "")
    if out.returncode:
        sys.exit(f"{what}: the session failed (rc {out.returncode}):\n{text[-2000:]}{out.stderr[-1000:]}")
    return text


def pass_figures(text, pos, suffix=""):
    """The BENCH lines of `bench POS` as SmolLM2's (lm_smol_..._posPOS SUFFIX),
    and the token position POS chose."""
    bench = dict(re.findall(r"^BENCH (\S+) (\S+)", text, re.M))
    for name in ("decode", "matmul", "attention", "other"):
        print(f"BENCH lm_smol_{name}_cycles_pos{pos}{suffix} {bench[f'lm_{name}_cycles_pos{pos}']} cycles")
    m = re.search(rf"^bench: position {pos} chose token (\d+)", text, re.M)
    return bench, m and m.group(1)


def tokens_match(name, text, host, image, prompt, steps, kv=()):
    """BENCH NAME: whether the session's TOKENS line is llm_host's for the
    same story (KV: its attention options)."""
    m = re.search(r"^TOKENS(.*)$", text, re.M)
    soc = m.group(1).split() if m else None
    out = subprocess.run([host, image, "--context", "1024", *kv, "-n", str(steps), "-i", prompt, "--ids"],
                         capture_output=True, text=True).stdout
    h = re.search(r"^TOKENS(.*)$", out, re.M)
    want = h.group(1).split() if h else None
    print(f"BENCH {name} {int(soc is not None and soc == want)} bool (soc {soc}, host {want})")


def host_token(path, pos):
    """The token llm_context says position POS chooses (its TOKEN line in PATH)."""
    m = re.search(rf"^TOKEN pos {pos} (\d+)", open(path).read(), re.M)
    return m and m.group(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("--sim", "--elf", "--host", "--image"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--elf256")
    ap.add_argument("--token256")
    args = ap.parse_args()
    text = session(["--sim", args.sim, "--elf", args.elf, "--timeout", "3600"],
                   f"bench 0\nmvu off\nbench 0\nmvu on\nstory -n {len(PREFILL.split()) + 1} {PREFILL}\n"
                   f"kv unicaim\nstory -n {STEPS} --ids {PROMPT}\nstats\nexit 0\n", "smol_soc_bench.py")
    first, second = text.split("matrix-vector unit: off", 1)
    bench, _ = pass_figures(first, 0)
    core, _ = pass_figures(second, 0, "_core")
    macs = macs_per_token(args.image)
    weights = matrix_bytes(args.image)
    matmul, matmul_core = int(bench["lm_matmul_cycles_pos0"]), int(core["lm_matmul_cycles_pos0"])
    print(f"BENCH lm_smol_macs_per_token {macs} macs")
    print(f"BENCH lm_smol_weight_bytes_per_token {weights} bytes")
    print(f"BENCH lm_smol_matmul_cycles_per_mac {matmul / macs:.3f} cycles "
          f"(matrix-vector unit; floor {weights / 4 / macs:.3f}, a weight word a cycle)")
    print(f"BENCH lm_smol_matmul_floor_cycles {weights // 4} cycles (the unit, a weight word a cycle)")
    print(f"BENCH lm_smol_matmul_cycles_per_mac_core {matmul_core / macs:.3f} cycles "
          f"(mvu off; floor {CORE_FLOOR_CYCLES_PER_MAC})")
    print(f"BENCH lm_smol_matmul_floor_cycles_core {int(CORE_FLOOR_CYCLES_PER_MAC * macs)} cycles")
    print(f"BENCH lm_smol_dcache_hit_pct {bench['dcache_hit_pct_llm']} pct")
    prefill = re.findall(r"cycles/token decode (\d+), prefill (\d+)", text)
    if prefill:
        print(f"BENCH lm_smol_prefill_cycles_per_token {prefill[0][1]} cycles (8 positions a pass)")
    tokens_match("lm_smol_soc_array_tokens_match_host", text, args.host, args.image, PROMPT, STEPS,
                 ("--kv", "unicaim", "--slices", "3"))
    if len(prefill) > 1:
        print(f"BENCH lm_smol_soc_array_decode_cycles {prefill[-1][0]} cycles (positions 0-{STEPS - 1})")
    if args.elf256:
        text = session(["--sim", args.sim, "--elf", args.elf256, "--timeout", "3600"], "bench 256\nexit 0\n",
                       "smol_soc_bench.py (position 256)")
        _, token = pass_figures(text, 256)
        want = host_token(args.token256, 256)
        print(f"BENCH lm_smol_pos256_token_matches_host {int(token is not None and token == want)} bool "
              f"(soc {token}, host {want}; positions 0-255 restored from the host's saved context)")


if __name__ == "__main__":
    main()
