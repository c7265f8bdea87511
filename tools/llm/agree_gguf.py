#!/usr/bin/python3
"""Integer engine vs fp32 on held-out text, for a GGUF model.

usage: agree_gguf.py MODEL.gguf IMAGE.ucm --score build/llm/llm_score
                     --text PATH... [--seqs 32] [--len 256] [--prefix lm_smol]

The text (files, or directories of files; fortune files' "%" lines are
dropped) is tokenized whole by PyPI tokenizers (gguf_tokenizer.py) and cut
into SEQS windows of LEN tokens spread evenly over it. Each window is run
teacher-forced through the fp32 reference (gguf_ref.py, numpy) and through
the integer engine (llm_score, the firmware's C on the host). Prints BENCH
lines: top-1 agreement with a 95% bootstrap interval over windows (a
window's tokens are not independent), and both perplexities.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

import gguf_tokenizer
from gguf_ref import GgufRef


def read_text(paths):
    parts = []
    for path in paths:
        files = sorted(os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs) if os.path.isdir(path) else [path]
        for name in files:
            if name.endswith((".dat", ".u8")):
                continue  # fortune's index files
            with open(name, encoding="utf-8", errors="replace") as f:
                parts.append("\n".join(line for line in f.read().split("\n") if line != "%"))
    return "\n\n".join(parts)


def windows(ids, seqs, length):
    if len(ids) < seqs * length:
        sys.exit(f"agree_gguf.py: the text has {len(ids)} tokens, {seqs} x {length} are needed")
    step = len(ids) // seqs
    return [ids[i * step:i * step + length] for i in range(seqs)]


def log_softmax(x):
    x = x.astype(np.float64)
    x = x - x.max(-1, keepdims=True)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def bootstrap(agree, total, resamples=2000, seed=1):
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(agree), size=(resamples, len(agree)))
    pct = 100.0 * agree[idx].sum(1) / total[idx].sum(1)
    return np.percentile(pct, 2.5), np.percentile(pct, 97.5)


def score_integer(score, image, seqs):
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write("".join(" ".join(map(str, s)) + "\n" for s in seqs))
        f.flush()
        out = subprocess.run([score, image, f.name], capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"agree_gguf.py: llm_score failed: {out.stderr.strip()}")
    top, lp = {}, {}
    for line in out.stdout.splitlines():
        _, s, p, t, l = line.split()
        top[int(s), int(p)] = int(t)
        lp[int(s), int(p)] = float(l)
    return top, lp


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gguf")
    ap.add_argument("image")
    ap.add_argument("--score", required=True)
    ap.add_argument("--text", nargs="+", required=True)
    ap.add_argument("--seqs", type=int, default=32)
    ap.add_argument("--len", type=int, default=256)
    ap.add_argument("--prefix", default="lm_smol")
    args = ap.parse_args()
    ids = gguf_tokenizer.build(args.gguf).encode(read_text(args.text)).ids
    seqs = windows(ids, args.seqs, args.len)
    top, lp = score_integer(args.score, args.image, seqs)
    ref = GgufRef(args.gguf)
    agree, total = np.zeros(len(seqs)), np.zeros(len(seqs))
    nll_ref = nll_int = 0.0
    for s, seq in enumerate(seqs):
        logits = ref.forward(seq)
        for p in range(len(seq)):
            agree[s] += int(np.argmax(logits[p])) == top[s, p]
            total[s] += 1
        lr = log_softmax(logits[:-1])
        nll_ref -= lr[np.arange(len(seq) - 1), seq[1:]].sum()
        nll_int -= sum(lp[s, p] for p in range(len(seq) - 1))
    n = sum(len(s) - 1 for s in seqs)
    low, high = bootstrap(agree, total)
    ppl_ref, ppl_int = np.exp(nll_ref / n), np.exp(nll_int / n)
    p = args.prefix
    print(f"BENCH {p}_int8_top1_vs_fp32 {100 * agree.sum() / total.sum():.2f} pct "
          f"({len(seqs)} x {args.len} tokens)")
    print(f"BENCH {p}_int8_top1_vs_fp32_ci95_low {low:.2f} pct")
    print(f"BENCH {p}_int8_top1_vs_fp32_ci95_high {high:.2f} pct")
    print(f"BENCH {p}_ppl_fp32 {ppl_ref:.4f} ppl")
    print(f"BENCH {p}_ppl_int8 {ppl_int:.4f} ppl")
    print(f"BENCH {p}_ppl_ratio_int8_vs_fp32 {ppl_int / ppl_ref:.4f} ratio")


if __name__ == "__main__":
    main()
