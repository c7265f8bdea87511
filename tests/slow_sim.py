"""The simulator at a tenth of its speed: runs it (the arguments after the
first, the simulator's path) and lets it run 10 ms in every 100 ms with
SIGSTOP/SIGCONT, as a busy machine would. Exits with its status; a signal
to this process ends it too (uartctl ends the whole process group)."""
import os
import signal
import subprocess
import sys
import time

RUN_S, PERIOD_S = 0.01, 0.1


def main():
    sim = subprocess.Popen(sys.argv[1:])
    signal.signal(signal.SIGTERM, lambda *_: (sim.kill(), sys.exit(143)))
    while sim.poll() is None:
        os.kill(sim.pid, signal.SIGCONT)
        time.sleep(RUN_S)
        if sim.poll() is None:
            os.kill(sim.pid, signal.SIGSTOP)
        time.sleep(PERIOD_S - RUN_S)
    sys.exit(sim.returncode)


if __name__ == "__main__":
    main()
