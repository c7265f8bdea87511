"""Retrieval-model tests: the task vocabulary against the firmware's encoder,
the training-and-export pipeline (a few steps, then PyTorch against the C fp32
reference), the shipped model's exact match on held-out tasks, bad input, and
a passkey task answered on the simulated SoC."""
import os
import random
import re
import sys
import tempfile

from registry import registry
from soc_console import console_session

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PY = "/usr/bin/python3"
RETR = os.path.join(ROOT, "tools", "retrieval")
SHIPPED = os.path.join(ROOT, "models", "retrieval")
sys.path.insert(0, RETR)
sys.path.insert(0, HERE)


def collect(build, run):
    import tasks
    host, evaluate = os.path.join(build, "llm", "llm_host"), os.path.join(build, "llm", "llm_eval")
    image = os.path.join(build, "retrieval", "retrieval.ucm")
    model = os.path.join(SHIPPED, "retrieval.bin")
    tmp = tempfile.mkdtemp(prefix="unicaim-retr-")
    tests, add = registry("retrieval")

    @add("firmware-encoder-matches-tasks")
    def _():
        # The firmware encoder (host build) turns each task's text back into
        # the generated ids: llm_host echoes the prompt's tokens.
        rng = random.Random(11)
        for kind in tasks.TEXT_KINDS:
            task = tasks.make(kind, rng, 300)
            text = tasks.decode(task.tokens)[1:]
            n = len(task.tokens)  # the prompt's positions, then one generated token
            rc, out, err = run([host, image, "-n", str(n), "-i", text, "--ids"], 60)
            m = re.search(r"^TOKENS(.*)$", out, re.M)
            got = [int(t) for t in m.group(1).split()][:n - 1] if m else None
            if rc != 0 or got != task.tokens[1:]:
                return False, f"{kind}: rc={rc}\nwant {task.tokens[1:40]}\ngot  {(got or [])[:40]}\n{err}"
        rc, out, err = run([PY, os.path.join(RETR, "tasks.py"), "check-encode"], 60)
        return rc == 0, out + err

    @add("training-tasks-answers-follow-the-facts")
    def _():
        # Training asks many questions per task: each answer must still be
        # what the context's facts say, read back from the text alone.
        rng = random.Random(12)
        for length in (128, 257, 1025):
            for kind in ("recall", "twohop"):
                for _ in range(200):
                    task = tasks.make(kind, rng, length, many=True)
                    text = tasks.decode(task.tokens)
                    context = tasks.decode(task.tokens[:task.questions[0]])
                    facts = dict(re.findall(r" the (\w+) (?:has code|is in) (\w+)\.", context))
                    if len(task.tokens) > length or len(task.answers) != len(task.questions):
                        return False, f"{kind} {length}: {len(task.tokens)} tokens, {len(task.answers)} answers"
                    for a, b, _ in task.answers:
                        asked = re.findall(r" (\w+)\?", tasks.decode(task.tokens[:a]))[-1]
                        want = (f" {facts[asked]}" if kind == "recall" else
                                f" the {asked} is in {facts[asked]}. the {facts[asked]} is in "
                                f"{facts[facts[asked]]}.")
                        if tasks.decode(task.tokens[a:b]) != want:
                            return False, f"{text}\nanswer {tasks.decode(task.tokens[a:b])!r}, facts say {want!r}"
        return True, "recall and two-hop answers agree with their facts"

    @add("train-export-matches-c-reference")
    def _():
        # A few training steps of a small model, the llama2.c export, and the
        # C fp32 reference reproducing PyTorch's greedy continuation.
        out_dir = os.path.join(tmp, "tiny")
        rc, out, err = run([PY, os.path.join(RETR, "train.py"), "--out", out_dir, "--stages", "64:3",
                            "--dim", "32", "--hidden", "64", "--layers", "2", "--heads", "1", "--kv-heads", "1",
                            "--seq-len", "128", "--eval-every", "3"], 300)
        if rc != 0:
            return False, out + err
        import torch
        from model import load_v0
        torch.set_num_threads(1)
        net = load_v0(os.path.join(out_dir, "retrieval.bin"))
        ids = tasks.make("passkey", random.Random(5), 100).tokens[:60]
        with torch.no_grad():
            for _ in range(24):
                ids.append(int(net(torch.tensor([ids]))[0, -1].argmax()))
        task_file = os.path.join(tmp, "greedy.tasks")
        with open(task_file, "w") as f:
            f.write(f"greedy 0.5 60:{len(ids)}:0 {' '.join(map(str, ids))}\n")
        tiny_image = os.path.join(out_dir, "tiny.ucm")
        rc, o, e = run([PY, os.path.join(ROOT, "tools", "llm", "convert.py"), os.path.join(out_dir, "retrieval.bin"),
                        os.path.join(out_dir, "tokenizer.bin"), "-o", tiny_image], 60)
        if rc != 0:
            return False, o + e
        rc, o, e = run([evaluate, os.path.join(out_dir, "retrieval.bin"), tiny_image, "tasks", task_file], 120)
        ok = rc == 0 and "BENCH retr_dense_em_greedy_fp32 100.00 pct" in o
        return ok, f"rc={rc}\n{o}{e}"

    @add("attention-capture-and-miss-counts")
    def _():
        # Capturing attention leaves the logits alone and gives causal
        # distributions; heads.py's miss counts equal a plain argmax count.
        import torch
        from model import load_v0
        torch.set_num_threads(1)
        net = load_v0(model)
        task = tasks.make("recall", random.Random(3), 200)
        attention = []
        with torch.no_grad():
            plain = net(torch.tensor([task.tokens]))
            captured = net(torch.tensor([task.tokens]), attention)
        n = len(task.tokens)
        future = torch.ones(n, n).triu(1).bool()
        if not torch.equal(plain, captured) or len(attention) != net.cfg["n_layers"]:
            return False, "attention capture changed the logits or missed a layer"
        for att in attention:
            if not (torch.allclose(att.sum(-1), torch.ones(())) and (att[..., future] == 0).all()):
                return False, "attention rows are not causal distributions"
        # Misses need a model that makes them: the shipped one answers
        # two-hop perfectly, so its last layer's attention output is cut.
        from model import export_v0
        net.layers[-1].wo.weight.data.zero_()
        damaged = os.path.join(tmp, "damaged.bin")
        export_v0(net, damaged)
        rc, o, e = run([PY, os.path.join(RETR, "heads.py"), "misses", damaged, "twohop", "--len", "256",
                        "--seed", "4", "--tasks", "6"], 120)
        counted = [int(c) for c in re.findall(r"token +\d+ \(e\.g\. .*?\): (\d+) \(", o)]
        want = []
        rng = random.Random(4)
        with torch.no_grad():
            for _ in range(6):
                t = tasks.make("twohop", rng, 256)
                pred = net(torch.tensor([t.tokens]))[0].argmax(-1)
                for a, b, _ in t.answers:
                    want += [0] * (b - a - len(want))
                    for i in range(b - a):
                        want[i] += int(pred[a - 1 + i]) != t.tokens[a + i]
        ok = rc == 0 and counted == want and sum(want) > 0
        return ok, f"rc={rc} counted {counted}, want {want}\n{o}{e}"

    @add("shipped-model-exact-match")
    def _():
        # 8 held-out tasks per kind at full context (make bench-retr runs 60).
        task_file = os.path.join(tmp, "heldout.tasks")
        rc, o, e = run([PY, os.path.join(RETR, "tasks.py"), "heldout", task_file, "--len", "1024",
                        "--per-kind", "8", "--seed", "2000"], 60)
        if rc != 0:
            return False, o + e
        rc, o, e = run([evaluate, model, image, "tasks", task_file], 600)
        em = {(k, p): float(v) for k, p, v in re.findall(r"retr_dense_em_(\w+?)_(fp32|int) ([0-9.]+)", o)}
        # These tasks are fixed and the run deterministic: it measures passkey
        # 100/100, recall 97.06/97.06 (fp32/int), two-hop 100/100; one answer
        # fewer fails. Move the floors deliberately, with the reason in the commit.
        floors = {"passkey": 100.0, "recall": 97.0, "twohop": 100.0}
        ok = rc == 0 and len(em) == 6 and all(v >= floors[k] for (k, p), v in em.items())
        return ok, f"rc={rc} floors {floors}\n{o}{e}"

    @add("pinned-greedy-continuation")
    def _():
        # The host engine's greedy continuation of a fixed recall task, as
        # measured when pinned. Update it deliberately, with the reason in
        # the commit.
        pinned = "401 118 200 364 241 15 364 241 200 118 40 5 7 4 364 252 167"
        task = tasks.make("recall", random.Random(46), 300)
        n = len(task.tokens)
        rc, out, err = run([host, image, "-n", str(n + 16), "-i", tasks.decode(task.tokens)[1:], "--ids"], 60)
        m = re.search(r"^TOKENS(.*)$", out, re.M)
        got = m.group(1).split()[n - 1:] if m else None
        return rc == 0 and got == pinned.split(), f"got  {got}\npinned {pinned.split()}\n{err}"

    @add("host-unknown-character")
    def _():
        rc, out, err = run([host, image, "-n", "8", "-i", "What is the pass key?"], 60)
        return rc == 2 and "cannot encode" in err, f"rc={rc}\n{out}{err}"

    @add("soc-passkey")
    def _():
        rc, out, err = run([PY, os.path.join(HERE, "retrieval_soc.py"), "--build", build, "--len", "160",
                            "--depth", "0.1", "--timeout", "600"], 1200)
        return rc == 0 and "retr_soc_passkey_correct_len160 1" in out, f"rc={rc}\n{out[-1500:]}{err[-1500:]}"

    @add("soc-passkey-ulx3s-array")
    def _():
        # The ULX3S build with this model's array (ULX3S_ARRAY=board_retr) on
        # the board simulator at RTL: retr_ulx3s.elf uploaded, keys in the
        # array, each position attending to the CAM's top 32; the tokens must
        # be the host's on the same array (make bench runs 1024 tokens).
        rc, out, err = run([PY, os.path.join(HERE, "retrieval_soc.py"), "--build", build, "--len", "160",
                            "--depth", "0.3", "--seed", "5", "--timeout", "600",
                            "--sim", os.path.join(build, "board_sim", "ulx3s-board_retr-rtl"),
                            "--upload", os.path.join(build, "fw", "retr_ulx3s.elf"),
                            "--kv", "unicaim 32 digital", "--slices", "1", "--tag", "_ulx3s"], 1200)
        ok = (rc == 0 and "retr_soc_passkey_correct_len160_ulx3s 1" in out and
              "kv: UniCAIM array, 1 cell per key component, top-k 32" in out)
        return ok, f"rc={rc}\n{out[-1500:]}{err[-1500:]}"

    @add("soc-prompt-bad-input")
    def _():
        long_line = " ".join(["the"] * 36)  # 154-character lines
        rc, out, err = console_session(run, build, "retr.elf", "prompt bogus\nprompt add What\nstory -n 4\n" +
                                       f"prompt add {long_line}\n" * 60 +
                                       "prompt\nprompt add the cat\nprompt clear\nprompt\nexit 0\n", tmp)
        ok = (rc == 0 and "error: usage: prompt" in out and "cannot encode" in out and
              out.count("error: prompt too long") >= 1 and out.rstrip().count("prompt: 0 bytes") >= 2)
        return ok, f"rc={rc}\n{out[-1500:]}{err[-300:]}"

    return tests
