"""pytest fixtures for code that uses catalogd: a daemon per test, on a fresh
data dir and an empty home, ended after the test; when the test fails, the end
of the daemon's stderr is in the report (section "catalogd stderr").

pytest loads this plugin through the `pytest11` entry point of the installed
package (`-p no:catalogd` turns it off); without installing, name it in a
conftest.py: `pytest_plugins = ["catalogd.pytest_plugin"]`.

    def test_quotes(catalogd_client):
        assert catalogd_client.quotes_random().content

    @pytest.mark.catalogd("--log-level", "debug", timeout=5.0)
    def test_with_options(catalogd_client): ...

The marker's positional arguments go to the daemon's command line (after
`--data-dir` and `catalogd_args`), its keyword arguments to `Client`
(`framing=`, `timeout=`, `locale=`, …, over `catalogd_options`). Overriding
the `catalogd_args`, `catalogd_options`, `catalogd_env`, `catalogd_data_dir`
or `catalogd_binary` fixture in a conftest.py configures a directory of
tests. The daemon is found as `Client` finds it (`$CATALOGD_BIN`, the
bundled daemon, PATH) unless `catalogd_binary` names one.

Only this module imports pytest: importing `catalogd` does not.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any, Callable, Dict, Generator, Iterator, List, Mapping, Optional, Union

import pytest

from ._async_client import AsyncClient
from ._client import Client

_CLIENTS = pytest.StashKey[List[Union[Client, AsyncClient]]]()
"""The clients the fixtures made for a test, for its report."""

_NOT_INHERITED = ("KAKAO_REST_API_KEY", "LC_ALL", "LC_MESSAGES")
_PROXIES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")


def isolated_env(base: Path, environ: Optional[Mapping[str, str]] = None) -> Dict[str, Optional[str]]:
    """The `env` of a daemon under test, as `Client` takes it (it extends this
    process's environment; None removes a variable): an empty home and XDG
    directories under `base` (made here), English messages (`LANG=C.UTF-8`),
    and none of this process's `CATALOGD_*` settings, proxies, Kakao key,
    `LC_ALL` or `LC_MESSAGES`, so that the developer's shell cannot change
    what a test sees."""
    environ = os.environ if environ is None else environ
    env: Dict[str, Optional[str]] = {
        name: None
        for name in environ
        if name.startswith("CATALOGD_") or name.lower() in _PROXIES or name in _NOT_INHERITED
    }
    for leaf, var in (("home", "HOME"), ("config", "XDG_CONFIG_HOME"), ("data", "XDG_DATA_HOME"),
                      ("cache", "XDG_CACHE_HOME"), ("state", "XDG_STATE_HOME")):
        d = base / leaf
        d.mkdir(parents=True, exist_ok=True)
        env[var] = str(d)
    env.update(NO_PROXY="*", no_proxy="*", LANG="C.UTF-8")
    return env


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "catalogd(*args, **options): daemon arguments and Client options for the catalogd_client fixtures",
    )


@pytest.fixture
def catalogd_binary() -> Optional[str]:
    """The daemon's executable; None: found as `Client` finds it."""
    return None


@pytest.fixture
def catalogd_args() -> List[str]:
    """Arguments for the daemons of the tests in its scope (override it in a
    conftest.py); a test's `catalogd` marker adds its own after them."""
    return []


@pytest.fixture
def catalogd_options() -> Dict[str, Any]:
    """Keyword arguments for `Client` / `AsyncClient` in its scope (override
    it in a conftest.py); a test's `catalogd` marker adds or replaces some."""
    return {}


@pytest.fixture
def catalogd_env(tmp_path: Path) -> Dict[str, Optional[str]]:
    """The daemon's `env`: see `isolated_env` (under the test's `tmp_path`)."""
    return isolated_env(tmp_path / "catalogd-env")


@pytest.fixture
def catalogd_data_dir(tmp_path: Path) -> Path:
    """The daemon's `--data-dir`: empty at the start of each test."""
    return tmp_path / "catalogd-data"


@pytest.fixture
def _catalogd_maker(
    request: pytest.FixtureRequest,
    catalogd_binary: Optional[str],
    catalogd_args: List[str],
    catalogd_env: Dict[str, Optional[str]],
    catalogd_data_dir: Path,
    catalogd_options: Dict[str, Any],
) -> Callable[[Any], Any]:
    """Makes a client of a class, configured by the fixtures above and the
    test's `catalogd` marker, and remembers it for the failure report."""

    def make(cls: Any) -> Any:
        args, options = catalogd_args, catalogd_options
        marker = request.node.get_closest_marker("catalogd")
        if marker is not None:
            args = [*args, *(str(a) for a in marker.args)]
            options = {**options, **marker.kwargs}
        client = cls(catalogd_binary, ["--data-dir", str(catalogd_data_dir), *args], catalogd_env, **options)
        request.node.stash.setdefault(_CLIENTS, []).append(client)
        return client

    return make


@pytest.fixture
def catalogd_client(_catalogd_maker: Callable[[Any], Any]) -> Iterator[Client]:
    """A started `Client` of a daemon of its own (fresh data dir, empty home),
    closed after the test."""
    client: Client = _catalogd_maker(Client)
    with client:
        yield client


@pytest.fixture
def catalogd_async_client(_catalogd_maker: Callable[[Any], Any]) -> Iterator[AsyncClient]:
    """An `AsyncClient` configured as `catalogd_client`'s, not started: an
    AsyncClient belongs to the event loop that starts it, so the test starts
    it in its own (`async with catalogd_async_client as client:`). A daemon
    still running after the test is killed."""
    client: AsyncClient = _catalogd_maker(AsyncClient)
    yield client
    if client.pid is not None and client.returncode is None:
        try:  # its event loop is gone: it can no longer be closed politely
            os.kill(client.pid, signal.SIGKILL)
        except OSError:
            pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """Adds the end of each daemon's stderr to the report of a failed test
    phase: its log says what the daemon did and why it failed."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    clients = item.stash.get(_CLIENTS, [])
    if not report.failed or not clients:
        return
    for n, client in enumerate(clients, 1):
        title = "catalogd stderr" if len(clients) == 1 else f"catalogd stderr (client {n}, pid {client.pid})"
        report.sections.append((title, client.stderr_tail(None) or "(nothing written)"))
