#!/usr/bin/python3
"""SnapKV (Li et al., NeurIPS 2024) on the fp32 reference (gguf_ref.py),
sharing no code with the integer engine or the C policies: an independent
check of what `prune_eval gen` measures for SnapKV on SmolLM2's long-context
tasks (smol_tasks.py's files). The prompt is read with full attention; its
last WINDOW queries' attention, summed over them and over the query heads
that share a KV head, max-pooled over KERNEL positions, chooses the
BUDGET - WINDOW positions kept before the window (the earlier on a tie);
the window and every generated position stay. The answer is the greedy
continuation, scored by RULER's string_match_all.

usage: snapkv_fp32.py MODEL.gguf TASKS --budgets 95,50,20 [--window N] [--kernel 7] [--tasks-max N]
                      [--prune-eval build/llm/prune_eval --image IMAGE.ucm]
       (--window: the paper's 32; default a quarter of the budget, prune_eval's;
        --prune-eval: the integer engine's figures for the same policy beside)
"""
import argparse
import subprocess
import urllib.parse

import numpy as np

import gguf_tokenizer
from gguf_ref import GgufRef


def keep_masks(window_probs, n, budget, window, kernel, layers, kv_heads, group):
    """Per layer and KV head, the prompt positions SnapKV keeps."""
    half = kernel // 2
    masks = []
    for l in range(layers):
        row = []
        for g in range(kv_heads):
            score = sum(window_probs[l][h][-window:, :n - window].sum(0) for h in range(g * group, (g + 1) * group))
            padded = np.pad(score, half)
            pooled = np.max([padded[i:i + len(score)] for i in range(2 * half + 1)], axis=0)
            order = sorted(range(len(pooled)), key=lambda i: (-pooled[i], i))[:budget - window]
            kept = np.zeros(n, bool)
            kept[order] = True
            kept[n - window:] = True
            row.append(kept)
        masks.append(row)
    return masks


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gguf")
    ap.add_argument("tasks")
    ap.add_argument("--budgets", default="95,50,20")
    ap.add_argument("--window", type=int, default=0)
    ap.add_argument("--kernel", type=int, default=7)
    ap.add_argument("--tasks-max", type=int, default=1 << 30)
    ap.add_argument("--prune-eval")
    ap.add_argument("--image")
    args = ap.parse_args()
    ref, tok = GgufRef(args.gguf), gguf_tokenizer.build(args.gguf)
    group = ref.n_heads // ref.n_kv_heads
    budgets = [int(b) for b in args.budgets.split(",")]
    hits = {b: [] for b in ["full"] + budgets}
    with open(args.tasks) as f:
        lines = f.readlines()[:args.tasks_max]
    for line in lines:
        kind, _, max_new, answers, *ids = line.split()
        ids, max_new = [int(t) for t in ids], int(max_new)
        answers = [urllib.parse.unquote(a) for a in answers.split("|")]
        n = len(ids)
        widest = max(args.window or (n * b // 100) // 4 for b in budgets)
        probs = [[None] * ref.n_heads for _ in range(ref.n_layers)]

        def observe(l, h, s):
            probs[l][h] = s[-widest:].copy()
        cache = []
        logits = ref.forward(ids, cache, 0, observe=observe)[-1]

        def score(out):
            text = tok.decode(out).lower()
            return 100 * sum(a.lower() in text for a in answers) / len(answers), tok.decode(out)
        got = {"full": score(ref.generate(ids, max_new, ref.stops, list(cache), logits))}
        for b in budgets:
            budget = n * b // 100
            window = args.window or budget // 4
            masks = keep_masks(probs, n, budget, window, args.kernel, ref.n_layers, ref.n_kv_heads, group)
            got[b] = score(ref.generate(ids, max_new, ref.stops, list(cache), logits, masks))
        for b, (hit, text) in got.items():
            hits[b].append(hit)
        print(f"{kind} " + " | ".join(f"{b}: {text.strip()!r} {hit:.0f}" for b, (hit, text) in got.items()), flush=True)
    for b, h in hits.items():
        print(f"SNAPKV_FP32 {b} {np.mean(h):.2f} pct (n={len(h)})")
    if args.prune_eval:
        out = subprocess.run([args.prune_eval, args.image, "gen", args.tasks, "--policies", "snapkv", "--budgets",
                              args.budgets, "--tag", "fp32_check"], capture_output=True, text=True)
        print("".join(l + "\n" for l in out.stdout.splitlines() if l.startswith("BENCH")) + out.stderr, end="")


if __name__ == "__main__":
    main()
