"""Lifecycle (Language Server Protocol conventions): initialize, initialized,
shutdown, exit, end of input, and what a client that goes away does."""

from __future__ import annotations

import os
import signal
import time

import pytest

from catalogd_e2e import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    SERVER_NOT_INITIALIZED,
    UUID_RE,
    VERSION_RE,
    assert_error,
    assert_result,
    dumps,
    request_obj,
    run_catalogd,
    short,
)

# Session-level behaviour: the same through a forwarder to a shared daemon.
pytestmark = pytest.mark.through_forwarder


def test_requests_before_initialize_get_server_not_initialized(spawn, framing):
    d = spawn(framing=framing)
    for method, params in [("daemon/echo", [1]), ("daemon/status", {}), ("quotes/random", {}), ("shutdown", None), ("nope", {})]:
        resp = d.call(method, params, id=f"pre-{method}")
        assert_error(resp, SERVER_NOT_INITIALIZED, id=f"pre-{method}")
    # Notifications before initialize are dropped silently.
    d.notify("daemon/echo", [1])
    d.notify("$/cancelRequest", {"id": 1})
    d.expect_no_message(0.2)
    d.initialize()
    d.echo_ok()


def test_initialize_result_shape(spawn, tmp_path):
    d = spawn()
    result = d.initialize()
    assert set(result) >= {"serverInfo", "clientId", "capabilities"}, short(result)
    assert result["serverInfo"]["name"] == "catalogd"
    assert isinstance(result["serverInfo"]["version"], str) and VERSION_RE.match(result["serverInfo"]["version"]), result
    assert isinstance(result["capabilities"], dict), result
    assert isinstance(result["clientId"], str) and UUID_RE.match(result["clientId"]), result
    # openrpc.json: capabilities list the services with their backend ('embedded' or 'remote').
    assert result["capabilities"]["services"]["quotes"]["backend"] == "embedded", result["capabilities"]


def test_server_version_matches_dash_dash_version(spawn, tmp_path):
    d = spawn()
    version = d.initialize()["serverInfo"]["version"]
    status = d.result("daemon/status", {})
    assert status["version"] == version
    out = run_catalogd(["--version"], env=spawn.env(), cwd=tmp_path)
    assert out.stdout.decode().strip() == f"catalogd {version}"


def test_client_id_is_persisted_in_the_data_dir(spawn, tmp_path):
    data = tmp_path / "persisted"
    first = spawn(data_dir=data)
    id1 = first.initialize()["clientId"]
    assert first.close() == 0
    second = spawn(data_dir=data)
    assert second.initialize()["clientId"] == id1, "same data dir, same clientId across restarts"
    other = spawn()  # a fresh data dir
    id3 = other.initialize()["clientId"]
    assert UUID_RE.match(id3) and id3 != id1


def test_client_id_param_is_used(spawn):
    d = spawn()
    result = d.initialize({"clientInfo": {"name": "e2e"}, "clientId": "device-1234"})
    assert result["clientId"] == "device-1234"


def test_initialize_with_params_null_or_absent(spawn):
    d = spawn()
    d.send_raw(d.frame(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":null}'))
    assert_result(d.read_message(), 1)
    e = spawn()
    e.send_raw(e.frame(b'{"jsonrpc":"2.0","id":1,"method":"initialize"}'))
    assert_result(e.read_message(), 1)


def test_initialize_with_wrong_client_id_type_is_invalid_params(spawn):
    d = spawn()
    resp = d.call("initialize", {"clientId": 5}, id=1)
    assert_error(resp, INVALID_PARAMS, id=1, data={"field": "clientId"})


def test_second_initialize_is_invalid_request(daemon):
    resp = daemon.call("initialize", {}, id="again")
    assert_error(resp, INVALID_REQUEST, id="again")
    daemon.echo_ok()


def test_initialized_notification_is_accepted_silently(spawn):
    d = spawn()
    d.initialize(initialized=False)
    d.notify("initialized", {})
    d.notify("initialized")
    d.expect_no_message(0.2)
    d.echo_ok()


def test_shutdown_then_requests_are_invalid_then_exit_0(daemon):
    assert_result(daemon.call("shutdown", id="s"), "s", None)
    assert_error(daemon.call("daemon/echo", [1], id="after"), INVALID_REQUEST, id="after")
    assert_error(daemon.call("shutdown", id="s2"), INVALID_REQUEST, id="s2")
    daemon.notify("exit")
    assert daemon.wait(5) == 0


def test_shutdown_and_exit_with_params_null(daemon):
    daemon.send_raw(daemon.frame(b'{"jsonrpc":"2.0","id":"s","method":"shutdown","params":null}'))
    assert_result(daemon.read_message(), "s", None)
    daemon.send_raw(daemon.frame(b'{"jsonrpc":"2.0","method":"exit","params":null}'))
    assert daemon.wait(5) == 0


def test_exit_without_shutdown_is_status_1(daemon):
    daemon.notify("exit")
    assert daemon.wait(5) == 1


def test_exit_before_initialize_is_status_1(spawn):
    d = spawn()
    d.notify("exit")
    assert d.wait(5) == 1


def test_end_of_input_waits_for_in_flight_replies_then_exits_0(spawn, framing):
    d = spawn(framing=framing)
    d.send_raw(
        d.frame(dumps(request_obj("initialize", {}, "i")))
        + d.frame(dumps(request_obj("daemon/sleep", {"ms": 200}, "sleep")))
        + d.frame(dumps(request_obj("daemon/echo", ["e"], "echo")))
    )
    d.close_stdin()
    got, others = d.read_responses(["i", "sleep", "echo"], timeout=5)
    assert_result(got["'sleep'"], "sleep", {"slept": 200})
    assert_result(got["'echo'"], "echo", ["e"])
    assert d.wait(5) == 0


def test_end_of_input_before_anything_exits_0(spawn):
    d = spawn()
    assert d.close(5) == 0


def test_end_of_input_after_shutdown_exits_0(daemon):
    assert_result(daemon.call("shutdown", id="s"), "s", None)
    assert daemon.close(5) == 0


def test_exit_is_immediate_even_with_a_long_request_running(daemon):
    daemon.request("daemon/sleep", {"ms": 5000}, id="long")
    assert_result(daemon.call("shutdown", id="s"), "s", None)
    started = time.monotonic()
    daemon.notify("exit")
    assert daemon.wait(5) == 0
    assert time.monotonic() - started < 3


def test_client_going_away_ends_the_daemon_cleanly(spawn):
    """The client closes both pipes (it exited): no SIGPIPE death, no hang."""
    d = spawn(start_reader=False)
    d.send(request_obj("initialize", {}, 1))
    d.send(request_obj("daemon/sleep", {"ms": 100}, 2))
    d.proc.stdout.close()
    d.close_stdin()
    status = d.wait(5)
    assert status in (0, 1), f"expected a clean exit, got {status} ({'signal ' + signal.Signals(-status).name if status < 0 else ''})" + d.diag()


def test_client_that_stops_reading_stdout_ends_the_daemon_cleanly(spawn):
    """The client closes its end of stdout but keeps stdin open: the daemon's
    next write fails with EPIPE (SIGPIPE is ignored) and it ends cleanly."""
    d = spawn(start_reader=False)
    d.proc.stdout.close()
    try:
        d.send(request_obj("initialize", {}, 1))
        for i in range(2, 50):
            d.send(request_obj("daemon/echo", [i], i))
            time.sleep(0.01)
    except BrokenPipeError:
        pass
    status = d.wait(5)
    assert status in (0, 1), f"expected a clean exit, got {status} ({'signal ' + signal.Signals(-status).name if status < 0 else ''})" + d.diag()


def test_sigterm_ends_the_daemon(daemon):
    os.kill(daemon.pid, signal.SIGTERM)
    status = daemon.wait(5)
    assert status in (0, 1, -signal.SIGTERM, 128 + signal.SIGTERM), status


def test_status_reports_the_documented_fields(spawn, tmp_path):
    data = tmp_path / "status-data"
    d = spawn(data_dir=data)
    d.initialize()
    for _ in range(3):
        d.echo_ok()
    status = d.result("daemon/status", {})
    assert {"uptimeSeconds", "inFlight", "requests", "backends", "dataDir", "version"} <= set(status), short(status)
    assert isinstance(status["uptimeSeconds"], (int, float)) and 0 <= status["uptimeSeconds"] < 60
    assert type(status["inFlight"]) is int and status["inFlight"] >= 0
    assert isinstance(status["requests"], dict), status
    assert isinstance(status["backends"], dict) and status["backends"].get("quotes") == "embedded", status
    assert os.path.realpath(status["dataDir"]) == os.path.realpath(data), status


def test_status_counts_in_flight_requests(daemon):
    for i in range(3):
        daemon.request("daemon/sleep", {"ms": 1000}, id=f"sl{i}")
    time.sleep(0.2)
    status = daemon.result("daemon/status")
    assert status["inFlight"] >= 3, status


def test_status_with_no_params(daemon):
    daemon.send_raw(daemon.frame(b'{"jsonrpc":"2.0","id":"st","method":"daemon/status"}'))
    result = assert_result(daemon.read_message(), "st")
    assert "version" in result


def test_sleep_validates_its_params(daemon):
    assert_result(daemon.call("daemon/sleep", {"ms": 30}, id="ok"), "ok", {"slept": 30})
    assert_result(daemon.call("daemon/sleep", {"ms": 0}, id="zero"), "zero", {"slept": 0})
    for bad in [{"ms": -1}, {"ms": "x"}, {}, {"ms": 1.5}, {"ms": None}, {"ms": 600001}]:
        resp = daemon.call("daemon/sleep", bad, id="bad")
        assert_error(resp, INVALID_PARAMS, id="bad", data={"field": "ms"})


def test_rpc_discover_returns_an_openrpc_document(daemon):
    doc = daemon.result("rpc.discover")
    assert isinstance(doc, dict) and {"openrpc", "info", "methods"} <= set(doc), short(doc)
    assert isinstance(doc["openrpc"], str) and doc["openrpc"].startswith("1."), doc["openrpc"]
    assert isinstance(doc["info"], dict) and "version" in doc["info"] and "title" in doc["info"]
    names = {m["name"] for m in doc["methods"]}
    missing = {"daemon/echo", "daemon/status", "daemon/sleep", "quotes/random", "quotes/list"} - names
    assert not missing, f"rpc.discover does not describe {sorted(missing)}"
    for m in doc["methods"]:
        assert {"name", "params", "result"} <= set(m) or {"name", "params"} <= set(m), short(m)


def test_rpc_discover_matches_the_checked_in_openrpc_json(daemon):
    import json

    from catalogd_e2e import REPO_ROOT

    path = REPO_ROOT / "openrpc.json"
    assert path.is_file(), "API.md: openrpc.json in the repo, kept in step with rpc.discover"
    doc = daemon.result("rpc.discover")
    checked_in = json.loads(path.read_text("utf-8"))
    assert doc == checked_in, f"rpc.discover differs from {path}"


def test_cancel_request_is_not_a_request(daemon):
    resp = daemon.call("$/cancelRequest", {"id": 12345}, id="c")
    # Sent as a request by mistake it must still get exactly one reply (any error or a result).
    assert resp["id"] == "c" and ("error" in resp or "result" in resp)


def test_status_counters_follow_the_requests(daemon):
    """The counters named in openrpc.json: received, succeeded, failed, cancelled, parseError."""
    before = daemon.result("daemon/status")["requests"]
    assert {"received", "succeeded", "failed", "cancelled", "parseError"} <= set(before), before
    for _ in range(3):
        daemon.echo_ok()
    assert "error" in daemon.call("nope", id="n")
    daemon.send_raw(daemon.frame(b"{bad"))
    assert daemon.read_message()["error"]["code"] == -32700
    daemon.request("daemon/sleep", {"ms": 5000}, id="c")
    time.sleep(0.05)
    daemon.notify("$/cancelRequest", {"id": "c"})
    daemon.read_until_response("c")
    after = daemon.result("daemon/status")["requests"]
    delta = {k: after[k] - before[k] for k in ("received", "succeeded", "failed", "cancelled", "parseError")}
    # Between the two status calls: 3 echoes, 1 unknown method, 1 sleep, the second status itself;
    # the first status succeeded after its counters were read.
    assert delta["received"] == 6, (before, after)
    assert delta["succeeded"] == 4, (before, after)
    assert delta["failed"] in (1, 2), (before, after)  # the parse error may count as failed too
    assert delta["cancelled"] == 1, (before, after)
    assert delta["parseError"] == 1, (before, after)


def test_shutdown_and_exit_in_one_write_still_answers_shutdown(daemon):
    daemon.send_raw(daemon.frame(dumps(request_obj("shutdown", None, "s"))) + daemon.frame(dumps(request_obj("exit"))))
    assert_result(daemon.read_message(), "s", None)
    assert daemon.wait(5) == 0


def test_shutdown_and_exit_behind_a_queue_of_requests_answer_every_one_then_exit_0(spawn):
    """The queue is longer than the slots (--max-in-flight 4): `exit` arrives
    while `shutdown` still waits in the queue, which counts as received."""
    d = spawn("--max-in-flight", "4")
    d.initialize()
    ids = [f"s{i}" for i in range(200)]
    data = b"".join(d.frame(dumps(request_obj("daemon/sleep", {"ms": 1}, i))) for i in ids)
    data += d.frame(dumps(request_obj("shutdown", None, "bye"))) + d.frame(dumps(request_obj("exit")))
    d.send_raw(data)
    got, others = d.read_responses(ids + ["bye"])
    for i in ids:
        assert_result(got[repr(i)], i)
    assert_result(got["'bye'"], "bye", None)
    assert not others
    assert d.wait(10) == 0


def test_requests_right_behind_initialize_in_one_write_see_it(spawn, framing):
    d = spawn(framing=framing)
    d.send_raw(
        d.frame(dumps(request_obj("initialize", {}, "i")))
        + d.frame(dumps(request_obj("initialized", {})))
        + d.frame(dumps(request_obj("daemon/echo", ["right after"], "e")))
    )
    got, others = d.read_responses(["i", "e"])
    assert_result(got["'e'"], "e", ["right after"])
    assert not others


def test_concurrent_first_starts_on_one_data_dir_agree_on_the_client_id(spawn, tmp_path):
    """Several daemons started at once on a fresh data dir (a client that
    spawns a few) must all report the one persisted per-device id."""
    data = tmp_path / "fresh-shared"
    daemons = [spawn(data_dir=data) for _ in range(6)]
    for d in daemons:
        d.send(request_obj("initialize", {}, 1))
    ids = [assert_result(d.read_message(), 1)["clientId"] for d in daemons]
    assert len(set(ids)) == 1, f"one data dir, one clientId; got {len(set(ids))} different ids: {ids}"
    later = spawn(data_dir=data)
    assert later.initialize()["clientId"] == ids[0]


def test_a_corrupt_client_id_file_is_replaced_and_then_stable(spawn, tmp_path):
    data = tmp_path / "corrupt"
    first = spawn(data_dir=data)
    first.initialize()
    assert first.close() == 0
    files = [p for p in data.rglob("*") if p.is_file()]
    assert files, "the data dir holds the persisted client id"
    for p in files:
        p.write_bytes(b"\xff not a uuid \x00")
    second = spawn(data_dir=data)
    id2 = second.initialize()["clientId"]
    assert UUID_RE.match(id2), id2
    assert second.close() == 0
    third = spawn(data_dir=data)
    assert third.initialize()["clientId"] == id2, "the replacement id is persisted"


@pytest.mark.parametrize("partial", [b"Content-Length: 100\r\n\r\n{\"a\":", b"Content-Len"], ids=["inside-body", "inside-headers"])
def test_end_of_input_inside_a_message_is_a_parse_error_then_exit_0(spawn, partial):
    d = spawn()
    d.initialize()
    d.send_raw(partial)
    d.close_stdin()
    err = d.read_message()
    assert err["error"]["code"] == -32700 and err["id"] is None, err
    assert d.wait(5) == 0


def test_many_concurrent_requests(daemon):
    ids = list(range(1000))
    started = time.monotonic()
    daemon.send_raw(b"".join(daemon.frame(dumps(request_obj("daemon/sleep", {"ms": 100}, i))) for i in ids))
    got, others = daemon.read_responses(ids, timeout=20)
    assert not others
    for i in ids:
        assert_result(got[repr(i)], i, {"slept": 100})
    assert time.monotonic() - started < 10


def test_status_times_each_method_inside_the_daemon(daemon):
    for _ in range(5):
        daemon.echo_ok()
    for ms in (40, 80):
        assert_result(daemon.call("daemon/sleep", {"ms": ms}, id=f"sleep{ms}"), f"sleep{ms}", {"slept": ms})
    assert_error(daemon.call("no/such-method", {}, id="nope"), -32601, id="nope")
    assert_error(daemon.call("daemon/sleep", {"ms": -1}, id="bad"), INVALID_PARAMS, id="bad")
    timings = daemon.result("daemon/status")["timings"]
    assert "no/such-method" not in timings, "made-up names are not kept"
    echo, sleep = timings["daemon/echo"], timings["daemon/sleep"]
    assert echo["count"] >= 5 and sleep["count"] == 3, timings  # the invalid sleep is timed too
    assert "buckets" not in sleep, "buckets only when asked for"
    # Percentiles are bucket upper bounds: at most 1/32 above the real time, never above the max.
    assert 40 <= sleep["p90Ms"] <= sleep["maxMs"] and 80 <= sleep["maxMs"] < 2000, sleep
    assert sleep["p50Ms"] >= 40 and sleep["p50Ms"] <= sleep["p90Ms"] <= sleep["p99Ms"] <= sleep["maxMs"], sleep
    assert 0 < echo["p50Ms"] < 40, echo


def test_status_histograms_give_the_percentiles_of_an_interval(daemon):
    def sleep_buckets():
        timings = daemon.result("daemon/status", {"histograms": True})["timings"]
        return {upper: count for upper, count in timings.get("daemon/sleep", {}).get("buckets", [])}

    daemon.call("daemon/sleep", {"ms": 150}, id="before")
    before = sleep_buckets()
    assert sum(before.values()) == 1 and min(before) >= 150, before
    for i in range(4):
        daemon.call("daemon/sleep", {"ms": 20}, id=f"in{i}")
    after = sleep_buckets()
    interval = {upper: count - before.get(upper, 0) for upper, count in after.items() if count > before.get(upper, 0)}
    assert sum(interval.values()) == 4 and all(20 <= upper < 150 for upper in interval), (before, after)
    assert sorted(after) == list(after), "buckets ascend"
    resp = daemon.call("daemon/status", {"histograms": "yes"}, id="bad")
    assert_error(resp, INVALID_PARAMS, id="bad", data={"field": "histograms"})
