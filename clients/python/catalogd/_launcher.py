"""The `catalogd` console command of the Python package: it runs the daemon
that a platform wheel carries (`catalogd/_bin/catalogd`, written by
scripts/dist), with this command's arguments, in this process (`exec`), so
that signals, exit status and stdin/stdout are the daemon's own.

The pure wheel and a source checkout carry no daemon: the command then says
where to get one and exits with status 1.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import List, NoReturn, Optional

from ._core import BUNDLED_BINARY, ENV_BINARY
from ._version import __version__


def missing_daemon_message(bundled: Path) -> str:
    return (
        f"catalogd: this catalogd package ({__version__}) carries no daemon: {bundled} does not exist.\n"
        "It is the pure-Python wheel (or a source checkout), which has the client library but not the daemon.\n"
        "To get the `catalogd` command:\n"
        "  - install the platform wheel that scripts/dist builds, which bundles the daemon:\n"
        f"      python3 -m pip install dist/catalogd-{__version__}-py3-none-manylinux_*.whl\n"
        "  - or build the daemon from the repository (`swift build`) and run .build/debug/catalogd.\n"
        f"The Python client itself also runs a daemon given as Client(binary=...) or ${ENV_BINARY}."
    )


def main(argv: Optional[List[str]] = None, bundled: Optional[Path] = None) -> NoReturn:
    """Replaces this process with the bundled daemon, passing `argv`
    (default: this command's arguments); exits 1 with a message on stderr
    when the package carries no daemon."""
    daemon = BUNDLED_BINARY if bundled is None else bundled
    args = sys.argv[1:] if argv is None else argv
    if not daemon.is_file():
        print(missing_daemon_message(daemon), file=sys.stderr)
        sys.exit(1)
    try:
        os.execv(daemon, [str(daemon), *args])
    except OSError as e:  # not executable, wrong architecture, …
        print(f"catalogd: cannot run the bundled daemon {daemon}: {e}", file=sys.stderr)
        sys.exit(1)
