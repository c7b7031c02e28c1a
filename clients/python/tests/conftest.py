"""Fixtures for the tests of the Python client. They drive the real daemon:
`$CATALOGD_BIN` (a relative path is taken from the repository root), else
`<repo>/.build/debug/catalogd`.

    python3 -m pytest clients/python/tests -q

Every daemon gets an empty home, XDG directories and data dir of its own, and
every test has a watchdog: when it fires, the test's daemons are killed, which
makes every pending call fail with DaemonExited, so nothing hangs.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest
from client_support import binary_path, isolated_env

import catalogd

DEFAULT_TEST_TIMEOUT = 60.0


@pytest.fixture(scope="session")
def catalogd_bin() -> str:
    path = binary_path()
    if not path.is_file():
        pytest.fail(f"catalogd binary not found at {path}: run `swift build` or set CATALOGD_BIN", pytrace=False)
    return str(path)


class Daemons:
    """Makes clients of the daemon under test and ends them after the test."""

    def __init__(self, bin: str, base: Path) -> None:
        self.bin = bin
        self.base = base
        self.clients: List[Any] = []
        self._n = 0

    def env(self, extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
        return isolated_env(self.base / "env", extra)

    def data_dir(self) -> Path:
        self._n += 1
        return self.base / f"data-{self._n}"

    def trace_path(self) -> Path:
        self._n += 1
        return self.base / f"trace-{self._n}.log"

    def __call__(self, *args: str, cls: Any = None, data_dir: bool = True, env: Optional[Dict[str, str]] = None,
                 **kwargs: Any) -> Any:
        """A client (not started) of `catalogd [--data-dir <fresh>] ARGS...`."""
        argv = (["--data-dir", str(self.data_dir())] if data_dir else []) + list(args)
        kwargs.setdefault("handshake_timeout", 20.0)
        client = (cls or catalogd.Client)(self.bin, argv, self.env(env), **kwargs)
        self.clients.append(client)
        return client

    def kill_all(self) -> None:
        for c in self.clients:
            pid = c.pid
            if pid is not None and c.returncode is None:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

    def finish(self) -> None:
        for c in self.clients:
            if isinstance(c, catalogd.Client):
                c.close(timeout=5)
        self.kill_all()


@pytest.fixture
def daemons(catalogd_bin: str, tmp_path: Path):
    d = Daemons(catalogd_bin, tmp_path)
    _LIVE.append(d)
    yield d
    _LIVE.remove(d)
    d.finish()


_LIVE: List[Daemons] = []


@pytest.fixture
def client(daemons: Daemons):
    """A started Client (NDJSON framing) with a fresh data dir."""
    with daemons() as c:
        yield c


@pytest.fixture(params=["ndjson", "lsp"])
def framing(request) -> str:
    return request.param


@pytest.fixture(autouse=True)
def _watchdog(request):
    marker = request.node.get_closest_marker("timeout_s")
    seconds = float(marker.args[0]) if marker else DEFAULT_TEST_TIMEOUT
    fired = threading.Event()

    def fire() -> None:
        fired.set()
        for d in list(_LIVE):
            d.kill_all()

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    faulthandler.dump_traceback_later(seconds + 30, exit=True)
    try:
        yield
    finally:
        timer.cancel()
        faulthandler.cancel_dump_traceback_later()
    if fired.is_set():
        pytest.fail(f"the test ran past its {seconds:.0f}s watchdog; its daemons were killed", pytrace=False)
