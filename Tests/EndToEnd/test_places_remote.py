"""Places, remote backend, through the daemon: a local Kakao Local-compatible
upstream (the quotable test server, answering on its `category.json` route)
with the parameters the daemon sends, the key in `Authorization: KakaoAK`,
Kakao's string fields read as numbers, `is_end` honoured, and each way the
upstream fails mapped to its error code while the daemon keeps serving."""

from __future__ import annotations

import time

import pytest

from catalogd_e2e import (
    INVALID_PARAMS,
    NOT_FOUND,
    UPSTREAM_ERROR,
    UPSTREAM_UNAVAILABLE,
    assert_error,
    assert_result,
    is_notification,
    short,
)
from quotable_server import closed_port

KEY = "test-kakao-key-6f1c"
PATH = "/v2/local/search/category.json"


def document(i: int, distance: str = "120") -> dict:
    """A place as Kakao Local writes it: coordinates and distance are strings."""
    return {
        "id": f"k{i}",
        "place_name": f"카카오 편의점 {i}호점",
        "category_name": "가정,생활 > 편의점",
        "category_group_code": "CS2",
        "category_group_name": "편의점",
        "phone": "02-123-4567",
        "address_name": "서울 중구 태평로1가 31",
        "road_address_name": "서울 중구 세종대로 110",
        "x": f"126.97{i:03d}",
        "y": "37.566535",
        "place_url": f"http://place.map.kakao.com/{i}",
        "distance": distance,
    }


def answer(ids: range, total: int, is_end: bool) -> dict:
    return {
        "meta": {"total_count": total, "pageable_count": min(total, 45), "is_end": is_end,
                 "same_name": None},
        "documents": [document(i) for i in ids],
    }


def remote_daemon(spawn, url: str, *extra: str, key: str = KEY):
    d = spawn("--places-url", url, "--upstream-timeout-ms", "300", *extra, env={"KAKAO_REST_API_KEY": key})
    d.initialize()
    return d


def search(d, params: dict, id="s"):
    return d.call("places/search", {"category": "CS2", **params}, id=id)


def test_a_search_sends_kakaos_parameters_and_the_key(spawn, quotable):
    quotable.route("category.json", json=answer(range(5), total=12, is_end=False))
    d = remote_daemon(spawn, quotable.url)
    result = assert_result(search(d, {"x": 126.9779692, "y": 37.566535, "radius": 1500, "page": 2, "size": 5,
                                      "sort": "distance"}), "s")
    request = quotable.requests[-1]
    assert request.path == PATH
    assert {k: v[0] for k, v in request.query.items()} == {
        "category_group_code": "CS2", "x": "126.9779692", "y": "37.566535", "radius": "1500",
        "page": "2", "size": "5", "sort": "distance"}, request.raw_query
    assert request.headers["authorization"] == f"KakaoAK {KEY}"
    assert result["meta"] == {"totalCount": 12, "pageableCount": 12, "isEnd": False}
    first = result["items"][0]
    assert first == {
        "id": "k0", "placeName": "카카오 편의점 0호점", "categoryGroupCode": "CS2", "categoryGroupName": "편의점",
        "categoryName": "가정,생활 > 편의점", "phone": "02-123-4567", "addressName": "서울 중구 태평로1가 31",
        "roadAddressName": "서울 중구 세종대로 110", "x": 126.97, "y": 37.566535, "distance": 120,
        "placeUrl": "http://place.map.kakao.com/0"}, short(first)
    assert [p["x"] for p in result["items"]] == [126.97, 126.97001, 126.97002, 126.97003, 126.97004]


def test_a_rect_is_sent_as_kakaos_comma_separated_text(spawn, quotable):
    quotable.route("category.json", json=answer(range(1), total=1, is_end=True))
    d = remote_daemon(spawn, quotable.url)
    result = assert_result(search(d, {"rect": [126.97, 37.56, 126.99, 37.57]}), "s")
    query = quotable.requests[-1].query
    assert query["rect"] == ["126.97,37.56,126.99,37.57"], quotable.requests[-1].raw_query
    assert "radius" not in query and "x" not in query
    assert result["meta"]["isEnd"] is True


def test_the_places_feed_stops_where_kakao_says_is_end(spawn, quotable):
    quotable.route("category.json", json=answer(range(15), total=15, is_end=True))
    d = remote_daemon(spawn, quotable.url)
    feed = d.result("feeds/open", {"source": "places", "query": {"category": "CS2", "x": 126.97, "y": 37.56}})
    d.request("feeds/loadMore", {"feedId": feed["feedId"]}, id="m")
    reply, before = d.read_until_response("m")
    assert_result(reply, "m", {"start": 0, "end": 15, "endReached": True})
    loaded = [m["params"] for m in before if is_notification(m, "feeds/pageLoaded")]
    assert len(loaded) == 1 and [p["id"] for p in loaded[0]["items"]] == [f"k{i}" for i in range(15)]
    assert len(quotable.requests) == 1, "one page, one upstream request"


def test_get_knows_the_places_a_search_returned(spawn, quotable):
    quotable.route("category.json", json=answer(range(3), total=3, is_end=True))
    d = remote_daemon(spawn, quotable.url)
    found = assert_result(search(d, {"x": 126.97, "y": 37.56}), "s")["items"][1]
    got = d.result("places/get", {"id": "k1"})
    assert "distance" not in got or got["distance"] is None
    assert {k: v for k, v in got.items() if k != "distance"} == {k: v for k, v in found.items() if k != "distance"}
    error = assert_error(d.call("places/get", {"id": "k99"}, id="g"), NOT_FOUND, id="g")
    assert error["data"]["resource"] == "place"


@pytest.mark.parametrize("status,body,message", [
    (401, {"errorType": "AccessDeniedError", "message": "cannot find appkey"}, "AccessDeniedError: cannot find appkey"),
    (403, {"errorType": "NotAuthorizedError", "message": "App(x) disabled OPEN_MAP_AND_LOCAL service."},
     "NotAuthorizedError: App(x) disabled OPEN_MAP_AND_LOCAL service."),
    (429, {"errorType": "RequestThrottled", "message": "API limit has been exceeded."},
     "RequestThrottled: API limit has been exceeded."),
], ids=["auth", "service-disabled", "quota"])
def test_auth_and_quota_errors_carry_the_upstream_message(spawn, quotable, status, body, message):
    quotable.route("category.json", status=status, json=body)
    d = remote_daemon(spawn, quotable.url)
    assert_error(search(d, {"x": 126.97, "y": 37.56}), UPSTREAM_ERROR, id="s",
                 data={"service": "places", "status": status, "upstreamMessage": message})
    d.echo_ok()


def test_the_key_is_never_in_replies_or_logs(spawn, quotable):
    quotable.route("category.json", status=401, json={"errorType": "AccessDeniedError", "message": "wrong appkey"})
    d = remote_daemon(spawn, quotable.url, "--log-level", "debug")
    reply = search(d, {"x": 126.97, "y": 37.56})
    status = d.result("daemon/status")
    assert KEY not in repr(reply) and KEY not in repr(status)
    d.close()
    assert KEY not in d.stderr_text()


@pytest.mark.parametrize("body", [b'{"meta": {"total_count": 1', b'{"documents": []}',
                                  b'{"meta": {"total_count": 1, "is_end": true}, "documents": [{"id": "k1", "x": "east"}]}'],
                         ids=["truncated", "no-meta", "bad-coordinates"])
def test_a_malformed_answer_is_an_upstream_error(spawn, quotable, body):
    quotable.route("category.json", body=body)
    d = remote_daemon(spawn, quotable.url)
    error = assert_error(search(d, {"x": 126.97, "y": 37.56}), UPSTREAM_ERROR, id="s",
                         data={"service": "places", "status": 200})
    assert "malformed" in error["data"]["upstreamMessage"], error


def test_a_slow_upstream_is_retryable_after_the_timeout(spawn, quotable):
    quotable.route("category.json", json=answer(range(1), total=1, is_end=True), delay=3.0)
    d = remote_daemon(spawn, quotable.url)
    started = time.monotonic()
    assert_error(search(d, {"x": 126.97, "y": 37.56}), UPSTREAM_UNAVAILABLE, id="s",
                 data={"service": "places", "retryable": True})
    assert time.monotonic() - started < 2.0, "--upstream-timeout-ms 300"
    d.echo_ok()


def test_an_unreachable_upstream_is_retryable_and_other_services_keep_serving(spawn):
    d = remote_daemon(spawn, f"http://127.0.0.1:{closed_port()}")
    assert_error(search(d, {"x": 126.97, "y": 37.56}), UPSTREAM_UNAVAILABLE, id="s",
                 data={"service": "places", "retryable": True})
    assert d.result("quotes/random")["content"]
    assert len(d.result("places/categories")["items"]) == 18


def test_imports_are_refused_while_places_are_remote(spawn, quotable, tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("id,placeName,categoryGroupCode,x,y\nx1,a,CS2,127,37\n")
    d = remote_daemon(spawn, quotable.url)
    error = assert_error(d.call("places/import", {"path": str(path)}, id="i"), INVALID_PARAMS, id="i")
    assert error["data"]["field"] == "path"
    assert quotable.requests == []
