"""Quotes, remote backend: a local quotable-compatible server
(quotable_server.py) as upstream; both `/random` shapes, the query the daemon
sends, `/quotes` paging, and every way the upstream can fail, each with
`quotes/loading {isLoading: false}` written before the error."""

from __future__ import annotations

import time

import pytest

from catalogd_e2e import (
    NOT_FOUND,
    UPSTREAM_ERROR,
    UPSTREAM_UNAVAILABLE,
    assert_error,
    assert_result,
    is_notification,
    short,
)
from quotable_server import EXPECTED_SAMPLE, SAMPLE_QUOTE, closed_port, list_payload, remote_quote


def remote_daemon(spawn, url: str, *extra: str):
    d = spawn("--quotes-url", url, "--upstream-timeout-ms", "300", *extra)
    d.initialize()
    return d


def random_quote(d, params=None, id="r", timeout=10):
    d.request("quotes/random", {} if params is None else params, id=id)
    return d.read_until_response(id, timeout)


def loading(before) -> list:
    return [m["params"] for m in before if is_notification(m, "quotes/loading")]


def assert_loading_wrapped(before) -> None:
    assert loading(before) == [{"isLoading": True}, {"isLoading": False}], (
        f"quotes/loading true then false must both come before the response: {short(before)}"
    )


def test_random_object_shape(spawn, quotable):
    d = remote_daemon(spawn, quotable.url)
    resp, before = random_quote(d)
    assert_result(resp, "r", EXPECTED_SAMPLE)
    assert_loading_wrapped(before)
    assert [r.path for r in quotable.requests] == ["/random"]


def test_random_array_shape(spawn, quotable):
    quotable.route("random", json=[SAMPLE_QUOTE])
    d = remote_daemon(spawn, quotable.url)
    resp, before = random_quote(d)
    assert_result(resp, "r", EXPECTED_SAMPLE)
    assert_loading_wrapped(before)


def test_random_sends_the_filters_as_quotable_query_parameters(spawn, quotable):
    d = remote_daemon(spawn, quotable.url)
    resp, _ = random_quote(d, {"tags": ["love", "life wisdom"], "author": "Albert Einstein", "minLength": 10, "maxLength": 50})
    assert_result(resp, "r", EXPECTED_SAMPLE)
    req = quotable.requests[-1]
    assert req.path == "/random"
    assert req.param("tags") == "love,life wisdom", req.raw_query
    assert req.param("author") == "Albert Einstein", req.raw_query
    assert req.param("minLength") == "10" and req.param("maxLength") == "50", req.raw_query
    assert set(req.query) == {"tags", "author", "minLength", "maxLength"}, req.raw_query


def test_random_without_filters_sends_no_query(spawn, quotable):
    d = remote_daemon(spawn, quotable.url)
    random_quote(d)
    assert quotable.requests[-1].query == {}, quotable.requests[-1].raw_query


@pytest.mark.parametrize("suffix", ["/api", "/api/"])
def test_base_url_with_a_path(spawn, quotable, suffix):
    d = remote_daemon(spawn, quotable.url + suffix)
    resp, _ = random_quote(d)
    assert_result(resp, "r", EXPECTED_SAMPLE)
    assert quotable.requests[-1].path == "/api/random"


def test_list_maps_quotable_paging(spawn, quotable):
    quotable.route("quotes", json=list_payload(page=2, total_pages=3))
    d = remote_daemon(spawn, quotable.url)
    result = assert_result(d.call("quotes/list", {"page": 2, "limit": 2, "author": "Remote Author", "tags": ["remote", "famous"]}, id="l"), "l")
    assert result == {
        "items": [
            {k: remote_quote(i)[k if k != "id" else "_id"] for k in ("id", "content", "author", "tags", "length")}
            for i in (2, 3)
        ],
        "page": 2,
        "nextPage": 3,
    }, short(result)
    req = quotable.requests[-1]
    assert req.path == "/quotes"
    assert (req.param("page"), req.param("limit"), req.param("author"), req.param("tags")) == ("2", "2", "Remote Author", "remote,famous"), req.raw_query


def test_list_last_page_has_no_next_page(spawn, quotable):
    quotable.route("quotes", json=list_payload(page=3, total_pages=3))
    d = remote_daemon(spawn, quotable.url)
    result = assert_result(d.call("quotes/list", {"page": 3, "limit": 2}, id="l"), "l")
    assert result["page"] == 3 and result["nextPage"] is None and len(result["items"]) == 2


def test_status_and_capabilities_report_the_remote_backend(spawn, quotable):
    d = spawn("--quotes-url", quotable.url)
    capabilities = d.initialize()["capabilities"]
    assert capabilities["services"]["quotes"]["backend"] == "remote", capabilities
    assert d.result("daemon/status")["backends"]["quotes"] == "remote"
    assert quotable.requests == [], "no upstream request before one is needed"


def test_upstream_500_is_upstream_error_with_status_and_message(spawn, quotable):
    quotable.route("random", status=500, json={"statusCode": 500, "statusMessage": "boom"})
    d = remote_daemon(spawn, quotable.url)
    resp, before = random_quote(d)
    assert_error(resp, UPSTREAM_ERROR, id="r", data={"service": "quotes", "status": 500, "upstreamMessage": "boom"})
    assert_loading_wrapped(before)
    d.echo_ok()


def test_upstream_404_is_an_error_with_its_status(spawn, quotable):
    quotable.route("quotes", status=404, json={"statusCode": 404, "statusMessage": "Not here"})
    d = remote_daemon(spawn, quotable.url)
    resp = d.call("quotes/list", {}, id="l")
    assert resp.get("error", {}).get("code") in (UPSTREAM_ERROR, -32001), short(resp)
    if resp["error"]["code"] == UPSTREAM_ERROR:
        assert_error(resp, UPSTREAM_ERROR, id="l", data={"service": "quotes", "status": 404})


def test_malformed_json_is_upstream_error(spawn, quotable):
    quotable.route("random", body=b'{"_id": "x", "content": ')
    d = remote_daemon(spawn, quotable.url)
    resp, before = random_quote(d)
    assert_error(resp, UPSTREAM_ERROR, id="r", data={"service": "quotes"})
    assert_loading_wrapped(before)


@pytest.mark.parametrize(
    "payload",
    [{"unexpected": True}, [1], {"_id": 5, "content": None}, "a string"],
    ids=["object-without-fields", "array-of-number", "wrong-types", "string"],
)
def test_wrong_shape_is_upstream_error(spawn, quotable, payload):
    quotable.route("random", json=payload)
    d = remote_daemon(spawn, quotable.url)
    resp, before = random_quote(d)
    assert_error(resp, UPSTREAM_ERROR, id="r", data={"service": "quotes"})
    assert_loading_wrapped(before)


def test_empty_array_is_no_match(spawn, quotable):
    """quotable's array-shaped random answers [] when nothing matches."""
    quotable.route("random", json=[])
    d = remote_daemon(spawn, quotable.url)
    resp, before = random_quote(d, {"author": "Nobody"})
    assert_error(resp, NOT_FOUND, id="r")
    assert_loading_wrapped(before)


def test_404_on_random_is_no_match(spawn, quotable):
    """The object-shaped /random answers 404 when nothing matches."""
    quotable.route("random", status=404, json={"statusCode": 404, "statusMessage": "Could not find any matching quotes"})
    d = remote_daemon(spawn, quotable.url)
    resp, before = random_quote(d, {"author": "Nobody"})
    assert_error(resp, NOT_FOUND, id="r")
    assert_loading_wrapped(before)


def test_html_error_page_is_upstream_error(spawn, quotable):
    quotable.route("random", status=502, body=b"<html>Bad Gateway</html>", content_type="text/html")
    d = remote_daemon(spawn, quotable.url)
    resp, before = random_quote(d)
    assert_error(resp, UPSTREAM_ERROR, id="r", data={"service": "quotes", "status": 502})
    assert_loading_wrapped(before)


def test_slow_upstream_times_out_as_retryable(spawn, quotable):
    quotable.route("random", json=SAMPLE_QUOTE, delay=3.0)
    d = remote_daemon(spawn, quotable.url)
    started = time.monotonic()
    resp, before = random_quote(d, timeout=10)
    elapsed = time.monotonic() - started
    assert_error(resp, UPSTREAM_UNAVAILABLE, id="r", data={"service": "quotes", "retryable": True})
    assert elapsed < 2.0, f"--upstream-timeout-ms 300 but the error took {elapsed:.2f}s"
    assert_loading_wrapped(before)
    d.echo_ok()


def test_connection_refused_is_retryable(spawn):
    d = remote_daemon(spawn, f"http://127.0.0.1:{closed_port()}")
    resp, before = random_quote(d)
    assert_error(resp, UPSTREAM_UNAVAILABLE, id="r", data={"service": "quotes", "retryable": True})
    assert_loading_wrapped(before)
    resp = d.call("quotes/list", {}, id="l")
    assert_error(resp, UPSTREAM_UNAVAILABLE, id="l", data={"service": "quotes", "retryable": True})


def test_tls_to_a_plain_http_port_is_unavailable(spawn, quotable):
    d = remote_daemon(spawn, f"https://127.0.0.1:{quotable.port}")
    resp, before = random_quote(d)
    assert_error(resp, UPSTREAM_UNAVAILABLE, id="r", data={"service": "quotes", "retryable": True})
    assert_loading_wrapped(before)


def test_cancel_a_slow_upstream_request(spawn, quotable):
    quotable.route("random", json=SAMPLE_QUOTE, delay=3.0)
    d = spawn("--quotes-url", quotable.url, "--upstream-timeout-ms", "10000")
    d.initialize()
    d.request("quotes/random", {}, id="slow")
    time.sleep(0.3)
    started = time.monotonic()
    d.notify("$/cancelRequest", {"id": "slow"})
    resp, before = d.read_until_response("slow", timeout=5)
    assert_error(resp, -32800, id="slow")
    assert time.monotonic() - started < 2
    assert_loading_wrapped(before)


def test_recovers_after_upstream_failures(spawn, quotable):
    quotable.route("random", status=500, json={"statusCode": 500, "statusMessage": "boom"})
    d = remote_daemon(spawn, quotable.url)
    resp, _ = random_quote(d, id="fail")
    assert_error(resp, UPSTREAM_ERROR, id="fail")
    quotable.route("random", json=SAMPLE_QUOTE)
    resp, _ = random_quote(d, id="ok")
    assert_result(resp, "ok", EXPECTED_SAMPLE)


def test_concurrent_remote_requests(spawn, quotable):
    quotable.route("random", json=SAMPLE_QUOTE, delay=0.3)
    d = spawn("--quotes-url", quotable.url)
    d.initialize()
    ids = [f"c{i}" for i in range(8)]
    started = time.monotonic()
    for id in ids:
        d.request("quotes/random", {}, id=id)
    got, others = d.read_responses(ids, timeout=10)
    for id in ids:
        assert_result(got[repr(id)], id, EXPECTED_SAMPLE)
    assert time.monotonic() - started < 2.0, "remote requests should not be serialised"
    flags = [m["params"]["isLoading"] for m in others if is_notification(m, "quotes/loading")]
    assert flags and flags[-1] is False, f"the last loading notification says loading ended: {flags}"


def test_empty_reply_is_unavailable_or_error(spawn):
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    stop = threading.Event()

    def serve() -> None:
        srv.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            conn.recv(4096)
            conn.close()  # no response at all

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        d = remote_daemon(spawn, f"http://127.0.0.1:{srv.getsockname()[1]}")
        resp, before = random_quote(d)
        code = resp.get("error", {}).get("code")
        assert code in (UPSTREAM_UNAVAILABLE, UPSTREAM_ERROR), short(resp)
        assert resp["error"]["data"]["service"] == "quotes"
        assert_loading_wrapped(before)
    finally:
        stop.set()
        t.join(2)
        srv.close()


def test_non_ascii_content_is_kept(spawn, quotable):
    content = "Ünïcödé – 名言 😀 \"quoted\""
    quote = dict(SAMPLE_QUOTE, content=content, author="Ærø Łódź", length=len(content))
    quotable.route("random", json=quote)
    d = remote_daemon(spawn, quotable.url)
    resp, _ = random_quote(d)
    result = assert_result(resp, "r")
    assert (result["content"], result["author"], result["length"]) == (content, "Ærø Łódź", len(content))


def test_empty_tags_filter_sends_no_tags(spawn, quotable):
    d = remote_daemon(spawn, quotable.url)
    resp, _ = random_quote(d, {"tags": []})
    assert_result(resp, "r", EXPECTED_SAMPLE)
    assert "tags" not in quotable.requests[-1].query, quotable.requests[-1].raw_query


def test_never_the_same_quote_twice_in_a_row(spawn, quotable):
    """An upstream that keeps drawing the previous quote is asked once more, then
    the filter's list gives another: the refresh button always shows a new quote."""
    other = remote_quote(1)
    quotable.route("quotes", json={"results": [SAMPLE_QUOTE, other], "totalPages": 1, "page": 1})
    d = spawn("--quotes-url", quotable.url)
    d.initialize()
    first, _ = random_quote(d, {"author": "Test Author", "minLength": 5}, id="first")
    assert_result(first, "first", EXPECTED_SAMPLE)
    before = len(quotable.requests)
    second, _ = random_quote(d, {"author": "Test Author", "minLength": 5}, id="second")
    assert assert_result(second, "second")["id"] == other["_id"]
    asked = quotable.requests[before:]
    assert [r.path.rsplit("/", 1)[-1] for r in asked] == ["random", "random", "quotes"], asked
    listed = asked[-1]
    assert (listed.param("author"), listed.param("minLength"), listed.param("limit")) == ("Test Author", "5", "2")


def test_the_only_match_is_returned_again(spawn, quotable):
    quotable.route("quotes", json={"results": [SAMPLE_QUOTE], "totalPages": 1, "page": 1})
    d = spawn("--quotes-url", quotable.url)
    d.initialize()
    for id in ("a", "b"):
        resp, _ = random_quote(d, id=id)
        assert_result(resp, id, EXPECTED_SAMPLE)
