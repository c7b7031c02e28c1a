"""`ExitStatus`: how the daemon's process ended, as `close()` reports it."""

from __future__ import annotations

import signal
from typing import NamedTuple, Optional


class ExitStatus(NamedTuple):
    """How the daemon's process ended: `exit_code` when it exited (0 after a
    clean shutdown), `signal` (a name such as "SIGKILL") when a signal ended
    it; both None when it never ran. The Node client reports the same two
    fields as `{exitCode, signal}`."""

    exit_code: Optional[int]
    signal: Optional[str]

    @classmethod
    def from_returncode(cls, returncode: Optional[int]) -> "ExitStatus":
        """The status of a `Popen.returncode` (negative: killed by that signal)."""
        if returncode is None:
            return cls(None, None)
        if returncode < 0:
            try:
                name = signal.Signals(-returncode).name
            except ValueError:
                name = str(-returncode)
            return cls(None, name)
        return cls(returncode, None)
