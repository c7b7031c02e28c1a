"""Cancellation and concurrency: `$/cancelRequest`, exactly one reply per
request even when a cancel races the result, requests running concurrently,
and the in-flight limit."""

from __future__ import annotations

import time

import pytest

from catalogd_e2e import (
    REQUEST_CANCELLED,
    assert_error,
    assert_result,
    dumps,
    request_obj,
    short,
)

# Session-level behaviour: the same through a forwarder to a shared daemon.
pytestmark = pytest.mark.through_forwarder


def test_cancel_a_running_sleep(any_daemon):
    d = any_daemon
    d.request("daemon/sleep", {"ms": 5000}, id=1)
    time.sleep(0.1)
    started = time.monotonic()
    d.notify("$/cancelRequest", {"id": 1})
    resp, others = d.read_until_response(1, timeout=3)
    assert_error(resp, REQUEST_CANCELLED, id=1)
    assert time.monotonic() - started < 2, "the cancelled request must end promptly"
    assert not others, others
    d.echo_ok()
    d.expect_no_message(0.3)  # exactly one reply to id 1


def test_cancel_with_a_string_id(any_daemon):
    d = any_daemon
    d.request("daemon/sleep", {"ms": 5000}, id="sleep-abc")
    time.sleep(0.05)
    d.notify("$/cancelRequest", {"id": "sleep-abc"})
    resp, _ = d.read_until_response("sleep-abc", timeout=3)
    assert_error(resp, REQUEST_CANCELLED, id="sleep-abc")


def test_cancel_matches_ids_by_type(daemon):
    """Cancelling "1" must not cancel the request with id 1."""
    daemon.request("daemon/sleep", {"ms": 300}, id=1)
    time.sleep(0.05)
    daemon.notify("$/cancelRequest", {"id": "1"})
    resp, others = daemon.read_until_response(1, timeout=3)
    assert_result(resp, 1, {"slept": 300})
    assert not others


def test_cancel_of_unknown_or_finished_id_is_ignored(daemon):
    assert_result(daemon.call("daemon/echo", ["done"], id=77), 77, ["done"])
    daemon.notify("$/cancelRequest", {"id": 77})  # finished
    daemon.notify("$/cancelRequest", {"id": 123456})  # never existed
    daemon.notify("$/cancelRequest", {"id": "nope"})
    daemon.notify("$/cancelRequest", {})  # malformed: still a notification, no reply
    daemon.notify("$/cancelRequest", {"id": {"x": 1}})
    daemon.notify("$/cancelRequest")
    daemon.expect_no_message(0.3)
    daemon.echo_ok()


def test_cancel_only_the_named_request(daemon):
    daemon.request("daemon/sleep", {"ms": 5000}, id="a")
    daemon.request("daemon/sleep", {"ms": 300}, id="b")
    time.sleep(0.05)
    daemon.notify("$/cancelRequest", {"id": "a"})
    got, _ = daemon.read_responses(["a", "b"], timeout=4)
    assert_error(got["'a'"], REQUEST_CANCELLED, id="a")
    assert_result(got["'b'"], "b", {"slept": 300})


@pytest.mark.parametrize("framing_", ["lsp", "ndjson"])
def test_cancel_racing_the_result_always_gives_exactly_one_reply(spawn, framing_):
    d = spawn(framing=framing_)
    d.initialize()
    ids = [f"race-{i}" for i in range(50)]
    for i, id in enumerate(ids):
        # The request and its cancel in one write: the cancel can land before, during or after the work.
        d.send_raw(
            d.frame(dumps(request_obj("daemon/sleep", {"ms": i % 3}, id)))
            + d.frame(dumps(request_obj("$/cancelRequest", {"id": id})))
        )
    got, others = d.read_responses(ids, timeout=10)
    assert not others, short(others)
    outcomes = {"result": 0, "cancelled": 0}
    for i, id in enumerate(ids):
        resp = got[repr(id)]
        if "result" in resp:
            assert_result(resp, id, {"slept": i % 3})
            outcomes["result"] += 1
        else:
            assert_error(resp, REQUEST_CANCELLED, id=id)
            outcomes["cancelled"] += 1
    d.expect_no_message(0.5)  # no second reply for any id
    d.echo_ok()


def test_cancel_racing_with_sleeps_in_flight_sequentially(daemon):
    """Cancel sent a moment after the request, 50 times: one reply each."""
    for i in range(50):
        id = f"seq-{i}"
        daemon.request("daemon/sleep", {"ms": 5}, id=id)
        if i % 2:
            time.sleep(0.004)
        daemon.notify("$/cancelRequest", {"id": id})
        resp, others = daemon.read_until_response(id, timeout=5)
        assert not others, short(others)
        if "error" in resp:
            assert_error(resp, REQUEST_CANCELLED, id=id)
        else:
            assert_result(resp, id, {"slept": 5})
    daemon.expect_no_message(0.3)


def test_requests_run_concurrently(any_daemon):
    d = any_daemon
    ids = [f"c{i}" for i in range(20)]
    started = time.monotonic()
    d.send_raw(b"".join(d.frame(dumps(request_obj("daemon/sleep", {"ms": 300}, id))) for id in ids))
    got, others = d.read_responses(ids, timeout=10)
    elapsed = time.monotonic() - started
    assert not others
    for id in ids:
        assert_result(got[repr(id)], id, {"slept": 300})
    assert elapsed < 3.0, f"20 sleeps of 300 ms took {elapsed:.2f}s: they do not run concurrently (serial would be 6 s)"


def test_a_fast_request_overtakes_a_slow_one(daemon):
    daemon.request("daemon/sleep", {"ms": 1000}, id="slow")
    daemon.request("daemon/echo", ["fast"], id="fast")
    first = daemon.read_message(timeout=5)
    assert_result(first, "fast", ["fast"])
    assert_result(daemon.read_message(timeout=5), "slow", {"slept": 1000})


def test_max_in_flight_limits_concurrency(spawn):
    d = spawn("--max-in-flight", "2")
    d.initialize()
    ids = [f"m{i}" for i in range(6)]
    started = time.monotonic()
    d.send_raw(b"".join(d.frame(dumps(request_obj("daemon/sleep", {"ms": 300}, id))) for id in ids))
    got, _ = d.read_responses(ids, timeout=10)
    elapsed = time.monotonic() - started
    for id in ids:
        assert_result(got[repr(id)], id, {"slept": 300})
    assert elapsed >= 0.85, f"6 sleeps of 300 ms with --max-in-flight 2 took {elapsed:.2f}s; at most 2 may run at once (>= 0.9 s)"


def test_same_lane_runs_in_arrival_order(daemon):
    """daemon/sleep's `lane` (openrpc.json): requests of one lane run in arrival order, other lanes overtake."""
    daemon.request("daemon/sleep", {"ms": 300, "lane": "x"}, id="x1")
    daemon.request("daemon/sleep", {"ms": 10, "lane": "x"}, id="x2")
    assert [daemon.read_message(timeout=5)["id"], daemon.read_message(timeout=5)["id"]] == ["x1", "x2"]
    daemon.request("daemon/sleep", {"ms": 300, "lane": "x"}, id="y1")
    daemon.request("daemon/sleep", {"ms": 10, "lane": "y"}, id="y2")
    assert [daemon.read_message(timeout=5)["id"], daemon.read_message(timeout=5)["id"]] == ["y2", "y1"]


def test_cancel_a_request_waiting_in_its_lane(daemon):
    daemon.request("daemon/sleep", {"ms": 400, "lane": "z"}, id="first")
    daemon.request("daemon/sleep", {"ms": 400, "lane": "z"}, id="queued")
    time.sleep(0.05)
    daemon.notify("$/cancelRequest", {"id": "queued"})
    first, second = daemon.read_message(timeout=3), daemon.read_message(timeout=3)
    order = [first.get("id"), second.get("id")]
    got = {m["id"]: m for m in (first, second)}
    assert_error(got["queued"], REQUEST_CANCELLED, id="queued")
    assert_result(got["first"], "first", {"slept": 400})
    assert order == ["queued", "first"], (
        "a request waiting for its lane should be cancelled at once, not when the request ahead of it ends"
    )


def test_a_batch_counts_against_the_in_flight_limit(spawn):
    """A batch is as many requests as it has members: with --max-in-flight 4,
    12 sleeps of 100 ms in one batch take at least 3 rounds."""
    d = spawn("--max-in-flight", "4")
    d.initialize()
    started = time.monotonic()
    d.send([request_obj("daemon/sleep", {"ms": 100}, i) for i in range(12)])
    reply = d.read_message(timeout=10)
    elapsed = time.monotonic() - started
    assert isinstance(reply, list) and len(reply) == 12, short(reply)
    assert sorted(r["id"] for r in reply) == list(range(12))
    assert elapsed >= 0.28, f"12 sleeps of 100 ms in a batch took {elapsed:.2f}s with --max-in-flight 4: the batch bypassed the limit"


def test_a_batch_larger_than_the_in_flight_limit_completes(spawn):
    d = spawn("--max-in-flight", "4")
    d.initialize()
    d.send([request_obj("daemon/echo", [i], i) for i in range(300)])
    reply = d.read_message(timeout=10)
    assert isinstance(reply, list) and len(reply) == 300
    for r in reply:
        assert_result(r, r["id"], [r["id"]])
    assert sorted(r["id"] for r in reply) == list(range(300))


def test_cancel_still_works_when_the_in_flight_limit_is_reached(spawn):
    """With every slot taken by long requests, the client must still be able to
    cancel them: otherwise a saturated daemon cannot be talked down."""
    d = spawn("--max-in-flight", "2")
    d.initialize()
    d.request("daemon/sleep", {"ms": 3000}, id="a")
    d.request("daemon/sleep", {"ms": 3000}, id="b")
    time.sleep(0.1)
    started = time.monotonic()
    d.notify("$/cancelRequest", {"id": "a"})
    d.notify("$/cancelRequest", {"id": "b"})
    got, _ = d.read_responses(["a", "b"], timeout=6)
    elapsed = time.monotonic() - started
    assert_error(got["'a'"], REQUEST_CANCELLED, id="a")
    assert_error(got["'b'"], REQUEST_CANCELLED, id="b")
    assert elapsed < 1.5, f"cancelling took {elapsed:.2f}s"
