"""UniCAIM block tests: the RTL co-simulated against the golden model for
each parameter set built by mk/unicaim.mk (>= 100k operations in all)."""
import glob
import os

# Operations per parameter set, by build name; the paper-sized array is slow.
OPS = {"tiny": 40000, "sign": 40000, "mid": 15000, "board": 40000, "paper": 6000}


def cosim_test(run, binary, ops, seed):
    name = os.path.basename(binary)[len("cosim_"):]

    def check():
        rc, out, err = run([binary, "--ops", str(ops), "--seed", str(seed)], 600)
        ok = rc == 0 and " 0 mismatches" in out
        return ok, (out + err).strip()[-2000:]
    return f"unicaim/cosim-{name}", check


def collect(build, run):
    bins = sorted(glob.glob(os.path.join(build, "unicaim", "cosim_*")))
    missing = set(OPS) - {os.path.basename(b)[len("cosim_"):] for b in bins}
    tests = [cosim_test(run, b, OPS.get(os.path.basename(b)[len("cosim_"):], 5000), 1 + i)
             for i, b in enumerate(bins)]
    if missing:
        tests.append(("unicaim/cosim-builds", lambda: (False, f"missing builds: {sorted(missing)}")))
    return tests
