"""Fixtures for the tests of the Python client. They drive the real daemon:
`$CATALOGD_BIN` (a relative path is taken from the repository root), else
`<repo>/.build/debug/catalogd`.

    python3 -m pytest clients/python/tests -q

Every daemon gets an empty home, XDG directories and data dir of its own, and
every test has a watchdog: when it fires, the test's daemons are killed, which
makes every pending call fail with DaemonExited, so nothing hangs.

The package's pytest plugin gives the `client` fixture (`catalogd_client`) and
puts the daemon's stderr in the report of a failed test. This file loads it
from the checkout, unless the entry point of an installed copy has loaded it
already (naming it twice would register it twice).
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import threading
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest
from client_support import PACKAGE_ROOT, binary_path, client_env, isolated_env

import catalogd

DEFAULT_TEST_TIMEOUT = 60.0


def _plugin_loaded() -> bool:
    """Whether pytest loaded the plugin already, through the entry point of an
    installed copy of the package (then `catalogd` is that copy: the warning
    says how to test this checkout instead)."""
    if "catalogd.pytest_plugin" not in sys.modules:
        return False
    where = Path(sys.modules["catalogd.pytest_plugin"].__file__ or "").resolve()
    if PACKAGE_ROOT not in where.parents:
        warnings.warn(
            f"the tests run the installed catalogd ({where.parent}), whose pytest plugin loaded it first: "
            "run them with `-p no:catalogd` to test this checkout",
            stacklevel=1,
        )
    return True


pytest_plugins = ["pytester"] + ([] if _plugin_loaded() else ["catalogd.pytest_plugin"])


@pytest.fixture(scope="session")
def catalogd_bin() -> str:
    path = binary_path()
    if not path.is_file():
        pytest.fail(f"catalogd binary not found at {path}: run `swift build` or set CATALOGD_BIN", pytrace=False)
    return str(path)


@pytest.fixture
def catalogd_binary(catalogd_bin: str) -> str:
    """The plugin's fixtures run the daemon under test."""
    return catalogd_bin


class Daemons:
    """Makes clients of the daemon under test and ends them after the test."""

    def __init__(self, bin: str, base: Path) -> None:
        self.bin = bin
        self.base = base
        self.clients: List[Any] = []
        self._n = 0

    def env(self, extra: Optional[Dict[str, Optional[str]]] = None) -> Dict[str, str]:
        """The whole environment of a daemon, for `subprocess`."""
        return isolated_env(self.base / "env", extra)

    def client_env(self, extra: Optional[Dict[str, Optional[str]]] = None) -> Dict[str, Optional[str]]:
        """A daemon's `env` for `Client`, which extends this process's."""
        return client_env(self.base / "env", extra)

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
        client = (cls or catalogd.Client)(self.bin, argv, self.client_env(env), **kwargs)
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
def client(catalogd_client: catalogd.Client, daemons: Daemons) -> catalogd.Client:
    """A started Client (NDJSON framing) with a fresh data dir: the plugin's
    `catalogd_client`, which the watchdog kills too."""
    daemons.clients.append(catalogd_client)
    return catalogd_client


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
