#!/usr/bin/python3
"""Markdown tables of the pruning evaluation (prune_eval's CSV files), the
form docs/pruning.md shows them in: one table per workload and setting, a
row per policy, a column per budget, each cell "mean (95% CI)"; and a
by-kind table for retrieval.

usage: results_tables.py FILE.csv... > tables.md
"""
import csv
import sys
from collections import OrderedDict

FIELDS = {"stories": ("top1_pct", "top1_ci_lo", "top1_ci_hi", "top-1 agreement with the reference (%)"),
          "retrieval": ("em_pct", "em_ci_lo", "em_ci_hi", "exact match (%)"),
          "ruler": ("em_pct", "em_ci_lo", "em_ci_hi", "string match (%)")}
SUMMARY = ("em_pct", "em_ci_lo", "em_ci_hi", "em_of_dense")


def read(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            header = None
            for line in csv.reader(f):
                if line and line[0] == "workload":
                    header = line
                elif header and len(line) == len(header):
                    rows.append(dict(zip(header, line)))
    return rows


def cell(r, field, lo, hi):
    return f"{float(r[field]):.1f} ({float(r[lo]):.1f}-{float(r[hi]):.1f})"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = read(sys.argv[1:])
    for key in OrderedDict.fromkeys((r["workload"], r["setting"]) for r in rows):
        mine = [r for r in rows if (r["workload"], r["setting"]) == key]
        field, lo, hi, label = FIELDS[key[0].split("_")[0]]
        budgets = sorted({int(r["budget_pct"]) for r in mine})
        print(f"**{key[0]}, {key[1]}**: {label}, mean (95% CI)\n")
        print("| policy | " + " | ".join(f"{b}%" for b in budgets) + " |")
        print("|---|" + "---|" * len(budgets))
        for policy in OrderedDict.fromkeys(r["policy"] for r in mine):
            by = {int(r["budget_pct"]): r for r in mine if r["policy"] == policy}
            print(f"| {policy} | " + " | ".join(cell(by[b], field, lo, hi) if b in by else "" for b in budgets) + " |")
        print()
        kinds = [k for k in mine[0] if k.startswith("em_") and k not in SUMMARY]
        if kinds:
            print(f"By kind ({key[0]}, {key[1]}):\n")
            print("| policy | budget | all | of the reference | " + " | ".join(k[3:] for k in kinds) + " |")
            print("|---|---|---|---|" + "---|" * len(kinds))
            for r in mine:
                print(f"| {r['policy']} | {r['budget_pct']}% | {float(r['em_pct']):.1f} | {float(r['em_of_dense']):.2f} | "
                      + " | ".join(f"{float(r[k]):.1f}" for k in kinds) + " |")
            print()


if __name__ == "__main__":
    main()
