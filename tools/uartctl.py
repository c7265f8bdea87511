#!/usr/bin/python3
"""uartctl: talk to the SoC's UART console -- a board's serial port or the
simulator's pseudo-terminal -- interactively or from a script.

  uartctl.py sim --elf FILE [--preload FILE] [--upload APP.elf] [--script FILE]
      start build/sim/unicaim-sim with --uart-pty and talk to it
  uartctl.py serial --port /dev/ttyUSB1 [--baud 115200] [--upload APP.elf] [--script FILE]
      talk to a board

--upload sends APP.elf to the boot ROM's bootloader first (reset the board
when asked), with a progress bar, then talks to the program it started.

A script is a text file of console lines; each is sent after the prompt
("> ") appears, and the output is streamed to stdout. Lines starting with '#'
are comments. Without a script, lines typed on stdin are sent.
"""
import argparse
import os
import re
import select
import subprocess
import sys
import time

import serial  # Debian: python3-serial

import struct
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elfimage import ElfError, elf_image  # noqa: E402

PROMPT = b"\n> "  # at the start of a line: "<arg> " in help text is no prompt
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SIM = os.path.join(ROOT, "build", "sim", "unicaim-sim")


class Console:
    def __init__(self, port, echo=sys.stdout.buffer):
        self.port = port
        self.echo = echo
        self.seen = bytearray()

    def read_until(self, marker, timeout, alive=lambda: True):
        """Read (and echo) until MARKER appears; False on timeout or when alive() fails."""
        deadline = time.monotonic() + timeout
        while marker not in self.seen:
            if time.monotonic() > deadline or not alive():
                return False
            try:
                data = self.port.read(self.port.in_waiting or 1)
            except serial.SerialException:
                return False  # the other end closed (the simulation ended)
            if data:
                self.seen += data
                self.echo.write(data)
                self.echo.flush()
        self.seen = self.seen[self.seen.index(marker) + len(marker):]
        return True

    def send_line(self, line):
        self.port.write(line.encode() + b"\r")
        self.port.flush()


class UploadError(Exception):
    pass



def upload(port, path, announce=sys.stderr, block=1024, wait=60.0):
    """Send an ELF to the bootloader; returns the bootloader's RUN line."""
    try:
        addr, image, entry = elf_image(path)
    except ElfError as e:
        raise UploadError(str(e))
    seen = bytearray()

    def expect(tokens, timeout, bytewise=False):
        """Read until one of TOKENS; BYTEWISE reads nothing past it (the
        program the bootloader starts may already be talking)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen.extend(port.read(1 if bytewise else (port.in_waiting or 1)))
            for t in tokens:
                if t in seen:
                    return t
        return None

    announce.write(f"uartctl: waiting for the bootloader (reset the board if nothing happens)\n")
    deadline = time.monotonic() + wait
    while expect([b"HDR"], 0.5) is None:
        if time.monotonic() > deadline:
            raise UploadError("no answer from the bootloader")
        port.write(b"UCB1")
    seen.clear()
    port.write(b"UCHD" + struct.pack("<IIII", addr, len(image), zlib.crc32(image) & 0xFFFFFFFF, entry))
    if expect([b"OK", b"ERR"], 30) != b"OK":
        expect([b"\n"], 5)
        raise UploadError("refused: " + seen.decode(errors="replace").strip())
    sent, t0 = 0, time.monotonic()
    while sent < len(image):
        chunk = image[sent:sent + block]
        seen.clear()
        port.write(chunk)
        if expect([b"K", b"ERR"], 30, bytewise=True) != b"K":
            expect([b"\n"], 5)
            raise UploadError("no acknowledgement: " + seen.decode(errors="replace").strip())
        sent += len(chunk)
        done = sent * 40 // len(image)
        announce.write(f"\r[{'#' * done}{'.' * (40 - done)}] {sent}/{len(image)} bytes")
        announce.flush()
    announce.write(f"  {len(image) / max(time.monotonic() - t0, 1e-9) / 1024:.1f} KiB/s\n")
    seen.clear()
    if expect([b"RUN", b"ERR"], 30, bytewise=True) != b"RUN":
        expect([b"\n"], 5)
        raise UploadError("refused: " + seen.decode(errors="replace").strip())
    del seen[:seen.index(b"RUN")]
    expect([b"\n"], 5, bytewise=True)
    return seen.decode(errors="replace").strip()


def script_lines(path):
    with open(path) as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.strip().startswith("#"):
                continue
            yield line


def run_session(con, lines, timeout, alive):
    if not con.read_until(PROMPT, timeout, alive):
        return False
    for line in lines:
        con.send_line(line)
        if not con.read_until(PROMPT, timeout, alive):
            return line.split()[:1] == ["exit"]  # the program ended as asked
    return True


def interactive_lines():
    for line in sys.stdin:
        yield line.rstrip("\n")


def cmd_sim(args):
    cmd = [args.sim, "--elf", args.elf, "--uart-pty"]
    if args.preload:
        cmd += ["--preload", args.preload]
    if args.max_cycles:
        cmd += ["--max-cycles", str(args.max_cycles)]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE)
    pty = None
    stderr_lines = []
    deadline = time.monotonic() + 30
    while pty is None and time.monotonic() < deadline and proc.poll() is None:
        ready, _, _ = select.select([proc.stderr], [], [], 0.5)
        if ready:
            line = proc.stderr.readline().decode(errors="replace")
            stderr_lines.append(line)
            m = re.search(r"UART on (\S+)", line)
            if m:
                pty = m.group(1)
    if pty is None:
        proc.kill()
        sys.stderr.write("".join(stderr_lines) or "uartctl: the simulator did not start\n")
        return 2
    port = serial.Serial(pty, timeout=0.05)
    if args.upload:
        try:
            print(upload(port, args.upload), flush=True)
        except UploadError as e:
            proc.kill()
            sys.stderr.write(f"uartctl: upload failed: {e}\n")
            return 3
    con = Console(port)
    lines = script_lines(args.script) if args.script else interactive_lines()
    ok = run_session(con, lines, args.timeout, lambda: proc.poll() is None)
    if proc.poll() is None and not args.keep:
        # The script is done but the program still runs: stop it.
        proc.terminate()
    rc = proc.wait()
    rest = proc.stderr.read().decode(errors="replace")
    sys.stderr.write(rest)
    if not ok:
        sys.stderr.write("uartctl: no prompt from the console\n")
        return 1
    return rc if rc >= 0 else 0


def cmd_serial(args):
    port = serial.Serial(args.port, args.baud, timeout=0.05)
    if args.upload:
        try:
            print(upload(port, args.upload), flush=True)
        except UploadError as e:
            sys.stderr.write(f"uartctl: upload failed: {e}\n")
            return 3
    con = Console(port)
    lines = script_lines(args.script) if args.script else interactive_lines()
    con.send_line("")  # fresh prompt
    return 0 if run_session(con, lines, args.timeout, lambda: True) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("sim", help="run firmware in the simulator and talk to it")
    s.add_argument("--elf", required=True)
    s.add_argument("--sim", default=DEFAULT_SIM)
    s.add_argument("--max-cycles", type=int, default=0)
    s.add_argument("--keep", action="store_true", help="leave the program running after the script")
    s.add_argument("--preload", help="an ELF already in memory at reset (a bitstream's RAM image)")
    b = sub.add_parser("serial", help="talk to a board")
    b.add_argument("--port", required=True)
    b.add_argument("--baud", type=int, default=115200)
    for p in (s, b):
        p.add_argument("--upload", help="send this ELF through the bootloader first")
        p.add_argument("--script", help="file of console lines to send")
        p.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for each prompt")
    args = ap.parse_args()
    sys.exit(cmd_sim(args) if args.mode == "sim" else cmd_serial(args))


if __name__ == "__main__":
    main()
