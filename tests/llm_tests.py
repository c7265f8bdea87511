"""Language-model tests: the converter, the fp32 reference against the
published reference text, the integer path against fp32, bad input, and the
SoC in the simulator producing the host's tokens."""
import os
import re
import struct
import tempfile

from registry import registry
from soc_console import console_session

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PY = "/usr/bin/python3"
MODELS = os.path.join(os.path.dirname(ROOT), "shared", "models")


def collect(build, run):
    llm = os.path.join(build, "llm")
    image = os.path.join(llm, "model.ucm")
    host, evaluate = os.path.join(llm, "llm_host"), os.path.join(llm, "llm_eval")
    model, tok = os.path.join(MODELS, "stories260K.bin"), os.path.join(MODELS, "tok512.bin")
    convert = os.path.join(ROOT, "tools", "llm", "convert.py")
    tmp = tempfile.mkdtemp(prefix="unicaim-llm-")
    tests, add = registry("llm")

    @add("fp32-reference-text")
    def _():
        with open(os.path.join(MODELS, "README.md")) as f:
            readme = f.read()
        want = readme.split("byte tokens shown raw):", 1)[1].strip().split("\n\n")[0].strip()
        rc, out, err = run([evaluate, model, image, "greedy", "200"], 120)
        got = out.strip()
        return rc == 0 and got.startswith(want[:600]), f"rc={rc}\nwant: {want[:200]}\ngot:  {got[:200]}\n{err}"

    @add("int8-agreement")
    def _():
        rc, out, err = run([evaluate, model, image, "agree", "4", "128"], 300)
        m = re.search(r"lm_int8_top1_vs_fp32 ([0-9.]+)", out)
        r = re.search(r"lm_ppl_ratio_int8_vs_fp32 ([0-9.]+)", out)
        ok = rc == 0 and m and float(m.group(1)) >= 95.0 and r and float(r.group(1)) < 1.03
        return ok, out + err

    @add("fp32-rounded-qkv")
    def _():
        # Unrounded: the reference agrees with itself exactly; 8-bit keys cost
        # something (what the integer path's int8 keys lose); 1 bit is refused.
        agree = {}
        for bits in (("0", "0", "0"), ("0", "8", "0")):
            rc, out, err = run([evaluate, model, image, "rounded", "2", "96", *bits], 120)
            m = re.search(r"lm_fp32_top1_q\d+_k\d+_v\d+ ([0-9.]+)", out)
            agree[bits[1]] = float(m.group(1)) if rc == 0 and m else None
        rc, out, err = run([evaluate, model, image, "rounded", "2", "96", "1", "0", "0"], 60)
        ok = agree["0"] == 100.0 and agree["8"] is not None and agree["8"] < 100.0 and rc == 2 and "2..24" in err
        return ok, f"agreement {agree}, 1-bit rc={rc} {err}"

    def soc_story(args, setup=""):
        rc, out, err = console_session(run, build, "llm.elf", f"{setup}story {args}\nexit 0\n", tmp, 450)
        m = re.search(r"^TOKENS(.*)$", out, re.M)
        return rc, out, err, (m.group(1).split() if m else None)

    def host_story(args):
        # The simulator's array gives a key component three cells (mk/sim.mk).
        slices = ["--slices", "3"] if "unicaim" in args else []
        rc, out, err = run([host, image, *args, *slices, "--ids"], 60)
        m = re.search(r"^TOKENS(.*)$", out, re.M)
        return m.group(1).split() if m else None

    @add("soc-matches-host-greedy")
    def _():
        rc, out, err, soc = soc_story("-n 20 --ids Once upon a time")
        want = host_story(["-n", "20", "-i", "Once upon a time"])
        ok = rc == 0 and soc is not None and soc == want and "cycles/token decode" in out
        return ok, f"rc={rc}\nsoc:  {soc}\nhost: {want}\n{out[-800:]}{err[-400:]}"

    @add("soc-matches-host-sampled")
    def _():
        rc, out, err, soc = soc_story("-n 16 -t 900 -p 900 -s 7 --ids Lily")
        want = host_story(["-n", "16", "-t", "0.9", "-p", "0.9", "-s", "7", "-i", "Lily"])
        return rc == 0 and soc is not None and soc == want, f"rc={rc}\nsoc:  {soc}\nhost: {want}\n{out[-800:]}"

    @add("soc-512k-build-matches-host")
    def _():
        # The llm app built for a board's 512 KiB (llm_512k.elf: context cut
        # to 112): the host's tokens, and longer stories refused.
        rc, out, err = console_session(run, build, "llm_512k.elf",
                                       "story -n 40 --ids Once upon a time\nstory -n 113 Once\nexit 0\n", tmp)
        m = re.search(r"^TOKENS(.*)$", out, re.M)
        soc = m.group(1).split() if m else None
        want = host_story(["-n", "40", "-i", "Once upon a time"])
        ok = (rc == 0 and soc is not None and soc == want and "context 112" in out
              and "error: usage: story [-n 1..112]" in out)
        return ok, f"rc={rc}\nsoc:  {soc}\nhost: {want}\n{out[-800:]}{err[-400:]}"

    @add("soc-matches-host-unicaim-kv")
    def _():
        # Attention through the array block on the SoC and through the golden
        # model on the host: the same tokens (top-4 of the cached keys: not
        # those of dense attention).
        rc, out, err, soc = soc_story("-n 24 --ids Once upon a time", "kv unicaim 4\n")
        want = host_story(["-n", "24", "-i", "Once upon a time", "--kv", "unicaim", "--top-k", "4"])
        dense = host_story(["-n", "24", "-i", "Once upon a time"])
        ok = (rc == 0 and soc is not None and soc == want and "kv: UniCAIM array, 3 cells per key component, top-k 4" in out
              and "error" not in out and want != dense)
        return ok, f"rc={rc}\nsoc:  {soc}\nhost: {want}\ndense: {dense}\n{out[-800:]}{err[-400:]}"

    @add("soc-matches-host-h2o-policy")
    def _():
        # H2O eviction at a 16-position budget: the same tokens on SoC and host,
        # and not those of the full cache.
        rc, out, err, soc = soc_story("-n 48 --ids Once upon a time", "policy h2o 16\n")
        want = host_story(["-n", "48", "-i", "Once upon a time", "--policy", "h2o:16"])
        dense = host_story(["-n", "48", "-i", "Once upon a time"])
        ok = (rc == 0 and soc is not None and soc == want and want != dense and
              "policy: h2o, budget 16, window 8" in out and "policy h2o," in out)
        return ok, f"rc={rc}\nsoc:  {soc}\nhost: {want}\ndense: {dense}\n{out[-800:]}{err[-400:]}"

    @add("soc-matches-host-every-policy")
    def _():
        # One story per policy on the SoC (the UniCAIM hybrid through the
        # block) and on the host (through the golden model): the same tokens.
        # A 27-token prompt at a 16-slot budget, so SnapKV and UniCAIM prune
        # the prompt and every policy evicts while generating.
        prompt = "Once upon a time, there was a little girl named Lily. She liked to play in the park with her dog."
        specs = ["streamingllm 16", "tova 16", "snapkv 16", "quest 16 page=4", "unicaim 16 k=8 m=4 adapt=6"]
        session = ""
        for spec in specs:
            kv = "kv unicaim\n" if spec.startswith("unicaim") else "kv dense\n"
            session += f"{kv}policy {spec}\nstory -n 44 --ids {prompt}\n"
        rc, out, err = console_session(run, build, "llm.elf", session + "exit 0\n", tmp, 600)
        socs = [m.split() for m in re.findall(r"^TOKENS(.*)$", out, re.M)]
        dense = host_story(["-n", "44", "-i", prompt])
        report, ok = [], rc == 0 and len(socs) == len(specs) and "error" not in out
        for spec, soc in zip(specs, socs):
            kv = ["--kv", "unicaim"] if spec.startswith("unicaim") else []
            want = host_story(["-n", "44", "-i", prompt, *kv, "--policy", spec.replace(" ", ":")])
            ok = ok and soc == want and want != dense
            report.append(f"{spec}\n soc:  {soc}\n host: {want}")
        return ok, f"rc={rc}\n" + "\n".join(report) + f"\ndense: {dense}\n{out[-1500:]}{err[-300:]}"

    @add("soc-policy-bad-input")
    def _():
        rc, out, err = console_session(run, build, "llm.elf",
                                       "policy h2o\npolicy h2o 0\npolicy tova 8 2\npolicy streamingllm 4 sinks=4\n"
                                       "policy lru 8\npolicy dense 3\npolicy quest 64 k=3\npolicy h2o 9999\n"
                                       "policy snapkv 8 window=7\npolicy unicaim 64 protect=1001\npolicy unicaim 64 question=70000\n"
                                       "policy streamingllm 40 sinks=2\npolicy unicaim 64\npolicy\nstats\ndevice sigma=300\n"
                                       "device foo=1\ndevice sigma\ndevice sigma=7 adc=11\ndevice gain=3 shift=16\n"
                                       "device adc=6\nexit 0\n", tmp)
        ok = (rc == 0 and out.count("error: usage: policy") == 11 and "error: the unicaim policy runs on the array" in out
              and "error: no story yet" in out and out.count("error: usage: device") == 4
              and "error: the converters have 10 bits" in out
              and "device: sigma 0, noise 0, stuck 0/65536, adc gain 1 shift 0, 3-bit cells, 10-bit ADC using 6" in out
              and out.count("policy: streamingllm, budget 40, sinks 2") == 2)
        return ok, f"rc={rc}\n{out[-1500:]}{err[-300:]}"

    @add("soc-stats-energy-at-adc-bits-in-use")
    def _():
        # The same story through the array with all 10 converter bits, then
        # with 4 in use: stats prices the conversions at the resolution in
        # use, so both the array's and the dense baseline's energy drop.
        story = "story -n 10 Once upon a time\nstats\n"
        rc, out, err = console_session(run, build, "llm.elf", f"kv unicaim\n{story}device adc=4\n{story}exit 0\n",
                                       tmp)
        # Each console line reaches the transcript twice: distinct costs, in order.
        costs = list(dict.fromkeys((float(a), float(d)) for a, d in re.findall(
            r"^stats: array \(modeled\) ([0-9.]+) pJ/token.*scoring ([0-9.]+) pJ/token", out, re.M)))
        ok = (rc == 0 and "error" not in out and len(costs) == 2 and all(a > 0 and d > 0 for a, d in costs)
              and costs[1][0] < costs[0][0] and costs[1][1] < costs[0][1])
        return ok, f"rc={rc}\n{costs}\n{out[-1200:]}{err[-300:]}"

    @add("policy-invariants")
    def _():
        # Every policy and budget: slots within the budget, no position twice,
        # sinks and recent window kept, one eviction per position past the budget.
        rc, out, err = run([os.path.join(llm, "prune_eval"), image, "check", "256"], 300)
        return rc == 0 and "kv invariants hold" in out, out + err

    @add("kv-soak-20k-steps")
    def _():
        # 20k decode steps past a 256-position prompt under every evicting
        # policy, the invariants checked after each step (tools/llm/kv_soak.c).
        rc, out, err = run([os.path.join(llm, "kv_soak"), "20000"], 600)
        return rc == 0 and out.count("invariants hold") == 6, out + err

    @add("policy-full-budget-is-dense")
    def _():
        # At a full budget every policy (UniCAIM attending to all, k=0) gives
        # the dense logits exactly; at 10% every one of them differs.
        rc, out, err = run([os.path.join(llm, "prune_eval"), image, "stories", "1", "160", "80",
                            "--budgets", "10,100", "--set", "k=0"], 300)
        rows = [r.split(",") for r in out.splitlines() if r.startswith("stories,")]
        full = [r for r in rows if r[3] == "100"]
        small = [r for r in rows if r[3] == "10"]
        ok = (rc == 0 and len(full) == 6 and all(r[4] == "100.00" and float(r[5]) == 0 and r[7] == "0" for r in full)
              and len(small) == 6 and all(float(r[5]) > 0 for r in small))
        return ok, out + err

    @add("array-key-slices")
    def _():
        # Keys through the array's 3-bit cells, every position attended: one
        # cell per key component loses stories260K's attention, three cells
        # (kv_encode.c's slices) give back nearly the dense tokens.
        top1 = {}
        for slices in (1, 3):
            rc, out, err = run([os.path.join(llm, "prune_eval"), image, "stories", "1", "160", "80", "--budgets",
                                "100", "--policies", "streamingllm", "--hw", f"3:10:0:{slices}"], 300)
            rows = [r.split(",") for r in out.splitlines() if r.startswith("stories,")]
            if rc != 0 or len(rows) != 1:
                return False, out + err
            top1[slices] = float(rows[0][4])
        return top1[3] >= 90 and top1[1] <= top1[3] - 20, str(top1)

    @add("soc-kv-bad-input")
    def _():
        rc, out, err = console_session(run, build, "llm.elf",
                                       "kv unicaim 9999\nkv unicaim x\nkv fast\nkv unicaim 4 nope\nkv\nexit 0\n", tmp)
        ok = rc == 0 and out.count("error: usage: kv") == 4 and "kv: dense attention in software" in out
        return ok, f"rc={rc}\n{out[-1200:]}{err[-300:]}"

    @add("soc-bad-story-input")
    def _():
        long_prompt = " ".join(["dragon"] * 20)
        rc, out, err = console_session(run, build, "llm.elf",
                                       f"story -n 4 {long_prompt}\nstory -t\nstory -n 0 x\nmodel\nexit 0\n", tmp)
        ok = rc == 0 and "needs more positions" in out and out.count("error: usage: story") == 2 \
            and "model: dim 64" in out
        return ok, f"rc={rc}\n{out[-1200:]}{err[-300:]}"

    @add("host-empty-prompt")
    def _():
        rc, out, err = run([host, image, "-n", "12"], 60)
        return rc == 0 and out.startswith("Once upon a time"), f"rc={rc}\n{out}{err}"

    @add("host-prompt-longer-than-context")
    def _():
        rc, out, err = run([host, image, "-n", "3", "-i", "Once upon a time there was"], 60)
        return rc == 2 and "longer than the context" in err, f"rc={rc}\n{err}"

    @add("host-corrupt-image")
    def _():
        with open(image, "rb") as f:
            data = bytearray(f.read())
        data[len(data) // 2] ^= 0x40
        bad = os.path.join(tmp, "corrupt.ucm")
        with open(bad, "wb") as f:
            f.write(data)
        rc, out, err = run([host, bad, "-n", "4"], 60)
        return rc == 2 and "checksum mismatch" in err, f"rc={rc}\n{err}"

    @add("host-truncated-image")
    def _():
        with open(image, "rb") as f:
            data = f.read()
        bad = os.path.join(tmp, "short.ucm")
        with open(bad, "wb") as f:
            f.write(data[:100000])
        rc, out, err = run([host, bad, "-n", "4"], 60)
        return rc == 2 and "does not match its header" in err, f"rc={rc}\n{err}"

    def convert_fails(path, want):
        rc, out, err = run([PY, convert, path, tok, "-o", os.path.join(tmp, "x.ucm")], 60)
        return rc != 0 and want in err, f"rc={rc}\n{err}"

    def reexport_and_convert(version):
        """stories260K written as llama2.c VERSION, then converted: (rc, log, image path)."""
        import llm_formats
        params, w = llm_formats.read_v0(model)
        src = os.path.join(tmp, f"model_v{version}.bin")
        (llm_formats.write_v1 if version == 1 else llm_formats.write_v2)(src, params, w)
        out = os.path.join(tmp, f"from_v{version}.ucm")
        rc, o, err = run([PY, convert, src, tok, "-o", out], 120)
        return rc, o + err, out

    @add("convert-v1-matches-v0")
    def _():
        rc, log, out = reexport_and_convert(1)
        same = rc == 0 and open(out, "rb").read() == open(image, "rb").read()
        return same, f"rc={rc}\n{log}"

    @add("convert-v2-q80")
    def _():
        rc, log, out = reexport_and_convert(2)
        if rc != 0:
            return False, log
        rc, text, err = run([host, out, "-n", "30"], 60)
        return rc == 0 and text.startswith("Once upon a time"), f"rc={rc}\n{text}{err}"

    @add("convert-truncated")
    def _():
        p = os.path.join(tmp, "trunc.bin")
        with open(model, "rb") as f, open(p, "wb") as g:
            g.write(f.read()[:50000])
        return convert_fails(p, "is truncated")

    @add("convert-bad-header")
    def _():
        p = os.path.join(tmp, "garbage.bin")
        with open(p, "wb") as g:
            g.write(b"PK\x03\x04" + bytes(2000))
        return convert_fails(p, "implausible")

    @add("convert-inconsistent-dims")
    def _():
        p = os.path.join(tmp, "dims.bin")
        with open(model, "rb") as f:
            data = bytearray(f.read())
        struct.pack_into("<i", data, 12, 7)  # n_heads 7 does not divide dim 64
        with open(p, "wb") as g:
            g.write(data)
        return convert_fails(p, "inconsistent dimensions")

    @add("convert-too-large")
    def _():
        rc, out, err = run([PY, convert, model, tok, "-o", os.path.join(tmp, "y.ucm"), "--max-bytes",
                            "100000"], 60)
        return rc != 0 and "target RAM allows" in err, f"rc={rc}\n{err}"

    return tests
