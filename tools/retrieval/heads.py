#!/usr/bin/python3
"""Where a retrieval model looks when it answers, teacher-forced.

  heads   for one task: each answer token, the model's argmax, and every
          head's most-attended positions (offset from the predicting
          position, token, weight) - which head does a kind's lookup, and
          from what;
  misses  over many tasks: how often each token of the answer is wrong, and
          how many of the wrong guesses are words of the context (a wrong
          fact) rather than words absent from it (a prior).

usage: heads.py heads MODEL.bin KIND [--len 256] [--seed 1] [--top 3]
       heads.py misses MODEL.bin KIND [--len 512] [--seed 1] [--tasks 30]
"""
import argparse
import os
import random
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tasks  # noqa: E402
from model import load_v0  # noqa: E402


def run(model, task):
    """Argmax after every position, and each layer's attention (head, query, key)."""
    attention = []
    with torch.no_grad():
        logits = model(torch.tensor([task.tokens]), attention)[0]
    return logits.argmax(-1).tolist(), [a[0] for a in attention]


def show_heads(model, task, top):
    pred, attention = run(model, task)
    name = tasks.PIECES
    a, b, needle = task.answers[0]
    print(tasks.decode(task.tokens[max(0, a - 60):b]))
    print(f"answer [{a}:{b}], needle at {needle}")
    for pos in range(a - 1, b - 1):
        want, got = task.tokens[pos + 1], pred[pos]
        print(f"after {name[task.tokens[pos]]!r} at {pos}: want {name[want]!r}, "
              f"argmax {name[got]!r}{'' if want == got else '  WRONG'}")
        for layer, att in enumerate(attention):
            for head in range(att.shape[0]):
                w, keys = att[head, pos].topk(min(top, pos + 1))
                print(f"  L{layer}h{head} " + "  ".join(
                    f"{k - pos:+d}:{name[task.tokens[k]]!r}({v:.2f})" for v, k in zip(w.tolist(), keys.tolist())))


def show_misses(model, kind, rng, length, n):
    example, wrong, in_context = [], [], []  # example: the longest answer seen
    for _ in range(n):
        task = tasks.make(kind, rng, length)
        pred, _ = run(model, task)
        for a, b, _ in task.answers:
            if b - a > len(example):
                wrong += [0] * (b - a - len(example))
                in_context += [0] * (b - a - len(example))
                example = task.tokens[a:b]
            context = set(task.tokens[:a])
            for i in range(b - a):
                got = pred[a - 1 + i]
                if got != task.tokens[a + i]:
                    wrong[i] += 1
                    in_context[i] += got in context
    print(f"{kind}, {n} tasks of {length} tokens: wrong answer tokens (of them, words of the context)")
    for i, token in enumerate(example):
        print(f"  token {i:2d} (e.g. {tasks.PIECES[token]!r}): {wrong[i]} ({in_context[i]})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("heads", "misses"))
    ap.add_argument("model")
    ap.add_argument("kind", choices=tasks.EVAL_KINDS)
    ap.add_argument("--len", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--tasks", type=int, default=30)
    args = ap.parse_args()
    torch.set_num_threads(1)
    model = load_v0(args.model)
    model.eval()
    rng = random.Random(args.seed)
    if args.mode == "heads":
        show_heads(model, tasks.make(args.kind, rng, args.len or 256), args.top)
    else:
        show_misses(model, args.kind, rng, args.len or 512, args.tasks)


if __name__ == "__main__":
    main()
