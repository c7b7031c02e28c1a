"""Backpressure: a client that floods requests and does not read must not make
the daemon's memory grow without bound; once it reads, every reply arrives."""

from __future__ import annotations

import threading
import time

import pytest

from catalogd_e2e import dumps, request_obj, short

# Session-level behaviour: the same through a forwarder to a shared daemon.
pytestmark = pytest.mark.through_forwarder

N = 100_000
PAD = "p" * 400  # ~45 MB of replies: without a bound the RSS grows by about that much


@pytest.mark.timeout_s(120)
@pytest.mark.parametrize("framing_", ["ndjson"])
def test_flood_without_reading_keeps_memory_bounded(spawn, framing_):
    d = spawn("--max-queued-output-bytes", "1048576", framing=framing_)
    d.initialize()
    baseline_kb = d.rss_kb()
    payload = b"".join(d.frame(dumps(request_obj("daemon/echo", [i, PAD], i))) for i in range(N))

    d.pause_reading()
    written = [0]
    error: list[BaseException] = []

    def writer() -> None:
        try:
            view = memoryview(payload)
            while view:
                chunk = view[: 1 << 16]
                d._write_all(bytes(chunk))
                written[0] += len(chunk)
                view = view[len(chunk):]
        except BaseException as e:  # reported below
            error.append(e)

    t = threading.Thread(target=writer, daemon=True)
    t.start()

    # Not reading: wait until the writer stalls (the daemon stopped reading) or
    # everything is written, sampling the daemon's memory all the while.
    peak_kb = baseline_kb
    last, stalled_since = -1, None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        peak_kb = max(peak_kb, d.rss_kb())
        if written[0] == last:
            stalled_since = stalled_since or time.monotonic()
            if time.monotonic() - stalled_since > 1.5:
                break
        else:
            last, stalled_since = written[0], None
        if not t.is_alive():
            time.sleep(1.0)
            peak_kb = max(peak_kb, d.rss_kb())
            break
        time.sleep(0.05)
    assert not error, error
    assert d.alive, "catalogd died while the client was not reading" + d.diag()
    reply_bytes = N * (len(PAD) + 40)
    assert peak_kb < 100 * 1024, (
        f"RSS grew to {peak_kb // 1024} MiB (baseline {baseline_kb // 1024} MiB) while the client did not read "
        f"~{reply_bytes >> 20} MiB of replies; --max-queued-output-bytes 1 MiB should bound it"
    )
    assert peak_kb - baseline_kb < 16 * 1024, (
        f"RSS grew by {(peak_kb - baseline_kb) // 1024} MiB while ~{reply_bytes >> 20} MiB of replies waited; "
        "with --max-queued-output-bytes 1 MiB the growth should stay small"
    )
    assert t.is_alive(), (
        f"catalogd read all {len(payload) >> 20} MiB of requests while the client read nothing: "
        "it should stop reading once its output queue is full (backpressure)"
    )

    # Now read: every reply arrives, exactly once.
    d.resume_reading()
    seen = bytearray(N)
    count = 0
    deadline = time.monotonic() + 90
    while count < N:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"only {count} of {N} replies arrived"
        msg = d.read_message(timeout=remaining)
        i = msg.get("id") if isinstance(msg, dict) else None
        assert type(i) is int and 0 <= i < N and "result" in msg, short(msg)
        assert not seen[i], f"two replies to id {i}"
        assert msg["result"] == [i, PAD], short(msg)
        seen[i] = 1
        count += 1
    t.join(30)
    assert not t.is_alive() and not error, "the writer could not finish once the client read"
    d.echo_ok()
    assert d.close(10) == 0


@pytest.mark.parametrize("framing_", ["lsp", "ndjson"])
def test_a_reply_larger_than_the_output_bound_is_still_delivered(spawn, framing_):
    d = spawn("--max-queued-output-bytes", "1048576", framing=framing_)
    d.initialize()
    big = "b" * (5 << 20)
    resp = d.call("daemon/echo", [big], id="big", timeout=30)
    assert resp.get("result") == [big], short(resp, 200)
    d.echo_ok()
