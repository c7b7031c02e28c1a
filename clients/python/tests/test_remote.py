"""`remote`: sessions of one shared daemon (`--remote`), started on first use."""

from __future__ import annotations

import queue
from pathlib import Path

import pytest
from client_support import client_env

from catalogd import Client, InvalidArgument


def test_two_clients_share_one_daemon(catalogd_bin: str, tmp_path: Path) -> None:
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = client_env(tmp_path, {"XDG_RUNTIME_DIR": str(runtime)})
    args = ["--data-dir", str(tmp_path / "data"), "--idle-timeout", "2"]
    with Client(catalogd_bin, args, env, remote="auto") as a, Client(catalogd_bin, args, env, remote="auto") as b:
        assert a.args[-1] == "--remote=auto"
        seen: "queue.Queue[object]" = queue.Queue()
        b.on_products_list_updated(seen.put)
        made = a.products_create(name_ko="공유", price=10)
        assert seen.get(timeout=30).id == made.id  # type: ignore[attr-defined]
        sessions = a.request("daemon/sessions")["sessions"]
        assert len(sessions) == 2
    assert len(list((runtime / "catalogd").glob("*.sock"))) == 1


def test_remote_must_be_text(catalogd_bin: str) -> None:
    with pytest.raises(InvalidArgument):
        Client(catalogd_bin, remote=1)  # type: ignore[arg-type]
