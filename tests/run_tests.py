#!/usr/bin/python3
"""The regression runner: lint, ISA suite, unit testbenches and firmware
programs on the simulator. Prints one line per test and ends with
"N passed, N failed"; exits non-zero when anything failed. The tests come
from the sources (tests/isa/*.S and the generated ones, tests/rtl/tb_*.sv,
the collect() lists), so a binary the build did not make is a failed test,
never a test fewer.

usage: run_tests.py [--build DIR] [-k SUBSTRING] [-j JOBS]
"""
import argparse
import concurrent.futures
import glob
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import fw_tests  # noqa: E402  (firmware-on-simulator cases)
import llm_tests  # noqa: E402  (language model)
import iss_tests  # noqa: E402  (functional simulator)
import boot_tests  # noqa: E402  (bootloader)
import ucm_tests  # noqa: E402  (UniCAIM block)
import retrieval_tests  # noqa: E402  (retrieval model)
import smol_tests  # noqa: E402  (SmolLM2-135M)


_running = set()  # the commands now running (Popen objects)


def run(cmd, timeout, stdin_data=None):
    """CMD's exit code, stdout and stderr. It runs in a process group of its
    own (a make's compilers included), killed whole when it times out or the
    runner is stopped (main)."""
    p = subprocess.Popen(cmd, stdin=None if stdin_data is None else subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT, process_group=0)
    _running.add(p)
    try:
        out, err = p.communicate(stdin_data, timeout=timeout)
        return p.returncode, out.decode(errors="replace"), err.decode(errors="replace")
    except subprocess.TimeoutExpired:
        kill_group(p)
        p.communicate()
        return None, "", f"timed out after {timeout}s"
    finally:
        _running.discard(p)


def kill_group(p):
    if p.returncode is None:  # not reaped: its group's id is still its own
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def stop(*_):
    raise SystemExit(130)


def timed(check):
    """A test's result with its wall time (the slow ones are what make bench
    could take instead)."""
    start = time.time()
    ok, detail = check()
    return ok, detail, time.time() - start


def isa_names():
    """The ISA programs: one per tests/isa/*.S, and the generated ones."""
    rc, out, err = run([sys.executable, os.path.join(HERE, "isa", "gen_isa_tests.py"), "--list"], 60)
    return sorted([os.path.basename(s)[:-2] for s in glob.glob(os.path.join(HERE, "isa", "*.S"))] + out.split())


def lint_test(build):
    def check():
        rc, out, err = run(["make", "--no-print-directory", "lint"], 300)
        return rc == 0, (out + err).strip()[-2000:]
    return "lint/verilator-Wall", check


def isa_test(sim, elf, suite="isa"):
    def check():
        if not os.path.isfile(elf):
            return False, f"missing: {elf} was not built"
        rc, out, err = run([sim, "--elf", elf, "--max-cycles", "5000000"], 120)
        ok = rc == 0 and "exit=0" in err
        return ok, err.strip()
    return suite + "/" + os.path.basename(elf)[:-4], check


def unit_test(binary):
    def check():
        if not os.access(binary, os.X_OK):
            return False, f"missing: {binary} was not built"
        rc, out, err = run([binary], 300)
        return rc == 0 and "TB PASS" in out, (out + err).strip()[-2000:]
    return "unit/" + os.path.basename(binary), check


def mutations_test():
    # Every mutation `make mutate` applies still finds its line: FIND once
    # in its file (a refactor that moves the line leaves it untested).
    def check():
        from mutations import MUTATIONS
        root = os.path.dirname(HERE)
        stale = [f"{m.name}: {open(os.path.join(root, m.file)).read().count(m.find)} times in {m.file}"
                 for m in MUTATIONS if open(os.path.join(root, m.file)).read().count(m.find) != 1]
        return not stale and len(MUTATIONS) > 0, f"{len(MUTATIONS)} mutations\n" + "\n".join(stale)
    return "lint/mutations-find-their-lines", check


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("-k", default="", help="run only tests whose name contains this")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    sim = os.path.join(build, "sim", "unicaim-sim")

    tests = [lint_test(build), mutations_test()]
    tests += [isa_test(sim, os.path.join(build, "tests", "isa", name + ".elf")) for name in isa_names()]
    # The same with code and data in external memory (instruction cache).
    tests += [isa_test(sim, os.path.join(build, "tests", "isa", "ext", name + ".elf"), "isa-ext")
              for name in isa_names()]
    # The functional simulator on the same programs.
    iss = os.path.join(build, "iss", "unicaim-iss")
    tests += [isa_test(iss, os.path.join(build, "tests", "isa", sub, name + ".elf"), suite)
              for sub, suite in (("", "iss-isa"), ("ext", "iss-isa-ext")) for name in isa_names()]
    tests += [unit_test(os.path.join(build, "tests", "rtl", os.path.basename(tb)[:-3]))
              for tb in sorted(glob.glob(os.path.join(HERE, "rtl", "tb_*.sv")))]
    tests += [unit_test(os.path.join(build, "tests", "sim", os.path.basename(t)[:-4]))
              for t in sorted(glob.glob(os.path.join(HERE, "sim", "*_test.cpp")))]
    for group in (fw_tests, llm_tests, iss_tests, boot_tests, ucm_tests, retrieval_tests, smol_tests):
        try:
            tests += group.collect(build, run)
        except Exception as exc:  # a group that cannot even list its tests fails as one
            tests.append((f"{group.__name__}/collect", lambda exc=exc: (False, f"{type(exc).__name__}: {exc}")))
    tests = [t for t in tests if args.k in t[0]]
    # The longest first, so that the rest run beside them: the bitstream's
    # build, then SmolLM2 on the simulated SoC.
    tests.sort(key=lambda t: (not t[0].endswith("-bitstream"), t[0] != "smol/soc-tokens-match-host"))

    signal.signal(signal.SIGTERM, stop)
    passed = failed = 0
    start = time.time()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.j)
    try:
        futures = {pool.submit(timed, check): name for name, check in tests}
        for fut in concurrent.futures.as_completed(futures):
            name = futures[fut]
            try:
                ok, detail, seconds = fut.result()
            except Exception as exc:  # a broken test is a failed test
                ok, detail, seconds = False, f"{type(exc).__name__}: {exc}", 0.0
            if ok:
                passed += 1
                print(f"PASS {name} ({seconds:.0f} s)", flush=True)
            else:
                failed += 1
                print(f"FAIL {name} ({seconds:.0f} s)\n  " + detail.replace("\n", "\n  "), flush=True)
    except BaseException:
        # Stopped (Ctrl-C, SIGTERM): no test starts, the running commands'
        # groups (which the terminal's signal does not reach) are killed.
        pool.shutdown(wait=False, cancel_futures=True)
        for p in list(_running):
            kill_group(p)
        raise
    pool.shutdown()
    print(f"({time.time() - start:.0f} s)")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
