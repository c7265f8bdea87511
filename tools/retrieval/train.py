#!/usr/bin/python3
"""Train the retrieval model on the synthetic tasks and export it in llama2.c
v0 format with its tokenizer.bin.

The shipped model (models/retrieval/) is `train.py --out models/retrieval`
with the defaults below (config.json records the command): a curriculum over
context lengths (short contexts first, so early steps see many answers
cheaply, then the full 1024), a constant ~8k tokens per step, AdamW at a
constant rate decayed over the last two stages, answer tokens weighted above
text (tasks.Task.ANSWER) and tasks asking as many questions as fit, so that
the retrieval targets are not drowned by filler.  Seeded: the same command
and thread counts (torch's and OpenBLAS's) give the same weights.

usage: train.py --out DIR [--stages 128:1300,256:250,512:250,1024:300] [--threads 1]
"""
import argparse
import json
import os
import random
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tasks  # noqa: E402
from model import Transformer, export_v0  # noqa: E402

MIX = (("runs", 0.3), ("recall", 0.3), ("passkey", 0.2), ("twohop", 0.2))
TOKENS_PER_STEP = 8192


def batch(rng, length, size):
    """Tokens, targets and loss weights of SIZE tasks padded to LENGTH."""
    kinds = [k for k, _ in MIX]
    weights = [w for _, w in MIX]
    x = torch.zeros(size, length, dtype=torch.long)
    y = torch.zeros(size, length, dtype=torch.long)
    w = torch.zeros(size, length)
    for b in range(size):
        task = tasks.make(rng.choices(kinds, weights)[0], rng, length + 1, many=True)
        n = len(task.tokens) - 1
        x[b, :n] = torch.tensor(task.tokens[:-1])
        y[b, :n] = torch.tensor(task.tokens[1:])
        w[b, :n] = torch.tensor(task.weights[1:])
    return x, y, w


def exact_match(model, rng, length, per_kind):
    """Teacher-forced: every answer token is the argmax (= greedy decoding)."""
    result = {}
    with torch.no_grad():
        for kind in tasks.EVAL_KINDS:
            hits = total = 0
            for _ in range(per_kind):
                task = tasks.make(kind, rng, length)
                logits = model(torch.tensor([task.tokens]))[0]
                pred = logits.argmax(-1)
                for a, b, _ in task.answers:
                    hits += bool((pred[a - 1:b - 1] == torch.tensor(task.tokens[a:b])).all())
                    total += 1
            result[kind] = hits / total
    return result


def parse_stages(text):
    return [tuple(int(v) for v in s.split(":")) for s in text.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--stages", default="128:1300,256:250,512:250,1024:300", help="context:steps,...")
    ap.add_argument("--dim", type=int, default=128)
    ap.add_argument("--hidden", type=int, default=192)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--kv-heads", type=int, default=2)
    ap.add_argument("--seq-len", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--decay-stages", type=int, default=2, help="decay the rate over this many last stages")
    ap.add_argument("--seed", type=int, default=1)
    # Torch's own threads; the matrix products run on OpenBLAS's pool (one
    # thread per core unless OPENBLAS_NUM_THREADS says otherwise).  Both
    # counts change float sums, so both are part of the recipe.
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--eval-every", type=int, default=100)
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    cfg = dict(dim=args.dim, hidden_dim=args.hidden, n_layers=args.layers, n_heads=args.heads,
               n_kv_heads=args.kv_heads, vocab_size=tasks.VOCAB_SIZE, seq_len=args.seq_len)
    model = Transformer(cfg)
    n_params = sum(p.numel() for p in model.parameters())
    stages = parse_stages(args.stages)
    total_steps = sum(s for _, s in stages)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.0)
    decay_steps = sum(s for _, s in stages[max(0, len(stages) - args.decay_stages):])
    decay_start = total_steps - decay_steps

    def lr_at(step):  # constant, then a linear decay to 10% over the last stages
        if step < decay_start:
            return args.lr
        return args.lr * (1.0 - 0.9 * (step - decay_start) / max(1, decay_steps))

    os.makedirs(args.out, exist_ok=True)
    print(f"model: {n_params} parameters, {cfg}", flush=True)
    log = []
    step, start = 0, time.time()
    for length, steps in stages:
        size = max(1, TOKENS_PER_STEP // length)
        for _ in range(steps):
            for g in opt.param_groups:
                g["lr"] = lr_at(step)
            x, y, w = batch(rng, length, size)
            logits = model(x)
            loss = (F.cross_entropy(logits.view(-1, logits.shape[-1]), y.view(-1), reduction="none") *
                    w.view(-1)).sum() / w.sum()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            if step % args.eval_every == 0 or step == total_steps:
                model.eval()
                em = exact_match(model, random.Random(10_000 + step), length, 16)
                model.train()
                entry = dict(step=step, context=length, loss=round(loss.item(), 4),
                             seconds=round(time.time() - start, 1), **{k: round(v, 3) for k, v in em.items()})
                log.append(entry)
                print(json.dumps(entry), flush=True)
    export_v0(model, os.path.join(args.out, "retrieval.bin"))
    tasks.write_tokenizer(os.path.join(args.out, "tokenizer.bin"))
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(dict(command="tools/retrieval/train.py " + " ".join(sys.argv[1:]), parameters=n_params,
                       model=cfg, stages=stages, tokens_per_step=TOKENS_PER_STEP, lr=args.lr,
                       decay_stages=args.decay_stages, seed=args.seed,
                       threads=args.threads, blas_threads=int(os.environ.get("OPENBLAS_NUM_THREADS", os.cpu_count())),
                       torch=torch.__version__, train_seconds=round(time.time() - start),
                       log=log), f, indent=1)
    print(f"exported {args.out}/retrieval.bin after {time.time() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
