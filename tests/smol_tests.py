"""SmolLM2-135M-Instruct tests (mk/smollm2.mk builds the image): the
converter's refusals of bad GGUF files, the byte-level BPE tokenizer token
for token against PyPI tokenizers, the host's vectorized kernels against
the portable ones, the integer engine against the fp32 reference on a few
windows of text, a chat answer, and bad input to the loader."""
import os
import re
import struct
import tempfile
import threading
import zlib

from registry import registry
from soc_console import console_session

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOOLS = os.path.join(ROOT, "tools", "llm")
DEV_TEXT = "/usr/share/common-licenses"

# Integer vs fp32 on 2 x 128 tokens of the development text, deterministic:
# measured 98.05% and a perplexity ratio of 0.9995; the bounds sit just
# outside, so that a drift of the arithmetic fails.
SHORT_AGREEMENT = (97.8, 98.4)
SHORT_PPL_RATIO = (0.998, 1.002)


def collect(build, run):
    smol = os.path.join(build, "smollm2")
    py = os.path.join(smol, "venv", "bin", "python")
    gguf = os.path.join(smol, "SmolLM2-135M-Instruct.Q4_1.gguf")
    image = os.path.join(smol, "smollm2.ucm")
    llm = os.path.join(build, "llm")
    host, score, tokenize = (os.path.join(llm, n) for n in ("llm_host", "llm_score", "llm_tokenize"))
    convert = os.path.join(TOOLS, "convert.py")
    tmp = tempfile.mkdtemp(prefix="unicaim-smol-")
    tests, add = registry("smol")

    def refused(patch, want):
        bad, out = os.path.join(tmp, f"bad_{patch[0]}.gguf"), os.path.join(tmp, f"bad_{patch[0]}.ucm")
        rc, o, err = run([py, os.path.join(HERE, "gguf_patch.py"), gguf, bad, *patch], 120)
        if rc:
            return False, f"patching {patch}: {err}"
        rc, o, err = run([py, convert, bad, "-o", out], 120)
        ok = rc != 0 and want in err and "Traceback" not in err and not os.path.exists(out)
        return ok, f"{patch}: rc={rc} want '{want}'\n{err.strip()[-600:]}"

    def refusals(cases):
        def check():
            report, ok = [], True
            for patch, want in cases:
                good, log = refused(patch, want)
                ok = ok and good
                report.append(log)
            return ok, "\n".join(report)
        return check

    add("convert-refuses-bad-metadata")(refusals([
        (("field", "general.architecture", "gemma"), "general.architecture = 'gemma': only llama"),
        (("field", "tokenizer.ggml.pre", "falcon"), "tokenizer.ggml.pre = 'falcon'"),
        (("field", "llama.context_length", "100000"), "llama.context_length = 100000: the firmware takes 1..65535"),
        (("field", "llama.block_count", "40"), "llama.block_count = 40: the firmware takes 1..32"),
        (("field", "llama.attention.head_count", "7"), "inconsistent dimensions: dim 576, heads 7"),
        (("field", "llama.vocab_size", "70000"), "llama.vocab_size = 70000: the tokenizer has 49152 tokens"),
    ]))
    add("convert-refuses-bad-tensors")(refusals([
        (("tensor-type", "blk.0.attn_q.weight", "1"), "quantization F16 is not supported"),
        (("nan-scale", "blk.3.ffn_up.weight"), "blk.3.ffn_up.weight has 1 non-finite block scales"),
        (("truncate", "50000000"), "is not a readable GGUF file (truncated or corrupt?)"),
    ]))

    @add("convert-refuses-garbage-too-long-context-and-no-gguf")
    def _():
        garbage, out = os.path.join(tmp, "garbage.gguf"), os.path.join(tmp, "garbage.ucm")
        with open(garbage, "wb") as f:
            f.write(b"GGUF" + bytes(range(256)) * 8)
        rc, o, err = run([py, convert, garbage, "-o", out], 60)
        ok = rc != 0 and "not a readable GGUF" in err and "Traceback" not in err and not os.path.exists(out)
        rc2, o2, err2 = run([py, convert, gguf, "-o", out, "--context", "9000"], 60)
        ok = ok and rc2 != 0 and "--context 9000 is above the model's llama.context_length 8192" in err2
        # Debian's Python has no PyPI gguf: said so, no traceback.
        rc3, o3, err3 = run(["/usr/bin/python3", convert, gguf, "-o", out], 60)
        ok = ok and rc3 != 0 and "reading GGUF needs PyPI gguf" in err3 and "Traceback" not in err3
        return ok and not os.path.exists(out), f"rc={rc} {err}\nrc={rc2} {err2}\nrc={rc3} {err3}"

    @add("policy-reference-on-recorded-keys")
    def _():
        # tests/policy_reference.py's Quest and unicaim against the C cache
        # (kv_trace) on SmolLM2's own keys and queries: two banks (layers 0
        # and 20) of a greedy decode, 64-dimensional heads. Quest's reads
        # step by step (four budgets and pages), unicaim's kept positions at
        # three trims.
        import policy_reference
        bad, total = [], 0
        for layer, kvh in ((0, 0), (20, 2)):
            rc, script, err = run([os.path.join(llm, "kv_record"), image, str(layer), str(kvh), "60"], 300)
            if rc != 0 or len(script.splitlines()) != 60:
                bad.append(f"kv_record layer {layer} kv head {kvh}: rc {rc} {err.strip()}")
                continue
            head = len(script.split("\n", 1)[0].split()) // 2  # a line: key, then query
            cases = [(spec, prompt, "ATTENDED", want)
                     for spec, prompt, _, want in policy_reference.recorded_quest_cases(script)]
            cases += [(spec, prompt, "KEPT", want)
                      for spec, prompt, _, want in policy_reference.recorded_unicaim_cases(script, 18, 30)]
            for spec, prompt, tag, want in cases:
                extra = ["--attended"] if tag == "ATTENDED" else []
                rc, out, err = run([os.path.join(llm, "kv_trace"), spec, "64", str(prompt), str(head), *extra], 60,
                                   stdin_data=script.encode())
                got = [[int(p) for p in line.split(":")[1].split()] for line in out.splitlines()
                       if line.startswith(tag)]
                total += 1
                if rc != 0 or got != want:
                    step = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), len(got))
                    bad.append(f"layer {layer} {spec} prompt {prompt}: rc {rc} {err.strip()} first difference "
                               f"at step {step}")
        return not bad and total == 14, "\n".join(bad) or f"{total} sequences of 60 steps"

    @add("tokenizer-matches-pypi-tokenizers")
    def _():
        rc, out, err = run([py, os.path.join(HERE, "smol_tokenizer_check.py"), gguf, image, tokenize], 600)
        m = re.search(r"(\d+) texts, (\d+) bytes, (\d+) tokens, (\d+) differ, (\d+) round trips fail", out)
        ok = (rc == 0 and m is not None and int(m.group(2)) >= 1 << 20 and int(m.group(4)) == 0
              and int(m.group(5)) == 0)
        return ok, out + err

    @add("tokenizer-fuzz-15s")
    def _():
        # tests/fuzz/fuzz_tokenize.c's invariants (tokens in the vocabulary,
        # decoding back to the input) on arbitrary bytes for 15 s.
        corpus = os.path.join(tmp, "tokenize-corpus")
        os.makedirs(corpus, exist_ok=True)
        with open(os.path.join(corpus, "seed"), "wb") as f:
            f.write("Hello, world! 12 <|im_start|>user\n\u00e9\u4e2d \xff".encode("utf-8", "surrogateescape"))
        rc, out, err = run(["env", f"UCM_FUZZ_IMAGE={image}", os.path.join(build, "fuzz", "fuzz_tokenize"),
                            "-max_total_time=15", "-timeout=10", "-max_len=4096", "-seed=1", "-rss_limit_mb=4096",
                            corpus], 120)
        return rc == 0 and "Done " in err and "ERROR" not in err, f"rc={rc}\n{err[-1500:]}"

    @add("host-kernels-match-portable")
    def _():
        seq = os.path.join(tmp, "kernels.txt")
        with open(seq, "w") as f:  # two sequences: text-like ids, and ids from all over the vocabulary
            f.write(" ".join(str(t) for t in (504, 3575, 282, 4649, 314, 7042, 30, 378, 1025, 216) * 5) + "\n")
            f.write(" ".join(str((i * 7919) % 49152) for i in range(37)) + "\n")
        outs = []
        for args in ([], ["--portable", "--batch", "1"], ["--batch", "5"]):
            rc, out, err = run([score, image, seq, *args], 300)
            outs.append(out if rc == 0 else f"rc={rc} {err}")
        ok = outs[0].count("SCORE") == 87 and outs[0] == outs[1] == outs[2]
        return ok, "\n".join(o[:300] for o in outs)

    @add("int-vs-fp32-short")
    def _():
        rc, out, err = run([py, os.path.join(TOOLS, "agree_gguf.py"), gguf, image, "--score", score,
                            "--text", DEV_TEXT, "--seqs", "2", "--len", "128", "--prefix", "short"], 600)
        m = re.search(r"BENCH short_int8_top1_vs_fp32 ([0-9.]+)", out)
        r = re.search(r"BENCH short_ppl_ratio_int8_vs_fp32 ([0-9.]+)", out)
        ok = rc == 0 and m and r and SHORT_AGREEMENT[0] <= float(m.group(1)) <= SHORT_AGREEMENT[1] and \
            SHORT_PPL_RATIO[0] <= float(r.group(1)) <= SHORT_PPL_RATIO[1]
        return ok, f"(bounds {SHORT_AGREEMENT}, ratio {SHORT_PPL_RATIO})\n{out}{err[-800:]}"

    @add("pinned-greedy-chat")
    def _():
        # The host engine's greedy chat answer (the template's tokens, then
        # the answer), as measured when pinned. Update it deliberately, with
        # the reason in the commit.
        pinned = ("9690 198 2683 359 253 5356 5646 11173 3365 3511 308 34519 28 7018 411 407 19712 8182 2 198 1 4093 "
                  "198 1780 314 260 3575 282 4649 47 2 198 1 520 9531 198 504 3575 282 4649")
        rc, out, err = run([host, image, "--context", "1024", "-n", "40", "--chat", "-i",
                            "What is the capital of France?", "--ids"], 120)
        m = re.search(r"^TOKENS (.*)$", out, re.M)
        return rc == 0 and m and m.group(1).split() == pinned.split(), f"got  {m and m.group(1)}\npinned {pinned}"

    @add("chat-answer-matches-fp32")
    def _():
        tasks = os.path.join(tmp, "chat.txt")
        with open(tasks, "w") as f:
            f.write("What is the capital of France?\n")
        table = os.path.join(tmp, "chat.md")
        rc, out, err = run([py, os.path.join(TOOLS, "agree_gguf.py"), gguf, image, "--host", host,
                            "--chat", tasks, "--answer", "12", "--table", table], 600)
        text = open(table).read() if os.path.exists(table) else ""
        ok = rc == 0 and "chat_identical_answers 1 of_1" in out and "The capital of France is Paris." in text
        return ok, out + err[-800:] + text

    def corrupt_image(name, change):
        """The image with CHANGE(data) applied and its CRC made right again."""
        with open(image, "rb") as f:
            data = bytearray(f.read())
        change(data)
        struct.pack_into("<I", data, 16, 0)
        struct.pack_into("<I", data, 16, zlib.crc32(bytes(data)) & 0xFFFFFFFF)
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    @add("loader-refuses-corrupt-bpe-tables")
    def _():
        header = struct.unpack_from("<32I", open(image, "rb").read(128))
        tok = header[18]  # off_tokenizer (image_format.HEADER_FIELDS)
        vocab, merges = header[10], struct.unpack_from("<I", open(image, "rb").read(tok + 8), tok + 4)[0]
        keys = tok + 24 + 4 * (vocab + 1) + 512  # counts, piece offsets, byte map

        def swap_merges(d):  # two merge keys out of order
            a, b = struct.unpack_from("<2I", d, keys)
            struct.pack_into("<2I", d, keys, b, a)

        def bad_byte_token(d):  # byte 0x41's token beyond the vocabulary
            struct.pack_into("<H", d, tok + 24 + 4 * (vocab + 1) + 2 * 0x41, vocab)
        report, ok = [], merges > 2
        for name, change in (("merges.ucm", swap_merges), ("bytes.ucm", bad_byte_token)):
            rc, out, err = run([host, corrupt_image(name, change), "-n", "4", "-i", "x"], 120)
            ok = ok and rc == 2 and "tokenizer is corrupt" in err
            report.append(f"{name}: rc={rc} {err.strip()}")
        return ok, "\n".join(report)

    @add("prompt-longer-than-context-refused")
    def _():
        short = os.path.join(tmp, "ctx64.ucm")
        rc, out, err = run([py, convert, gguf, "-o", short, "--context", "64"], 300)
        if rc:
            return False, err
        rc, out, err = run([host, short, "-i", "word " * 100], 120)
        return rc == 2 and "longer than the context" in err, f"rc={rc}\n{out[-300:]}{err}"

    @add("upload-refused-where-it-does-not-fit")
    def _():
        # llm_smol.elf's 170 MB image for the simulator's 32 MB of SDRAM (the
        # ULX3S's): the bootloader refuses the first piece's header, before
        # any of its data goes.
        import uartctl
        from boot_tests import finish, start_sim
        proc, port = start_sim(os.path.join(build, "sim", "unicaim-sim"), os.path.join(build, "fw", "bootrom.elf"))
        sink = open(os.devnull, "w")
        try:
            line = uartctl.upload(port, os.path.join(build, "fw", "llm_smol.elf"), announce=sink)
            why = f"uploaded: {line}"
        except uartctl.UploadError as e:
            why = str(e)
        proc.kill()
        finish(proc)
        return why.startswith("refused: ERR") and "outside" in why, why

    prune = os.path.join(llm, "prune_eval")
    ruler = os.path.join(tmp, "ruler.tasks")
    ruler_lock = threading.Lock()  # tests run in threads: one makes the file, the others wait for it

    def ruler_tasks():
        """Three kinds of RULER-style task of about 400 tokens (made once)."""
        with ruler_lock:
            if not os.path.exists(ruler):
                rc, out, err = run([py, os.path.join(TOOLS, "smol_tasks.py"), gguf, ruler, "--len", "400",
                                    "--per-kind", "1", "--seed", "77", "--kinds", "niah_multikey,vt,qa"], 300)
                if rc:
                    return None, err
        return ruler, ""

    @add("ruler-tasks-follow-their-seed")
    def _():
        # The same seed gives the same tasks in any Python process (a set's
        # order once leaked in through string hashing: the variable-tracking
        # names came out in a different order from run to run).
        outs = []
        for hashseed in ("1", "2"):
            path = os.path.join(tmp, f"seeded{hashseed}.tasks")
            rc, out, err = run(["env", f"PYTHONHASHSEED={hashseed}", py, os.path.join(TOOLS, "smol_tasks.py"), gguf,
                                path, "--len", "400", "--per-kind", "2", "--seed", "5", "--kinds", "vt,niah_multikey"],
                               300)
            outs.append(open(path).read() if rc == 0 and os.path.exists(path) else f"rc={rc} {err[-500:]}")
        return outs[0] == outs[1] and outs[0].count("\n") == 4, "\n".join(o[:300] for o in outs)

    @add("ruler-tasks-hold-their-answers")
    def _():
        # Every kind at 1100 tokens: each expected string is in its prompt's
        # text (PyPI tokenizers' decoding), the prompt ends with the chat's
        # assistant turn and RULER's answer prefix, and fits the length.
        path = os.path.join(tmp, "kinds.tasks")
        rc, out, err = run([py, os.path.join(TOOLS, "smol_tasks.py"), gguf, path, "--len", "1100", "--per-kind", "1",
                            "--seed", "78", "--split", "test"], 300)
        if rc:
            return False, err
        check = ("import sys, urllib.parse; sys.path.insert(0, sys.argv[1]); import gguf_tokenizer\n"
                 "tok = gguf_tokenizer.build(sys.argv[2]); bad = []\n"
                 "for line in open(sys.argv[3]):\n"
                 "    kind, depth, new, answers, *ids = line.split()\n"
                 "    text = tok.decode([int(i) for i in ids], skip_special_tokens=False)\n"
                 "    answers = [urllib.parse.unquote(a) for a in answers.split('|')]\n"
                 "    ok = all(a in text for a in answers) and 800 <= len(ids) <= 1100 and 0 <= float(depth) <= 1\n"
                 "    ok = ok and '<|im_start|>assistant\\n' in text[-200:] and int(new) > 0\n"
                 "    print(kind, len(ids), answers[:2], 'ok' if ok else 'BAD')\n")
        rc, out, err = run([py, "-c", check, TOOLS, gguf, path], 300)
        kinds = re.findall(r"^(\w+) \d+ .* ok$", out, re.M)
        ok = rc == 0 and "BAD" not in out and len(kinds) == 7 and len(set(kinds)) == 7
        return ok, out + err[-800:]

    @add("ruler-replayed-prompt-equals-own-prefill")
    def _():
        # prune_eval gen reads each prompt once and replays it into every
        # policy's cache; with --unshared each policy reads it itself. The
        # continuations (every policy at 10 and 20%, and the reference) must
        # be the same tokens. A policy whose prompt leaves the same cache at
        # any budget is replayed once for both budgets: its 20% rows (scores,
        # evictions, the array's cost) must be those of a run at 20% alone.
        path, why = ruler_tasks()
        if not path:
            return False, why
        outs, rows, logs = [], [], []
        for budgets, extra in (("10,20", []), ("10,20", ["--unshared"]), ("20", [])):
            o = os.path.join(tmp, f"outputs{len(outs)}.txt")
            rc, out, err = run([prune, image, "gen", path, "--budgets", budgets, "--outputs", o, *extra], 1200)
            outs.append(open(o).read() if rc == 0 and os.path.exists(o) else "")
            rows.append([l for l in out.splitlines() if l.startswith("ruler,") and l.split(",")[3] in ("20", "100")])
            logs.append(f"{budgets} {extra} rc={rc}\n{out[-1500:]}{err[-500:]}")
        lines = outs[0].splitlines()
        policies = {l.split()[0] for l in lines}
        ok = outs[0] == outs[1] and len(lines) == 3 * (2 * len(policies) - 1) and len(policies) >= 8 and \
            all(len(l.split()) > 4 for l in lines) and rows[0] == rows[2] and len(rows[0]) == len(policies)
        return ok, "\n".join(logs) + "\n" + outs[0][:1500]

    @add("ruler-bad-task-lines-refused")
    def _():
        path, why = ruler_tasks()
        if not path:
            return False, why
        good = open(path).readline().split()
        cases = [("max_new 0", good[:2] + ["0"] + good[3:], ":2: malformed task"),
                 ("bad escape", good[:3] + ["12%G4"] + good[4:], ":2: malformed task"),
                 ("token outside the vocabulary", good[:-1] + ["49152"], ":2: bad token"),
                 ("no prompt", good[:4], ":2: the task has no prompt"),
                 ("answer past the context", good[:4] + good[4:] * 25, "too long for the model")]
        report, ok = [], True
        for name, fields, want in cases:
            bad = os.path.join(tmp, "bad.tasks")
            with open(bad, "w") as f:
                f.write(" ".join(good) + "\n" + " ".join(fields) + "\n")
            rc, out, err = run([prune, image, "gen", bad, "--policies", "none"], 300)
            ok = ok and rc == 2 and want in err and "ruler," not in out
            report.append(f"{name}: rc={rc} {err.strip()[-200:]}")
        return ok, "\n".join(report)

    @add("soc-tokens-match-host")
    def _():
        # The SoC (sim_smol: the image in 256 MB of external memory) reads a
        # one-token prompt and generates two tokens, the host's; a story
        # without a prompt is refused (SmolLM2 does not start from BOS).
        rc, out, err = console_session(run, build, "llm_smol.elf", "story -n 2\nstory -n 2 --ids The\nexit 0\n",
                                       tmp, timeout=1500, sim="sim_smol")
        m = re.search(r"^TOKENS(.*)$", out, re.M)
        soc = m.group(1).split() if m else None
        rc2, host_out, err2 = run([host, image, "-n", "2", "-i", "The", "--ids"], 120)
        h = re.search(r"^TOKENS(.*)$", host_out, re.M)
        want = h.group(1).split() if h else None
        ok = (rc == 0 and soc is not None and soc == want and len(soc) == 2 and
              "error: the story needs a prompt (this model does not start from BOS)" in out)
        return ok, f"rc={rc}\nsoc:  {soc}\nhost: {want}\n{out[-1500:]}{err[-400:]}"

    @add("iss-tokens-match-host")
    def _():
        # The functional simulator with SmolLM2's array and memory (a
        # minute where the RTL takes most of an hour): a dense story, and one
        # with unicaim+ at 6 positions on the array, each the host's tokens
        # (the pruned one differs from the dense one: the policy acted).
        prompt = "The cat sat on the mat and"
        session = f"story -n 12 --ids {prompt}\nkv unicaim\npolicy unicaim+ 6\nstory -n 12 --ids {prompt}\nexit 0\n"
        rc, out, err = console_session(run, build, "llm_smol.elf", session, tmp, timeout=900,
                                       binary=os.path.join(build, "iss_smol", "unicaim-iss"))
        iss = [m.split() for m in re.findall(r"^TOKENS(.*)$", out, re.M)]
        host_args = [host, image, "-n", "12", "-i", prompt, "--ids", "--context", "1024", "--batch", "8"]
        want = []
        for extra in ([], ["--kv", "unicaim", "--policy", "unicaim+:6", "--slices", "3"]):
            rc2, host_out, err2 = run(host_args + extra, 300)
            m = re.search(r"^TOKENS(.*)$", host_out, re.M)
            want.append(m.group(1).split() if m else None)
        ok = rc == 0 and iss == want and len(iss) == 2 and iss[0] != iss[1] and "evictions" in out
        return ok, f"rc={rc}\niss:  {iss}\nhost: {want}\n{out[-1500:]}{err[-400:]}"

    return tests
