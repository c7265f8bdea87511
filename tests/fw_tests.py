"""Firmware programs on the simulator, and the simulator's handling of bad
input. Each entry is (name, check) where check() returns (ok, detail)."""
import os
import re
import select
import struct
import subprocess
import tempfile
import time
import sys
import zlib

from registry import registry

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools", "platform"))
import platforms  # noqa: E402
import platform_facts  # noqa: E402

REGIONS = {name: base for name, (base, _) in platforms.regions().items()}

SIM_LINE = re.compile(r"^SIM cycles=\d+ instret=\d+ wall_s=[0-9.]+ hz=\d+ cpu_s=[0-9.]+ cycles_per_cpu_s=\d+ "
                      r"instret_per_cpu_s=\d+ exit=-?\d+$", re.M)
HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/usr/bin/python3"


def collect(build, run):
    sim = os.path.join(build, "sim", "unicaim-sim")
    fw = os.path.join(build, "fw")
    tmp = tempfile.mkdtemp(prefix="unicaim-tests-")
    tests, add = registry("fw")

    def sim_run(elf, stdin=b"", extra=(), timeout=300):
        return run([sim, "--elf", elf, *extra], timeout, stdin)

    @add("platform-facts-typed-once")
    def _():
        # Addresses, bauds, memory sizes and array geometry only in
        # regmap.toml, boards.toml and arrays.toml (and what is generated
        # from them); the scanner itself must see each kind of repetition.
        bases, bauds = platform_facts.facts()
        missed = [line for line in platform_facts.PLANTED if not platform_facts.scan_line(line, bases, bauds)]
        found = platform_facts.scan()
        return not found and not missed, "\n".join(found + [f"not seen: {m}" for m in missed])

    @add("hello")
    def _():
        rc, out, err = sim_run(os.path.join(fw, "hello.elf"), extra=["--max-cycles", "2000000"])
        ok = rc == 0 and "Hello from the UniCAIM SoC" in out and SIM_LINE.search(err) is not None
        return ok, f"rc={rc}\n{out}{err}"

    def cpubench(elf):
        rc, out, err = sim_run(os.path.join(fw, elf), extra=["--max-cycles", "50000000"])
        kernels = re.findall(r"^(\w+)\s+\d+\s+\d+\s+[0-9.]+ (ok|FAIL)", out, re.M)
        ok = rc == 0 and len(kernels) == 5 and all(k[1] == "ok" for k in kernels)
        return ok, f"rc={rc}\n{out}{err}"

    @add("protocol-checkers-see-traffic")
    def _():
        # The asserting simulator (rtl/check bound to the bus's external
        # port, the arbiters, both caches and the array's registers): no
        # assertion fails on programs that use them all, and every checker
        # counts traffic in one of them (a checker that saw nothing checked
        # nothing): the matrix-vector unit (data cache, both arbiters), the
        # array driver, and code running from external memory (instruction
        # cache refills).
        seen, bad = {}, []
        for elf, limit in (("test_mvu.elf", "200000000"), ("test_ucm_driver.elf", "200000000"),
                           (os.path.join("..", "tests", "boot", "ext_code.elf"), "200000")):
            rc, out, err = sim_run(os.path.join(fw, elf), extra=["--max-cycles", limit, "+checks"])
            if "Assertion failed" in out + err or rc not in (0, 124):
                bad.append(f"{elf}: rc={rc}\n{(out + err)[-1500:]}")
            for name, counts in re.findall(r"^CHECK (\S+) (.*)$", err, re.M):
                seen[name] = seen.get(name, 0) + sum(int(v) for v in re.findall(r"=(\d+)", counts))
        idle = [name for name, n in seen.items() if n == 0]
        ok = not bad and len(seen) >= 10 and not idle
        return ok, "\n".join(bad) or f"{len(seen)} checkers, idle: {idle}\n{seen}"

    @add("protocol-checkers-catch-a-broken-handshake")
    def _():
        # tests/rtl/tb_checkers drives each checker with traffic that breaks
        # one rule: the run must stop at that rule's assertion.
        tb = os.path.join(build, "tests", "rtl", "tb_checkers")
        breaks = {"req_while_waiting": "u_rr.a_one_at_a_time", "answer_without_request": "u_rr.a_answer_has_request",
                  "never_answered": "u_rr.a_answered", "valid_withdrawn": "u_vr.a_held",
                  "payload_changed": "u_vr.a_stable", "cdc_start_while_busy": "u_cdc.a_start_when_idle",
                  "cdc_ack_unrequested": "u_cdc.a_ack_requested", "command_while_busy": "u_cmd.a_start_when_idle"}
        bad = []
        for name, rule in breaks.items():
            rc, out, err = run([tb, f"+break={name}"], 60)
            if rc == 0 or f"Assertion failed in TOP.tb_checkers.{rule}" not in out + err:
                bad.append(f"{name}: rc={rc}, not stopped at {rule}\n{(out + err)[-400:]}")
        return not bad, "\n".join(bad) or f"{len(breaks)} broken handshakes caught"

    @add("cpubench")
    def _():
        return cpubench("cpubench.elf")

    @add("cpubench-code-in-external-memory")
    def _():
        # The same kernels with code and constants in external memory
        # (linker/ext_code.ld), fetched through the instruction cache.
        return cpubench("cpubench_ext.elf")

    @add("attn-kernels")
    def _():
        # The attention kernels with the core's packed dot products against
        # plain loops (both value-weight paths, gathered rows, key scales,
        # one to three heads a sweep).
        rc, out, err = sim_run(os.path.join(fw, "test_attn_kernels.elf"), extra=["--max-cycles", "50000000"])
        m = re.search(r"attention kernels: (\d+) checks, 0 failures", out)
        ok = rc == 0 and m and int(m.group(1)) >= 4000 and "attn_kernels PASS" in out  # a run makes 4340
        return ok, f"rc={rc}\n{out}{err}"

    @add("read-leveling-choice")
    def _():
        # The DDR3 read levelling's choice of bitslip and delay tap on made-up
        # scans with known answers (the scan itself needs the board's PHY).
        rc, out, err = sim_run(os.path.join(fw, "test_read_leveling.elf"), extra=["--max-cycles", "20000000"])
        ok = rc == 0 and "\n0 failures" in out and "FAIL" not in out and out.count("PASS") == 8
        return ok, f"rc={rc}\n{out}{err}"

    @add("sdram")
    def _():
        # External memory through the waiting bus, the data cache, the
        # controller and the chip model (which ends the run on a broken timing
        # rule): the memory test passes, the cache's counters count a line's
        # one miss, a prefetch leaves a dirty line alone (its word survives),
        # cbo.clean/flush/inval through hal/dcache.h do what they say (and
        # misuse is refused), and a load past its end is an access fault.
        rc, out, err = sim_run(os.path.join(fw, "test_sdram.elf"), extra=["--max-cycles", "50000000"])
        ok = (rc == 133 and "external memory: 32 MiB" in out and "sdram: 0 failures" in out and
              "sdram PASS" in out and "load access fault" in out and "mtval=0x42000000" in out and
              "store behind a load: [#]" in out and "a fresh line: 1 miss, 7 hits" in out and
              "a prefetch leaves a dirty line alone: ok" in out and
              "cache maintenance (32-byte lines): ok" in out and "violated" not in err)
        return ok, f"rc={rc}\n{out}{err}"

    @add("mvu")
    def _():
        # The matrix-vector unit against its definition written from the
        # image layout's accessors (tests/firmware/mvu): shapes of 1-64
        # groups and 1-17 tiles, operand extremes, results read late while
        # the core's misses share the memory port; misuse flagged and dropped.
        rc, out, err = sim_run(os.path.join(fw, "test_mvu.elf"), extra=["--max-cycles", "200000000"])
        m = re.search(r"^mvu: (\d+) checks, (\d+) failures", out, re.M)
        ok = rc == 0 and m and int(m.group(1)) >= 1500 and m.group(2) == "0" and "mvu PASS" in out
        return ok, f"rc={rc}\n{out[-1500:]}{err[-300:]}"

    @add("sdram-beside-the-soc-matches-inside")
    def _():
        # The simulator evaluates the cache and controller as a model of their
        # own, only in the cycles they can change (sim/ext_memory.h); the
        # board simulator has them inside the SoC, evaluated every cycle, as
        # in the bitstream. The same program (its hit/miss cycle counts
        # included) gives the same output in the same number of cycles.
        runs = [run([s, "--elf", os.path.join(fw, "test_sdram.elf"), "--max-cycles", "50000000"], 120)
                for s in (sim, os.path.join(build, "sim_board", "unicaim-sim"))]
        cycles = [re.search(r"SIM cycles=(\d+)", err) for _, _, err in runs]
        ok = (all(rc == 133 and "sdram PASS" in out for rc, out, _ in runs) and all(cycles) and
              runs[0][1] == runs[1][1] and cycles[0].group(1) == cycles[1].group(1))
        return ok, "\n".join(f"rc={rc}\n{out[-400:]}{err[-300:]}" for rc, out, err in runs)

    @add("llm-model-in-sdram")
    def _():
        # llm_ulx3s.elf with its SDRAM part in the chip model from the start
        # (the simulator loads an ELF's external-memory segments there): the
        # story's tokens are the host's, and `bench` reports the data cache's
        # hit rate (most accesses hit; the weights stream through).
        rc, out, err = run([sim, "--elf", os.path.join(fw, "llm_ulx3s.elf"), "--max-cycles", "200000000"], 300,
                           b"story -n 12 --ids Once upon a time\nbench 2\nexit 0\n")
        host = run([os.path.join(build, "llm", "llm_host"), os.path.join(build, "llm", "model.ucm"), "-n", "12",
                    "-i", "Once upon a time", "--ids"], 60)[1]
        soc = re.search(r"^TOKENS.*$", out, re.M)
        want = re.search(r"^TOKENS.*$", host, re.M)
        pct = re.search(r"^BENCH dcache_hit_pct_llm ([0-9.]+) pct", out, re.M)
        ok = (rc == 0 and soc and want and soc.group(0).strip() == want.group(0).strip() and pct and
              50 < float(pct.group(1)) < 100)
        return ok, f"rc={rc}\n{out[-1200:]}{err[-300:]}\nhost: {want.group(0) if want else host}"

    def selftest(sim_bin):
        rc, out, err = run([sim_bin, "--elf", os.path.join(fw, "selftest.elf"), "--max-cycles", "300000000"], 300,
                           b"x")
        ok = (rc == 0 and re.search(r"^uart +PASS +got 0x78", out, re.M) and
              re.search(r"^button +SKIP", out, re.M) and re.search(r"^memory +PASS +32 MiB", out, re.M) and
              re.search(r"^array +PASS", out, re.M) and "selftest: 3 passed, 0 failed, 1 skipped" in out)
        return ok, f"rc={rc}\n{out}{err}"

    @add("selftest")
    def _():
        # The board self-test app: a key typed comes back, the button is not
        # pressed (skipped), the memory test and the array against the golden
        # model pass.
        return selftest(sim)

    @add("selftest-board")
    def _():
        # The same on the ULX3S board simulator at RTL (ulx3s_top on its
        # pins), uploaded as on a board: the key comes back over a UART
        # without flow control, FIRE1 (held down) reaches the GPIO through
        # the wrapper, all 32 MiB of SDRAM pass under the chip model's timing
        # checks, and the boards' array (20 x 128 x 8) agrees with its model.
        import boot_tests
        import uartctl
        board = os.path.join(build, "board_sim", "ulx3s-rtl")
        proc, port = boot_tests.start_pty([board, "--uart-pty", "--press-button", "--max-cycles", "3000000000"])
        try:
            line = uartctl.upload(port, os.path.join(fw, "selftest.elf"), announce=open(os.devnull, "w"))
        except uartctl.UploadError as e:
            proc.kill()
            proc.wait()
            return False, f"upload failed: {e}"
        out = boot_tests.read_until(port, proc, rb"type a key", 60)
        port.write(b"x")
        # The memory test prints nothing for its 400 M cycles: on a slow
        # shared machine that is several minutes of silence.
        out += boot_tests.read_until(port, proc, rb"selftest: [^\n]*\n", 1200)
        proc.terminate()
        rc, err = boot_tests.finish(proc)
        out = out.replace("\r", "")
        ok = (rc == 0 and line.startswith("RUN") and re.search(r"^uart +PASS +got 0x78", out, re.M) and
              re.search(r"^button +PASS", out, re.M) and re.search(r"^memory +PASS +32 MiB", out, re.M) and
              re.search(r"^array +PASS", out, re.M) and "selftest: 4 passed, 0 failed, 0 skipped" in out and
              "violated" not in err)
        return ok, f"rc={rc}\n{line}\n{out}{err[-500:]}"

    def driver_checks_ran(out):
        """The driver test agreed and compared enough: about ten values an
        operation (3,987 for 400 on the simulator's array)."""
        m = re.search(r"(\d+) driver operations on block and model, (\d+) checks: agree", out)
        return m is not None and int(m.group(1)) > 0 and int(m.group(2)) >= 5 * int(m.group(1))

    @add("ucm-driver")
    def _():
        # The same driver calls through the array block and the golden model
        # compiled into the firmware agree; misuse gives the error codes.
        rc, out, err = sim_run(os.path.join(fw, "test_ucm_driver.elf"), extra=["--max-cycles", "200000000"])
        ok = rc == 0 and driver_checks_ran(out) and "ucm_driver PASS" in out
        return ok, f"rc={rc}\n{out}{err}"

    @add("ucm-driver-board")
    def _():
        # The boards' array (20 x 128 x 8, 2 lanes) with the 128 KiB build of
        # the same test, as uploaded to a ULX3S.
        board_sim = os.path.join(build, "sim_board", "unicaim-sim")
        rc, out, err = run([board_sim, "--elf", os.path.join(fw, "test_ucm_driver_128k.elf"),
                            "--max-cycles", "200000000"], 300)
        ok = (rc == 0 and "array: 20 banks x 128 slots x 8 dims" in out and
              driver_checks_ran(out) and "ucm_driver PASS" in out)
        return ok, f"rc={rc}\n{out}{err}"

    @add("console-stdin")
    def _():
        script = (b"echo one  two\r\nnope\r\nled 0x3c\r\nled 256\r\nled x\r\nexit 300\r\n"
                  b"info\r\n" + b"w " * 49 + b"\r\n" + b"exit 9\r\n")
        rc, out, err = sim_run(os.path.join(fw, "console.elf"), script, ["--max-cycles", "30000000"])
        want = ["one two", "error: unknown command 'nope'", "leds 0x3c", "error: usage: led <0..255>",
                "error: usage: exit [0..255]", "clock    50000000 Hz", "error: too many words", "bye"]
        missing = [w for w in want if w not in out]
        ok = rc == 9 and not missing and out.count("error: usage: led") == 2
        return ok, f"rc={rc} missing={missing}\n{out}{err}"

    @add("console-long-line")
    def _():
        script = b"x" * 400 + b"\r\necho still alive\r\nexit 0\r\n"
        rc, out, err = sim_run(os.path.join(fw, "console.elf"), script, ["--max-cycles", "30000000"])
        ok = rc == 0 and "error: line too long" in out and "still alive" in out
        return ok, f"rc={rc}\n{out[-600:]}{err}"

    @add("console-pty-client")
    def _():
        script = os.path.join(tmp, "pty_script.txt")
        with open(script, "w") as f:
            f.write("# comment lines are skipped\necho via the pty\ncounters\nexit 4\n")
        rc, out, err = run([PY, os.path.join(os.path.dirname(HERE), "tools", "uartctl.py"), "sim",
                            "--sim", sim, "--elf", os.path.join(fw, "console.elf"), "--script", script,
                            "--timeout", "60"], 180)
        ok = rc == 4 and "via the pty" in out and "CPI" in out and SIM_LINE.search(err) is not None
        return ok, f"rc={rc}\n{out}{err}"

    uartctl = os.path.join(os.path.dirname(HERE), "tools", "uartctl.py")

    def sims_tagged(tag):
        """Simulators started with --max-cycles TAG (this test's own)."""
        p = subprocess.run(["pgrep", "-f", f"^{sim} .*--max-cycles {tag}"], capture_output=True, text=True)
        return p.stdout.split()

    @add("sim-paces-stdin-into-the-uart")
    def _():
        # 60 commands piped in at once, while the llm firmware is still
        # clearing its memory: the UART's RTS holds them in the pipe, so
        # every one arrives (the FIFO holds 32 bytes).
        script = b"model\n" * 60 + b"exit 0\n"
        rc, out, err = sim_run(os.path.join(fw, "llm.elf"), script, timeout=600)
        ok = rc == 0 and out.count("model: dim 64") == 61 and "lost" not in out and "bye" in out
        return ok, f"rc={rc}\n{out[-800:]}{err}"

    @add("console-line-history")
    def _():
        # Up twice recalls the line before last, Up then Down gives back an
        # empty line; Ctrl-C abandons a half-typed one.
        script = b"echo one\necho two\n\x1b[A\x1b[A\n\x1b[A\x1b[B\nbogus\x03exit 0\n"
        rc, out, err = sim_run(os.path.join(fw, "console.elf"), script, timeout=120)
        said = [line for line in out.replace("\r", "").split("\n") if not line.startswith(">")]
        ok = rc == 0 and said.count("one") == 2 and said.count("two") == 1 and "unknown" not in out
        return ok, f"rc={rc}\n{out[-600:]}{err}"

    @add("sim-ends-at-end-of-input")
    def _():
        # No exit command: once the console waits for more input than stdin
        # has, the run ends (status 0) instead of simulating forever.
        rc, out, err = sim_run(os.path.join(fw, "console.elf"), b"echo hi\n", timeout=120)
        return rc == 0 and "hi" in out and "end of input" in err, f"rc={rc}\n{out[-400:]}{err}"

    @add("sim-idles-while-the-console-waits")
    def _():
        # 3 s with the console waiting on an open stdin: the core sleeps in
        # wfi and the harness waits for input, so almost no cycles pass (the
        # old busy loop simulated millions per second).
        p = subprocess.Popen([sim, "--elf", os.path.join(fw, "console.elf")], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            time.sleep(3)
            out, err = p.communicate(b"exit 5\n", timeout=120)
        finally:
            if p.poll() is None:
                p.kill()
        err = err.decode(errors="replace")
        m = SIM_LINE.search(err)
        cycles = int(re.search(r"cycles=(\d+)", err).group(1)) if m else None
        return p.returncode == 5 and cycles is not None and cycles < 500000, f"rc={p.returncode} cycles={cycles}\n{err}"

    @add("uartctl-bad-input-ends-cleanly")
    def _():
        # Every refused upload or script: a one-line reason, exit 2, and no
        # simulator left behind.
        elf = open(os.path.join(fw, "hello.elf"), "rb").read()
        arm = bytearray(elf)
        arm[18:20] = struct.pack("<H", 40)
        phoff = struct.unpack_from("<I", elf, 28)[0]
        loads = [i for i in range(struct.unpack_from("<H", elf, 44)[0])
                 if struct.unpack_from("<I", elf, phoff + 32 * i)[0] == 1]
        rom_ram = bytearray(elf)
        struct.pack_into("<I", rom_ram, phoff + 32 * loads[-1] + 12, REGIONS["ROM"])
        files = {"arm.elf": bytes(arm), "truncated.elf": elf[:6000], "sixty.elf": elf[:60], "rom_ram.elf": bytes(rom_ram)}
        for name, data in files.items():
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(data)
        cases = [(["--upload", os.path.join(tmp, n)], w) for n, w in
                 (("arm.elf", "not a 32-bit little-endian RISC-V ELF"), ("truncated.elf", "is truncated"),
                  ("sixty.elf", "bad program headers"), ("rom_ram.elf", "do not fit the memory regions"))]
        cases += [(["--upload", "/nonexistent.elf"], "cannot read /nonexistent.elf"),
                  (["--upload", tmp], "is a directory"),
                  (["--script", "/nonexistent.txt"], "cannot read the script /nonexistent.txt")]
        report, ok = [], True
        for extra, want in cases:
            rc, out, err = run([PY, uartctl, "sim", "--sim", sim, "--elf", os.path.join(fw, "bootrom.elf"),
                                "--max-cycles", "987654321", *extra], 60)
            good = rc == 2 and want in err and "Traceback" not in err
            ok = ok and good
            report.append(f"{extra}: rc={rc} {err.strip()[-200:]}")
        left = sims_tagged("987654321")
        return ok and not left, "\n".join(report) + f"\nsimulators left: {left}"

    @add("uartctl-killed-client-ends-simulator")
    def _():
        # The client killed (SIGKILL: no clean-up of its own) or interrupted
        # (Ctrl-C) while it waits for input: its simulator ends with it.
        report, ok = [], True
        for sig, tag in ((9, "987654322"), (2, "987654323")):
            proc = subprocess.Popen([PY, uartctl, "sim", "--sim", sim, "--elf", os.path.join(fw, "console.elf"),
                                     "--max-cycles", tag], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE)
            for _ in range(300):
                if sims_tagged(tag):
                    break
                subprocess.run(["sleep", "0.1"])
            started = bool(sims_tagged(tag))
            proc.send_signal(sig)
            proc.wait(30)
            err = proc.stderr.read().decode(errors="replace")
            for _ in range(100):
                if not sims_tagged(tag):
                    break
                subprocess.run(["sleep", "0.1"])
            left = sims_tagged(tag)
            good = started and not left and "Traceback" not in err
            ok = ok and good
            report.append(f"signal {sig}: started={started} left={left} rc={proc.returncode} {err.strip()[-200:]}")
        return ok, "\n".join(report)

    @add("uartctl-waits-for-silence-not-the-whole-run")
    def _():
        # A 240-token story takes far longer than the 10 s --timeout (80
        # tokens took 9.6 s on a fast machine: too few to test anything), but
        # the console never falls silent that long (its longest pause, the
        # start before the first prompt, takes a few seconds on a slow shared
        # machine): the session completes.
        script = os.path.join(tmp, "story.txt")
        with open(script, "w") as f:
            f.write("story -n 240 Once upon a time\nexit 0\n")
        rc, out, err = run([PY, uartctl, "sim", "--sim", sim, "--elf", os.path.join(fw, "llm.elf"),
                            "--script", script, "--timeout", "10"], 600)
        wall = re.search(r"wall_s=([0-9.]+)", err)
        ok = rc == 0 and "cycles/token decode" in out and wall and float(wall.group(1)) > 10
        return ok, f"rc={rc}\n{out[-600:]}{err[-400:]}"

    @add("uartctl-keys-on-a-terminal")
    def _():
        # uartctl on a terminal (a pty): keys go through raw, Ctrl-R restarts
        # the simulator (the banner again, the old console gone), and an exit
        # typed at the console ends the session.
        master, slave = os.openpty()
        proc = subprocess.Popen([PY, uartctl, "sim", "--sim", sim, "--elf", os.path.join(fw, "console.elf")],
                                stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
        os.close(slave)
        seen = bytearray()

        def wait_for(token, idle=60):
            """TOKEN in what arrives from now on."""
            start, last = len(seen), time.monotonic()
            while token not in seen[start:] and time.monotonic() - last < idle:
                ready, _, _ = select.select([master], [], [], 0.2)
                if ready:
                    try:
                        seen.extend(os.read(master, 4096))
                    except OSError:
                        break
                    last = time.monotonic()
            return token in seen[start:]
        try:
            steps = [wait_for(b"> ")]
            os.write(master, b"echo one\r")
            steps.append(wait_for(b"one\r\n> "))
            os.write(master, b"\x12")
            steps.append(wait_for(b"UniCAIM SoC console") and b"restarted" in seen)
            os.write(master, b"exit 0\r")
            steps.append(wait_for(b"bye"))
            proc.wait(60)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
                proc.wait()
            os.close(master)
        ok = all(steps) and proc.returncode == 0
        return ok, f"steps {steps} rc={proc.returncode}\n{seen.decode(errors='replace')[-1500:]}"

    @add("demo-at-a-tenth-of-the-speed")
    def _():
        # The demo's steps with the simulator stopped 90% of the time
        # (tests/slow_sim.py): the model's start is 20 s of silence, each
        # token 5 s, and uartctl's default waits still see it through to
        # the host's tokens.
        slow = os.path.join(tmp, "slow-sim")
        with open(slow, "w") as f:
            f.write(f'#!/bin/sh\nexec {PY} {os.path.join(HERE, "slow_sim.py")} {sim} "$@"\n')
        os.chmod(slow, 0o755)
        script = os.path.join(tmp, "slow_demo.txt")
        with open(script, "w") as f:
            f.write("model\nstory -n 24 --ids Once upon a time\nexit 0\n")
        rc, out, err = run([PY, uartctl, "sim", "--sim", slow, "--elf", os.path.join(fw, "llm.elf"),
                            "--script", script], 1200)
        wall = re.search(r"wall_s=([0-9.]+) hz=(\d+)", err)
        soc = re.search(r"^TOKENS(.*)$", out.replace("\r", ""), re.M)
        host_out = run([os.path.join(build, "llm", "llm_host"), os.path.join(build, "llm", "model.ucm"), "-n", "24",
                        "-i", "Once upon a time", "--ids"], 60)[1]
        host = re.search(r"^TOKENS(.*)$", host_out, re.M)
        ok = rc == 0 and "cycles/token decode" in out and soc and host and \
            soc.group(1).split() == host.group(1).split() and wall and int(wall.group(2)) < 1000000
        return ok, f"rc={rc} soc {soc and soc.group(1)}\nhost {host and host.group(1)}\n{out[-600:]}{err[-400:]}"

    @add("trap-report")
    def _():
        rc, out, err = sim_run(os.path.join(fw, "test_trap_report.elf"), extra=["--max-cycles", "2000000"])
        ok = rc == 133 and "FATAL: load access fault" in out and "mtval=0x00000000" in out
        return ok, f"rc={rc}\n{out}{err}"

    @add("trace-fst")
    def _():
        # The waveform holds what the design did: the bytes the UART's
        # transmitter took from its FIFO (read back from the FST at each
        # clock edge) are the program's output, and the clock's rising
        # edges are the cycles the simulator counted.
        trace = os.path.join(tmp, "hello.fst")
        rc, out, err = sim_run(os.path.join(fw, "hello.elf"), extra=["--trace", trace])
        rc2, dump, err2 = run([os.path.join(build, "sim", "fst_dump"), trace, "clk_i", "u_uart.tx_pop",
                               "u_uart.tx_data"], 120)
        sent = bytes(int(x, 16) for x in dump.split()[:-2]).decode(errors="replace").replace("\r", "")
        edges = re.search(r"^EDGES (\d+)$", dump, re.M)
        cycles = re.search(r"SIM cycles=(\d+)", out + err)
        # Not an FST, and a name no signal has: refused, exit 2.
        rc3, _, err3 = run([os.path.join(build, "sim", "fst_dump"), os.path.join(fw, "hello.elf"), "a", "b", "c"], 60)
        rc4, _, err4 = run([os.path.join(build, "sim", "fst_dump"), trace, "clk_i", "nosuch", "u_uart.tx_data"], 60)
        ok = rc == 0 and rc2 == 0 and sent.startswith("Hello from the UniCAIM SoC") and sent in out.replace("\r", "") \
            and edges and cycles and abs(int(edges.group(1)) - int(cycles.group(1))) <= 2 \
            and rc3 == 2 and "not a readable FST file" in err3 and rc4 == 2 and "no signal named 'nosuch'" in err4
        return ok, f"rc={rc} rc2={rc2}\nsent {sent!r}\n{dump[-100:]}{err2}\ncycles {cycles and cycles.group(1)}"

    def fuzz_15s(cmd, corpus, max_len, seeds=()):
        """A 15-second fuzz run from CORPUS (with SEEDS: (name, bytes)): no finding."""
        corpus = os.path.join(tmp, corpus)
        os.makedirs(corpus, exist_ok=True)
        for name, data in seeds:
            with open(os.path.join(corpus, name), "wb") as f:
                f.write(data)
        rc, out, err = run([*cmd, "-max_total_time=15", "-timeout=10", f"-max_len={max_len}", "-seed=1",
                            "-rss_limit_mb=4096", corpus], 120)
        ok = rc == 0 and "Done " in err and "ERROR" not in err
        return ok, f"rc={rc}\n{err[-1500:]}"

    @add("console-parser-fuzz-15s")
    def _():
        return fuzz_15s([os.path.join(build, "fuzz", "fuzz_console")], "console-corpus", 200)

    @add("upload-protocol-fuzz-15s")
    def _():
        # The bootloader's protocol (tests/fuzz/fuzz_upload.c's invariants),
        # started from one good upload.
        image = bytes(range(8))
        good = b"UCHD" + struct.pack("<4I", REGIONS["RAM"], 8, zlib.crc32(image), REGIONS["RAM"] + 4) + image
        return fuzz_15s([os.path.join(build, "fuzz", "fuzz_upload")], "upload-corpus", 8192, [("good", good)])

    @add("converter-fuzz-15s")
    def _():
        return fuzz_15s([os.path.join(build, "fuzz", "venv", "bin", "python"),
                         os.path.join(HERE, "fuzz", "fuzz_convert.py")], "convert-corpus", 4096)

    @add("ulx3s-85f-bitstream")
    def _():
        # Synthesis, place and route happen here, beside the other tests
        # (about 20 minutes of one core; make test starts this test first).
        rc, out, err = run(["make", "--no-print-directory", f"BUILD={build}", "ulx3s-timing"], 5400)
        if rc != 0:
            return False, f"make ulx3s-timing: rc={rc}\n{(out + err)[-2000:]}"
        board = os.path.join(build, "boards", "ulx3s-85f")
        bit = os.path.join(board, "ulx3s_85f.bit")
        try:
            log = open(os.path.join(board, "nextpnr.log")).read()
        except OSError as e:
            return False, str(e)
        fmax = re.findall(r"Max frequency for clock '\$glbnet\$clk': ([0-9.]+) MHz \((PASS|FAIL)", log)
        ok = os.path.exists(bit) and os.path.getsize(bit) > 100000 and fmax and fmax[-1][1] == "PASS"
        return ok, f"fmax {fmax[-1] if fmax else None}, bit {os.path.exists(bit)}"

    # ---------------------------------------------------------------- bad input
    def expect_refusal(args, want_rc, want_msg):
        rc, out, err = run([sim, *args], 60)
        ok = rc == want_rc and want_msg in err and err.count("\n") <= 2
        return ok, f"rc={rc} (want {want_rc})\n{err}"

    @add("sim-missing-file")
    def _():
        return expect_refusal(["--elf", os.path.join(tmp, "nope.elf")], 2, "cannot open ELF file")

    @add("sim-not-elf")
    def _():
        path = os.path.join(tmp, "text.elf")
        with open(path, "w") as f:
            f.write("this is not an ELF file\n")
        return expect_refusal(["--elf", path], 2, "is not an ELF file")

    def hello_variant(name, edit):
        """hello.elf with EDIT applied to its bytes, written to NAME in tmp."""
        with open(os.path.join(fw, "hello.elf"), "rb") as f:
            data = bytearray(f.read())
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(edit(data))
        return path

    @add("sim-truncated-elf")
    def _():
        def cut(data):
            ph_off, = struct.unpack_from("<I", data, 28)
            return data[:ph_off + 40]  # program headers cut short
        return expect_refusal(["--elf", hello_variant("truncated.elf", cut)], 2, "is truncated")

    @add("sim-elf-outside-memory")
    def _():
        def move(data):
            ph_off, = struct.unpack_from("<I", data, 28)
            ph_size, ph_num = struct.unpack_from("<HH", data, 42)
            for i in range(ph_num):
                off = ph_off + i * ph_size
                if struct.unpack_from("<I", data, off)[0] == 1:  # PT_LOAD: move it to the array's registers
                    struct.pack_into("<II", data, off + 8, REGIONS["ARRAY"], REGIONS["ARRAY"])
                    break
            return data
        return expect_refusal(["--elf", hello_variant("outside.elf", move)], 2, "does not fit the SoC's memory map")

    @add("sim-entry-outside-memory")
    def _():
        # An entry where nothing is mapped (code may run from ROM, RAM or
        # external memory: isa-ext/* start there).
        def entry(data):
            struct.pack_into("<I", data, 24, REGIONS["MVU"])  # e_entry: the unit's registers
            return data
        return expect_refusal(["--elf", hello_variant("entry_outside.elf", entry)], 2, "is outside the SoC's memory")

    @add("sim-unknown-option")
    def _():
        return expect_refusal(["--elf", os.path.join(fw, "hello.elf"), "--frobnicate"], 2, "unknown option")

    @add("sim-bad-max-cycles")
    def _():
        return expect_refusal(["--elf", os.path.join(fw, "hello.elf"), "--max-cycles", "lots"], 2,
                              "bad --max-cycles")

    @add("sim-huge-max-cycles")
    def _():
        return expect_refusal(["--elf", os.path.join(fw, "hello.elf"), "--max-cycles", "99999999999999999999999"],
                              2, "bad --max-cycles")

    @add("sim-elf-is-a-directory")
    def _():
        return expect_refusal(["--elf", tmp], 2, "is not a regular file")

    @add("sim-profile-unwritable")
    def _():
        # Refused before the run, not after it.
        return expect_refusal(["--elf", os.path.join(fw, "hello.elf"), "--profile", "/nonexistent/x.prof"], 2,
                              "cannot write profile '/nonexistent/x.prof'")

    @add("sim-no-program")
    def _():
        return expect_refusal([], 2, "no program given")

    @add("sim-max-cycles-reached")
    def _():
        rc, out, err = run([sim, "--elf", os.path.join(fw, "cpubench.elf"), "--max-cycles", "200000"], 60)
        ok = rc == 124 and "did not finish within --max-cycles 200000" in err and \
            "SIM cycles=200000 " in err and SIM_LINE.search(err) is not None
        return ok, f"rc={rc}\n{err}"

    @add("sim-profile")
    def _():
        # Every simulated cycle is charged to an address; profile.py names
        # the functions: cpubench's kernels are where its time goes.
        prof = os.path.join(tmp, "cpubench.prof")
        elf = os.path.join(fw, "cpubench.elf")
        rc, out, err = sim_run(elf, extra=["--max-cycles", "50000000", "--profile", prof])
        cycles = re.search(r"SIM cycles=(\d+)", err)
        if rc != 0 or not cycles:
            return False, f"rc={rc}\n{err}"
        rc2, report, err2 = run([PY, os.path.join(HERE, "..", "tools", "profile.py"), elf, prof, "--top", "8"], 60)
        total = re.match(r"(\d+) cycles", report)
        top = re.findall(r"^\s*\d+\s+[0-9.]+%\s+(\S+)$", report, re.M)
        kernels = [name for name in top[:6] if name.startswith(("kernel_", "quicksort"))]
        ok = (rc2 == 0 and total is not None and int(cycles.group(1)) - 8 <= int(total.group(1)) <= int(
            cycles.group(1)) and len(kernels) >= 4)
        return ok, f"rc={rc2} sim cycles={cycles.group(1)}\n{report}{err2}"

    @add("sim-profile-bad-file")
    def _():
        rc, out, err = run([PY, os.path.join(HERE, "..", "tools", "profile.py"), os.path.join(fw, "hello.elf"),
                            os.path.join(fw, "hello.elf")], 60)
        return rc != 0 and "profile:" in err and "Traceback" not in err, f"rc={rc}\n{err}"

    return tests
