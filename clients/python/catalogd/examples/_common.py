"""What the examples share: finding the daemon and their command line."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import List, Optional, Tuple

from .. import BinaryNotFound, find_binary

_REPO_ROOT = Path(__file__).resolve().parents[4]


def daemon_binary(explicit: Optional[str]) -> str:
    """`--bin`, else `$CATALOGD_BIN`, else the daemon bundled in the package,
    else PATH, else `.build/{debug,release}/catalogd` of the checkout the
    examples run from, or (once pip installed them elsewhere) of the current
    directory, so that `python3 -m catalogd.examples.tour` works at the
    repository's root. Exits with a message when there is none."""
    try:
        return find_binary(explicit)
    except BinaryNotFound as e:
        if explicit is None:
            for root in (_REPO_ROOT, Path.cwd()):
                for build in ("debug", "release"):
                    candidate = root / ".build" / build / "catalogd"
                    if candidate.is_file():
                        return str(candidate)
        raise SystemExit(f"{e}\n(build it with `swift build` at the root of the repository)") from None


def parser(description: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=description,
        epilog="Arguments after `--` go to the daemon, e.g. `-- --data-dir /tmp/catalogd --log-level debug`.",
    )
    p.add_argument("--bin", help="the catalogd executable (default: $CATALOGD_BIN, PATH, the repo's build)")
    p.add_argument("--framing", choices=("ndjson", "lsp"), default="ndjson", help="message framing (default ndjson)")
    return p


def split_daemon_args(argv: Optional[List[str]]) -> Tuple[List[str], List[str]]:
    """(the example's own arguments, the daemon's: those after `--`)."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if "--" in args:
        i = args.index("--")
        return args[:i], args[i + 1 :]
    return args, []
