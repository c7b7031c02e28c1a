"""Feeds through the daemon: the photos source over the generated samples and
over a scriptable Lorem Picsum stand-in (a page that fails once, times out,
is malformed, is slow while a refresh arrives; short and empty last pages; a
refresh that fails), and a products feed opened with `changes: reset`
reloading itself after a change. Live feeds by diffs: test_feeds_live.py."""
from __future__ import annotations

import http.server
import json
import threading
import time
from urllib.parse import parse_qs, urlparse

import pytest

from catalogd_e2e import (
    INVALID_PARAMS,
    NOT_FOUND,
    UPSTREAM_ERROR,
    UPSTREAM_UNAVAILABLE,
    assert_error,
    assert_result,
    is_notification,
)

PAGE_LOADED = "feeds/pageLoaded"
STATE_CHANGED = "feeds/stateChanged"


def feed_events(messages, feed_id):
    """The feeds notifications of one feed, as short tuples, in order."""
    out = []
    for m in messages:
        if is_notification(m, STATE_CHANGED) and m["params"]["feedId"] == feed_id:
            p = m["params"]
            out.append(("state", p["state"], p["count"]) + ((p["error"]["code"],) if "error" in p else ()))
        elif is_notification(m, PAGE_LOADED) and m["params"]["feedId"] == feed_id:
            p = m["params"]
            assert len(p["items"]) == p["end"] - p["start"], p
            out.append(("page", p["generation"], p["start"], p["end"], p["endReached"], p["reset"]))
    return out


def call(d, method, params):
    """Sends one request; returns (its response, the messages before it)."""
    id = d.request(method, params)
    return d.read_until_response(id)


def open_feed(d, source="photos", **params):
    result = d.result("feeds/open", {"source": source, **params})
    assert set(result) == {"feedId", "state"} and result["state"] == "idle"
    assert isinstance(result["feedId"], str)
    return result["feedId"]


# ---------------------------------------------------------------- embedded photos


def test_a_photos_feed_loads_the_samples_page_by_page(daemon):
    feed = open_feed(daemon, pageSize=30)
    for n in range(4):
        resp, before = call(daemon, "feeds/loadMore", {"feedId": feed})
        last = n == 3
        assert_result(resp, resp["id"], {"start": 30 * n, "end": 30 * (n + 1), "endReached": last})
        assert feed_events(before, feed) == [
            ("state", "loading", 30 * n),
            ("page", 0, 30 * n, 30 * (n + 1), last, False),
            ("state", "ended" if last else "idle", 30 * (n + 1)),
        ], "the notifications precede the response"
    resp, before = call(daemon, "feeds/loadMore", {"feedId": feed})
    assert_result(resp, resp["id"], {"start": 120, "end": 120, "endReached": True})
    assert feed_events(before, feed) == []
    items = daemon.result("feeds/items", {"feedId": feed, "start": 0, "end": 500})["items"]
    listed = daemon.result("photos/list", {"limit": 100})["items"] + daemon.result(
        "photos/list", {"page": 2, "limit": 100})["items"]
    assert items == listed
    assert daemon.result("feeds/items", {"feedId": feed, "start": 118, "end": 125})["items"] == listed[118:]
    assert daemon.result("feeds/close", {"feedId": feed}) == {}
    assert_error(daemon.call("feeds/loadMore", {"feedId": feed}), NOT_FOUND, data={"resource": "feed", "id": feed})


def test_a_refresh_reloads_what_is_loaded_as_a_new_generation(daemon):
    feed = open_feed(daemon, pageSize=50)
    daemon.result("feeds/loadMore", {"feedId": feed})
    daemon.result("feeds/loadMore", {"feedId": feed})
    for generation in (1, 2):
        resp, before = call(daemon, "feeds/refresh", {"feedId": feed})
        assert_result(resp, resp["id"], {"start": 0, "end": 100, "endReached": False})
        assert feed_events(before, feed) == [
            ("state", "refreshing", 100), ("page", generation, 0, 100, False, True), ("state", "idle", 100)
        ], "the items stay while the refresh runs, and the list does not shrink"
    resp, before = call(daemon, "feeds/loadMore", {"feedId": feed})
    assert_result(resp, resp["id"], {"start": 100, "end": 120, "endReached": True})
    assert feed_events(before, feed)[1] == ("page", 2, 100, 120, True, False)


@pytest.mark.parametrize("params, field", [
    ({}, "source"),
    ({"source": "videos"}, "source"),
    ({"source": 3}, "source"),
    ({"source": "photos", "pageSize": 0}, "pageSize"),
    ({"source": "photos", "pageSize": 101}, "pageSize"),
    ({"source": "photos", "query": {"page": 2}}, "query.page"),
    ({"source": "products", "changes": "live"}, "changes"),
    ({"source": "products", "query": {"cursor": "x"}}, "query.cursor"),
    ({"source": "products", "query": {"sort": "cheapest"}}, "query.sort"),
    ({"source": "products", "query": []}, "query"),
])
def test_open_names_the_bad_field(daemon, params, field):
    assert_error(daemon.call("feeds/open", params), INVALID_PARAMS, data={"field": field})


def test_bad_feed_requests(daemon):
    feed = open_feed(daemon)
    for method in ("feeds/loadMore", "feeds/refresh", "feeds/close"):
        assert_error(daemon.call(method, {}), INVALID_PARAMS, data={"field": "feedId"})
        assert_error(daemon.call(method, {"feedId": "feed-999"}), NOT_FOUND, data={"resource": "feed", "id": "feed-999"})
    assert_error(daemon.call("feeds/items", {"feedId": feed, "start": 5, "end": 2}), INVALID_PARAMS, data={"field": "end"})
    assert_error(daemon.call("feeds/items", {"feedId": feed, "start": -1, "end": 2}), INVALID_PARAMS, data={"field": "start"})
    assert_error(daemon.call("feeds/items", {"feedId": feed, "start": 0}), INVALID_PARAMS, data={"field": "end"})
    assert daemon.result("feeds/items", {"feedId": feed, "start": 0, "end": 10}) == {"items": []}


def test_open_feeds_are_bounded(daemon):
    feeds = [open_feed(daemon) for _ in range(64)]
    assert len(set(feeds)) == 64
    err = assert_error(daemon.call("feeds/open", {"source": "photos"}), INVALID_PARAMS, data={"field": "source"})
    assert "64" in err["data"]["reason"]
    daemon.result("feeds/close", {"feedId": feeds[0]})
    open_feed(daemon)


@pytest.mark.parametrize("how", ["flag", "env"])
def test_the_open_feeds_bound_is_a_setting(spawn, how):
    d = spawn("--max-open-feeds", "3") if how == "flag" else spawn(env={"CATALOGD_MAX_OPEN_FEEDS": "3"})
    d.initialize()
    for _ in range(3):
        open_feed(d)
    err = assert_error(d.call("feeds/open", {"source": "photos"}), INVALID_PARAMS, data={"field": "source"})
    assert "(3)" in err["data"]["reason"]


# ---------------------------------------------------------------- a scriptable upstream


class Upstream(http.server.BaseHTTPRequestHandler):
    """A Lorem Picsum stand-in whose pages can misbehave. `script[page]` is a
    list of actions, one used per request of that page: "fail" (HTTP 500),
    "malformed" (a body that is not JSON), or a number (seconds to wait first)."""
    total = 100
    script: dict[int, list] = {}
    requested: list[int] = []
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        page, limit = int(query["page"][0]), int(query["limit"][0])
        with Upstream.lock:
            Upstream.requested.append(page)
            actions = Upstream.script.get(page) or []
            action = actions.pop(0) if actions else None
        if isinstance(action, (int, float)):
            time.sleep(action)
        if action == "fail":
            return self._send(500, b'{"error":"boom"}')
        if action == "malformed":
            return self._send(200, b'[{"id": "1", "author": ')
        items = [{"id": str(n), "author": f"Author {n}", "width": 400, "height": 300,
                  "url": f"https://example.com/{n}", "download_url": f"https://example.com/{n}.jpg"}
                 for n in range(Upstream.total)][(page - 1) * limit:page * limit]
        self._send(200, json.dumps(items).encode())

    def _send(self, status, body):
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the daemon gave up on this request


@pytest.fixture
def upstream():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Upstream.total, Upstream.script, Upstream.requested = 100, {}, []
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture
def remote(spawn, upstream):
    d = spawn("--photos-url", upstream, "--upstream-timeout-ms", "500")
    d.initialize()
    return d


def ids(d, feed):
    return [p["id"] for p in d.result("feeds/items", {"feedId": feed, "start": 0, "end": 1000})["items"]]


def wait_for_requests(count, timeout=5.0):
    deadline = time.monotonic() + timeout
    while len(Upstream.requested) < count:
        assert time.monotonic() < deadline, f"upstream saw only {Upstream.requested}"
        time.sleep(0.01)


def test_a_page_that_fails_once_is_fetched_again(remote):
    Upstream.script = {2: ["fail"]}
    feed = open_feed(remote, pageSize=30)
    remote.result("feeds/loadMore", {"feedId": feed})
    resp, before = call(remote, "feeds/loadMore", {"feedId": feed})
    assert_error(resp, UPSTREAM_ERROR, data={"service": "photos", "status": 500})
    assert feed_events(before, feed) == [("state", "loading", 30), ("state", "failed", 30, UPSTREAM_ERROR)]
    resp, before = call(remote, "feeds/loadMore", {"feedId": feed})
    assert_result(resp, resp["id"], {"start": 30, "end": 60, "endReached": False})
    assert feed_events(before, feed) == [
        ("state", "loading", 30), ("page", 0, 30, 60, False, False), ("state", "idle", 60)]
    assert Upstream.requested == [1, 2, 2]
    assert ids(remote, feed) == [str(n) for n in range(60)], "no page loaded twice or skipped"


@pytest.mark.parametrize("action, code", [(2.0, UPSTREAM_UNAVAILABLE), ("malformed", UPSTREAM_ERROR)])
def test_a_timeout_or_a_malformed_page_fails_the_load_and_keeps_the_page(remote, action, code):
    Upstream.script = {1: [action]}
    feed = open_feed(remote, pageSize=40)
    resp, before = call(remote, "feeds/loadMore", {"feedId": feed})
    assert_error(resp, code, data={"service": "photos"})
    assert feed_events(before, feed) == [("state", "loading", 0), ("state", "failed", 0, code)]
    remote.result("feeds/loadMore", {"feedId": feed})
    assert Upstream.requested[-1] == 1 and ids(remote, feed) == [str(n) for n in range(40)]


def test_a_short_last_page_ends_the_feed(remote):
    Upstream.total = 70
    feed = open_feed(remote, pageSize=30)
    ranges = [remote.result("feeds/loadMore", {"feedId": feed}) for _ in range(4)]
    assert ranges == [{"start": 0, "end": 30, "endReached": False}, {"start": 30, "end": 60, "endReached": False},
                      {"start": 60, "end": 70, "endReached": True}, {"start": 70, "end": 70, "endReached": True}]
    assert Upstream.requested == [1, 2, 3]


def test_an_empty_page_past_the_end_appends_nothing_and_ends_the_feed(remote):
    Upstream.total = 60
    feed = open_feed(remote, pageSize=30)
    remote.result("feeds/loadMore", {"feedId": feed})
    remote.result("feeds/loadMore", {"feedId": feed})
    resp, before = call(remote, "feeds/loadMore", {"feedId": feed})
    assert_result(resp, resp["id"], {"start": 60, "end": 60, "endReached": True})
    assert feed_events(before, feed) == [
        ("state", "loading", 60), ("page", 0, 60, 60, True, False), ("state", "ended", 60)]
    assert Upstream.requested == [1, 2, 3]


def test_concurrent_load_mores_join_one_fetch(remote):
    Upstream.script = {1: [0.4]}
    feed = open_feed(remote, pageSize=30)
    first = remote.request("feeds/loadMore", {"feedId": feed})
    wait_for_requests(1)
    second = remote.request("feeds/loadMore", {"feedId": feed})
    got, others = remote.read_responses([first, second])
    for id in (first, second):
        assert_result(got[repr(id)], id, {"start": 0, "end": 30, "endReached": False})
    assert feed_events(others, feed) == [
        ("state", "loading", 0), ("page", 0, 0, 30, False, False), ("state", "idle", 30)]
    assert Upstream.requested == [1], "one upstream fetch for both callers"


def test_a_refresh_during_a_slow_append_drops_the_stale_page(remote):
    feed = open_feed(remote, pageSize=30)
    remote.result("feeds/loadMore", {"feedId": feed})
    Upstream.script = {2: [0.4]}
    append = remote.request("feeds/loadMore", {"feedId": feed})
    wait_for_requests(2)
    refresh = remote.request("feeds/refresh", {"feedId": feed})
    got, others = remote.read_responses([append, refresh])
    expected = {"start": 0, "end": 30, "endReached": False}
    assert_result(got[repr(refresh)], refresh, expected)
    assert_result(got[repr(append)], append, expected)
    assert feed_events(others, feed) == [
        ("state", "loading", 30), ("state", "refreshing", 30), ("page", 1, 0, 30, False, True), ("state", "idle", 30)]
    remote.expect_no_message(0.6)  # the slow page 2 of generation 0 is never delivered
    assert Upstream.requested == [1, 2, 1]
    resp, before = call(remote, "feeds/loadMore", {"feedId": feed})
    assert_result(resp, resp["id"], {"start": 30, "end": 60, "endReached": False})
    assert feed_events(before, feed)[1] == ("page", 1, 30, 60, False, False)
    assert ids(remote, feed) == [str(n) for n in range(60)]


def test_a_failed_refresh_keeps_the_items_and_the_feed_goes_on(remote):
    feed = open_feed(remote, pageSize=30)
    remote.result("feeds/loadMore", {"feedId": feed})
    remote.result("feeds/loadMore", {"feedId": feed})
    Upstream.script = {1: ["fail"]}
    resp, before = call(remote, "feeds/refresh", {"feedId": feed})
    assert_error(resp, UPSTREAM_ERROR, data={"service": "photos", "status": 500})
    assert feed_events(before, feed) == [("state", "refreshing", 60), ("state", "failed", 60, UPSTREAM_ERROR)]
    assert ids(remote, feed) == [str(n) for n in range(60)], "nothing shown is lost"
    resp, before = call(remote, "feeds/loadMore", {"feedId": feed})
    assert_result(resp, resp["id"], {"start": 60, "end": 90, "endReached": False})
    assert feed_events(before, feed)[1] == ("page", 0, 60, 90, False, False), "the same generation goes on"
    resp, before = call(remote, "feeds/refresh", {"feedId": feed})
    assert_result(resp, resp["id"], {"start": 0, "end": 90, "endReached": False})
    assert feed_events(before, feed)[1] == ("page", 1, 0, 90, False, True)
    assert Upstream.requested == [1, 2, 1, 3, 1, 2, 3]


# ---------------------------------------------------------------- products


def test_a_reset_products_feed_reloads_itself_after_a_change(daemon):
    feed = open_feed(daemon, "products", pageSize=5, query={"sort": "newest"}, changes="reset")
    daemon.result("feeds/loadMore", {"feedId": feed})
    daemon.result("feeds/loadMore", {"feedId": feed})
    resp, seen = call(daemon, "products/create", {"nameKo": "새 상품", "price": 1000})
    product = assert_result(resp, resp["id"])
    assert feed_events(seen, feed)[:1] == [("state", "refreshing", 10)], "the reload starts before the response"
    while ("state", "idle", 10) not in feed_events(seen, feed):
        seen.append(daemon.read_message())
    assert feed_events(seen, feed) == [
        ("state", "refreshing", 10), ("page", 1, 0, 10, False, True), ("state", "idle", 10)
    ], "as many items as were loaded"
    assert not [m for m in seen if is_notification(m, "feeds/itemsChanged")]
    items = daemon.result("feeds/items", {"feedId": feed, "start": 0, "end": 10})["items"]
    assert items[0]["id"] == product["id"]
    other = open_feed(daemon, "photos")
    daemon.result("feeds/loadMore", {"feedId": other})
    daemon.unclaimed.clear()
    resp, before = call(daemon, "products/delete", {"id": product["id"]})
    assert_result(resp, resp["id"])
    assert feed_events(before, other) == [], "only products feeds refresh"


def test_operations_on_one_feed_take_effect_in_arrival_order(remote):
    Upstream.script = {1: [0.2]}
    feed = open_feed(remote, pageSize=30)
    refresh, load = remote.new_id(), remote.new_id()
    remote.send_raw(remote.frame(json.dumps({"jsonrpc": "2.0", "id": refresh, "method": "feeds/refresh", "params": {"feedId": feed}}))
                    + remote.frame(json.dumps({"jsonrpc": "2.0", "id": load, "method": "feeds/loadMore", "params": {"feedId": feed}})))
    got, others = remote.read_responses([refresh, load])
    for id in (refresh, load):
        assert_result(got[repr(id)], id, {"start": 0, "end": 30, "endReached": False})
    assert feed_events(others, feed) == [
        ("state", "refreshing", 0), ("page", 1, 0, 30, False, True), ("state", "idle", 30)], "the loadMore joined the refresh"
    assert Upstream.requested == [1]


# ---------------------------------------------------------------- places


def test_a_places_feed_pages_through_a_search(daemon):
    search = {"category": "CE7", "x": 126.978, "y": 37.5665, "sort": "distance"}
    direct = daemon.result("places/search", dict(search, size=15))
    pageable = direct["meta"]["pageableCount"]
    assert pageable > 0
    feed = open_feed(daemon, "places", query=search, pageSize=10)
    ranges = []
    while not ranges or not ranges[-1]["endReached"]:
        ranges.append(daemon.result("feeds/loadMore", {"feedId": feed}))
        assert len(ranges) <= 5
    assert ranges[-1]["end"] == pageable
    assert [r["start"] for r in ranges] == [10 * n for n in range(len(ranges))]
    items = daemon.result("feeds/items", {"feedId": feed, "start": 0, "end": 100})["items"]
    assert items[:len(direct["items"])] == direct["items"]
    assert len({p["id"] for p in items}) == len(items) == pageable


@pytest.mark.parametrize("params, field", [
    ({"source": "places", "query": {"x": 127.0, "y": 37.5}}, "query.category"),
    ({"source": "places", "query": {"category": "CE7"}}, "query.x"),
    ({"source": "places", "query": {"category": "CE7", "x": 127.0, "y": 37.5, "size": 5}}, "query.size"),
    ({"source": "places", "query": {"category": "CE7", "x": 127.0, "y": 37.5}, "pageSize": 16}, "pageSize"),
    ({"source": "places", "query": {"category": "CE7", "rect": [1, 2, 3]}}, "query.rect"),
    ({"source": "places", "query": {"category": "CE7", "rect": [1, 2, "3", 4]}}, "query.rect[2]"),
    ({"source": "places", "query": {"category": "CE7", "rect": "1,2,3"}}, "query.rect"),
    ({"source": "places", "query": {"category": "CE7", "rect": True}}, "query.rect"),
])
def test_open_places_names_the_bad_field(daemon, params, field):
    assert_error(daemon.call("feeds/open", params), INVALID_PARAMS, data={"field": field})


# ---------------------------------------------------------------- quotes


def test_a_quotes_feed_pages_through_the_list_and_reports_its_own_loading(daemon):
    feed = open_feed(daemon, "quotes", query={"tags": ["wisdom"]}, pageSize=5)
    resp, before = call(daemon, "feeds/loadMore", {"feedId": feed})
    assert_result(resp, resp["id"], {"start": 0, "end": 5, "endReached": False})
    assert not any(is_notification(m, "quotes/loading") for m in before), (
        "quotes/loading is the refresh button's (quotes/random): a feed's load is not one"
    )
    states = [m["params"]["state"] for m in before if is_notification(m, "feeds/stateChanged")]
    assert states == ["loading", "idle"], states
    listed = daemon.result("quotes/list", {"tags": ["wisdom"], "limit": 5})["items"]
    assert daemon.result("feeds/items", {"feedId": feed, "start": 0, "end": 5})["items"] == listed
