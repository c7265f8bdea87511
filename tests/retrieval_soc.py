#!/usr/bin/python3
"""One passkey task of the retrieval model on the simulated SoC: the context
is typed into the console with `prompt add` (lines are limited to 160
characters), `story` answers greedily, and the answer is checked against the
task's passkey and against the host build's tokens.  Prints BENCH lines.
With --policy the cache runs under that pruning policy (the console's words),
with --kv where attention runs (the console's kv words, as in
--kv "unicaim 64 digital"), on both sides, and the SoC's statistics (cycles
per token, evictions, modeled array energy) are printed.  With --upload the
program goes through the bootloader of a board simulator (--sim) that holds
its own images, as on the board.

usage: retrieval_soc.py --build DIR [--sim BINARY] [--upload APP.elf] [--len 1024] [--depth 0.05]
                        [--seed 3] [--policy "NAME 64"] [--kv WORDS] [--slices N]
                        [--tag TAG]
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools", "retrieval"))
import tasks  # noqa: E402

LINE_WORDS = 20  # console lines stay under 160 characters


def passkey_session(length, depth, seed, policy, kv):
    """(script text, prompt text, expected answer ids, steps)."""
    task = tasks.make("passkey", random.Random(seed), length, depth)
    start, end, _ = task.answers[0]
    prompt = tasks.decode(task.tokens[1:start])[1:]  # the encoder adds the leading space
    words = prompt.split(" ")
    lines = [" ".join(words[i:i + LINE_WORDS]) for i in range(0, len(words), LINE_WORDS)]
    script = ""
    if kv:
        script += f"kv {kv}\n"
    if policy:
        script += f"policy {policy}\n"
    script += "".join(f"prompt add {line}\n" for line in lines)
    steps = end - 1  # forward passes at positions 0 .. end - 2 emit tokens 1 .. end - 1
    script += f"story -n {steps} --ids\nexit 0\n"
    return script, prompt, task.tokens[start:end], steps


def run_soc(build, sim, upload, script, timeout):
    path = os.path.join(tempfile.mkdtemp(prefix="unicaim-retr-"), "session.txt")
    with open(path, "w") as f:
        f.write(script)
    program = ["--upload", upload] if upload else ["--elf", os.path.join(build, "fw", "retr.elf")]
    out = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "uartctl.py"), "sim", "--sim",
                          sim or os.path.join(build, "sim", "unicaim-sim"), *program,
                          "--script", path, "--timeout", str(timeout)],
                         capture_output=True, text=True, timeout=timeout * 2)
    return out.returncode, out.stdout + out.stderr


def host_kv(kv, slices):
    """llm_host's options for the console's kv words (its --kv takes the same backends)."""
    words = kv.split()
    if not words:
        return []
    opts = ["--kv", words[0], "--slices", str(slices)]
    if len(words) > 1:
        opts += ["--top-k", words[1]]
    if len(words) > 2:
        opts.append("--" + words[2])
    return opts


def run_host(build, prompt, steps, policy, kv, slices):
    extra = host_kv(kv, slices) + (["--policy", policy.replace(" ", ":")] if policy else [])
    out = subprocess.run([os.path.join(build, "llm", "llm_host"), os.path.join(build, "retrieval", "retrieval.ucm"),
                          "-n", str(steps), "-i", prompt, "--ids", *extra], capture_output=True, text=True, timeout=600)
    m = re.search(r"^TOKENS(.*)$", out.stdout, re.M)
    return [int(t) for t in m.group(1).split()] if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--sim", default="", help="simulator binary (default: BUILD/sim/unicaim-sim)")
    ap.add_argument("--len", type=int, default=1024)
    ap.add_argument("--depth", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=3600)
    ap.add_argument("--policy", default="", help='e.g. "NAME 48" (console words)')
    ap.add_argument("--kv", default="", help='the console\'s kv words, e.g. "unicaim 64 digital"')
    ap.add_argument("--slices", type=int, default=1, help="cells per key component of --sim's array")
    ap.add_argument("--upload", default="", help="send this program through a board simulator's bootloader")
    ap.add_argument("--tag", default="", help="appended to the BENCH names (another configuration)")
    args = ap.parse_args()
    script, prompt, answer, steps = passkey_session(args.len, args.depth, args.seed, args.policy, args.kv)
    rc, out = run_soc(args.build, args.sim, args.upload, script, args.timeout)
    m = re.search(r"^TOKENS(.*)$", out, re.M)
    soc = [int(t) for t in m.group(1).split()] if m else None
    host = run_host(args.build, prompt, steps, args.policy, args.kv, args.slices)
    cycles = re.search(r"cycles/token decode (\d+), prefill (\d+)", out)
    correct = soc is not None and soc[-len(answer):] == answer
    same = rc == 0 and soc is not None and soc == host
    print(f"passkey at depth {args.depth} of {args.len} tokens{', policy ' + args.policy if args.policy else ''}: "
          f"expected {tasks.decode(answer)!r}, SoC {tasks.decode(soc[-len(answer):]) if soc else None!r}, "
          f"host tokens {'equal' if same else 'differ'}")
    for line in re.findall(r"^(?:kv|policy|stats): .*$", out, re.M):
        print(line)
    what = f"_{args.policy.split()[0].replace('+', 'plus')}" if args.policy else ""
    suffix = f"{what}_len{args.len}{args.tag}"
    if args.policy:  # the agreement is what counts; a pruned cache may lose the needle
        print(f"BENCH retr_soc_agrees{suffix} {int(same)} bool")
        print(f"BENCH retr_soc_passkey_correct{suffix} {int(correct)} bool")
        ok = same
    else:
        print(f"BENCH retr_soc_passkey_correct{suffix} {int(correct and same)} bool")
        ok = correct and same
    if cycles:
        print(f"BENCH retr_soc_decode_cycles_per_token{suffix} {cycles.group(1)} cycles")
        print(f"BENCH retr_soc_prefill_cycles_per_token{suffix} {cycles.group(2)} cycles")
    if not ok:
        print(out[-3000:], file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
