#!/usr/bin/python3
"""The host engine's speed on SmolLM2: a prompt of N tokens of the text
(PyPI tokenizers' count) read 16 tokens a pass (the AVX2 kernels where the
CPU has them), then a few decoded tokens, by llm_host --time on one core.

usage: host_speed.py MODEL.gguf IMAGE.ucm --host build/llm/llm_host --text PATH... [--tokens 2048]
"""
import argparse
import re
import subprocess
import sys

import agree_gguf
import gguf_tokenizer


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gguf")
    ap.add_argument("image")
    ap.add_argument("--host", required=True)
    ap.add_argument("--text", nargs="+", required=True)
    ap.add_argument("--tokens", type=int, default=2048)
    args = ap.parse_args()
    tok = gguf_tokenizer.build(args.gguf)
    prompt = tok.decode(tok.encode(agree_gguf.read_text(args.text)).ids[:args.tokens])
    n = len(tok.encode(prompt).ids)
    out = subprocess.run(["taskset", "-c", "0", args.host, args.image, "--batch", "16", "--time", "--ids",
                          "-n", str(n + 8), "-i", prompt], capture_output=True, text=True)
    m = re.search(r"TIME prefill (\d+) tokens ([0-9.]+) s, decode (\d+) tokens ([0-9.]+) s", out.stdout)
    if out.returncode or not m:
        sys.exit(f"host_speed.py: llm_host failed: {out.stderr.strip()}")
    print(f"BENCH lm_smol_host_prefill_{args.tokens // 1024}k_s {float(m.group(2)):.2f} s "
          f"({m.group(1)} tokens, one core)")
    print(f"BENCH lm_smol_host_decode_ms_at_{args.tokens // 1024}k {1000 * float(m.group(4)) / int(m.group(3)):.1f} ms")


if __name__ == "__main__":
    main()
