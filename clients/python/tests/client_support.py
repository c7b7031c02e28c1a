"""Helpers for the tests of the Python client (the fixtures are in conftest.py).

Importing this module puts the source tree of the client first on sys.path,
so the tests exercise it rather than an installed copy.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Coroutine, Dict, List, Optional, TypeVar

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
REPO_ROOT = Path(__file__).resolve().parents[3]
if sys.path[0] != str(PACKAGE_ROOT):
    sys.path.insert(0, str(PACKAGE_ROOT))

T = TypeVar("T")


def binary_path() -> Path:
    """`$CATALOGD_BIN` (relative: from the repository root), else the debug build."""
    env = os.environ.get("CATALOGD_BIN")
    if env:
        path = Path(env)
        return path if path.is_absolute() else REPO_ROOT / path
    return REPO_ROOT / ".build" / "debug" / "catalogd"


def client_env(base: Path, extra: Optional[Dict[str, Optional[str]]] = None) -> Dict[str, Optional[str]]:
    """A daemon's `env` for `Client` (which extends this process's environment,
    None removing a variable): the pytest plugin's isolated environment (an
    empty home, no catalogd settings or proxies, English messages), and `extra`."""
    from catalogd.pytest_plugin import isolated_env as plugin_env

    env = plugin_env(base)
    env.update(extra or {})
    return env


def isolated_env(base: Path, extra: Optional[Dict[str, Optional[str]]] = None) -> Dict[str, str]:
    """The same environment whole, for `subprocess`."""
    from catalogd._core import merge_env

    env = merge_env(client_env(base, extra))
    assert env is not None
    return env


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Runs a coroutine in a fresh event loop (no pytest plugin needed)."""
    return asyncio.run(coro)


def trace_lines(path: Path) -> List[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def wait_until(predicate: Callable[[], bool], timeout: float = 5.0, interval: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


def serves_live_feeds(client: Any) -> bool:
    """Whether the daemon behind a started `Client` sends `feeds/itemsChanged`
    (live feeds: changes in place, a refresh keeps the items until its first page)."""
    doc = client.rpc_discover()
    return any(n.get("name") == "feeds/itemsChanged" for n in doc.get("x-notifications", []))


async def wait_until_async(predicate: Callable[[], bool], timeout: float = 10.0, interval: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(interval)
    return predicate()
