"""One shared daemon for many clients: `catalogd serve --listen PATH`, and
forwarders (`catalogd --remote=PATH`, `--remote=auto`) that keep the stdio
contract for their client and carry its session to the shared daemon."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path
from typing import Callable

import pytest

from catalogd_e2e import accepts_connections, assert_error, assert_result, isolated_env, request_obj

DEADLINE = 30.0


def wait_for(condition: Callable[[], bool], what: str, deadline: float = DEADLINE) -> None:
    end = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


class SharedDaemon:
    """`catalogd serve --listen SOCKET`, started and stopped by a test."""

    def __init__(self, bin: Path, base: Path, *args: str, idle_timeout: int = 600, run: Path | None = None):
        self.socket = (run or base / "run") / "catalogd.sock"
        self.socket.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.log = base / "shared.log"
        self.data_dir = base / "shared-data"
        self.proc = subprocess.Popen(
            [str(bin), "serve", "--listen", str(self.socket), "--data-dir", str(self.data_dir),
             "--idle-timeout", str(idle_timeout), *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(self.log, "wb"),
            env=isolated_env(base), cwd=str(base),
        )
        wait_for(lambda: accepts_connections(self.socket) or self.proc.poll() is not None, "the socket")
        assert self.proc.poll() is None, self.log.read_text()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)


@pytest.fixture
def shared(catalogd_bin, tmp_path):
    daemon = SharedDaemon(catalogd_bin, tmp_path)
    yield daemon
    daemon.stop()


def session(spawn, shared: SharedDaemon, framing: str = "lsp"):
    """A client's view: a forwarder that the test talks to over its stdio."""
    return spawn("--remote", str(shared.socket), data_dir=False, framing=framing)


def test_each_connection_is_a_session_of_its_own(spawn, shared):
    a = session(spawn, shared)
    b = session(spawn, shared, framing="ndjson")
    assert a.initialize({"clientInfo": {"name": "a"}, "locale": "ko"})["clientId"]
    b.initialize({"clientInfo": {"name": "b"}})
    # Each session has its own lifecycle and language.
    korean = assert_error(a.call("nope/nothing"), -32601)
    assert not korean["message"].startswith("There is no method"), korean
    english = assert_error(b.call("nope/nothing"), -32601)
    assert english["message"].startswith("There is no method")
    a.echo_ok()
    b.echo_ok()


def test_a_change_in_one_session_reaches_the_others_at_once(spawn, shared):
    a = session(spawn, shared)
    b = session(spawn, shared)
    a.initialize()
    b.initialize()
    feed = b.result("feeds/open", {"source": "products", "query": {"sort": "newest"}})["feedId"]
    assert b.result("feeds/loadMore", {"feedId": feed})["end"] == 20
    made = a.result("products/create", {"nameKo": "공유 데몬", "price": 1000})
    _, seen = b.read_until(
        lambda m: m.get("method") == "feeds/itemsChanged" and m["params"]["feedId"] == feed)
    listed = [m for m in seen if m.get("method") == "products/listUpdated"]
    assert listed and listed[0]["params"] == {"reason": "created", "id": made["id"]}
    got = b.result("products/get", {"id": made["id"]})
    assert got["nameKo"] == "공유 데몬"


def test_feeds_cancels_and_shutdown_of_one_session_leave_the_others_alone(spawn, shared):
    a = session(spawn, shared)
    b = session(spawn, shared)
    a.initialize()
    b.initialize()
    feed = a.result("feeds/open", {"source": "quotes"})["feedId"]
    # Another session's feed id means nothing here.
    assert_error(b.call("feeds/items", {"feedId": feed, "start": 0, "end": 1}), -32001)
    slow = a.request("daemon/sleep", {"ms": 10_000})
    a.notify("$/cancelRequest", {"id": slow})
    assert_error(a.read_until_response(slow)[0], -32800)
    b.echo_ok()
    assert_result(a.call("shutdown"), a._next_id - 1)
    a.notify("exit")
    assert a.wait() == 0
    b.echo_ok()
    assert b.result("feeds/open", {"source": "quotes"})["feedId"]


def test_the_daemon_exits_after_its_idle_timeout(catalogd_bin, tmp_path, spawn):
    shared = SharedDaemon(catalogd_bin, tmp_path, idle_timeout=1)
    try:
        a = session(spawn, shared)
        a.initialize()
        a.echo_ok()
        # A session keeps it alive past the timeout.
        time.sleep(1.5)
        assert shared.proc.poll() is None
        assert a.close() == 0
        wait_for(lambda: shared.proc.poll() is not None, "the idle exit")
        assert shared.proc.returncode == 0
        assert not shared.socket.exists()
    finally:
        shared.stop()


def test_a_stale_socket_is_replaced_and_a_live_one_refused(catalogd_bin, tmp_path, spawn):
    stale = tmp_path / "run" / "catalogd.sock"
    stale.parent.mkdir(mode=0o700)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(str(stale))
    s.close()  # a killed daemon leaves its socket file behind
    shared = SharedDaemon(catalogd_bin, tmp_path)
    try:
        a = session(spawn, shared)
        a.initialize()
        a.echo_ok()
        second = subprocess.run(
            [str(catalogd_bin), "serve", "--listen", str(shared.socket)],
            env=isolated_env(tmp_path), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=DEADLINE)
        assert second.returncode != 0
        assert str(shared.socket) in second.stderr
        a.echo_ok()
    finally:
        shared.stop()


@pytest.fixture
def open_folder():
    """A folder another user can enter (the test's own tmp_path is not)."""
    folder = Path(tempfile.mkdtemp(prefix="catalogd-e2e-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="connecting as another user needs root")
def test_another_user_is_refused(catalogd_bin, tmp_path, open_folder):
    shared = SharedDaemon(catalogd_bin, tmp_path, run=open_folder / "run")
    try:
        # Open the door on purpose: the socket's folder and mode would keep
        # another user out before the daemon even sees them.
        os.chmod(shared.socket.parent, 0o755)
        os.chmod(shared.socket, 0o666)
        probe = (
            "import os, socket, sys\n"
            "os.setgid(65534); os.setuid(65534)\n"
            "s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.settimeout(20)\n"
            "try:\n"
            "    s.sendall(b'{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\\n')\n"
            "    print(repr(s.recv(65536)))\n"
            "except (BrokenPipeError, ConnectionResetError):\n"
            "    print('closed')\n"
        )
        out = subprocess.run([sys.executable, "-c", probe, str(shared.socket)], capture_output=True, text=True,
                             timeout=DEADLINE)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() in ("b''", "closed"), out.stdout  # closed without a word
        wait_for(lambda: "refused a connection from another user" in shared.log.read_text(), "the log line")
        assert "uid 65534" in shared.log.read_text()
    finally:
        shared.stop()


def test_a_killed_daemon_fails_the_pending_requests_as_retryable(spawn, shared):
    a = session(spawn, shared)
    a.initialize()
    slow = a.request("daemon/sleep", {"ms": 20_000})
    a.echo_ok()  # answered after the sleep started: the sleep is pending in the daemon
    shared.proc.send_signal(signal.SIGKILL)
    error = assert_error(a.read_until_response(slow)[0], -32020)
    assert error["data"]["retryable"] is True
    assert a.wait() == 1
    assert "shared" in a.stderr_text()


def serve_processes(socket_path: Path) -> list[int]:
    """The pids of `catalogd serve --listen SOCKET` processes."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in argv and str(socket_path).encode() in argv:
            pids.append(int(entry.name))
    return pids


def test_eight_forwarders_started_at_once_share_one_daemon_that_leaves_when_idle(spawn, tmp_path):
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = {"XDG_RUNTIME_DIR": str(runtime)}
    data = tmp_path / "auto-data"
    clients = [spawn("--remote=auto", "--idle-timeout", "1", data_dir=data, env=env) for _ in range(8)]
    for client in clients:
        client.initialize()
    (socket_path,) = list((runtime / "catalogd").glob("*.sock"))
    pids = serve_processes(socket_path)
    assert len(pids) == 1, pids
    # One daemon, so one change reaches every session in process.
    made = clients[0].result("products/create", {"nameKo": "여덟", "price": 8})
    for client in clients[1:]:
        note, _ = client.read_until(lambda m: m.get("method") == "products/listUpdated")
        assert note.obj["params"]["id"] == made["id"]
    for client in clients:
        assert client.close() == 0
    wait_for(lambda: not serve_processes(socket_path), "the idle exit")
    assert not socket_path.exists()
    # The next client starts a new one on the same data.
    again = spawn("--remote=auto", data_dir=data, env=env)
    again.initialize()
    assert again.result("products/get", {"id": made["id"]})["nameKo"] == "여덟"
    assert again.close() == 0


def test_different_configurations_never_share(spawn, tmp_path):
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = {"XDG_RUNTIME_DIR": str(runtime)}
    a = spawn("--remote=auto", "--idle-timeout", "1", data_dir=tmp_path / "one", env=env)
    b = spawn("--remote=auto", "--idle-timeout", "1", data_dir=tmp_path / "two", env=env)
    a.initialize()
    b.initialize()
    assert a.result("daemon/status")["dataDir"] != b.result("daemon/status")["dataDir"]
    assert len(list((runtime / "catalogd").glob("*.sock"))) == 2
    assert a.close() == 0
    assert b.close() == 0


def test_remote_sessions_lists_the_clients_and_call_goes_through_the_shared_daemon(catalogd_bin, tmp_path, spawn,
                                                                                 shared):
    a = session(spawn, shared)
    a.initialize({"clientInfo": {"name": "editor"}})
    slow = a.request("daemon/sleep", {"ms": 10_000})
    remote = ["--remote", str(shared.socket)]

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(catalogd_bin), *args], env=isolated_env(tmp_path), stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=DEADLINE)

    listings: list[subprocess.CompletedProcess] = []

    def sleep_listed_in_flight() -> bool:
        # The sleep may still be on its way into the daemon when the first listing runs.
        listings.append(run("remote", "sessions", *remote))
        return any("editor" in row and row.split()[-1] == "1" for row in listings[-1].stdout.splitlines())

    wait_for(sleep_listed_in_flight, "the sleep in flight in the listing")
    listed = listings[-1]
    assert listed.returncode == 0, listed.stderr
    header, *rows = listed.stdout.splitlines()
    assert header.split() == ["SESSION", "CLIENT", "PID", "UPTIME", "REQUESTS", "IN", "FLIGHT"]
    editor = next(row.split() for row in rows if "editor" in row)
    assert editor[2] == str(a.pid)  # the forwarder is the session's peer
    assert any("(this)" in row and "catalogd remote sessions" in row for row in rows)

    made = run("call", "products/create", '{"nameKo": "원격", "price": 5}', *remote)
    assert made.returncode == 0, made.stderr
    note, _ = a.read_until(lambda m: m.get("method") == "products/listUpdated")
    assert note.obj["params"]["reason"] == "created"
    a.notify("$/cancelRequest", {"id": slow})
    assert_error(a.read_until_response(slow)[0], -32800)

    none = run("remote", "sessions", "--remote", str(tmp_path / "nobody.sock"))
    assert none.returncode == 1 and "no shared catalogd runs" in none.stderr


def test_daemon_sessions_in_a_stdio_daemon_is_the_caller_alone(spawn):
    solo = spawn()
    solo.initialize({"clientInfo": {"name": "solo"}})
    (only,) = solo.result("daemon/sessions")["sessions"]
    assert only["clientName"] == "solo" and only["current"] is True and only["pid"] is None


def test_a_session_that_stops_reading_never_blocks_another(spawn, shared):
    stuck = session(spawn, shared)
    busy = session(spawn, shared)
    stuck.initialize()
    busy.initialize()
    feed = stuck.result("feeds/open", {"source": "products"})["feedId"]
    stuck.result("feeds/loadMore", {"feedId": feed})
    stuck.pause_reading()
    # Each create reaches the stuck session's notifications and feed too.
    # About 1 MB of them: far more than the pipe and the socket between it and the daemon hold.
    for number in range(600):
        busy.result("products/create", {"nameKo": f"밀린 알림 {number} " + "가" * 180, "price": number})
    busy.echo_ok()
    stuck.resume_reading()
    # Nothing was lost meanwhile: every change reaches the session that was stuck.
    for _ in range(600):
        stuck.read_until(lambda m: m.get("method") == "products/listUpdated", timeout=60)
    assert stuck.result("daemon/echo", {"still": "here"}) == {"still": "here"}


def listed_pids(client) -> set:
    """The client pids of the shared daemon's sessions, as `daemon/sessions` lists them."""
    return {s["pid"] for s in client.result("daemon/sessions")["sessions"]}


@pytest.mark.parametrize("ending, status", [("shutdown and exit", 0), ("exit alone", 1), ("end of input", 0)])
def test_a_forwarder_exits_with_the_status_a_daemon_of_its_own_would(spawn, shared, ending, status):
    """The session runs in the shared daemon, which sends its status down the
    control line after closing the client's pipes; the daemon stays."""
    other = session(spawn, shared)
    other.initialize()
    a = session(spawn, shared)
    a.initialize()
    slow = a.request("daemon/sleep", {"ms": 60_000})
    if ending == "shutdown and exit":
        a.notify("$/cancelRequest", {"id": slow})
        assert_error(a.read_until_response(slow)[0], -32800)
        assert_result(a.call("shutdown", id="s"), "s", None)
        a.notify("exit")
    elif ending == "exit alone":
        a.notify("exit")  # the sleep still runs: the session ends all the same, at once
    else:
        a.notify("$/cancelRequest", {"id": slow})
        assert_error(a.read_until_response(slow)[0], -32800)
        a.close_stdin()
    assert a.wait() == status
    wait_for(lambda: a.pid not in listed_pids(other), "the session's end in the daemon")
    assert shared.proc.poll() is None
    other.echo_ok()


def test_a_forwarded_client_that_closes_its_stdout_ends_its_session_with_0(spawn, shared):
    other = session(spawn, shared)
    other.initialize()
    d = spawn("--remote", str(shared.socket), data_dir=False, start_reader=False)
    d.proc.stdout.close()
    d.send(request_obj("initialize", {}, 1))
    end = time.monotonic() + DEADLINE
    number = 2
    # The daemon's next write to the client's stdout fails: it ends the session,
    # then closes the client's stdin, which ends these writes too.
    try:
        while d.alive and time.monotonic() < end:
            d.send(request_obj("daemon/echo", [number], number))
            number += 1
            time.sleep(0.01)
    except BrokenPipeError:
        pass
    assert d.wait() == 0
    wait_for(lambda: d.pid not in listed_pids(other), "the session's end in the daemon")
    other.echo_ok()


def test_a_killed_forwarder_ends_its_session_and_cancels_its_requests(spawn, shared):
    other = session(spawn, shared)
    other.initialize()
    a = session(spawn, shared)
    a.initialize()
    a.request("daemon/sleep", {"ms": 60_000})
    wait_for(lambda: a.pid in listed_pids(other), "the session")
    a.kill()
    assert a.wait() == -signal.SIGKILL
    wait_for(lambda: a.pid not in listed_pids(other), "the session's end in the daemon")
    # The sleep was cancelled with its session (`daemon/status` itself runs inline, uncounted).
    wait_for(lambda: other.result("daemon/status")["inFlight"] == 0, "the sleep's cancellation")
    assert shared.proc.poll() is None


def lsp_bodies(data: bytes) -> list[bytes]:
    """The bodies of a stream of Content-Length frames."""
    bodies = []
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(header.split(b":")[1])
        bodies.append(rest[:length])
        data = rest[length:]
    return bodies


def test_a_reply_cut_short_by_the_daemons_death_is_finished_before_the_failures(spawn, shared):
    """The daemon dies while its reply waits for room in the client's full
    pipe: the forwarder completes the frame the client is inside (its body
    cannot be whole, so it reads as one malformed message), then answers each
    waiting request with -32020 in frames of their own."""
    a = spawn("--remote", str(shared.socket), data_dir=False, start_reader=False)  # Content-Length
    a.send(request_obj("initialize", {}, 1))
    a.send(request_obj("daemon/sleep", {"ms": 60_000}, 2))
    a.send(request_obj("daemon/echo", {"text": "x" * 400_000}, 3))
    stdout = a.proc.stdout.fileno()

    def pipe_full() -> bool:
        return struct.unpack("i", fcntl.ioctl(stdout, termios.FIONREAD, b"\0\0\0\0"))[0] >= 60_000

    wait_for(pipe_full, "the client's pipe to fill")  # nobody reads it
    shared.proc.send_signal(signal.SIGKILL)
    bodies = lsp_bodies(a.proc.stdout.read())  # to the end: the forwarder's exit
    assert a.wait() == 1
    assert len(bodies) == 4, [b[:80] for b in bodies]
    assert json.loads(bodies[0])["id"] == 1
    assert bodies[1].startswith(b'{"jsonrpc":"2.0","id":3,"result":{"text":"xxx') and bodies[1].endswith(b" ")
    for body, id in zip(bodies[2:], (2, 3)):
        error = assert_error(json.loads(body), -32020, id=id)
        assert error["data"]["retryable"] is True
    assert "2 waiting requests were answered with -32020" in a.stderr_text()
