#!/usr/bin/python3
"""Plots of the pruning evaluation (prune_eval's CSV rows, any number of
files and settings mixed):
  accuracy_<workload>.png  accuracy vs budget, one line per policy, ideal setting
  hardware_<workload>.png  accuracy vs budget per hardware setting (UniCAIM and dense)
  cost.png                 modeled array energy and latency per token vs budget,
                           per policy, against dense current-domain scoring

usage: plot_pruning.py OUT_DIR FILE.csv...
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

POLICIES = ["streamingllm", "h2o", "tova", "snapkv", "quest", "unicaim"]
METRIC = {"stories": ("top1_pct", "top-1 agreement with dense (%)"),
          "retrieval": ("em_pct", "exact match (%)"),
          "retrieval_multi": ("em_pct", "exact match (%), questions one after another")}


def read_rows(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            header = None
            for line in csv.reader(f):
                if not line:
                    continue
                if line[0] == "workload":
                    header = line
                elif header and len(line) == len(header):
                    rows.append(dict(zip(header, line)))
    return rows


def series(rows, workload, setting, policy, field):
    points = sorted((int(r["budget_pct"]), float(r[field])) for r in rows
                    if r["workload"] == workload and r["setting"] == setting and r["policy"] == policy
                    and r[field] != "")
    return [p[0] for p in points], [p[1] for p in points]


def dense_level(rows, workload, setting):
    field = METRIC[workload][0]
    for r in rows:
        if r["workload"] == workload and r["setting"] == setting and r["policy"] == "dense":
            return float(r[field])
    return 100.0 if workload == "stories" else None


def budget_axes(ax, ylabel, legend_size=8):
    """The budget axis, the labels and the legend every plot here shares."""
    ax.set_xlabel("KV-cache budget (% of the sequence)")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=legend_size)


def save(fig, out):
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def accuracy_plot(rows, workload, out):
    field, label = METRIC[workload]
    fig, ax = plt.subplots(figsize=(6, 4))
    for policy in POLICIES:
        x, y = series(rows, workload, "ideal", policy, field)
        if x:
            ax.plot(x, y, marker="o", label=policy)
    dense = dense_level(rows, workload, "ideal")
    if dense is not None:
        ax.axhline(dense, color="gray", linestyle="--", label="dense")
    ax.set_title(f"{workload}: accuracy vs budget (ideal arithmetic)")
    budget_axes(ax, label)
    save(fig, out)


def hardware_plot(rows, workload, out):
    field, label = METRIC[workload]
    settings = sorted({r["setting"] for r in rows if r["workload"] == workload})
    fig, ax = plt.subplots(figsize=(6, 4))
    for setting in settings:
        for policy in ("unicaim", "h2o"):
            x, y = series(rows, workload, setting, policy, field)
            if x:
                ax.plot(x, y, marker="o", label=f"{policy}, {setting}")
    ax.set_title(f"{workload}: hardware effects")
    budget_axes(ax, label, 7)
    save(fig, out)


def cost_plot(rows, out):
    adc = [r for r in rows if r["setting"].startswith("hw_") and "_adc" in r["setting"]]
    if not adc:
        return False
    setting = sorted({r["setting"] for r in adc})[0]
    workload = sorted({r["workload"] for r in adc if r["setting"] == setting})[0]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, field, dense_field, label in ((axes[0], "array_nj_per_token", "dense_nj_per_token", "energy (nJ/token)"),
                                          (axes[1], "array_ns_per_token", "dense_ns_per_token", "latency (ns/token)")):
        for policy in POLICIES:
            x, y = series(rows, workload, setting, policy, field)
            if x:
                ax.plot(x, y, marker="o", label=policy)
        x, y = series(rows, workload, setting, "unicaim", dense_field)
        if x:
            ax.plot(x, y, color="black", linestyle="--", label="dense current-domain scoring")
        ax.set_yscale("log")
        budget_axes(ax, label, 7)
    fig.suptitle(f"modeled array cost per token, {workload}, {setting}")
    save(fig, out)
    return True


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out_dir, rows = sys.argv[1], read_rows(sys.argv[2:])
    os.makedirs(out_dir, exist_ok=True)
    made = []
    for workload in METRIC:
        if any(r["workload"] == workload and r["setting"] == "ideal" for r in rows):
            made.append(f"accuracy_{workload}.png")
            accuracy_plot(rows, workload, os.path.join(out_dir, made[-1]))
        if any(r["workload"] == workload and r["setting"] != "ideal" for r in rows):
            made.append(f"hardware_{workload}.png")
            hardware_plot(rows, workload, os.path.join(out_dir, made[-1]))
    if cost_plot(rows, os.path.join(out_dir, "cost.png")):
        made.append("cost.png")
    if not made:
        sys.exit("plot_pruning.py: no prune_eval rows in the input")
    print("plots: " + ", ".join(os.path.join(out_dir, m) for m in made))


if __name__ == "__main__":
    main()
