"""A throwaway PostgreSQL cluster for the tests of the shared products catalog.

`initdb` into a fresh temporary directory, `pg_ctl start` on 127.0.0.1 and a
free port, `pg_ctl stop` at the end; the directory is then removed. PostgreSQL
refuses to run as root, so when the tests run as root the server runs as an
unprivileged user (`postgres` when the system has it, else `nobody`) that owns
the directory. Nothing touches a server the machine may already run.

Every test gets a database of its own, copied from a template that a daemon
already migrated and seeded (CREATE DATABASE … TEMPLATE is much faster than
migrating each time), or an empty one when it tests the migrations themselves.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def _bin_dir() -> Path:
    """Where initdb and pg_ctl are: Debian keeps them out of PATH, under
    /usr/lib/postgresql/<version>/bin (the newest wins)."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    if not versions:
        raise RuntimeError("PostgreSQL server binaries not found (apt-get install postgresql)")
    return Path(versions[-1]).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresCluster:
    USER = "catalogd"

    def __init__(self) -> None:
        self.bin = _bin_dir()
        self.base = Path(tempfile.mkdtemp(prefix="catalogd-pg-"))
        self.data = self.base / "data"
        self.port = free_port()
        self._names = itertools.count()
        self._template: str | None = None
        self.runner: list[str] = []
        if os.geteuid() == 0:
            account = "postgres" if _has_user("postgres") else "nobody"
            info = pwd.getpwnam(account)
            os.chown(self.base, info.pw_uid, info.pw_gid)
            self.runner = ["runuser", "-u", account, "--"]

    def _run(self, *argv: str, timeout: float = 120) -> None:
        proc = subprocess.run(
            [*self.runner, *argv], cwd=self.base, capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}\n{self.log_tail()}")

    def init(self) -> "PostgresCluster":
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", self.USER, "--auth=trust",
                  "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        return self

    def start(self) -> "PostgresCluster":
        # fsync=off: a test's server never outlives a machine crash, and it saves
        # seconds; a daemon killed with -9 is still a real crash of the client.
        options = (f"-h 127.0.0.1 -p {self.port} -k {self.base} -c fsync=off "
                   "-c max_connections=300 -c shared_buffers=64MB")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.base / "server.log"),
                  "-o", options, "-w", "-t", "60", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def destroy(self) -> None:
        try:
            self.stop("immediate")
        except Exception:
            pass
        shutil.rmtree(self.base, ignore_errors=True)

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join((self.base / "server.log").read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def url(self, database: str = "postgres") -> str:
        return f"postgres://{self.USER}@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str = "postgres") -> list[list[str]]:
        """Runs SQL with psql; the rows of its last statement, as text."""
        proc = subprocess.run(
            [str(self.bin / "psql") if (self.bin / "psql").exists() else "psql", "-X", "-q", "-A", "-t",
             "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", self.url(database), "-c", sql],
            capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            raise RuntimeError(f"psql failed: {proc.stderr}")
        return [line.split("\t") for line in proc.stdout.splitlines() if line]

    def new_database(self, template: str | None = None) -> str:
        name = f"t{next(self._names)}"
        self.psql(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        return name

    def seeded_database(self, migrate) -> str:
        """A new database holding the migrated demo catalog. `migrate(url)` makes
        the template once (by running a daemon against it)."""
        if self._template is None:
            name = self.new_database()
            migrate(self.url(name))
            self._template = name
        return self.new_database(template=self._template)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False

