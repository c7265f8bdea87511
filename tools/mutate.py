#!/usr/bin/python3
"""Mutation testing: each one-line mutation of tests/mutations.py applied to
a scratch copy of the tree (build/mutate/tree, with a copy of build/ made
once: 1.3 GB), its targets rebuilt and its test groups run; caught when a test
fails or the build does. Writes a table (caught / missed, and by what) and
BENCH mutation_count, mutation_caught_pct.

usage: mutate.py [--only NAME[,NAME...]] [--out DIR]
"""
import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from mutations import MUTATIONS  # noqa: E402

WORK = os.path.join(ROOT, "build", "mutate")
TREE = os.path.join(WORK, "tree")


def sync_tree():
    """The scratch tree: the repository's files and build/ copied with their
    times the first time; later, a source that differs copied with a new
    time (so make rebuilds what depends on it); ../shared beside it as
    beside the repository."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    first = not os.path.isdir(TREE)
    for name in files:
        src, dst = os.path.join(ROOT, name), os.path.join(TREE, name)
        if not os.path.isfile(src):
            continue
        if first:
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
        elif not os.path.isfile(dst) or not filecmp.cmp(src, dst, shallow=False):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
            shutil.copymode(src, dst)
    if first:
        shutil.copytree(os.path.join(ROOT, "build"), os.path.join(TREE, "build"), symlinks=True,
                        ignore=lambda d, names: ["mutate"] if os.path.samefile(d, os.path.join(ROOT, "build")) else [])
    shared = os.path.join(WORK, "shared")
    if not os.path.lexists(shared):
        os.symlink(os.path.abspath(os.path.join(ROOT, "..", "shared")), shared)


def run(cmd, log):
    """CMD in the scratch tree, its output appended to LOG; its status."""
    with open(log, "a") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        return subprocess.run(cmd, cwd=TREE, stdout=f, stderr=subprocess.STDOUT).returncode


def try_mutation(m, log):
    """(caught, by what) for mutation M; the tree's file is restored after."""
    path = os.path.join(TREE, m.file)
    original = open(path).read()
    if original.count(m.find) != 1:
        return None, f"its text occurs {original.count(m.find)} times in {m.file}, not once"
    try:
        with open(path, "w") as f:
            f.write(original.replace(m.find, m.replace))
        if run(["make", "--no-print-directory", *m.targets], log) != 0:
            return True, "the build"
        failed = []
        for flt in m.tests:
            with open(log, "a") as f:
                f.write(f"$ run_tests.py -k {flt}\n")
            out = subprocess.run(["/usr/bin/python3", "tests/run_tests.py", "--build", "build", "-k", flt], cwd=TREE,
                                 capture_output=True, text=True)
            with open(log, "a") as f:
                f.write(out.stdout + out.stderr)
            failed += re.findall(r"^FAIL (\S+)", out.stdout, re.M)
            if re.search(r"^0 passed, 0 failed", out.stdout, re.M):
                failed.append(f"(no test matches '{flt}')")
        ran_none = failed and all(f.startswith("(no test") for f in failed)
        return (bool(failed) and not ran_none), ", ".join(failed) if failed else "nothing failed"
    finally:
        with open(path, "w") as f:  # restored, and newer than what the mutation built
            f.write(original)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated mutation names")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench"))
    args = ap.parse_args()
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only.split(",")]
    if not chosen:
        sys.exit(f"mutate.py: no mutation named {args.only}")
    sync_tree()
    os.makedirs(args.out, exist_ok=True)
    rows, caught = [], 0
    for m in chosen:
        log = os.path.join(WORK, m.name + ".log")
        open(log, "w").close()
        t0 = time.monotonic()
        got, why = try_mutation(m, log)
        caught += got is True
        verdict = "caught" if got else "bad mutation" if got is None else "MISSED"
        rows.append(f"| `{m.name}` | `{m.file}` | {verdict} | {why} | {time.monotonic() - t0:.0f} s |")
        print(rows[-1], flush=True)
    # Leave the tree built from the restored sources.
    run(["make", "--no-print-directory", *sorted({t for m in chosen for t in m.targets})],
        os.path.join(WORK, "restore.log"))
    with open(os.path.join(args.out, "mutate.md"), "w") as f:
        f.write("| mutation | file | verdict | failed tests | time |\n|---|---|---|---|---|\n" + "\n".join(rows) + "\n")
    with open(os.path.join(args.out, "mutate.txt"), "w") as f:
        f.write(f"BENCH mutation_count {len(chosen)} mutations\n")
        f.write(f"BENCH mutation_caught_pct {100.0 * caught / len(chosen):.1f} pct ({caught} of {len(chosen)})\n")
    print(open(os.path.join(args.out, "mutate.txt")).read(), end="")


if __name__ == "__main__":
    main()
