"""When the daemon's process ends, pending calls fail at once with
DaemonExited, which carries the exit status and the end of stderr."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from typing import Any, List

import pytest
from client_support import run, wait_until

from catalogd import AsyncClient, DaemonExited, ExitStatus, RequestCancelled


def kill_later(pid: int, delay: float) -> threading.Timer:
    t = threading.Timer(delay, os.kill, (pid, signal.SIGKILL))
    t.start()
    return t


@pytest.mark.timeout_s(20)
def test_killed_mid_call_fails_the_call_at_once(daemons):
    c = daemons().start()
    stream = c.notifications()
    kill_later(c.pid, 0.3)
    started = time.monotonic()
    with pytest.raises(DaemonExited) as e:
        c.daemon_sleep(ms=30000)
    assert time.monotonic() - started < 3, "the pending call must fail when the process ends"
    err = e.value
    assert err.returncode == -signal.SIGKILL
    assert err.method == "daemon/sleep"
    assert "catalogd started" in err.stderr_tail
    assert "SIGKILL" in str(err) and "catalogd started" in str(err)
    assert isinstance(err, ConnectionError)
    assert c.exited and c.returncode == -signal.SIGKILL
    with pytest.raises(DaemonExited) as again:
        c.daemon_echo()  # later calls fail at once too
    assert again.value.method == "daemon/echo" and again.value.returncode == -signal.SIGKILL
    with pytest.raises(DaemonExited):
        c.notify("initialized")
    assert list(stream) == []
    assert c.close() == ExitStatus(exit_code=None, signal="SIGKILL")


@pytest.mark.timeout_s(20)
def test_every_pending_call_of_every_thread_fails(daemons):
    c = daemons().start()
    errors: List[Any] = []

    def call() -> None:
        try:
            c.daemon_sleep(ms=30000)
        except DaemonExited as e:
            errors.append(e)

    threads = [threading.Thread(target=call) for _ in range(5)]
    for t in threads:
        t.start()
    assert wait_until(lambda: c.daemon_status().in_flight == 5)
    os.kill(c.pid, signal.SIGKILL)
    for t in threads:
        t.join(5)
    assert len(errors) == 5 and all(e.returncode == -signal.SIGKILL for e in errors)
    c.close()


@pytest.mark.timeout_s(20)
def test_async_killed_mid_call(daemons):
    async def main() -> None:
        c = daemons(cls=AsyncClient)
        async with c:
            stream = c.notifications()
            calls = [asyncio.ensure_future(c.daemon_sleep(ms=30000)) for _ in range(3)]
            await asyncio.sleep(0.2)
            started = time.monotonic()
            os.kill(c.pid, signal.SIGKILL)
            results = await asyncio.gather(*calls, return_exceptions=True)
            assert time.monotonic() - started < 3
            assert all(isinstance(r, DaemonExited) for r in results), results
            assert results[0].returncode == -signal.SIGKILL
            assert "catalogd started" in results[0].stderr_tail
            assert [n async for n in stream] == []
            with pytest.raises(DaemonExited):
                await c.daemon_echo()
        assert c.returncode == -signal.SIGKILL

    run(main())


@pytest.mark.timeout_s(20)
def test_exit_without_shutdown_ends_pending_calls_with_status_1(daemons):
    """`exit` without `shutdown` ends the daemon with status 1; a call still
    running ends at once: DaemonExited (the daemon leaves it unanswered) or
    RequestCancelled (should the daemon cancel it before it exits)."""
    c = daemons().start()
    done: List[Any] = []

    def call() -> None:
        try:
            done.append(c.daemon_sleep(ms=30000))
        except (DaemonExited, RequestCancelled) as e:
            done.append(e)

    t = threading.Thread(target=call)
    t.start()
    assert wait_until(lambda: c.daemon_status().in_flight == 1)
    c.notify("exit")
    t.join(5)
    assert len(done) == 1 and isinstance(done[0], (DaemonExited, RequestCancelled)), done
    assert c.close() == ExitStatus(1, None)


def test_a_daemon_closed_by_its_stdin_exits_zero(daemons):
    """Closing stdin (what happens when this process dies) is a normal end for the daemon."""
    c = daemons().start()
    c._proc.stdin.close()
    assert wait_until(lambda: c.exited)
    assert c.returncode == 0
    with pytest.raises(DaemonExited) as e:
        c.daemon_echo()
    assert e.value.returncode == 0 and "status 0" in str(e.value)


@pytest.mark.timeout_s(20)
def test_close_cancels_the_calls_still_pending(daemons):
    c = daemons().start()
    outcome: List[Any] = []

    def call() -> None:
        try:
            outcome.append(c.daemon_sleep(ms=30000))
        except Exception as e:  # noqa: BLE001 - the test looks at what it is
            outcome.append(e)

    t = threading.Thread(target=call)
    t.start()
    assert wait_until(lambda: c.daemon_status().in_flight == 1)
    started = time.monotonic()
    assert c.close() == ExitStatus(0, None)
    t.join(5)
    assert time.monotonic() - started < 3
    assert len(outcome) == 1 and isinstance(outcome[0], RequestCancelled), outcome


@pytest.mark.timeout_s(20)
def test_async_close_cancels_the_calls_still_pending(daemons):
    async def main() -> None:
        c = daemons(cls=AsyncClient)
        async with c:
            call = asyncio.ensure_future(c.daemon_sleep(ms=30000))
            await asyncio.sleep(0.2)
        assert c.returncode == 0
        with pytest.raises(RequestCancelled):
            await call

    run(main())
