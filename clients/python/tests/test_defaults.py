"""The defaults both clients share (the Node client has the same ones, in its
units): the timeout, the environment, the framing flag, the exit status, the
binary lookup order, the wire trace and the version."""

from __future__ import annotations

import json
import logging
import os
import subprocess
from pathlib import Path

import pytest
from client_support import run

import catalogd
from catalogd import AsyncClient, Client, ExitStatus


def test_the_default_timeouts(catalogd_bin):
    for cls in (Client, AsyncClient):
        c = cls(catalogd_bin)
        assert c.timeout == 30.0 == catalogd.DEFAULT_TIMEOUT
        assert c.handshake_timeout == 30.0
    assert Client(catalogd_bin, timeout=None).timeout is None
    assert Client(catalogd_bin, timeout=float("inf")).timeout is None, "infinity, as in Node: no limit"


def test_env_extends_this_process_environment_and_none_removes(daemons, monkeypatch, tmp_path):
    inherited = tmp_path / "inherited"
    monkeypatch.setenv("CATALOGD_DATA_DIR", str(inherited))
    env = daemons.client_env()
    assert env["CATALOGD_DATA_DIR"] is None  # the isolated env removes catalogd settings
    del env["CATALOGD_DATA_DIR"]
    with Client(daemons.bin, [], env) as c:
        assert c.env is not None and c.env["PATH"] == os.environ["PATH"], "the rest is inherited"
        assert c.daemon_status().data_dir == str(inherited)
    with daemons(data_dir=False) as c:  # CATALOGD_DATA_DIR: None
        assert "CATALOGD_DATA_DIR" not in c.env
        assert c.daemon_status().data_dir == os.path.join(c.env["XDG_DATA_HOME"], "catalogd")
    assert Client(daemons.bin).env is None, "no env: the daemon inherits this process's"


def test_the_framing_is_always_passed_so_the_environment_cannot_break_it(daemons, framing):
    other = "lsp" if framing == "ndjson" else "ndjson"
    c = daemons(env={"CATALOGD_FRAMING": other}, framing=framing)
    assert c._command()[1:3] == ["--framing", framing]
    with c:
        assert c.daemon_echo([framing]) == [framing]


def test_framing_in_args_is_left_alone(catalogd_bin):
    assert Client(catalogd_bin, ["--framing=lsp"], framing="lsp")._command() == [catalogd_bin, "--framing=lsp"]
    assert Client(catalogd_bin, ["--framing", "lsp"], framing="lsp")._command().count("--framing") == 1
    with pytest.raises(catalogd.InvalidArgument, match="framing") as e:
        Client(catalogd_bin, framing="xml")  # type: ignore[arg-type]
    assert isinstance(e.value, ValueError) and isinstance(e.value, catalogd.UsageError)


def test_close_returns_the_exit_status(daemons):
    async def main() -> None:
        c = daemons(cls=AsyncClient)
        assert await c.close() == ExitStatus(None, None), "never started"
        async with c:
            pass
        assert await c.close() == ExitStatus(exit_code=0, signal=None)

    run(main())
    assert ExitStatus.from_returncode(-9) == ExitStatus(None, "SIGKILL")
    assert ExitStatus.from_returncode(3) == (3, None)


def test_the_binary_lookup_order(monkeypatch, catalogd_bin, tmp_path):
    bundled = tmp_path / "pkg" / "_bin" / "catalogd"
    bundled.parent.mkdir(parents=True)
    bundled.symlink_to(catalogd_bin)
    on_path = tmp_path / "path" / "catalogd"
    on_path.parent.mkdir()
    on_path.symlink_to(catalogd_bin)
    monkeypatch.setattr(catalogd._core, "BUNDLED_BINARY", bundled)
    monkeypatch.setenv("PATH", str(on_path.parent))
    monkeypatch.setenv("CATALOGD_BIN", catalogd_bin)
    assert catalogd.find_binary(str(on_path)) == str(on_path), "1. the argument"
    assert catalogd.find_binary() == catalogd_bin, "2. $CATALOGD_BIN"
    monkeypatch.delenv("CATALOGD_BIN")
    assert catalogd.find_binary() == str(bundled), "3. the daemon bundled in the package"
    bundled.unlink()
    assert catalogd.find_binary() == str(on_path), "4. PATH"
    on_path.unlink()
    with pytest.raises(catalogd.BinaryNotFound) as e:
        Client()
    message = str(e.value)
    assert all(place in message for place in ("binary=", "$CATALOGD_BIN", str(bundled), "PATH")), message
    assert isinstance(e.value, FileNotFoundError)


def test_the_command_of_a_package_without_a_daemon_is_skipped_on_path(monkeypatch, catalogd_bin, tmp_path):
    """pip writes a `catalogd` script for `catalogd._launcher:main`; without a
    bundled daemon it only says so, and must not hide a real daemon further on PATH."""
    venv_bin, system_bin = tmp_path / "venv-bin", tmp_path / "system-bin"
    venv_bin.mkdir()
    system_bin.mkdir()
    script = venv_bin / "catalogd"
    script.write_text(
        "#!/usr/bin/python3\nimport sys\nfrom catalogd._launcher import main\n"
        "if __name__ == '__main__':\n    sys.exit(main())\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    (system_bin / "catalogd").symlink_to(catalogd_bin)
    monkeypatch.delenv("CATALOGD_BIN", raising=False)
    monkeypatch.setattr(catalogd._core, "BUNDLED_BINARY", tmp_path / "absent")
    monkeypatch.setenv("PATH", os.pathsep.join([str(venv_bin), str(system_bin)]))
    assert catalogd.find_binary() == str(system_bin / "catalogd")
    monkeypatch.setenv("PATH", str(venv_bin))
    with pytest.raises(catalogd.BinaryNotFound):
        catalogd.find_binary()


def test_the_bundled_binary_is_inside_the_package():
    assert catalogd.BUNDLED_BINARY == Path(catalogd.__file__).resolve().parent / "_bin" / "catalogd"
    assert not catalogd.BUNDLED_BINARY.exists(), "the repository carries no daemon"


def test_every_message_is_logged_on_catalogd_wire(daemons, caplog, framing):
    caplog.set_level(logging.DEBUG, logger="catalogd.wire")
    with daemons(framing=framing) as c:
        c.daemon_echo(["traced"])
    lines = [r.getMessage() for r in caplog.records if r.name == "catalogd.wire"]
    assert all(r.levelno == logging.DEBUG for r in caplog.records if r.name == "catalogd.wire")
    sent = [json.loads(line[4:]) for line in lines if line.startswith("--> ")]
    received = [json.loads(line[4:]) for line in lines if line.startswith("<-- ")]
    assert len(sent) + len(received) == len(lines)
    assert sent[0]["method"] == "initialize" and sent[1]["method"] == "initialized"
    assert {"jsonrpc": "2.0", "id": 2, "method": "daemon/echo", "params": ["traced"]} in sent
    assert {"jsonrpc": "2.0", "id": 2, "result": ["traced"]} in received
    assert [m.get("method") for m in sent[-2:]] == ["shutdown", "exit"]


def test_async_messages_are_logged_too(daemons, caplog):
    caplog.set_level(logging.DEBUG, logger="catalogd.wire")

    async def main() -> None:
        async with daemons(cls=AsyncClient) as c:
            await c.daemon_echo(["async"])

    run(main())
    lines = [r.getMessage() for r in caplog.records if r.name == "catalogd.wire"]
    assert '--> {"jsonrpc":"2.0","id":2,"method":"daemon/echo","params":["async"]}' in lines
    assert '<-- {"jsonrpc":"2.0","id":2,"result":["async"]}' in lines


def test_the_library_logger_has_a_null_handler():
    assert any(isinstance(h, logging.NullHandler) for h in logging.getLogger("catalogd").handlers)


def test_the_version_is_the_daemons(catalogd_bin):
    out = subprocess.run([catalogd_bin, "--version"], capture_output=True, text=True, timeout=30).stdout
    assert out.strip() == f"catalogd {catalogd.__version__}"
