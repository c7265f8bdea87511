"""UniCAIM block tests: the RTL co-simulated against the golden model for
each parameter set built by mk/unicaim.mk (>= 100k operations in all), and
the energy/latency model report's invariants."""
import glob
import os
import re

# Operations per parameter set, by build name; the paper-sized array is slow.
OPS = {"tiny": 40000, "sign": 40000, "mid": 15000, "board": 40000, "paper": 6000, "gatelevel": 3000}


def cosim_test(run, binary, ops, seed):
    name = os.path.basename(binary)[len("cosim_"):]

    def check():
        rc, out, err = run([binary, "--ops", str(ops), "--seed", str(seed)], 600)
        ok = rc == 0 and " 0 mismatches" in out
        return ok, (out + err).strip()[-2000:]
    return f"unicaim/cosim-{name}", check


def report_test(run, binary):
    def check():
        rc, out, err = run([binary], 120)
        val = {m[0]: float(m[1]) for m in re.findall(r"^BENCH (\S+) ([0-9.]+)", out, re.M)}
        lat = [val.get(f"model_topk_latency_ratio_n{n}", 0) for n in (256, 512, 1024, 2048)]
        eng = [val.get(f"model_topk_energy_ratio_n{n}", 0) for n in (256, 512, 1024, 2048)]
        problems = []
        if rc != 0:
            problems.append(f"rc={rc}")
        # The CAM's advantage grows with the sequence; the sort's O(n log n)
        # against one search makes the latency ratio at least double per 2x.
        if not all(b > a for a, b in zip(lat, lat[1:])) or not lat[0] > 1:
            problems.append(f"latency ratios not growing: {lat}")
        if not all(b > a for a, b in zip(eng, eng[1:])):
            problems.append(f"energy ratios not growing: {eng}")
        # Exact scores of the top 20% of 576 keys: 115 of 576 conversions.
        if abs(val.get("model_adc_energy_saved_pct", 0) - 100 * (1 - 115 / 576)) > 0.1:
            problems.append("ADC saving is not 1 - k/n")
        if not val.get("model_aedp_ratio_3b_p80", 0) > val.get("model_aedp_ratio_3b_p50", 0) > 1:
            problems.append("AEDP advantage does not grow with pruning")
        return not problems, "; ".join(problems) + "\n" + out + err
    return "unicaim/energy-model-report", check


def collect(build, run):
    bins = sorted(glob.glob(os.path.join(build, "unicaim", "cosim_*")))
    missing = set(OPS) - {os.path.basename(b)[len("cosim_"):] for b in bins}
    tests = [cosim_test(run, b, OPS.get(os.path.basename(b)[len("cosim_"):], 5000), 1 + i)
             for i, b in enumerate(bins)]
    report = os.path.join(build, "unicaim", "ucm_report")
    tests.append(report_test(run, report))
    if missing:
        tests.append(("unicaim/cosim-builds", lambda: (False, f"missing builds: {sorted(missing)}")))
    return tests
