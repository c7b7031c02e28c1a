"""Fixtures for the catalogd end-to-end tests.

Run from the repository root: `python3 -m pytest Tests/EndToEnd -q`.
The binary is `$CATALOGD_BIN`, else `<repo>/.build/debug/catalogd`.

The `Daemon` helper itself lives in `catalogd_e2e.py` so test modules can
import it and the assertion helpers (`from catalogd_e2e import ...`).
"""

from __future__ import annotations

import faulthandler
import itertools
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from catalogd_e2e import (  # noqa: E402
    ABSENT,
    Daemon,
    accepts_connections,
    binary_path,
    isolated_env,
    kill_all_live_daemons,
)
from postgres_cluster import PostgresCluster  # noqa: E402
from quotable_server import QuotableServer, kill_all_live_servers  # noqa: E402

DEFAULT_TEST_TIMEOUT = 60.0


@pytest.fixture(scope="session")
def catalogd_bin() -> Path:
    path = binary_path()
    if not path.is_file():
        pytest.fail(f"catalogd binary not found at {path}: run `swift build` first or set CATALOGD_BIN", pytrace=False)
    return path


@pytest.fixture(autouse=True)
def _watchdog(request):
    """A per-test time limit that needs no plugin: when it fires, every live
    daemon and fake upstream is killed, so whatever the test waits on ends; a
    last-resort faulthandler dump ends a run that is stuck anyway."""
    marker = request.node.get_closest_marker("timeout_s")
    seconds = float(marker.args[0]) if marker else DEFAULT_TEST_TIMEOUT
    fired = threading.Event()

    def fire() -> None:
        fired.set()
        kill_all_live_daemons()
        kill_all_live_servers()

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


class Spawner:
    """Starts daemons in an isolated home under one temp dir; `finish_all` ends them.
    With a `database_url`, every daemon it starts uses that PostgreSQL catalog.
    With `forwarded`, each "daemon" is a forwarder (`--remote=SOCKET`) to a
    shared daemon (`serve --listen SOCKET`) of its own, started with the same
    arguments: the test talks to it exactly as to a daemon."""

    def __init__(self, bin: Path, base: Path, database_url: str | None = None, forwarded: bool = False):
        self.bin = bin
        self.base = base
        self.database_url = database_url
        self.forwarded = forwarded
        self.created: list[Daemon] = []
        self.shared: list[subprocess.Popen] = []
        self._n = itertools.count()

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        if self.database_url:
            extra = {"CATALOGD_DATABASE_URL": self.database_url, **(extra or {})}
        return isolated_env(self.base, extra)

    def __call__(
        self,
        *args: str,
        framing: str = "lsp",
        reply_framing=ABSENT,
        data_dir: Path | None | bool = True,
        env: dict[str, str] | None = None,
        start_reader: bool = True,
    ) -> Daemon:
        """Start `catalogd [--data-dir <fresh temp dir>] ARGS...`.

        `data_dir=True` gives a fresh directory; a Path uses that one; None or
        False passes no `--data-dir` (tests of the defaults)."""
        n = next(self._n)
        argv = [str(self.bin)]
        if data_dir is True:
            data_dir = self.base / f"data-{n}"
        if data_dir:
            argv += ["--data-dir", str(data_dir)]
        argv += list(args)
        if self.forwarded:
            argv = [str(self.bin), "--remote", str(self._start_shared(n, argv[1:], env)), *args]
        d = Daemon(
            argv,
            env=self.env(env),
            cwd=self.base,
            stderr_path=self.base / f"stderr-{n}.log",
            framing=framing,
            reply_framing=reply_framing,
            start_reader=start_reader,
        )
        self.created.append(d)
        return d

    def _start_shared(self, n: int, args: list[str], env: dict[str, str] | None) -> Path:
        """Starts `catalogd serve --listen SOCKET ARGS` and returns the socket once it listens."""
        socket_path = self.base / f"run-{n}" / "catalogd.sock"
        socket_path.parent.mkdir(mode=0o700)
        with open(self.base / f"shared-{n}.log", "wb") as log:
            proc = subprocess.Popen([str(self.bin), "serve", "--listen", str(socket_path), *args],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                                    env=self.env(env), cwd=str(self.base))
        self.shared.append(proc)
        deadline = time.monotonic() + 30
        while not accepts_connections(socket_path):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the shared daemon did not listen: {(self.base / f'shared-{n}.log').read_text()}")
            time.sleep(0.01)
        return socket_path

    def finish_all(self) -> list[str]:
        problems = []
        for d in self.created:
            d.finish()
            if d.violations:
                problems.append(f"pid {d.pid}: {d.violations[:5]!r}")
        for proc in self.shared:
            proc.kill()
            proc.wait(timeout=10)
        return problems


class Catalog:
    """The products catalog a test's daemons share: the SQLite file of their
    data dir, or ("postgres") a database of its own on the test cluster."""

    def __init__(self, kind: str, cluster: PostgresCluster | None = None, database: str | None = None):
        self.kind = kind
        self.cluster = cluster
        self.database = database

    @property
    def url(self) -> str | None:
        return self.cluster.url(self.database) if self.cluster else None

    def product_ids(self) -> set[str]:
        return {row[0] for row in self.cluster.psql("SELECT id FROM products", self.database)}

    def wait_for_dead_sessions(self, timeout: float = 30) -> None:
        """Returns once no other session is connected to this test's database. The server
        ends a killed daemon's sessions only after each finished what it had received, a
        COMMIT among it: until then its last batch may still land."""
        if self.cluster is None:
            return
        deadline = time.monotonic() + timeout
        sql = ("SELECT count(*) FROM pg_stat_activity"
               " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        while int(self.cluster.psql(sql, self.database)[0][0]) > 0:
            assert time.monotonic() < deadline, f"a killed daemon's sessions still run after {timeout}s"
            time.sleep(0.05)


def pytest_generate_tests(metafunc):
    """Modules marked `both_catalogs` run every test on SQLite and on PostgreSQL,
    but for tests marked `sqlite_only` (they look at the catalog file).
    Modules marked `through_forwarder` run every test on a daemon of its own
    and through a forwarder to a shared daemon, but for tests marked `direct_only`."""
    if "catalog_backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_catalogs"):
        only_sqlite = metafunc.definition.get_closest_marker("sqlite_only")
        metafunc.parametrize("catalog_backend", ["sqlite"] if only_sqlite else ["sqlite", "postgres"], indirect=True)
    if "transport" in metafunc.fixturenames and metafunc.definition.get_closest_marker("through_forwarder"):
        only_direct = metafunc.definition.get_closest_marker("direct_only")
        metafunc.parametrize("transport", ["direct"] if only_direct else ["direct", "forwarded"], indirect=True)


@pytest.fixture(scope="session")
def postgres_cluster(catalogd_bin, tmp_path_factory):
    """One throwaway PostgreSQL cluster for the whole run, started on first use."""
    cluster = PostgresCluster().init().start()
    yield cluster
    cluster.destroy()


def _migrate_template(bin: Path, base: Path, url: str) -> None:
    d = Daemon([str(bin), "--data-dir", str(base / "data")], env=isolated_env(base, {"CATALOGD_DATABASE_URL": url}),
               cwd=base, stderr_path=base / "stderr.log")
    d.initialize()
    d.result("products/list", {"limit": 1})
    d.finish()


def new_catalog(kind: str, request) -> Catalog:
    """A catalog of `kind` ("sqlite", or "postgres": a new database holding the
    demo catalog on the test cluster), for a fixture of any scope."""
    if kind == "sqlite":
        return Catalog("sqlite")
    cluster = request.getfixturevalue("postgres_cluster")
    catalogd_bin = request.getfixturevalue("catalogd_bin")
    base = request.getfixturevalue("tmp_path_factory").mktemp("template")
    database = cluster.seeded_database(lambda url: _migrate_template(catalogd_bin, base, url))
    return Catalog("postgres", cluster, database)


@pytest.fixture(scope="session")
def catalog_maker():
    """`new_catalog`, for a test module's own fixtures (of module scope, say)."""
    return new_catalog


@pytest.fixture
def catalog_backend(request) -> Catalog:
    return new_catalog(getattr(request, "param", "sqlite"), request)


@pytest.fixture
def transport(request) -> str:
    """"direct" (the test's own daemon), or "forwarded" (through `--remote`)."""
    return getattr(request, "param", "direct")


@pytest.fixture
def spawn(catalogd_bin, tmp_path, catalog_backend, transport):
    s = Spawner(catalogd_bin, tmp_path, catalog_backend.url, forwarded=transport == "forwarded")
    yield s
    problems = s.finish_all()
    if problems:
        pytest.fail("catalogd wrote non-protocol output on stdout or broke its declared contract (openrpc.json):\n"
                    + "\n".join(problems), pytrace=False)


@pytest.fixture
def daemon(spawn) -> Daemon:
    """An initialized daemon speaking LSP framing, with a fresh data dir."""
    d = spawn()
    d.initialize()
    return d


@pytest.fixture(params=["lsp", "ndjson"])
def framing(request) -> str:
    return request.param


@pytest.fixture
def any_daemon(spawn, framing) -> Daemon:
    """An initialized daemon, once per framing."""
    d = spawn(framing=framing)
    d.initialize()
    return d


class SharedDaemon:
    """One initialized daemon reused by many tests (bad-input batteries,
    JSONTestSuite); if a test kills it, the next test gets a fresh one."""

    def __init__(self, bin: Path, base: Path, framing: str, args: tuple[str, ...] = (),
                 database_url: str | None = None):
        self.spawner = Spawner(bin, base, database_url)
        self.framing = framing
        self.args = args
        self.current: Daemon | None = None
        self.deaths: list[str] = []

    def get(self) -> Daemon:
        d = self.current
        if d is not None and d.alive and not d._eof and not d.violations:
            return d
        if d is not None:
            self.deaths.append(d.diag())
            d.finish()
        d = self.spawner(*self.args, framing=self.framing)
        d.initialize()
        self.current = d
        return d

    def finish(self) -> list[str]:
        return self.spawner.finish_all()


@pytest.fixture(scope="module")
def shared_daemon_factory(catalogd_bin, tmp_path_factory):
    made: list[SharedDaemon] = []

    def make(framing: str = "lsp", args: tuple[str, ...] = (), database_url: str | None = None) -> SharedDaemon:
        s = SharedDaemon(catalogd_bin, tmp_path_factory.mktemp(f"shared-{framing}"), framing, args, database_url)
        made.append(s)
        return s

    yield make
    for s in made:
        s.finish()


@pytest.fixture
def quotable():
    """A local quotable-compatible upstream on 127.0.0.1:<free port>."""
    server = QuotableServer().start()
    yield server
    server.stop()


@pytest.fixture
def quotable_factory():
    servers: list[QuotableServer] = []

    def make() -> QuotableServer:
        s = QuotableServer().start()
        servers.append(s)
        return s

    yield make
    for s in servers:
        s.stop()
