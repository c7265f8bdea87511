"""UniCAIM block tests: the RTL co-simulated against the golden model for
each parameter set built by mk/unicaim.mk (>= 100k operations in all), and
the energy/latency model report's invariants."""
import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Operations per parameter set, by build name; the paper-sized array is slow.
OPS = {"tiny": 40000, "sign": 40000, "mid": 15000, "board": 40000, "paper": 6000, "gatelevel": 3000}


def cosim_test(run, binary, ops, seed):
    name = os.path.basename(binary)[len("cosim_"):]

    def check():
        rc, out, err = run([binary, "--ops", str(ops), "--seed", str(seed)], 600)
        # Every operation ran and was compared: a run that stopped early or
        # compared nothing has no mismatches either.
        # The sense line's steep part is reached (rows sampled between 0 and V_pre).
        m = re.search(r"(\d+) ops \((\d+) searches, (\d+) exact\), (\d+) checks, \d+ cycles, 0 mismatches, "
                      r"(\d+) sense rows mid-range", out)
        ok = rc == 0 and m is not None and int(m.group(1)) == ops and int(m.group(2)) > ops // 20 and \
            int(m.group(3)) > ops // 40 and int(m.group(4)) >= 5 * ops and int(m.group(5)) >= ops // 20
        return ok, (out + err).strip()[-2000:]
    return f"unicaim/cosim-{name}", check


def report_test(run, binary):
    def check():
        rc, out, err = run([binary], 120)
        val = {m[0]: float(m[1]) for m in re.findall(r"^BENCH (\S+) ([0-9.]+)", out, re.M)}
        lengths = (256, 512, 1024, 2048)
        problems = []
        if rc != 0:
            problems.append(f"rc={rc}")
        # Against every baseline the advantage grows with the sequence: static
        # pruning holds the array at 576 rows while the baselines score all.
        for kind in ("energy", "latency", "aedp3b", "aedp1b"):
            for base in ("digital", "trancim", "cimformer", "sprint"):
                r = [val.get(f"model_{kind}_ratio_{base}_n{n}", 0) for n in lengths]
                if not all(b > a for a, b in zip(r[1:], r[2:])) or not r[-1] > r[0] > 0:
                    problems.append(f"{kind} vs {base} not growing: {r}")
        head = [val.get(f"model_energy_ratio_n{n}", 0) for n in lengths]
        if head != [val.get(f"model_energy_ratio_cimformer_n{n}", -1) for n in lengths]:
            problems.append("the headline energy ratio is not the sort-based baseline's")
        # Beyond the array's 576 rows UniCAIM's step costs the same.
        if val.get("model_unicaim_step_energy_n1024") != val.get("model_unicaim_step_energy_n2048"):
            problems.append("the step's cost grows past the static-pruning limit")
        # Exact scores of the top fifth of 576 keys: 115 of 576 keys' conversions.
        if abs(val.get("model_adc_energy_saved_pct", 0) - 100 * (1 - 115 / 576)) > 0.1:
            problems.append("ADC saving is not 1 - k/n")
        return not problems, "; ".join(problems) + "\n" + out + err
    return "unicaim/energy-model-report", check


def worked_example_test(run, binary):
    """The energy model against the worked example docs/unicaim.md computes
    by hand: every part's energy and latency."""
    def check():
        doc = open(os.path.join(ROOT, "docs", "unicaim.md")).read()
        section = doc[doc.index("**Worked example**"):]
        want = {m[0]: (int(m[1]), int(m[2])) for m in re.findall(r"^\| (\w+) \|[^|]*\| (\d+) \| (\d+) \|$", section, re.M)}
        rc, out, err = run([binary, "--example"], 60)
        got = {m[0]: (int(m[1]), int(m[2])) for m in re.findall(r"^EXAMPLE (\w+) (\d+) fJ (\d+) ps$", out, re.M)}
        ok = rc == 0 and len(want) == 6 and all(got.get(k) == v for k, v in want.items())
        return ok, f"docs {want}\nprogram {got}\n{err}"
    return "unicaim/energy-worked-example", check


def sensitivity_test(run, binary):
    """The sensitivity table's rows against hand arithmetic (docs/unicaim.md):
    UniCAIM's n = 2048 step is a 2.5 ns race, a 2 ns min-detect and 15
    conversion rounds of 11 SAR steps; CIMFormer's scores take 2048 x 8 / 64
    cycles and its sort 2048 x 11 / 64 (spread) or 66 stages of 1024 / 64
    (bitonic); the model's row is the report's headline ratio."""
    def check():
        rc, out, err = run([binary, "--sensitivity"], 120)
        rows = {(m[0], m[1]): (float(m[2]), float(m[3]))
                for m in re.findall(r"^\| ([^|]+) \| ([^|]+) \| ([0-9.]+) \| ([0-9.]+) \|$", out, re.M)}
        rc2, main, err2 = run([binary], 120)
        head = re.search(r"BENCH model_overall_latency_ratio_n2048 ([0-9.]+)", main)
        step = 2.5 + 2 + 15 * 11
        want = {("SAR step (ps)", "1000 (model)"): (256 + 352) / step,
                ("SAR step (ps)", "250"): (256 + 352) / (2.5 + 2 + 15 * 11 * 0.25),
                ("baseline top-k", "bitonic network"): (256 + 66 * 16) / step,
                ("baseline engines", "16"): (4 * 256 + 4 * 352) / step}
        ok = rc == 0 and rc2 == 0 and head and len(rows) >= 15 and \
            abs(rows[("SAR step (ps)", "1000 (model)")][0] - float(head.group(1))) < 0.01 and \
            all(abs(rows.get(k, (0, 0))[0] - v) < 0.01 for k, v in want.items()) and \
            "BENCH model_overall_latency_ratio_n2048_range" in out and "PAPER 16.7x" in out
        return ok, f"want {want}\n{out}{err}"
    return "unicaim/cost-sensitivity", check


def elaboration_checks_test(run, build):
    """Geometries the block cannot build are refused when it elaborates,
    naming the parameter; so is a block without its configuration (no
    geometry has a default: arrays.toml holds them); the boards' passes."""
    def check():
        import tomllib
        pkg = os.path.join(ROOT, "rtl", "unicaim", "ucm_pkg.sv")
        rtl = [pkg] + sorted(set(glob.glob(os.path.join(ROOT, "rtl", "unicaim", "*.sv"))) - {pkg})
        rtl += [os.path.join(ROOT, "rtl", "common", f) for f in ("sdp_ram.sv", "lut_ram.sv")]
        pkgs = [os.path.join(build, "gen", "soc_regs_pkg.sv"), os.path.join(ROOT, "rtl", "bus", "soc_bus_pkg.sv")]
        with open(os.path.join(ROOT, "rtl", "unicaim", "arrays.toml"), "rb") as f:
            board = tomllib.load(f)["board"]
        names = {"banks": "Banks", "slots": "Slots", "dim": "Dim", "cell_bits": "CellBits", "q_bits": "QBits",
                 "adc_bits": "AdcBits", "adc_count": "AdcCount", "lanes": "Lanes"}
        geometry = {names[k]: v for k, v in board.items()}
        report, ok = [], True
        for change, want in (({"Lanes": 3}, "Lanes = 3"), ({"Dim": 6}, "Dim = 6"),
                             ({"AdcCount": 2, "Lanes": 4}, "AdcCount = 2"), ({"CellBits": 2}, "CellBits = 2"),
                             (None, "Parameter without initial value"), ({}, None)):
            params = [] if change is None else [f"-G{k}={v}" for k, v in {**geometry, **change}.items()]
            rc, out, err = run(["verilator", "--lint-only", "-Wall", os.path.join(ROOT, "rtl", "lint_waivers.vlt"),
                                *params, *pkgs, *rtl, "--top-module", "ucm_block"], 120)
            # (the boards': elaborated; the shared packages' lint is the lint test's)
            good = ("USERFATAL" not in err and "initial value" not in err) if want is None else (rc != 0 and want in err)
            ok = ok and good
            report.append(f"{'no geometry' if change is None else change or 'the boards'}: rc={rc} {err.strip()[:200]}")
        return ok, "\n".join(report)
    return "unicaim/elaboration-refuses-bad-parameters", check


def docs_bench_blocks_test(run):
    """tools/bench/update_docs.py fills a block from the bench folder (a .txt's
    BENCH lines by name pattern, a .md whole), leaves a block whose source is
    missing as it was, and every block in docs/ and README names a file the benches write."""
    def check():
        import re
        import tempfile
        problems = []
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "a.txt"), "w") as f:
                f.write("BENCH x_cycles 12 cycles\nBENCH y_pct 3.5 pct\nnoise\n")
            with open(os.path.join(tmp, "t.md"), "w") as f:
                f.write("| t |\n")
            doc = os.path.join(tmp, "doc.md")
            with open(doc, "w") as f:
                f.write("A\n<!-- bench: a.txt x_.* -->\nold\n<!-- /bench -->\n<!-- bench: t.md -->\n<!-- /bench -->\n"
                        "<!-- bench: none.txt -->\nkept\n<!-- /bench -->\n")
            rc, out, err = run(["/usr/bin/python3", os.path.join(ROOT, "tools", "bench", "update_docs.py"), tmp, doc], 60)
            with open(doc) as f:
                text = f.read()
            want = ("A\n<!-- bench: a.txt x_.* -->\n| figure | value | unit |\n|---|---|---|\n| `x_cycles` | 12 | cycles |\n"
                    "<!-- /bench -->\n<!-- bench: t.md -->\n| t |\n<!-- /bench -->\n<!-- bench: none.txt -->\nkept\n"
                    "<!-- /bench -->\n")
            if rc != 0 or text != want or "none.txt" not in err:
                problems.append(f"rc={rc} err={err!r}\n{text}")
        written = set()
        for mk in glob.glob(os.path.join(ROOT, "mk", "*.mk")):
            with open(mk) as f:
                written |= set(re.findall(r"\$\(BENCH_DIR\)/([\w.]+)", f.read()))
        for md in glob.glob(os.path.join(ROOT, "docs", "*.md")) + glob.glob(os.path.join(ROOT, "docs", "soc", "*.md")) \
                + [os.path.join(ROOT, "README.md")]:
            with open(md) as f:
                for source in re.findall(r"<!-- bench: (\S+)", f.read()):
                    if source not in written:
                        problems.append(f"{os.path.basename(md)}: no bench target writes {source}")
        return not problems, "\n".join(problems)
    return "docs/bench-blocks", check


def docs_registers_test(run):
    """The docs' register tables (docs/soc.md, docs/soc/*.md) are regmap.toml's:
    gen_regmap.py --check passes on them and fails on a copy with a row changed."""
    def check():
        import shutil
        import tempfile
        gen = ["/usr/bin/python3", os.path.join(ROOT, "tools", "regmap", "gen_regmap.py"),
               os.path.join(ROOT, "rtl", "soc", "regmap.toml"), "--check", "--docs"]
        docs = [os.path.join(ROOT, "docs", "soc.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "soc", "*.md")))
        rc, out, err = run(gen + docs, 60)
        blocks = sum(open(d).read().count("<!-- regmap: ") for d in docs)
        with tempfile.TemporaryDirectory() as tmp:
            stale = shutil.copy(os.path.join(ROOT, "docs", "soc", "uart.md"), tmp)
            with open(stale) as f:
                text = f.read()
            with open(stale, "w") as f:
                f.write(text.replace("| rw |", "| ro |", 1))
            rc_stale, _, err_stale = run(gen + [stale], 60)
        ok = rc == 0 and blocks >= 7 and rc_stale != 0 and "uart.md" in err_stale
        return ok, f"rc={rc} {err.strip()}\nblocks={blocks}\nstale copy: rc={rc_stale} {err_stale.strip()}"
    return "docs/registers-match-regmap", check


def collect(build, run):
    bins = sorted(glob.glob(os.path.join(build, "unicaim", "cosim_*")))
    missing = set(OPS) - {os.path.basename(b)[len("cosim_"):] for b in bins}
    tests = [docs_bench_blocks_test(run), docs_registers_test(run)]
    tests += [cosim_test(run, b, OPS.get(os.path.basename(b)[len("cosim_"):], 5000), 1 + i)
             for i, b in enumerate(bins)]
    report = os.path.join(build, "unicaim", "ucm_report")
    tests.append(report_test(run, report))
    tests.append(worked_example_test(run, report))
    tests.append(sensitivity_test(run, report))
    tests.append(elaboration_checks_test(run, build))
    if missing:
        tests.append(("unicaim/cosim-builds", lambda: (False, f"missing builds: {sorted(missing)}")))
    return tests
