"""The functional simulator (sim/iss/) against the RTL: random programs
traced instruction by instruction, a console session of the language model
with the array, the retrieval model against the host, and its bad input.
(The ISA suite on it is run_tests.py's iss-isa/*; every policy's tokens
against the host, llm/iss-matches-host-*; SmolLM2's, smol/iss-*.)"""
import glob
import os
import re

from registry import registry
from soc_console import console_session

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PY = "/usr/bin/python3"


def collect(build, run):
    iss = os.path.join(build, "iss", "unicaim-iss")
    rtl = os.path.join(build, "sim", "unicaim-sim")
    tmp = os.path.join(build, "tests", "iss", "tmp")
    os.makedirs(tmp, exist_ok=True)
    tests, add = registry("iss")

    @add("random-programs-match-rtl")
    def _():
        # Each program prints its data area, registers and a trace of every
        # instruction's result and every trap's mcause, mtval and pc: the
        # same text on both, and traps among them (else the programs
        # would not test the trap path).
        elfs = sorted(glob.glob(os.path.join(build, "tests", "iss", "random_*.elf")))
        report, traps = [], 0
        for elf in elfs:
            got = [run([sim, "--elf", elf, "--max-cycles", "20000000"], 300) for sim in (rtl, iss)]
            (rc_r, out_r, err_r), (rc_i, out_i, err_i) = got
            if rc_r != 0 or rc_i != 0 or out_r != out_i or not out_r:
                lines_r, lines_i = out_r.splitlines(), out_i.splitlines()
                first = next((k for k, (a, b) in enumerate(zip(lines_r, lines_i)) if a != b),
                             min(len(lines_r), len(lines_i)))
                report.append(f"{os.path.basename(elf)}: rtl rc={rc_r}, iss rc={rc_i}, first difference at word "
                              f"{first}: rtl {lines_r[first:first + 1]} iss {lines_i[first:first + 1]}\n"
                              f"{err_r[-300:]}{err_i[-300:]}")
            traps += len(re.findall(r"^0000000[2346b]$", out_r, re.M))
        ok = len(elfs) >= 8 and not report and traps > len(elfs)
        return ok, f"{len(elfs)} programs, {traps} words that look like mcause values\n" + "\n".join(report)

    @add("llm-session-matches-rtl")
    def _():
        # The same console session on both: every line the same but the
        # cycle counts (a functional model's cycles are instructions) and the
        # matrix-vector unit's line (absent here: the software matmul gives
        # the same numbers) -- the stories, and the array's modeled energy,
        # which the golden model's event counters give on both.
        session = ("story -n 24 --ids Once upon a time\nkv unicaim\npolicy unicaim 12\n"
                   "story -n 24 --ids Once upon a time\nexit 0\n")
        outs = [console_session(run, build, "llm.elf", session, tmp, 600, binary=b) for b in (rtl, iss)]
        timing = re.compile(r"cycles|tok/s|takes|matmul \d+%|matrix-vector unit")
        texts = [[l for l in out.splitlines() if not timing.search(l)] for _, out, _ in outs]
        tokens = [re.findall(r"^TOKENS.*$", out, re.M) for _, out, _ in outs]
        energy = re.findall(r"array \(modeled\) [0-9.]+ pJ/token", outs[0][1])
        ok = all(rc == 0 for rc, _, _ in outs) and texts[0] == texts[1] and len(tokens[0]) == 2 and energy != []
        diff = [f"rtl: {a}\niss: {b}" for a, b in zip(*texts) if a != b][:5]
        return ok, f"rc {[o[0] for o in outs]}, tokens {tokens}\n" + "\n".join(diff) + outs[1][2][-500:]

    @add("retrieval-agrees-with-host")
    def _():
        # The retrieval model with its array (iss_retr): a passkey task at
        # 192 tokens, dense and under unicaim on the array, the host's tokens.
        report, ok = [], True
        for args in ([], ["--slices", "3", "--kv", "unicaim", "--policy", "unicaim 48"]):
            rc, out, err = run([PY, os.path.join(HERE, "retrieval_soc.py"), "--build", build, "--sim",
                                os.path.join(build, "iss_retr", "unicaim-iss"), "--len", "192", "--depth", "0.1",
                                *args], 600)
            agrees = "host tokens equal" in out
            ok = ok and rc == 0 and agrees
            report.append(f"{args}: rc={rc} agrees={agrees}\n{out[-600:]}{err[-300:]}")
        return ok, "\n".join(report)

    @add("profile")
    def _():
        # --profile charges every executed instruction to its address, as
        # unicaim-sim charges cycles: cpubench's total is the SIM line's
        # instret (it takes no trap), and its kernels lead.
        prof = os.path.join(tmp, "cpubench.prof")
        elf = os.path.join(build, "fw", "cpubench.elf")
        rc, out, err = run([iss, "--elf", elf, "--profile", prof], 120)
        instret = re.search(r"instret=(\d+)", err)
        if rc != 0 or not instret:
            return False, f"rc={rc}\n{err[-500:]}"
        rc2, report, err2 = run([PY, os.path.join(ROOT, "tools", "profile.py"), elf, prof, "--top", "8"], 60)
        total = re.match(r"(\d+) cycles", report)
        top = re.findall(r"^\s*\d+\s+[0-9.]+%\s+(\S+)$", report, re.M)
        kernels = [name for name in top[:6] if name.startswith(("kernel_", "quicksort"))]
        ok = rc2 == 0 and total is not None and int(total.group(1)) == int(instret.group(1)) and len(kernels) >= 4
        return ok, f"rc={rc2} instret={instret.group(1)}\n{report}{err2}"

    @add("bad-input")
    def _():
        # A clear message and status 2, never a crash: not an ELF, a
        # segment outside the memories, bad options; a program that runs
        # past --max-cycles stops with 124 and says so.
        junk = os.path.join(tmp, "junk.elf")
        with open(junk, "wb") as f:
            f.write(b"\x7fELF" + bytes(60))
        loop = os.path.join(build, "tests", "isa", "traps.elf")
        cases = [([junk], 2, "not a 32-bit little-endian RISC-V ELF"),
                 ([os.path.join(ROOT, "README.md")], 2, "is not an ELF file"),
                 ([loop, "--max-cycles", "0"], 2, "bad --max-cycles '0'"),
                 ([loop, "--frobnicate"], 2, "unknown option '--frobnicate'"),
                 ([loop, "--profile"], 2, "option --profile needs a value"),
                 ([loop, "--profile", "/nonexistent/x.prof"], 2, "cannot write profile '/nonexistent/x.prof'"),
                 ([loop, "--max-cycles", "50"], 124, "did not finish within --max-cycles 50")]
        report = []
        for args, want_rc, want in cases:
            rc, out, err = run([iss, "--elf", *args], 60)
            if rc != want_rc or want not in err:
                report.append(f"{args}: rc={rc} {err.strip()[-300:]}")
        rc, out, err = run([iss], 60)
        if rc != 2 or "no program given" not in err:
            report.append(f"no --elf: rc={rc} {err.strip()}")
        return not report, "\n".join(report)

    return tests
