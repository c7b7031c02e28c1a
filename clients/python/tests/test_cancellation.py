"""Timeouts and cancellation send `$/cancelRequest`; the daemon's trace shows
what went over the wire."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest
from client_support import run, trace_lines, wait_until

from catalogd import AsyncClient, RequestTimeout


def sent(trace: Path) -> List[Dict[str, Any]]:
    return [json.loads(line.split(" <- ", 1)[1]) for line in trace_lines(trace) if " <- " in line]


def answered(trace: Path) -> List[Dict[str, Any]]:
    return [json.loads(line.split(" -> ", 1)[1]) for line in trace_lines(trace) if " -> " in line]


def request_id(trace: Path, method: str) -> int:
    ids = [m["id"] for m in sent(trace) if m.get("method") == method]
    assert len(ids) == 1, ids
    return ids[0]


def test_a_timeout_cancels_the_request(daemons, caplog):
    trace = daemons.trace_path()
    caplog.set_level(logging.DEBUG, logger="catalogd")
    with daemons("--trace", str(trace)) as c:
        started = time.monotonic()
        with pytest.raises(RequestTimeout) as e:
            c.daemon_sleep(ms=30000, timeout=0.3)
        assert time.monotonic() - started < 2
        err = e.value
        assert err.method == "daemon/sleep" and err.timeout == 0.3 and isinstance(err, TimeoutError)
        assert wait_until(lambda: c.daemon_status().requests.cancelled == 1)
        assert c.daemon_status().in_flight == 0
        assert c.daemon_echo(["after"]) == ["after"], "the late -32800 reply is not mistaken for another"
    id = request_id(trace, "daemon/sleep")
    assert {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": id}} in sent(trace)
    replies = [m for m in answered(trace) if m.get("id") == id]
    assert len(replies) == 1 and replies[0]["error"]["code"] == -32800
    assert f"the late reply to request {id}" in caplog.text
    assert "never sent" not in caplog.text


def test_the_client_default_timeout(daemons):
    with daemons(timeout=0.2) as c:
        with pytest.raises(RequestTimeout):
            c.daemon_sleep(ms=30000)
        assert c.daemon_sleep(ms=10, timeout=5).slept == 10  # a call's own timeout wins


def test_a_reply_in_time_is_not_cancelled(daemons):
    trace = daemons.trace_path()
    with daemons("--trace", str(trace)) as c:
        assert c.daemon_sleep(ms=50, timeout=5).slept == 50
    assert not [m for m in sent(trace) if m.get("method") == "$/cancelRequest"]


def test_cancelling_an_awaiting_task_sends_cancel_request(daemons, framing):
    trace = daemons.trace_path()

    async def main() -> None:
        async with daemons("--trace", str(trace), cls=AsyncClient, framing=framing) as c:
            task = asyncio.ensure_future(c.daemon_sleep(ms=30000))
            await asyncio.sleep(0.2)
            assert not task.done()
            started = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert task.cancelled()
            assert time.monotonic() - started < 1
            for _ in range(100):
                if (await c.daemon_status()).requests.cancelled == 1:
                    break
                await asyncio.sleep(0.02)
            status = await c.daemon_status()
            assert status.requests.cancelled == 1 and status.in_flight == 0
            assert await c.daemon_echo(["after"]) == ["after"]

    run(main())
    id = request_id(trace, "daemon/sleep")
    assert {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": id}} in sent(trace)
    replies = [m for m in answered(trace) if m.get("id") == id]
    assert len(replies) == 1 and replies[0]["error"]["code"] == -32800


def test_async_timeout(daemons):
    trace = daemons.trace_path()

    async def main() -> None:
        async with daemons("--trace", str(trace), cls=AsyncClient) as c:
            with pytest.raises(RequestTimeout) as e:
                await c.daemon_sleep(ms=30000, timeout=0.2)
            assert isinstance(e.value, asyncio.TimeoutError)  # also on Python < 3.11
            assert (await c.daemon_sleep(ms=5, timeout=5)).slept == 5

    run(main())
    id = [m["id"] for m in sent(trace) if m.get("method") == "daemon/sleep"][0]  # the one that timed out
    assert {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": id}} in sent(trace)


def test_asyncio_wait_for_around_a_call_cancels_it(daemons):
    trace = daemons.trace_path()

    async def main() -> None:
        async with daemons("--trace", str(trace), cls=AsyncClient) as c:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(c.daemon_sleep(ms=30000), 0.2)

    run(main())
    assert any(m.get("method") == "$/cancelRequest" for m in sent(trace))
