"""A scripted console session on the simulated SoC, through tools/uartctl.py."""
import os
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def console_session(run, build, elf, lines, tmp, timeout=300, sim="sim", binary=None):
    """Sends LINES (one string) to build/fw/ELF on build/SIM/unicaim-sim (or
    on BINARY, another simulator); returns run's (rc, out, err). TIMEOUT
    bounds the wait for each prompt, twice it the whole session."""
    # A name of its own: tests run side by side in one TMP (a count of its
    # files gave two sessions the same script).
    fd, script = tempfile.mkstemp(prefix="session_", suffix=".txt", dir=tmp)
    with os.fdopen(fd, "w") as f:
        f.write(lines)
    return run(["/usr/bin/python3", os.path.join(ROOT, "tools", "uartctl.py"), "sim", "--sim",
                binary or os.path.join(build, sim, "unicaim-sim"), "--elf", os.path.join(build, "fw", elf),
                "--script", script, "--timeout", str(timeout)], timeout * 2)
