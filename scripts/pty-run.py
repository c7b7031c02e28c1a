#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal, for the tests of the clients' terminal
apps (Node has no pty of its own; the Python tests use it too, so both drive
their app the same way).

    python3 scripts/pty-run.py ROWS COLUMNS STEPS_JSON -- COMMAND...

STEPS is a list of [kind, arg]: ["send", text] types text, ["wait", seconds]
collects the output meanwhile, ["until", [text, seconds]] collects it until
the current segment holds text (or the seconds passed: the test's assertions
then show what came), ["mark", null] starts a new output segment,
["raw", null] records whether the terminal is in raw mode then. Prints one
JSON object: the output segments, the raw-mode readings, the exit code, and
whether the terminal settings after the exit are those before the start.
"""

import fcntl
import json
import os
import select
import struct
import subprocess
import sys
import termios
import time


def main() -> int:
    rows, columns, steps = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
    command = sys.argv[sys.argv.index("--") + 1 :]
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    segments = [b""]
    raw = []

    def pump(seconds: float, until: bytes | None = None) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and (until is None or until not in segments[-1]):
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    segments[-1] += os.read(master, 65536)
                except OSError:
                    return

    try:
        for kind, arg in steps:
            if kind == "send":
                os.write(master, arg.encode())
            elif kind == "wait":
                pump(arg)
            elif kind == "until":
                pump(arg[1], until=arg[0].encode())
            elif kind == "mark":
                segments.append(b"")
            elif kind == "raw":
                lflag = termios.tcgetattr(slave)[3]
                raw.append(not lflag & (termios.ICANON | termios.ECHO | termios.ISIG))
        try:
            code = proc.wait(15)
        except subprocess.TimeoutExpired:
            code = None
        pump(0.2)
        restored = termios.tcgetattr(slave) == before
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
    print(json.dumps({
        "segments": [s.decode("utf-8", "replace") for s in segments],
        "raw": raw,
        "exitCode": code,
        "restored": restored,
    }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
