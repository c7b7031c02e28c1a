"""Starting and ending the daemon: the handshake, the context managers, where
the binary comes from, what is passed to the process."""

from __future__ import annotations

import json
import os
import shutil
import stat

import pytest
from client_support import run, trace_lines

import catalogd
from catalogd import AsyncClient, Client, DaemonExited, ExitStatus, InvalidRequest


def test_with_block_does_the_handshake_and_exits_cleanly(daemons, framing):
    c = daemons(framing=framing)
    assert c.pid is None
    with c as entered:
        assert entered is c
        assert c.pid is not None and c.returncode is None
        info = c.initialize_result
        assert isinstance(info, catalogd.InitializeResult)
        assert info.server_info.name == "catalogd"
        assert info.server_info.version
        assert info.client_id
        assert info.capabilities.services["quotes"].backend == "embedded"
        assert "quotes/random" in info.capabilities.services["quotes"].methods
        assert info.capabilities.limits.max_in_flight > 0 and c.framing in info.capabilities.framings
        assert c.daemon_echo(["still here"]) == ["still here"]
    assert c.returncode == 0, c.stderr_tail()
    assert c.exited


def test_async_with_block_does_the_handshake_and_exits_cleanly(daemons, framing):
    c = daemons(cls=AsyncClient, framing=framing)

    async def main() -> None:
        async with c as entered:
            assert entered is c
            assert c.initialize_result is not None
            assert c.initialize_result.server_info.name == "catalogd"
            assert await c.daemon_echo([1, 2]) == [1, 2]
        assert c.returncode == 0, c.stderr_tail()

    run(main())


def test_handshake_sends_client_info_and_id_then_initialized(daemons):
    trace = daemons.trace_path()
    with daemons("--trace", str(trace), client_id="device-1234", client_info={"name": "tests", "version": "9"}) as c:
        assert c.initialize_result.client_id == "device-1234"
        assert c.daemon_status().client_id == "device-1234"
    sent = [json.loads(line.split(" <- ", 1)[1]) for line in trace_lines(trace) if " <- " in line]
    assert sent[0]["method"] == "initialize"
    assert sent[0]["params"] == {"clientInfo": {"name": "tests", "version": "9"}, "clientId": "device-1234"}
    assert sent[0]["id"] == 1
    assert sent[1] == {"jsonrpc": "2.0", "method": "initialized", "params": {}}
    assert [m["method"] for m in sent[-2:]] == ["shutdown", "exit"]
    ids = [m["id"] for m in sent if "id" in m]
    assert ids == list(range(1, len(ids) + 1)), "ids are integers counting up"


def test_locale_picks_the_language_of_error_messages(daemons):
    trace = daemons.trace_path()
    with daemons("--trace", str(trace), locale="ko") as c:
        with pytest.raises(catalogd.InvalidParams) as raised:
            c.request("quotes/list", {"tag": "wisdom"})
        assert raised.value.message == "알 수 없는 매개변수 tag입니다. tags을(를) 쓰려던 것인가요?"
        assert raised.value.data["suggestion"] == "tags"
    first = json.loads(trace_lines(trace)[0].split(" <- ", 1)[1])
    assert first["params"]["locale"] == "ko"


def test_default_client_info_names_this_library(daemons):
    trace = daemons.trace_path()
    with daemons("--trace", str(trace)):
        pass
    first = json.loads(trace_lines(trace)[0].split(" <- ", 1)[1])
    assert first["params"]["clientInfo"]["name"] == "catalogd-python"
    assert catalogd.__version__ in first["params"]["clientInfo"]["version"]


def test_close_returns_the_status_and_can_be_called_again(daemons):
    c = daemons().start()
    status = c.close()
    assert status == ExitStatus(exit_code=0, signal=None) and status.exit_code == 0 and status.signal is None
    assert c.close() is status
    with pytest.raises(DaemonExited) as e:
        c.daemon_echo()
    assert e.value.returncode == 0


def test_explicit_shutdown_then_requests_get_invalid_request(client):
    client.shutdown()
    with pytest.raises(InvalidRequest) as e:
        client.daemon_echo([1])
    assert e.value.code == -32600
    assert e.value.data["reason"]
    assert client.close() == ExitStatus(0, None)  # no second shutdown; exit still ends the process with 0


def test_calls_before_start_are_a_usage_error(daemons):
    c = daemons()
    with pytest.raises(catalogd.InvalidState, match="not started") as e:
        c.daemon_echo()
    assert isinstance(e.value, RuntimeError) and isinstance(e.value, catalogd.UsageError)
    assert c.close() == ExitStatus(None, None)


def test_a_client_starts_once(daemons):
    with daemons() as c:
        with pytest.raises(catalogd.InvalidState, match="already started"):
            c.start()


def test_no_data_dir_is_passed_unless_given(daemons, tmp_path):
    c = daemons(data_dir=False)
    with c:
        status = c.daemon_status()
    assert status.data_dir == os.path.join(c.env["XDG_DATA_HOME"], "catalogd")


def test_args_and_env_reach_the_daemon(daemons, tmp_path):
    from_env = tmp_path / "from-env"
    with daemons(data_dir=False, env={"CATALOGD_DATA_DIR": str(from_env)}) as c:
        assert c.daemon_status().data_dir == str(from_env)
    from_args = tmp_path / "from-args"
    with daemons("--data-dir", str(from_args), data_dir=False, env={"CATALOGD_DATA_DIR": str(from_env)}) as c:
        assert c.daemon_status().data_dir == str(from_args)


def test_a_daemon_that_cannot_start_raises_daemon_exited_with_its_stderr(daemons):
    c = daemons("--max-depth", "nope")
    with pytest.raises(DaemonExited) as e:
        c.start()
    assert e.value.returncode == 2
    assert "--max-depth" in e.value.stderr_tail
    assert "--max-depth" in str(e.value)
    assert e.value.method == "initialize"


def test_async_daemon_that_cannot_start_raises_daemon_exited(daemons):
    c = daemons("--bogus-flag", cls=AsyncClient)

    async def main() -> None:
        with pytest.raises(DaemonExited) as e:
            await c.start()
        assert e.value.returncode == 2
        assert "--bogus-flag" in e.value.stderr_tail

    run(main())


def test_the_stderr_of_the_daemon_is_kept_and_can_be_teed(daemons):
    import io

    tee = io.StringIO()
    with daemons(stderr=tee) as c:
        pass
    assert "catalogd started" in c.stderr_tail()
    assert "catalogd started" in tee.getvalue()
    assert c.stderr_tail(0) == ""
    assert len(c.stderr_tail(1).splitlines()) == 1


# ---------------------------------------------------------------- the binary


def test_binary_argument_wins_over_the_environment(monkeypatch, catalogd_bin, tmp_path):
    monkeypatch.setenv("CATALOGD_BIN", str(tmp_path / "does-not-exist"))
    assert catalogd.find_binary(catalogd_bin) == catalogd_bin
    with pytest.raises(FileNotFoundError, match="CATALOGD_BIN"):
        catalogd.find_binary()


def test_binary_from_the_environment_then_path(monkeypatch, catalogd_bin, tmp_path):
    monkeypatch.setenv("CATALOGD_BIN", catalogd_bin)
    assert Client().binary == catalogd_bin
    monkeypatch.delenv("CATALOGD_BIN")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    link = bindir / "catalogd"
    link.symlink_to(catalogd_bin)
    monkeypatch.setenv("PATH", str(bindir))
    assert AsyncClient().binary == str(link)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(FileNotFoundError) as e:
        Client()
    assert "CATALOGD_BIN" in str(e.value) and "PATH" in str(e.value)


def test_a_binary_that_is_not_executable_is_refused(tmp_path):
    f = tmp_path / "catalogd"
    shutil.copy(__file__, f)
    f.chmod(stat.S_IRUSR | stat.S_IWUSR)
    with pytest.raises(PermissionError, match="not executable"):
        Client(str(f))


def test_args_must_be_a_sequence(catalogd_bin):
    with pytest.raises(TypeError, match="sequence"):
        Client(catalogd_bin, "--data-dir /tmp")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="framing"):
        Client(catalogd_bin, framing="xml")
