"""`Client.submit`: requests sent at once from one thread, each a
`concurrent.futures.Future`; cancelling a future cancels its request in the
daemon."""

from __future__ import annotations

import concurrent.futures
import json
import threading
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest
from client_support import trace_lines, wait_until

from catalogd import DaemonExited, InvalidParams, MethodNotFound, RequestCancelled, RequestTimeout


def messages(trace: Path) -> List[Dict[str, Any]]:
    """What the daemon received (`in`) and sent (`out`), in order, from its trace."""
    out = []
    for line in trace_lines(trace):
        for arrow, direction in ((" <- ", "in"), (" -> ", "out")):
            if arrow in line:
                out.append({"direction": direction, **json.loads(line.split(arrow, 1)[1])})
    return out


def test_one_thread_pipelines_requests(daemons):
    trace = daemons.trace_path()
    with daemons("--trace", str(trace)) as c:
        started = time.monotonic()
        futures = [c.submit("daemon/sleep", {"ms": 400}) for _ in range(5)]
        assert all(isinstance(f, concurrent.futures.Future) for f in futures)
        assert [f.result(timeout=10)["slept"] for f in futures] == [400] * 5
        assert time.monotonic() - started < 1.5, "they ran at once, not one after another"
    sleeps = [m for m in messages(trace) if m.get("method") == "daemon/sleep"]
    ids = {m["id"] for m in sleeps}
    first_reply = next(i for i, m in enumerate(messages(trace)) if m["direction"] == "out" and m.get("id") in ids)
    received_before = [m for m in messages(trace)[:first_reply] if m.get("method") == "daemon/sleep"]
    assert len(received_before) == 5, "all five were sent before the first reply"


def test_futures_end_like_request(client):
    ok = client.submit("daemon/echo", [1, 2])
    missing = client.submit("nope/nothing")
    bad = client.submit("quotes/list", {"limit": 1000})
    assert ok.result(timeout=5) == [1, 2]
    with pytest.raises(MethodNotFound):
        missing.result(timeout=5)
    assert isinstance(bad.exception(timeout=5), InvalidParams)
    assert client.daemon_echo(["after"]) == ["after"]


def test_futures_resolve_in_order_after_the_handlers_before_them(client):
    seen: List[Any] = []
    client.on("quotes/loading", lambda params: seen.append(params["isLoading"]))
    done = threading.Event()
    future = client.submit("quotes/random")
    future.add_done_callback(lambda f: (seen.append("reply"), done.set()))
    assert done.wait(5)
    assert seen == [True, False, "reply"]
    assert future.result()["content"]


def test_cancelling_a_future_cancels_the_request_in_the_daemon(daemons):
    trace = daemons.trace_path()
    with daemons("--trace", str(trace)) as c:
        slow = c.submit("daemon/sleep", {"ms": 30000})
        assert wait_until(lambda: c.daemon_status().in_flight == 1)
        started = time.monotonic()
        assert slow.cancel()
        assert slow.cancelled()
        with pytest.raises(concurrent.futures.CancelledError):
            slow.result()
        assert wait_until(lambda: c.daemon_status().requests.cancelled == 1)
        assert time.monotonic() - started < 3
        assert c.daemon_status().in_flight == 0
        assert c.daemon_echo(["after"]) == ["after"], "the late -32800 reply is not taken for another's"
    sent = messages(trace)
    id = next(m["id"] for m in sent if m.get("method") == "daemon/sleep")
    assert {"direction": "in", "jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": id}} in sent
    replies = [m for m in sent if m["direction"] == "out" and m.get("id") == id]
    assert len(replies) == 1 and replies[0]["error"]["code"] == -32800


def test_cancelling_an_answered_future_does_nothing(daemons):
    trace = daemons.trace_path()
    with daemons("--trace", str(trace)) as c:
        f = c.submit("daemon/echo", [1])
        assert f.result(timeout=5) == [1]
        assert not f.cancel()
    assert not [m for m in messages(trace) if m.get("method") == "$/cancelRequest"]


def test_a_submitted_request_times_out(daemons):
    with daemons(timeout=0.3) as c:
        started = time.monotonic()
        slow = c.submit("daemon/sleep", {"ms": 30000})
        mine = c.submit("daemon/sleep", {"ms": 30000}, timeout=5)
        err = slow.exception(timeout=5)
        assert isinstance(err, RequestTimeout) and err.timeout == 0.3
        assert time.monotonic() - started < 2
        assert not mine.done(), "a future's own timeout wins over the client's"
        assert wait_until(lambda: c.daemon_status().requests.cancelled == 1)
        assert mine.cancel()


def test_close_ends_the_futures_still_pending(daemons):
    c = daemons().start()
    slow = c.submit("daemon/sleep", {"ms": 30000})
    assert wait_until(lambda: c.daemon_status().in_flight == 1)
    assert c.close().exit_code == 0
    assert isinstance(slow.exception(timeout=5), RequestCancelled)


def test_a_daemon_that_exits_fails_the_futures(daemons):
    import os
    import signal

    c = daemons().start()
    slow = c.submit("daemon/sleep", {"ms": 30000})
    assert wait_until(lambda: c.daemon_status().in_flight == 1)
    os.kill(c.pid, signal.SIGKILL)
    err = slow.exception(timeout=5)
    assert isinstance(err, DaemonExited) and err.method == "daemon/sleep"
    with pytest.raises(DaemonExited):
        c.submit("daemon/echo")
    assert c.close().signal == "SIGKILL"


def test_submit_from_a_handler(client):
    """A handler may not wait for a reply, but it may submit and let the future carry it."""
    results: "concurrent.futures.Future[Any]" = concurrent.futures.Future()

    def on_loading(params: Dict[str, Any]) -> None:
        if not params["isLoading"] and not results.done():
            client.submit("daemon/echo", ["from a handler"]).add_done_callback(
                lambda f: results.set_result(f.result())
            )

    client.on("quotes/loading", on_loading)
    client.quotes_random()
    assert results.result(timeout=5) == ["from a handler"]
