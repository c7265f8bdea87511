"""The UART bootloader in the boot ROM, on the simulator: a good upload runs,
no upload starts the image already in RAM, and corrupt, truncated, oversized
or misaddressed uploads are refused and never run."""
import os
import re
import select
import struct
import subprocess
import sys
import time
import zlib

from registry import registry

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tools", "platform"))
import platforms  # noqa: E402

PERIPH_BASE, RAM_BASE, EXT_BASE = (platforms.regions()[r][0] for r in ("PERIPH", "RAM", "EXT"))
SIM_EXT_BYTES = platforms.platform("sim")["ext_bytes"]


def start_sim(sim, elf, preload=None):
    cmd = [sim, "--elf", elf, "--uart-pty", "--max-cycles", "400000000"]
    if preload:
        cmd += ["--preload", preload]
    return start_pty(cmd)


def start_pty(cmd):
    """Starts a simulator that puts its UART on a pty; the process and the port."""
    import serial
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if select.select([proc.stderr], [], [], 0.5)[0]:
            m = re.search(r"UART on (\S+)", proc.stderr.readline().decode(errors="replace"))
            if m:
                return proc, serial.Serial(m.group(1), timeout=0.05)
    proc.kill()
    raise RuntimeError("the simulator did not start")


def read_until(port, proc, pattern, idle):
    """What the SoC says until PATTERN, or until it is silent for IDLE seconds
    (or ends)."""
    seen = b""
    deadline = time.monotonic() + idle
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            got = port.read(port.in_waiting or 1)
        except Exception:
            break
        if got:
            seen += got
            deadline = time.monotonic() + idle
        if re.search(pattern, seen):
            break
    return seen.decode(errors="replace")


def finish(proc):
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return proc.returncode, err.decode(errors="replace")


def collect(build, run):
    import elfimage
    import uartctl
    sim = os.path.join(build, "sim", "unicaim-sim")
    boot = os.path.join(build, "fw", "bootrom.elf")
    hello = os.path.join(build, "fw", "hello.elf")
    tests, add = registry("boot")

    @add("no-upload-starts-ram-image")
    def _():
        rc, out, err = run([sim, "--elf", boot, "--preload", hello, "--max-cycles", "100000000"], 120)
        ok = rc == 0 and "UCBOOT 1" in out and f"BOOT 0x{RAM_BASE:08x}" in out and "Hello from" in out
        return ok, f"rc={rc}\n{out}{err}"

    @add("good-upload-runs")
    def _():
        proc, port = start_sim(sim, boot)
        try:
            line = uartctl.upload(port, hello, announce=open(os.devnull, "w"))
        except uartctl.UploadError as e:
            proc.kill()
            return False, f"upload failed: {e}"
        text = read_until(port, proc, rb"instret=\d+", 60)
        rc, err = finish(proc)
        return rc == 0 and line.startswith("RUN") and "Hello from" in text, f"rc={rc}\n{line}\n{text}{err}"

    def story_after_upload(proc, port, elf, kv=None, board=False, ext_in_memory=False):
        """ELF uploaded over the bootloader to the simulator PROC on PORT
        (only its RAM part if EXT_IN_MEMORY) answers a story with the host's
        tokens (after the console command KV, if given), and the console saw
        no receive error. A BOARD has no way to end: it is stopped after the
        console's goodbye."""
        try:
            line = uartctl.upload(port, os.path.join(build, "fw", elf), announce=open(os.devnull, "w"),
                                  ext_in_memory=ext_in_memory)
        except uartctl.UploadError as e:
            proc.kill()
            return False, f"upload failed: {e}"
        text = read_until(port, proc, rb"\n> ", 60)
        for command in kv.splitlines() if kv else []:  # one at a time: the board has no flow control
            port.write(command.encode() + b"\n")
            text += read_until(port, proc, rb"\n> ", 30)
        port.write(b"story -n 12 --ids Once upon a time\n")
        text += read_until(port, proc, rb"TOKENS[^\n]*\n", 120)
        port.write(b"exit 0\n")
        text += read_until(port, proc, rb"bye\r?\n" if board else rb"instret=\d+", 30)
        if board:
            proc.terminate()
        rc, err = finish(proc)
        host = run([os.path.join(build, "llm", "llm_host"), os.path.join(build, "llm", "model.ucm"), "-n", "12",
                    "-i", "Once upon a time", "--ids"], 60)[1]
        soc = re.search(r"^TOKENS.*$", text, re.M)
        want = re.search(r"^TOKENS.*$", host, re.M)
        ok = rc == 0 and line.startswith("RUN") and soc and want and soc.group(0).strip() == want.group(0).strip() \
            and not re.search(r"^(warning|error):", text, re.M) and all(f"policy: {c.split()[1]}," in text for c in (kv or "").splitlines() if c.startswith("policy ")) \
            and (not kv or "once full, the oldest leave" in text)  # the board's 128-slot banks, named
        return ok, f"rc={rc}\n{line}\n{text[-1500:]}\nhost: {want.group(0) if want else host}\n{err[-300:]}"

    @add("model-upload-runs")
    def _():
        # stories260K in the board build (llm_512k.elf, 365 KB) over the
        # bootloader.
        return story_after_upload(*start_sim(sim, boot), "llm_512k.elf")

    @add("model-in-sdram-upload-runs")
    def _():
        # The ULX3S build of the llm app (llm_ulx3s.elf: code in block RAM,
        # the model image and the state in SDRAM) on the board simulator at
        # RTL (ulx3s_top as in the bitstream, on its pins: no flow control,
        # the client already sending while the board leaves reset): the
        # client sends the SDRAM piece first (LOADED), then the code (RUN).
        # Attention as `make demo BOARD=ulx3s` runs it: UniCAIM's pruning on
        # the array, each step the CAM's 32 best keys scored exactly -- every
        # position of so short a story, so the host's tokens.
        board = os.path.join(build, "board_sim", "ulx3s-rtl")
        return story_after_upload(*start_pty([board, "--uart-pty", "--max-cycles", "400000000"]), "llm_ulx3s.elf",
                                  kv="kv unicaim 32 digital\npolicy unicaim 128 k=32", board=True)

    @add("model-in-ddr3-upload-runs")
    def _():
        # The same program on the Arty's DDR3 build (its board simulator:
        # the model image and the state in DDR3 behind LiteDRAM's controller,
        # which the bootloader opened), as `make demo BOARD=arty` runs it.
        board = os.path.join(build, "board_sim", "arty-rtl")
        return story_after_upload(*start_pty([board, "--uart-pty", "--max-cycles", "600000000"]), "llm_ulx3s.elf",
                                  kv="kv unicaim 32 digital\npolicy unicaim 128 k=32", board=True)

    @add("model-preloaded-in-ddr3-runs")
    def _():
        # The same with the model image put in the DDR3 model's banks before
        # reset (arty-rtl --preload-ext, as `make bench`'s SmolLM2 run on
        # this board does: 170 MB would take hours through the UART) and
        # only the code uploaded: the image's CRC, checked when the console
        # opens it, and the host's tokens hold only if every word sits where
        # LiteDRAM's controller reads it.
        board = os.path.join(build, "board_sim", "arty-rtl")
        elf = os.path.join(build, "fw", "llm_ulx3s.elf")
        return story_after_upload(*start_pty([board, "--uart-pty", "--preload-ext", elf, "--max-cycles", "600000000"]),
                                  "llm_ulx3s.elf", board=True, ext_in_memory=True)

    def refused(header_fields, data, want, then_good=True, answer=rb"ERR[^\n]*\n"):
        """Send a crafted upload; expect WANT (in the line ANSWER matches), no
        program start, and recovery."""
        proc, port = start_sim(sim, boot, preload=hello)
        read_until(port, proc, rb"waiting", 20)
        port.write(b"UCB1")
        got = read_until(port, proc, rb"HDR", 20)
        port.write(b"UCHD" + struct.pack("<IIII", *header_fields))
        if data:
            got += read_until(port, proc, rb"OK|ERR[^\n]*\n", 20)
            port.write(data)
        got += read_until(port, proc, answer, 60)
        ok = want in got and "Hello from" not in got and "RUN" not in got
        detail = got
        if ok and then_good:  # the bootloader still takes a good upload
            try:
                line = uartctl.upload(port, hello, announce=open(os.devnull, "w"))
                text = read_until(port, proc, rb"instret=\d+", 60)
                ok = line.startswith("RUN") and "Hello from" in text
                detail += "\n" + line + "\n" + text
            except uartctl.UploadError as e:
                ok, detail = False, detail + f"\nrecovery upload failed: {e}"
        if proc.poll() is None:
            proc.kill()
        finish(proc)
        return ok, detail

    base, image, entry = elfimage.elf_image(hello)
    crc = zlib.crc32(image) & 0xFFFFFFFF

    @add("corrupt-upload-refused")
    def _():
        bad = bytearray(image)
        bad[len(bad) // 2] ^= 0xFF
        return refused((base, len(image), crc, entry), bytes(bad), "ERR crc mismatch")

    @add("truncated-upload-refused")
    def _():
        return refused((base, len(image), crc, entry), image[:len(image) // 2], "ERR timeout in data")

    @add("oversized-upload-refused")
    def _():
        return refused((base, 0x00800000, crc, entry), b"", "ERR image outside RAM")

    @add("misaddressed-upload-refused")
    def _():
        return refused((PERIPH_BASE, len(image), crc, PERIPH_BASE), b"", "ERR image outside RAM")

    @add("entry-outside-image-refused")
    def _():
        return refused((base, len(image), crc, base + len(image) + 64), b"", "ERR entry outside the image")

    @add("misaligned-upload-refused")
    def _():
        return refused((base + 2, len(image), crc, entry), b"", "ERR misaligned")

    @add("program-in-external-memory-runs")
    def _():
        # Code and data in external memory (tests/boot/ext_code.S): written
        # through the data cache, fetched through the instruction cache after
        # the bootloader's fence.i.
        prog = os.path.join(build, "tests", "boot", "ext_code.elf")
        proc, port = start_sim(sim, boot)
        try:
            line = uartctl.upload(port, prog, announce=open(os.devnull, "w"))
            out = read_until(port, proc, rb"running from external memory\r\n", 60)
        finally:
            proc.kill()  # it ends in a loop
            proc.wait()
        ok = line.startswith(f"RUN 0x{EXT_BASE:08x}") and "running from external memory" in out
        return ok, f"{line!r} {out[-300:]!r}"

    @add("arty-ddr3-program-runs")
    def _():
        # The Arty's DDR3 build on its board simulator (LiteDRAM's controller
        # and DDR3 model, on a clock of its own): the bootloader opens the
        # DDR3 through DRAMCTL ("DDR3 ok"), takes ext_code.elf into it and
        # runs it from there through the caches.
        board = os.path.join(build, "board_sim", "arty-rtl")
        prog = os.path.join(build, "tests", "boot", "ext_code.elf")
        proc, port = start_pty([board, "--uart-pty", "--max-cycles", "400000000"])
        try:
            banner = read_until(port, proc, rb"waiting", 60)
            line = uartctl.upload(port, prog, announce=open(os.devnull, "w"))
            out = read_until(port, proc, rb"running from external memory\r\n", 60)
        except uartctl.UploadError as e:
            line, out = f"upload failed: {e}", ""
        finally:
            proc.terminate()
            proc.wait()
        ok = "DDR3 ok" in banner and line.startswith(f"RUN 0x{EXT_BASE:08x}") and "running from external memory" in out
        return ok, f"{banner!r} {line!r} {out[-300:]!r}"

    @add("arty-ddr3-failure-reported")
    def _():
        # The controller's clock stops in the middle of the DDR3's
        # initialisation (at SoC cycle 10000 of about 32000), as when its PLL
        # loses lock: DRAMCTL's accesses time out, the bootloader says why
        # and leaves external memory out -- an upload into DDR3 is refused --
        # and still runs a program in block RAM.
        board = os.path.join(build, "board_sim", "arty-rtl")
        prog = os.path.join(build, "tests", "boot", "ext_code.elf")
        proc, port = start_pty([board, "--uart-pty", "--stop-dram-clock-at", "10000", "--max-cycles", "400000000"])
        refusal = text = ""
        try:
            banner = read_until(port, proc, rb"waiting", 60)
            try:
                line = uartctl.upload(port, prog, announce=open(os.devnull, "w"))
            except uartctl.UploadError as e:
                refusal = str(e)
            line = uartctl.upload(port, hello, announce=open(os.devnull, "w"))
            text = read_until(port, proc, rb"Hello from", 60)
        except uartctl.UploadError as e:
            line = f"upload failed: {e}"
        finally:
            proc.terminate()
            proc.wait()
        ok = "DDR3 FAIL controller not answering" in banner and "DDR3 ok" not in banner \
            and re.search(r"ERR image outside RAM\s*$", refusal) is not None \
            and line.startswith(f"RUN 0x{RAM_BASE:08x}") and "Hello from" in text
        return ok, f"{banner!r} {refusal!r} {line!r} {text[-300:]!r}"

    @add("upload-past-external-memory-refused")
    def _():
        # The last 4 KiB of the simulator's 32 MB, 8 KiB long: past the end.
        return refused((EXT_BASE + SIM_EXT_BYTES - 4096, 8192, crc, 0xFFFFFFFF), b"", "ERR image outside RAM and external")

    @add("piece-loads-then-a-program-runs")
    def _():
        # A piece for external memory (entry 0xFFFFFFFF) is answered LOADED
        # and nothing starts; the next upload runs as usual.
        return refused((EXT_BASE + 4096, len(image), crc, 0xFFFFFFFF), image, f"LOADED 0x{EXT_BASE + 4096:08x}",
                       answer=rb"LOADED[^\n]*\n")

    return tests
