#!/usr/bin/python3
"""Integer engine vs fp32 on held-out text, for a GGUF model.

usage: agree_gguf.py MODEL.gguf IMAGE.ucm --score build/llm/llm_score
                     --text PATH... [--seqs 32] [--len 256] [--prefix lm_smol]
       agree_gguf.py MODEL.gguf IMAGE.ucm --host build/llm/llm_host
                     --chat TASKS [--answer 48] [--prefix lm_smol] [--table OUT.md]

The text (files, or directories of files; fortune files' "%" lines are
dropped) is tokenized whole by PyPI tokenizers (gguf_tokenizer.py) and cut
into SEQS windows of LEN tokens spread evenly over it. Each window is run
teacher-forced through the fp32 reference (gguf_ref.py, numpy) and through
the integer engine (llm_score, the firmware's C on the host). Prints BENCH
lines: top-1 agreement with a 95% bootstrap interval over windows (a
window's tokens are not independent), and both perplexities.

--chat: each question of TASKS (a line each, # comments) goes into the
model's chat template; the integer engine (llm_host --chat) and the fp32
reference answer it greedily (at most ANSWER tokens, to the end of turn),
and the answers are compared token for token: BENCH lines with how many
are identical and how far they agree on average; the answers into TABLE.
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


def host_answer(host, image, question, prompt_len, answer):
    out = subprocess.run([host, image, "--chat", "--batch", "16", "--ids", "-n", str(prompt_len + answer - 1),
                          "-i", question], capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"agree_gguf.py: llm_host failed: {out.stderr.strip()}")
    line = next(l for l in out.stdout.splitlines() if l.startswith("TOKENS"))
    return [int(t) for t in line.split()[1:]][prompt_len - 1:]  # the echo of the prompt's tokens first


def chat(args):
    tok = gguf_tokenizer.build(args.gguf)
    ref = GgufRef(args.gguf)
    system = gguf_tokenizer.chat_system(args.gguf)
    questions = [l.strip() for l in open(args.chat, encoding="utf-8") if l.strip() and not l.startswith("#")]
    same, agreed, rows = 0, [], []
    for q in questions:
        prompt = (f"<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{q}<|im_end|>\n"
                  "<|im_start|>assistant\n")
        ids = tok.encode(prompt).ids
        want = ref.generate(ids, args.answer, ref.stops)
        got = host_answer(args.host, args.image, q, len(ids), args.answer)
        n = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
        same += want == got
        agreed.append(n / max(len(want), 1))
        rows.append((q, tok.decode(got), tok.decode(want), n, len(want)))
    p = args.prefix
    print(f"BENCH {p}_chat_identical_answers {same} of_{len(questions)}")
    print(f"BENCH {p}_chat_agreed_fraction {100 * sum(agreed) / len(agreed):.1f} pct "
          "(tokens before the first difference, of fp32's answer)")
    if args.table:
        with open(args.table, "w") as f:
            f.write("| question | integer engine | fp32 | same tokens |\n|---|---|---|---|\n")
            for q, a, b, n, total in rows:
                cell = lambda t: t.replace("|", "\\|").replace("\n", " ").strip()
                f.write(f"| {cell(q)} | {cell(a)} | {cell(b)} | {n} of {total} |\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gguf")
    ap.add_argument("image")
    ap.add_argument("--score")
    ap.add_argument("--text", nargs="+")
    ap.add_argument("--seqs", type=int, default=32)
    ap.add_argument("--len", type=int, default=256)
    ap.add_argument("--prefix", default="lm_smol")
    ap.add_argument("--host")
    ap.add_argument("--chat")
    ap.add_argument("--answer", type=int, default=48)
    ap.add_argument("--table")
    args = ap.parse_args()
    if args.chat:
        if not args.host:
            ap.error("--chat needs --host")
        return chat(args)
    if not args.score or not args.text:
        ap.error("--score and --text are required")
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
