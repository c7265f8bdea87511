#!/usr/bin/python3
"""How SmolLM2's number formats were chosen: the fp32 reference
(gguf_ref.py) with its weights, matrix inputs and key/value cache rounded as
an integer engine would round them, against itself unrounded, on the
development text (not the test set bench-smol reports on). Prints a
Markdown table: top-1 agreement per format.

usage: format_study.py MODEL.gguf --text PATH... [--seqs 8] [--len 256]

Weights: int8 with one scale per row, per group of 64 or 32 columns
(symmetric), or the GGUF blocks exactly (what convert.py writes). Matrix
inputs: per vector to int8 or int16, or unrounded. Cache: queries and
values int8, keys 12-bit, one scale per head and position (the firmware's),
or unrounded.
"""
import argparse

import numpy as np

import agree_gguf
import gguf_tokenizer
from gguf_ref import GgufRef


def rows_int8(a):
    s = np.abs(a).max(1, keepdims=True) / 127
    s[s == 0] = 1
    return (np.clip(np.rint(a / s), -127, 127) * s).astype(np.float32)


def groups_int8(a, g):
    r, c = a.shape
    b = a.reshape(r, c // g, g)
    s = np.abs(b).max(2, keepdims=True) / 127
    s[s == 0] = 1
    return (np.clip(np.rint(b / s), -127, 127) * s).reshape(r, c).astype(np.float32)


WEIGHTS = {"int8, a scale per row": rows_int8, "int8, a scale per 64 columns": lambda a: groups_int8(a, 64),
           "int8, a scale per 32 columns": lambda a: groups_int8(a, 32), "GGUF's blocks, exactly": None}


def rounded(x, top):
    """Per vector (last axis) to integers in [-top, top], back to float."""
    if not top:
        return x
    s = np.abs(x).max(-1, keepdims=True) / top
    s[s == 0] = 1
    return (np.rint(x / s) * s).astype(np.float32)


class RoundedRef(GgufRef):
    """GgufRef.forward with the inputs of every matrix product rounded to
    INPUT_TOP levels and, with CACHE, queries/values to int8 and keys to 12 bits."""

    def __init__(self, path):
        super().__init__(path)
        self.exact = dict(self.w)
        self.input_top, self.cache = 0, False

    def set_weights(self, fn):
        for name, a in self.exact.items():
            self.w[name] = fn(a) if fn and a.ndim == 2 else a
        self.classifier = self.w.get("output.weight", self.w["token_embd.weight"])

    def forward(self, tokens, cache=None, start=0):
        tokens = np.asarray(tokens)
        T, top = len(tokens), self.input_top
        pos = np.arange(T, dtype=np.float64)
        x = self.w["token_embd.weight"][tokens].astype(np.float32)
        group = self.n_heads // self.n_kv_heads
        mask = np.triu(np.full((T, T), -np.inf, np.float32), 1)
        for l in range(self.n_layers):
            p = f"blk.{l}."
            xb = rounded(self.rms(x, self.w[p + "attn_norm.weight"]), top)
            q = self.rope((xb @ self.w[p + "attn_q.weight"].T).reshape(T, self.n_heads, self.head), pos)
            k = self.rope((xb @ self.w[p + "attn_k.weight"].T).reshape(T, self.n_kv_heads, self.head), pos)
            v = (xb @ self.w[p + "attn_v.weight"].T).reshape(T, self.n_kv_heads, self.head)
            if self.cache:
                q, k, v = rounded(q, 127), rounded(k, 2047), rounded(v, 127)
            out = np.empty((T, self.n_heads, self.head), np.float32)
            for h in range(self.n_heads):
                s = q[:, h] @ k[:, h // group].T / np.sqrt(self.head) + mask
                s = np.exp(s - s.max(-1, keepdims=True))
                out[:, h] = (s / s.sum(-1, keepdims=True)) @ v[:, h // group]
            x = x + rounded(out.reshape(T, self.dim), top) @ self.w[p + "attn_output.weight"].T
            xb = rounded(self.rms(x, self.w[p + "ffn_norm.weight"]), top)
            gate, up = xb @ self.w[p + "ffn_gate.weight"].T, xb @ self.w[p + "ffn_up.weight"].T
            x = x + rounded(gate / (1 + np.exp(-gate)) * up, top) @ self.w[p + "ffn_down.weight"].T
        return rounded(self.rms(x, self.w["output_norm.weight"]), top) @ self.classifier.T


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gguf")
    ap.add_argument("--text", nargs="+", required=True)
    ap.add_argument("--seqs", type=int, default=8)
    ap.add_argument("--len", type=int, default=256)
    args = ap.parse_args()
    ids = gguf_tokenizer.build(args.gguf).encode(agree_gguf.read_text(args.text)).ids
    seqs = agree_gguf.windows(ids, args.seqs, args.len)
    ref = RoundedRef(args.gguf)
    want = [ref.forward(s).argmax(-1) for s in seqs]
    runs = [(w, 0, False) for w in WEIGHTS] + [("GGUF's blocks, exactly", 127, False),
                                              ("GGUF's blocks, exactly", 32767, False),
                                              ("GGUF's blocks, exactly", 32767, True),
                                              ("int8, a scale per row", 32767, True),
                                              ("int8, a scale per 32 columns", 32767, True)]
    print(f"| weights | matrix inputs | cache | top-1 vs fp32 ({args.seqs} x {args.len} tokens) |")
    print("|---|---|---|---|")
    for weights, top, cache in runs:
        ref.set_weights(WEIGHTS[weights])
        ref.input_top, ref.cache = top, cache
        agree = sum(int((ref.forward(s).argmax(-1) == w).sum()) for s, w in zip(seqs, want))
        inputs = {0: "fp32", 127: "int8", 32767: "int16"}[top]
        print(f"| {weights} | {inputs} | {'int8 q/v, 12-bit k' if cache else 'fp32'} | "
              f"{100 * agree / (len(seqs) * args.len):.2f} |", flush=True)


if __name__ == "__main__":
    main()
