#!/usr/bin/python3
"""The array's attention speedup at each top-k, in one table: the paper's
geometry (ucmbench: one attention step over 512 random keys of 128
dimensions) beside stories260K (head size 8: the language model's attention
phase for one token at its last position, 512 cached keys per head, from
the console's `bench 511` dense and after `kv unicaim K`). Both against the
dense step at its best (value rows of non-zero weights only, or all).

usage: attn_speedup.py UCM_TXT LLM_KV_LOG OUT_TXT OUT_MD
"""
import re
import sys

PHASE = "lm_attention_cycles_pos511"
SOFTWARE = "software"  # dense attention on the core


def bench_values(path):
    with open(path) as f:
        return {p[1]: p[2] for p in (line.split() for line in f) if len(p) >= 3 and p[0] == "BENCH"}


def llm_attention(path):
    """Attention cycles at the last position: SOFTWARE (dense attention, the
    console's default and its `kv dense`) or per k of the array."""
    cycles, backend = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("kv: dense"):
                backend = SOFTWARE
            m = re.match(r"kv: UniCAIM array.*top-k (\d+)", line)
            if m:
                backend = int(m.group(1))
            m = re.match(rf"BENCH {PHASE} (\d+)", line)
            if m:
                cycles[SOFTWARE if backend is None else backend] = int(m.group(1))
    return cycles


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    ucm, llm = bench_values(sys.argv[1]), llm_attention(sys.argv[2])
    if SOFTWARE not in llm:
        sys.exit(f"attn_speedup: no {PHASE} of software attention in {sys.argv[2]}")
    paper_dense = min(int(ucm["attn_dense_cycles_512x128"]), int(ucm["attn_dense_skip_cycles_512x128"]))
    lines = [f"BENCH {PHASE}_{SOFTWARE} {llm[SOFTWARE]} cycles"]
    rows = ["| k | paper geometry, 512 keys x 128: cycles of a step | speedup | "
            "stories260K, head size 8, 512 keys: attention cycles of a token | speedup |",
            "|---|---|---|---|---|",
            f"| {SOFTWARE} | {paper_dense} | 1 | {llm[SOFTWARE]} | 1 |"]
    for k in sorted(x for x in llm if x != SOFTWARE):
        block = int(ucm[f"attn_block_cycles_512x128_k{k}"])
        paper, ours = paper_dense / block, llm[SOFTWARE] / llm[k]
        lines += [f"BENCH {PHASE}_k{k} {llm[k]} cycles", f"BENCH attn_speedup_hs8_k{k} {ours:.2f} x"]
        rows.append(f"| {k} | {block} | {paper:.2f} x | {llm[k]} | {ours:.2f} x |")
    with open(sys.argv[3], "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(sys.argv[4], "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
