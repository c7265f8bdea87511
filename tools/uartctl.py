#!/usr/bin/python3
"""uartctl: talk to the SoC's UART console -- a board's serial port or the
simulator's pseudo-terminal -- interactively or from a script.

  uartctl.py sim [--sim BINARY] [--elf FILE] [--preload FILE] [--upload APP.elf [--ext-preloaded]] [--script FILE]
      start build/sim/unicaim-sim (or the functional simulator,
      build/iss/unicaim-iss, or a board simulator, which holds its own ROM
      and RAM images: no --elf) with --uart-pty and talk to it;
      --ext-preloaded: the Arty's board simulator starts with APP.elf's
      external-memory data in its DDR3 (a 170 MB model would take hours
      through the simulated UART) and only the RAM part is uploaded
  uartctl.py serial --port /dev/ttyUSB1 [--baud RATE] [--upload APP.elf] [--script FILE]
      talk to a board

--upload checks APP.elf (a 32-bit RISC-V executable whose code fits the RAM
and data the RAM or external memory) and sends it to the boot ROM's
bootloader first (reset the board when asked; data for external memory
goes first, as pieces the bootloader only loads), with a progress bar, rate
and time left; a refusal is shown with the bootloader's reason. Then it
talks to the program it started.

A script is a text file of console lines; each is sent after the prompt
("> ") appears, and the output is streamed to stdout. Lines starting with '#'
are comments. Without a script, on a terminal, keys go straight to the SoC
(the console edits the line): Ctrl-] quits, Ctrl-U re-uploads --upload's
file through the bootloader (after a board reset; the simulator is
restarted), Ctrl-R restarts the simulator (a power-on reset), Ctrl-C is
passed on.

Waits are for output, never for a whole command: --timeout is how long the
SoC may stay silent (default 120 s), so a slow simulator only makes a
session longer. A simulator uartctl started always ends with it, whatever
happens (Ctrl-C, a refused upload, a missing script).
"""
import argparse
import ctypes
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
import tty
import zlib

import serial  # Debian: python3-serial

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "platform"))
from elfimage import EXT, RAM, ElfError, elf_pieces  # noqa: E402
import platforms  # noqa: E402

PROMPT = b"\n> "  # at the start of a line: "<arg> " in help text is no prompt
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SIM = os.path.join(ROOT, "build", "sim", "unicaim-sim")
QUIT, REUPLOAD, RESET = b"\x1d", b"\x15", b"\x12"  # Ctrl-], Ctrl-U, Ctrl-R
EXITED = "exited"  # run_script: the script's exit line ended the program
BYE = b"\nbye\r\n"  # the console's last line before it ends the program
EXIT_GRACE_S = 10  # a simulator ends moments after the goodbye; a board simulator never does


class Refused(Exception):
    """Bad input, found before anything runs (exit status 2)."""


class Silence(Exception):
    """The other end said nothing for too long, or went away."""


class UploadError(Exception):
    pass


class Link:
    """A port read with idle timeouts; what arrives is echoed and logged."""

    def __init__(self, port, echo=None, log=None, alive=lambda: True):
        self.port, self.echo, self.log, self.alive = port, echo, log, alive
        self.seen = bytearray()

    def poll(self, wait=0.05, most=None):
        """Bytes that arrived within WAIT seconds (b"" if none), MOST of them
        at most; Silence if the other end closed."""
        alive = self.alive()  # asked first: what it said before it ended is still read
        try:
            ready = self.port.in_waiting
            data = self.port.read(min(ready or 1, most or ready or 1)) if wait else self.port.read(ready)
        except OSError:  # serial.SerialException, or EIO from a pty whose simulator is gone
            data = b""
            alive = False
        if not data and not alive:
            raise Silence("the simulator ended")
        if data:
            self.seen += data
            if self.echo:
                self.echo.write(data)
                self.echo.flush()
            if self.log:
                self.log.write(data)
        return data

    def expect(self, tokens, idle, what, bytewise=False):
        """Reads until one of TOKENS is seen (returned; SEEN keeps what came
        after it); Silence after IDLE seconds without a byte. BYTEWISE reads
        nothing past the token (what follows stays in the port)."""
        last = time.monotonic()
        while True:
            for t in tokens:
                if t in self.seen:
                    return t
            if self.poll(most=1 if bytewise else None):
                last = time.monotonic()
            elif time.monotonic() - last > idle:
                raise Silence(f"no {what} for {idle:g} s")

    def take(self, token):
        """Drops SEEN up to and including TOKEN."""
        del self.seen[:self.seen.index(token) + len(token)]

    def send(self, data):
        self.port.write(data)
        self.port.flush()


def progress(out, sent, total, t0):
    rate = sent / max(time.monotonic() - t0, 1e-9)
    left = (total - sent) / rate if rate else 0
    done = sent * 40 // total
    out.write(f"\r[{'#' * done}{'.' * (40 - done)}] {sent}/{total} bytes  {rate / 1024:.1f} KiB/s  {left:.0f} s left ")
    out.flush()


NO_ENTRY = 0xFFFFFFFF  # a piece that is only loaded (firmware/boot/boot_upload.h)


def upload(port, path, announce=sys.stderr, block=1024, idle=60.0, ram=RAM, ext=EXT, ext_in_memory=False):
    """Checks an ELF and sends it to the bootloader through PORT (a serial
    port or a Link, which then keeps what the program sent after the RUN
    line); returns the bootloader's RUN line. A program with data in
    external memory goes in pieces: each block of data first (answered
    LOADED), the code last; EXT_IN_MEMORY leaves that data out (a board
    simulator that preloaded it). UploadError says why it was not run."""
    try:
        pieces, entry = elf_pieces(path, regions=(ram, ext))
    except ElfError as e:
        raise UploadError(str(e))
    if ext_in_memory:
        pieces = [p for p in pieces[:-1] if not ext[0] <= p[0] < ext[0] + ext[1]] + pieces[-1:]
    link = port if isinstance(port, Link) else Link(port)

    def refusal(e):
        """The bootloader's reason, read to the end of its line (the end of
        the line before it, HDR's, may have come after SEEN was cleared)."""
        if b"ERR" in link.seen:
            del link.seen[:link.seen.index(b"ERR")]
        try:
            link.expect([b"\n"], idle, "end of the refusal")
        except Silence:
            pass
        reason = link.seen.decode(errors="replace").strip()
        return UploadError(f"refused: {reason[reason.find('ERR'):] if 'ERR' in reason else reason or e}")

    def send(addr, image, entry, answer):
        """One upload: the handshake, the header, the blocks, then ANSWER."""
        start = time.monotonic()
        while True:
            link.send(b"UCB1")
            try:
                link.expect([b"HDR"], 0.5, "bootloader")
                break
            except Silence:
                if time.monotonic() - start > idle:
                    raise UploadError(f"no answer from the bootloader in {idle:g} s")
        link.seen.clear()
        link.send(b"UCHD" + struct.pack("<IIII", addr, len(image), zlib.crc32(image) & 0xFFFFFFFF, entry))
        try:
            if link.expect([b"OK", b"ERR"], idle, "answer to the header") != b"OK":
                raise refusal("header refused")
            sent, t0 = 0, time.monotonic()
            while sent < len(image):
                chunk = image[sent:sent + block]
                link.seen.clear()
                link.send(chunk)
                if link.expect([b"K", b"ERR"], idle, "acknowledgement", bytewise=True) != b"K":
                    raise refusal("block refused")
                sent += len(chunk)
                progress(announce, sent, len(image), t0)
            announce.write("\n")
            link.seen.clear()
            if link.expect([answer, b"ERR"], idle, "start", bytewise=True) != answer:
                raise refusal("image refused")
            del link.seen[:link.seen.index(answer)]
            link.expect([b"\n"], idle, f"end of the {answer.decode()} line", bytewise=True)
        except Silence as e:
            raise UploadError(str(e))
        line = link.seen[:link.seen.index(b"\n")].decode(errors="replace").strip()
        link.take(b"\n")
        return line

    announce.write("uartctl: waiting for the bootloader (reset the board if nothing happens)\n")
    for addr, image in pieces[:-1]:
        announce.write(f"uartctl: {addr:#010x}: {send(addr, image, NO_ENTRY, b'LOADED')}\n")
    return send(*pieces[-1], entry, b"RUN")


def script_lines(path):
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise Refused(f"cannot read the script {path}: {e.strerror}")
    return [line for line in lines if not line.strip().startswith("#")]


def run_script(link, lines, idle):
    """Each line after the prompt. False (with the reason on stderr) when
    the SoC fell silent before a prompt, EXITED when an exit line ended the
    program."""
    try:
        link.expect([PROMPT], idle, "prompt")
        link.take(PROMPT)
        for line in lines:
            link.send(line.encode() + b"\r")
            exit_line = line.split()[:1] == ["exit"]
            try:
                if link.expect([PROMPT, BYE] if exit_line else [PROMPT], idle, "prompt") == BYE:
                    return EXITED  # the program ends as asked
            except Silence:
                if exit_line:
                    return EXITED
                raise
            link.take(PROMPT)
    except Silence as e:
        sys.stderr.write(f"\nuartctl: {e}\n")
        return False
    return True


def run_keys(link, reupload, reset):
    """Keys to the SoC, its output to the terminal, until Ctrl-]."""
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    sys.stderr.write("uartctl: Ctrl-] quits" + (", Ctrl-U re-uploads" if reupload else "") +
                     (", Ctrl-R resets" if reset else "") + "\n")
    try:
        tty.setraw(fd)
        while True:
            ready, _, _ = select.select([fd], [], [], 0.02)
            if ready:
                key = os.read(fd, 64)
                if not key or QUIT in key:
                    return
                if (REUPLOAD in key and reupload) or (RESET in key and reset):
                    termios.tcsetattr(fd, termios.TCSADRAIN, saved)
                    if reset:
                        reset()
                        sys.stderr.write("uartctl: the simulator was restarted\n")
                    if REUPLOAD in key:
                        reupload()
                    tty.setraw(fd)
                    continue
                link.send(key)
            link.poll(0)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def die_with_parent():
    """In the child: the kernel sends it SIGTERM when uartctl dies, even by
    SIGKILL (Linux prctl PR_SET_PDEATHSIG)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)


class Simulator:
    """The simulator on a pseudo-terminal, in its own process group: leaving
    the block ends it, however the block is left, and it ends if uartctl
    is killed."""

    def __init__(self, cmd, idle):
        self.cmd, self.idle, self.proc, self.pty = cmd, idle, None, None

    def __enter__(self):
        self.proc = subprocess.Popen(self.cmd, stderr=subprocess.PIPE, start_new_session=True,
                                     preexec_fn=die_with_parent)
        lines, last = [], time.monotonic()
        while self.pty is None and self.proc.poll() is None and time.monotonic() - last < self.idle:
            ready, _, _ = select.select([self.proc.stderr], [], [], 0.5)
            if ready:
                line = self.proc.stderr.readline().decode(errors="replace")
                lines.append(line)
                last = time.monotonic()
                m = re.search(r"UART on (\S+)", line)
                if m:
                    self.pty = m.group(1)
        if self.pty is None:
            self.stop()
            raise Refused("".join(lines).rstrip() or "the simulator did not start")
        return self

    def alive(self):
        return self.proc.poll() is None

    def restart(self):
        """A power-on reset: the same command again, on a new terminal."""
        self.stop()
        self.proc, self.pty = None, None
        return self.__enter__()

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def __exit__(self, *exc):
        self.stop()
        return False


def talk(port, args, alive, log, reset=None):
    """Upload, then the script, piped lines (each after a prompt) or the
    keyboard. The exit status, and whether the script's exit is ending the
    program. RESET, if given, restarts the SoC and returns its new port."""
    link = Link(port, alive=alive)

    def restart():
        link.port.close()
        link.port = reset()

    def send_image():
        try:
            print(upload(link, args.upload, idle=args.timeout, ext_in_memory=getattr(args, "ext_preloaded", False)),
                  flush=True)
        except UploadError as e:
            sys.stderr.write(f"uartctl: upload failed: {e}\n")
            return False
        return True
    if args.upload and not send_image():
        return 3, False
    link.echo, link.log = sys.stdout.buffer, log
    if link.seen:  # what the program said while the upload finished
        link.echo.write(link.seen)
        link.echo.flush()
        if log:
            log.write(link.seen)
    try:
        if args.script or not os.isatty(sys.stdin.fileno()):
            lines = script_lines(args.script) if args.script else sys.stdin.read().splitlines()
            outcome = run_script(link, lines, args.timeout)
            return (0 if outcome else 1), outcome is EXITED
        run_keys(link, send_image if args.upload else None, restart if reset else None)
    except Silence as e:
        sys.stderr.write(f"\nuartctl: {e}\n")
    return 0, False


def cmd_sim(args):
    if args.script:
        script_lines(args.script)  # refused before anything starts
    if args.upload:
        try:
            elf_pieces(args.upload, regions=(RAM, EXT))
        except ElfError as e:
            raise Refused(f"upload refused: {e}")
    cmd = [args.sim] + (["--elf", args.elf] if args.elf else []) + ["--uart-pty"]
    if args.preload:
        cmd += ["--preload", args.preload]
    if args.ext_preloaded:
        if not args.upload:
            raise Refused("--ext-preloaded needs --upload (the program whose external-memory data to preload)")
        cmd += ["--preload-ext", args.upload]
    if args.max_cycles:
        cmd += ["--max-cycles", str(args.max_cycles)]
    with open_log(args.log) as log, Simulator(cmd, args.timeout) as sim:
        port = serial.Serial(sim.pty, timeout=0.05)
        rc, exiting = talk(port, args, sim.alive, log,
                           reset=lambda: serial.Serial(sim.restart().pty, timeout=0.05))
        if exiting:  # a slow simulator may take a moment to get there
            try:
                sim.proc.wait(EXIT_GRACE_S)
            except subprocess.TimeoutExpired:
                pass
        if rc == 0 and args.keep:
            sim.proc.wait()
        if sim.proc.poll() is None:
            sim.stop()  # the script is done but the program still runs
        sys.stderr.write(sim.proc.stderr.read().decode(errors="replace"))
        code = sim.proc.returncode
        return rc if rc else (code if code and code > 0 else 0)


def cmd_serial(args):
    if args.script:
        script_lines(args.script)
    try:
        port = serial.Serial(args.port, args.baud, timeout=0.05)
    except serial.SerialException as e:
        raise Refused(f"cannot open {args.port}: {e}")
    with open_log(args.log) as log:
        if not args.upload and args.script:
            port.write(b"\r")  # a fresh prompt
        return talk(port, args, lambda: True, log)[0]


class open_log:
    """The --log file (binary, appended), or nothing."""

    def __init__(self, path):
        self.path, self.f = path, None

    def __enter__(self):
        if self.path:
            try:
                self.f = open(self.path, "ab")
            except OSError as e:
                raise Refused(f"cannot write the log {self.path}: {e.strerror}")
        return self.f

    def __exit__(self, *exc):
        if self.f:
            self.f.close()
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("sim", help="run firmware in the simulator and talk to it")
    s.add_argument("--elf", help="the program at reset (unicaim-sim needs one)")
    s.add_argument("--sim", default=DEFAULT_SIM)
    s.add_argument("--max-cycles", type=int, default=0)
    s.add_argument("--keep", action="store_true", help="leave the program running after the script")
    s.add_argument("--preload", help="an ELF already in memory at reset (a bitstream's RAM image)")
    s.add_argument("--ext-preloaded", action="store_true",
                   help="the board simulator (arty-rtl) holds --upload's external-memory data from reset "
                        "(--preload-ext); only its RAM part is uploaded")
    b = sub.add_parser("serial", help="talk to a board")
    b.add_argument("--port", required=True)
    b.add_argument("--baud", type=int, default=platforms.platform("ulx3s-85f")["baud"],
                   help="the console's rate (default: the boards', boards/boards.toml)")
    for p in (s, b):
        p.add_argument("--upload", help="send this ELF through the bootloader first")
        p.add_argument("--script", help="file of console lines to send")
        p.add_argument("--log", help="append everything the SoC sends to this file")
        p.add_argument("--timeout", type=float, default=120.0, help="seconds the SoC may stay silent")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("uartctl: terminated"))  # unwinds: the simulator ends
    # Ctrl-C even when started from a shell that ignores SIGINT (a background
    # job inherits SIG_IGN, and Python then leaves it ignored).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if args.timeout <= 0:
        ap.error("--timeout must be positive")
    try:
        sys.exit(cmd_sim(args) if args.mode == "sim" else cmd_serial(args))
    except Refused as e:
        sys.stderr.write(f"uartctl: {e}\n")
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit("\nuartctl: interrupted")


if __name__ == "__main__":
    main()
