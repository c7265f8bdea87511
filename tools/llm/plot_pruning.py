#!/usr/bin/python3
"""Plots of the pruning evaluation and the cost model (prune_eval's and
ucm_report's CSV rows, any number of files mixed):
  accuracy_<workload>_<setting>.png  accuracy vs budget, a line per policy
                                     (95% intervals), the reference dashed
  of_dense_<workload>_<setting>.png  the same as a share of the reference's
                                     accuracy (the UniCAIM paper's Fig. 10 form)
  bars_<workload>_<setting>.png      the policies and variants measured at one
                                     budget only (hardware rows, ablations)
  cost_tokens.png                    modeled array energy per token vs budget
                                     per policy, beside the unpruned array
  cost_model.png                     one step's energy and latency vs cached
                                     tokens, UniCAIM and each baseline

usage: plot_pruning.py OUT_DIR --reference NAME FILE.csv...
"""
import argparse
import csv
import os
from collections import OrderedDict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

METRIC = {"stories": ("top1_pct", "top1_ci_lo", "top1_ci_hi", "top-1 agreement with the reference (%)"),
          "retrieval": ("em_pct", "em_ci_lo", "em_ci_hi", "exact match (%)"),
          "ruler": ("em_pct", "em_ci_lo", "em_ci_hi", "string match (%)")}


def read_rows(paths):
    """{header tuple: [row dict]} over every file."""
    tables = {}
    for path in paths:
        with open(path) as f:
            header = None
            for line in csv.reader(f):
                if not line:
                    continue
                if line[0] in ("workload", "n"):
                    header = tuple(line)
                    tables.setdefault(header, [])
                elif header and len(line) == len(header):
                    tables[header].append(dict(zip(header, line)))
    return [r for rows in tables.values() for r in rows]


def budget_axes(ax, ylabel, legend_size=7):
    ax.set_xlabel("KV-cache budget (% of the sequence)")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=legend_size)


def save(fig, out, made):
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    made.append(out)


def accuracy_plots(rows, reference, out_dir, made):
    pruning = [r for r in rows if "budget_pct" in r and r["workload"].split("_")[0] in METRIC]
    for key in OrderedDict.fromkeys((r["workload"], r["setting"]) for r in pruning):
        workload, setting = key
        field, lo, hi, label = METRIC[workload.split("_")[0]]
        mine = [r for r in pruning if (r["workload"], r["setting"]) == key]
        policies = OrderedDict()
        for r in mine:
            policies.setdefault(r["policy"], []).append(r)
        ref = next((float(r[field]) for r in mine if r["policy"] == reference), 100.0)
        lines = {p: rs for p, rs in policies.items() if p != reference and len(rs) > 1}
        single = {p: rs[0] for p, rs in policies.items() if p != reference and len(rs) == 1}
        tag = f"{workload}_{setting}"
        if lines:
            fig, ax = plt.subplots(figsize=(6.5, 4.2))
            for policy, rs in lines.items():
                rs = sorted(rs, key=lambda r: int(r["budget_pct"]))
                x = [int(r["budget_pct"]) for r in rs]
                y = [float(r[field]) for r in rs]
                err = [[v - float(r[lo]) for v, r in zip(y, rs)], [float(r[hi]) - v for v, r in zip(y, rs)]]
                ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=policy)
            ax.axhline(ref, color="gray", linestyle="--", label=reference)
            ax.set_title(f"{workload}, {setting}")
            budget_axes(ax, label)
            save(fig, os.path.join(out_dir, f"accuracy_{tag}.png"), made)
            if ref > 0:
                fig, ax = plt.subplots(figsize=(6.5, 4.2))
                for policy, rs in lines.items():
                    rs = sorted(rs, key=lambda r: int(r["budget_pct"]))
                    ax.plot([int(r["budget_pct"]) for r in rs], [100 * float(r[field]) / ref for r in rs],
                            marker="o", label=policy)
                ax.axhline(100, color="gray", linestyle="--", label=reference)
                ax.set_title(f"{workload}, {setting}: accuracy as a share of {reference}'s ({ref:.1f}%)")
                budget_axes(ax, f"% of {reference}")
                save(fig, os.path.join(out_dir, f"of_dense_{tag}.png"), made)
        if single:
            fig, ax = plt.subplots(figsize=(6.5, 4.2))
            names = list(single)
            y = [float(single[p][field]) for p in names]
            err = [[v - float(single[p][lo]) for v, p in zip(y, names)],
                   [float(single[p][hi]) - v for v, p in zip(y, names)]]
            ax.bar(range(len(names)), y, yerr=err, capsize=3, color="tab:blue")
            ax.axhline(ref, color="gray", linestyle="--", label=reference)
            ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=7)
            ax.set_ylabel(label)
            ax.set_title(f"{workload}, {setting}: at {single[names[0]]['budget_pct']}% of the sequence")
            ax.legend(fontsize=7)
            save(fig, os.path.join(out_dir, f"bars_{tag}.png"), made)


def token_cost_plot(rows, out_dir, made):
    costed = [r for r in rows if r.get("array_nj_per_token") and r.get("budget_pct")]
    if not costed:
        return
    key = sorted({(r["workload"], r["setting"]) for r in costed})[0]
    # Generation runs price the answer's steps apart from the prompt's.
    prefix = "decode_" if any(r.get("decode_nj_per_token") for r in costed if (r["workload"], r["setting"]) == key) \
        else "array_"
    unpruned_field = "decode_unpruned_nj_per_token" if prefix == "decode_" else "unpruned_nj_per_token"
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    unpruned = None
    for policy in OrderedDict.fromkeys(r["policy"] for r in costed if (r["workload"], r["setting"]) == key):
        rs = sorted((r for r in costed if (r["workload"], r["setting"]) == key and r["policy"] == policy),
                    key=lambda r: int(r["budget_pct"]))
        ax.plot([int(r["budget_pct"]) for r in rs], [float(r[prefix + "nj_per_token"]) for r in rs], marker="o",
                label=policy)
        unpruned = float(rs[0][unpruned_field])
    ax.axhline(unpruned, color="black", linestyle="--", label="unpruned array")
    ax.set_yscale("log")
    steps = "answer step" if prefix == "decode_" else "token"
    ax.set_title(f"modeled array energy per {steps}, {key[0]}, {key[1]}")
    budget_axes(ax, "energy (nJ/token)")
    save(fig, os.path.join(out_dir, "cost_tokens.png"), made)


def model_plot(rows, out_dir, made):
    model = [r for r in rows if "design" in r]
    if not model:
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, field, label in ((axes[0], "energy_pj", "energy per step (pJ)"),
                             (axes[1], "latency_ns", "latency per step (ns)")):
        for design in OrderedDict.fromkeys(r["design"] for r in model):
            rs = sorted((r for r in model if r["design"] == design), key=lambda r: int(r["n"]))
            ax.plot([int(r["n"]) for r in rs], [float(r[field]) for r in rs], marker="o", label=design)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("cached tokens")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("one decode step of a 128-dim head (ucm_report)")
    save(fig, os.path.join(out_dir, "cost_model.png"), made)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir")
    ap.add_argument("--reference", required=True, help="the reference policy's name (prune_eval --list, first)")
    ap.add_argument("csv", nargs="+")
    args = ap.parse_args()
    rows = read_rows(args.csv)
    os.makedirs(args.out_dir, exist_ok=True)
    made = []
    accuracy_plots(rows, args.reference, args.out_dir, made)
    token_cost_plot(rows, args.out_dir, made)
    model_plot(rows, args.out_dir, made)
    if not made:
        raise SystemExit("plot_pruning.py: no prune_eval or ucm_report rows in the input")
    print("plots: " + ", ".join(made))


if __name__ == "__main__":
    main()
