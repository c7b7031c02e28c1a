"""Products, remote backend: the daemon with `--server-url` in front of the test
GraphQL upstream (Tests/Upstreams/graphql_products_server.py, run as a
subprocess). CRUD and suppliers through the daemon, the `Croquis-UUID` header
on every upstream request, versions derived from `updatedAt`, what the schema
cannot do (-32602), and every upstream failure mapped to -32021 / -32020."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from catalogd_e2e import (
    CONFLICT,
    INVALID_PARAMS,
    NOT_FOUND,
    REPO_ROOT,
    UPSTREAM_ERROR,
    UPSTREAM_UNAVAILABLE,
    UUID_RE,
    assert_error,
    assert_page,
    assert_product,
    assert_result,
    short,
    walk_products,
)
from quotable_server import closed_port

UPSTREAM = REPO_ROOT / "Tests" / "Upstreams" / "graphql_products_server.py"
CLIENT_ID = "3f2c1a9e-7b6d-4e5f-8a9b-0c1d2e3f4a5b"

SEED_NEWEST = ["p5", "p4", "p2", "p1", "p3"]  # p3 has no createdAt: last


class Upstream:
    """The test GraphQL upstream in a subprocess (it exits when its stdin closes)."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(UPSTREAM), "--exit-on-eof", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        line: list[bytes] = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(15)
        if not line or not line[0].strip().isdigit():
            self.stop()
            raise AssertionError(f"the GraphQL upstream did not print its port: {line!r} {self.proc.stderr.read()[:2000]!r}")
        self.port = int(line[0])
        self.url = f"http://127.0.0.1:{self.port}/graphql"

    def control(self, method: str, path: str, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=5) as r:
            return json.loads(r.read())

    def requests(self) -> list[dict]:
        return self.control("GET", "/_requests")

    def faults(self, faults: dict) -> None:
        self.control("POST", "/_faults", faults)

    def reset(self) -> None:
        self.control("POST", "/_reset", {})

    def stop(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait(timeout=5)
        for f in (self.proc.stdout, self.proc.stderr):
            f.close()


@pytest.fixture(scope="module")
def upstream():
    u = Upstream()
    yield u
    u.stop()


@pytest.fixture
def gql(upstream):
    upstream.reset()
    yield upstream
    upstream.faults({})


def remote(spawn, url: str, client_id: str | None = CLIENT_ID, *extra: str):
    d = spawn("--server-url", url, "--upstream-timeout-ms", "300", *extra)
    init = d.initialize({"clientInfo": {"name": "e2e"}, **({"clientId": client_id} if client_id else {})})
    assert init["capabilities"]["services"]["products"]["backend"] == "remote", short(init)
    return d, init["clientId"]


def call(d, method, params):
    id = d.request(method, params)
    resp, before = d.read_until_response(id, 10)
    return resp, id, before


def ms(text: str) -> int:
    import datetime
    return int(datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


# ---------------------------------------------------------------- CRUD


def test_list_walks_the_upstream_pages(spawn, gql):
    d, _ = remote(spawn, gql.url)
    pages = walk_products(d, {"limit": 2})
    assert [[p["id"] for p in page["items"]] for page in pages] == [["p5", "p4"], ["p2", "p1"], ["p3"]]
    assert [page["totalCount"] for page in pages] == [5, 5, 5]
    p1 = next(p for page in pages for p in page["items"] if p["id"] == "p1")
    assert p1 == {"id": "p1", "nameKo": "사과", "nameEn": "Apple", "price": 1200,
                  "supplier": {"id": "s3", "name": "Jeju Orchard"}, "createdAt": "2024-01-01T09:00:00.000Z",
                  "updatedAt": "2024-01-01T09:00:00.000Z", "version": ms("2024-01-01T09:00:00.000Z"),
                  "imageUrl": None}
    p3 = next(p for page in pages for p in page["items"] if p["id"] == "p3")
    assert p3 == {"id": "p3", "nameKo": "귤", "nameEn": None, "price": 800, "supplier": None,
                  "createdAt": None, "updatedAt": None, "version": 1, "imageUrl": None}
    variables = [r["variables"] for r in gql.requests() if r["operationName"] == "ProductList"]
    assert variables[0] == {"cursor": None, "limit": 2, "query": None}, short(variables)
    # The client's cursor wraps the upstream's (bound to its query); the upstream gets its own back.
    assert isinstance(variables[1]["cursor"], str) and variables[1]["cursor"] != pages[0]["nextCursor"]


def test_list_default_and_query(spawn, gql):
    d, _ = remote(spawn, gql.url)
    page = assert_page(d.result("products/list", {}))
    assert [p["id"] for p in page["items"]] == SEED_NEWEST and page["nextCursor"] is None and page["totalCount"] == 5
    for query, want in (("milk", ["p4"]), ("MILK", ["p4"]), ("우유", ["p4"]), ("e", ["p5", "p2", "p1"]), ("k", ["p4"]), ("없음", [])):
        page = d.result("products/list", {"query": query})
        assert [p["id"] for p in page["items"]] == want, f"{query!r}: {short(page)}"
        assert page["totalCount"] == len(want)
    assert gql.requests()[-1]["variables"]["query"] == "없음"


def test_get(spawn, gql):
    d, _ = remote(spawn, gql.url)
    p = assert_product(d.result("products/get", {"id": "p2"}))
    assert p == {"id": "p2", "nameKo": "식빵", "nameEn": "White bread", "price": 3500,
                 "supplier": {"id": "s2", "name": "Seoul Bakery"}, "createdAt": "2024-01-02T09:00:00.000Z",
                 "updatedAt": "2024-02-10T12:30:00.250Z", "version": ms("2024-02-10T12:30:00.250Z"),
                 "imageUrl": None}
    resp, id, before = call(d, "products/get", {"id": "p404"})
    assert_error(resp, NOT_FOUND, id=id, data={"resource": "product", "id": "p404"})


def test_suppliers_by_name(spawn, gql):
    d, _ = remote(spawn, gql.url)
    items = d.result("suppliers/list", {})["items"]
    assert sorted(items, key=lambda s: s["id"]) == [
        {"id": "s1", "name": "Croquis Farm"}, {"id": "s2", "name": "Seoul Bakery"}, {"id": "s3", "name": "Jeju Orchard"}]
    assert [s["name"] for s in items] == ["Croquis Farm", "Jeju Orchard", "Seoul Bakery"], \
        f"suppliers/list is sorted by name, whatever the upstream's order: {items}"


def test_create_update_delete_with_notifications(spawn, gql):
    d, _ = remote(spawn, gql.url)
    resp, id, before = call(d, "products/create", {"nameKo": "배", "nameEn": "Pear", "price": 4100, "supplierId": "s3"})
    p = assert_product(assert_result(resp, id), nameKo="배", nameEn="Pear", price=4100,
                       supplier={"id": "s3", "name": "Jeju Orchard"})
    assert p["version"] == ms(p["updatedAt"])
    assert [m["params"] for m in before] == [{"reason": "created", "id": p["id"]}], short(before)
    assert d.result("products/get", {"id": p["id"]}) == p
    assert d.result("products/list", {"limit": 1})["items"] == [p]
    create = [r for r in gql.requests() if r["operationName"] == "CreateProduct"][-1]
    assert create["variables"] == {"input": {"nameKo": "배", "nameEn": "Pear", "price": 4100, "supplierId": "s3"}}
    assert "배" not in create["query"], "values travel in variables only"

    resp, id, before = call(d, "products/update", {"id": p["id"], "price": 4200, "nameEn": None, "expectedVersion": p["version"]})
    q = assert_product(assert_result(resp, id), price=4200, nameEn=None, nameKo="배")
    assert q["version"] > p["version"] and q["version"] == ms(q["updatedAt"])
    assert [m["method"] for m in before] == ["products/listUpdated", "products/changed"], short(before)
    assert before[0]["params"] == {"reason": "updated", "id": p["id"]}
    assert before[1]["params"] == {"product": q}
    update = [r for r in gql.requests() if r["operationName"] == "UpdateProduct"][-1]
    assert update["variables"] == {"input": {"id": p["id"], "price": 4200, "nameEn": None}}, \
        "only the fields given, a cleared one as an explicit null"

    resp, id, before = call(d, "products/update", {"id": p["id"], "supplierId": None})
    assert_product(assert_result(resp, id), supplier=None)

    resp, id, before = call(d, "products/delete", {"id": p["id"]})
    assert_result(resp, id, {"id": p["id"]})
    assert [m["params"] for m in before] == [{"reason": "deleted", "id": p["id"]}], short(before)
    resp, id, _ = call(d, "products/get", {"id": p["id"]})
    assert_error(resp, NOT_FOUND, id=id, data={"resource": "product", "id": p["id"]})
    d.expect_no_message(0.3)


def test_stale_expected_version_is_a_conflict(spawn, gql):
    d, _ = remote(spawn, gql.url)
    p1 = d.result("products/get", {"id": "p1"})
    before_count = len(gql.requests())
    resp, id, before = call(d, "products/update", {"id": "p1", "price": 1, "expectedVersion": p1["version"] - 1})
    assert_error(resp, CONFLICT, id=id, data={"currentVersion": p1["version"]})
    assert before == []
    assert "UpdateProduct" not in [r["operationName"] for r in gql.requests()[before_count:]]
    assert d.result("products/get", {"id": "p1"}) == p1


def test_what_the_upstream_schema_cannot_do_is_invalid_params(spawn, gql):
    d, _ = remote(spawn, gql.url)
    for params, field in (({"sort": "priceAsc"}, "sort"), ({"sort": "priceDesc"}, "sort"), ({"sort": "name"}, "sort"),
                          ({"supplierId": "s1"}, "supplierId"), ({"limit": 0}, "limit"), ({"limit": 101}, "limit")):
        resp, id, _ = call(d, "products/list", params)
        assert_error(resp, INVALID_PARAMS, id=id, data={"field": field})
    assert d.result("products/list", {"sort": "newest", "limit": 1})["items"][0]["id"] == "p5"
    resp, id, before = call(d, "products/create", {"nameKo": "비쌈", "price": 2**31})
    assert_error(resp, INVALID_PARAMS, id=id, data={"field": "price"})
    assert before == []
    assert "CreateProduct" not in [r["operationName"] for r in gql.requests()]


def test_validation_happens_before_the_upstream_is_asked(spawn, gql):
    d, _ = remote(spawn, gql.url)
    for method, params, field in (("products/create", {"nameKo": " ", "price": 1}, "nameKo"),
                                  ("products/create", {"nameKo": "x", "price": -1}, "price"),
                                  ("products/update", {"id": "p1"}, "params"),
                                  ("products/update", {"id": "p1", "nameEn": ""}, "nameEn")):
        resp, id, before = call(d, method, params)
        assert_error(resp, INVALID_PARAMS, id=id, data={"field": field})
        assert before == []
    assert gql.requests() == []


def test_garbage_cursor_is_invalid_params(spawn, gql):
    d, _ = remote(spawn, gql.url)
    resp, id, _ = call(d, "products/list", {"cursor": "garbage"})
    assert_error(resp, INVALID_PARAMS, id=id, data={"field": "cursor"})


def test_remote_cursor_is_bound_to_its_query(spawn, gql):
    """As with the embedded backend, a cursor only continues the list it came from."""
    d, _ = remote(spawn, gql.url)
    cursor = d.result("products/list", {"limit": 2, "query": "e"})["nextCursor"]
    assert cursor
    resp, id, _ = call(d, "products/list", {"limit": 2, "cursor": cursor})
    assert_error(resp, INVALID_PARAMS, id=id, data={"field": "cursor"})


@pytest.mark.parametrize("method,params", [
    ("products/update", {"id": "p404", "price": 1}),
    ("products/delete", {"id": "p404"}),
    ("products/update", {"id": "p404", "price": 1, "expectedVersion": 1}),
    ("products/get", {"id": "p404"}),
])
def test_remote_unknown_id_is_not_found(spawn, gql, method, params):
    """An unknown id is -32001 whatever the method, as with the embedded backend."""
    d, _ = remote(spawn, gql.url)
    resp, id, before = call(d, method, params)
    assert_error(resp, NOT_FOUND, id=id, data={"resource": "product", "id": "p404"})
    assert before == []


# ---------------------------------------------------------------- Croquis-UUID


def test_every_upstream_request_carries_the_client_id(spawn, gql):
    d, client_id = remote(spawn, gql.url)
    assert client_id == CLIENT_ID
    p = d.result("products/create", {"nameKo": "헤더", "price": 1})
    d.result("products/list", {})
    d.result("products/get", {"id": p["id"]})
    d.result("products/update", {"id": p["id"], "price": 2, "expectedVersion": p["version"]})
    d.result("suppliers/list", {})
    d.result("products/delete", {"id": p["id"]})
    reqs = gql.requests()
    assert {r["operationName"] for r in reqs} == {"CreateProduct", "ProductList", "Product", "UpdateProduct", "SupplierList", "DeleteProduct"}
    assert [r["croquisUuid"] for r in reqs] == [CLIENT_ID] * len(reqs), short(reqs)
    assert all((r["contentType"] or "").startswith("application/json") for r in reqs)


def test_without_a_client_id_the_persisted_uuid_is_sent(spawn, gql, tmp_path):
    data = tmp_path / "remote-data"
    d = spawn("--server-url", gql.url, data_dir=data)
    client_id = d.initialize()["clientId"]
    assert UUID_RE.match(client_id)
    d.result("products/list", {})
    d.close()
    d2 = spawn("--server-url", gql.url, data_dir=data)
    assert d2.initialize()["clientId"] == client_id
    d2.result("suppliers/list", {})
    assert [r["croquisUuid"] for r in gql.requests()] == [client_id, client_id]


def test_server_url_from_the_environment(spawn, gql):
    d = spawn(env={"CATALOGD_SERVER_URL": gql.url})
    d.initialize({"clientId": CLIENT_ID})
    assert [p["id"] for p in d.result("products/list", {})["items"]] == SEED_NEWEST
    assert [r["croquisUuid"] for r in gql.requests()] == [CLIENT_ID]


# ---------------------------------------------------------------- failures


@pytest.mark.parametrize("faults,data", [
    ({"status": 500}, {"service": "products", "status": 500, "upstreamMessage": "upstream failure"}),
    ({"status": 503, "message": "maintenance"}, {"service": "products", "status": 503, "upstreamMessage": "maintenance"}),
    ({"status": 404}, {"service": "products", "status": 404}),
    ({"errors": "boom"}, {"service": "products", "upstreamMessage": "boom"}),
    ({"partial": True}, {"service": "products", "upstreamMessage": "partial failure"}),
    ({"partial": True, "message": "half"}, {"service": "products", "upstreamMessage": "half"}),
    ({"malformed": True}, {"service": "products"}),
    ({"body": {"data": {"productList": {"itemList": "nope", "totalCount": 1, "nextCursor": None}}}}, {"service": "products"}),
    ({"body": {"data": None}}, {"service": "products"}),
    ({"body": [1, 2]}, {"service": "products"}),
], ids=["500", "503-message", "404", "errors", "partial", "partial-message", "malformed", "wrong-type", "no-data", "array"])
def test_upstream_errors_are_32021(spawn, gql, faults, data):
    d, _ = remote(spawn, gql.url)
    gql.faults(faults)
    resp, id, before = call(d, "products/list", {})
    err = assert_error(resp, UPSTREAM_ERROR, id=id, data=data)
    assert err["data"].get("retryable") in (None, False), short(err)
    if "malformed" in faults or "body" in faults:
        assert err["data"]["upstreamMessage"].startswith("malformed response"), short(err)
    assert before == []
    gql.faults({})
    assert d.result("products/list", {})["totalCount"] == 5, "the daemon recovers once the upstream does"


@pytest.mark.parametrize("method,params", [
    ("products/create", {"nameKo": "실패", "price": 1}),
    ("products/update", {"id": "p1", "price": 1}),
    ("products/delete", {"id": "p1"}),
    ("products/get", {"id": "p1"}),
    ("suppliers/list", {}),
])
def test_failed_remote_calls_send_no_notification(spawn, gql, method, params):
    d, _ = remote(spawn, gql.url)
    gql.faults({"errors": "nope"})
    resp, id, before = call(d, method, params)
    assert_error(resp, UPSTREAM_ERROR, id=id, data={"service": "products", "upstreamMessage": "nope"})
    assert before == [], short(before)
    d.expect_no_message(0.3)


def test_upstream_graphql_error_for_an_unknown_supplier(spawn, gql):
    d, _ = remote(spawn, gql.url)
    resp, id, before = call(d, "products/create", {"nameKo": "x", "price": 1, "supplierId": "s99"})
    assert resp["error"]["code"] in (INVALID_PARAMS, UPSTREAM_ERROR), short(resp)
    assert before == []


def test_slow_upstream_times_out_as_retryable_32020(spawn, gql):
    d, _ = remote(spawn, gql.url)
    gql.faults({"delayMs": 2000})
    t0 = time.monotonic()
    resp, id, before = call(d, "products/list", {})
    assert_error(resp, UPSTREAM_UNAVAILABLE, id=id, data={"service": "products", "retryable": True})
    assert time.monotonic() - t0 < 1.5, "the 300 ms upstream timeout was not applied"
    assert before == []


def test_slow_mutation_times_out_without_notification(spawn, gql):
    d, _ = remote(spawn, gql.url)
    gql.faults({"delayMs": 1500, "operation": "CreateProduct"})
    resp, id, before = call(d, "products/create", {"nameKo": "느림", "price": 1})
    assert_error(resp, UPSTREAM_UNAVAILABLE, id=id, data={"service": "products", "retryable": True})
    assert before == []


def test_unreachable_upstream_is_retryable_32020(spawn):
    d, _ = remote(spawn, f"http://127.0.0.1:{closed_port()}/graphql")
    for method, params in (("products/list", {}), ("products/get", {"id": "p1"}), ("suppliers/list", {}),
                           ("products/create", {"nameKo": "닿지 않음", "price": 1}),
                           ("products/update", {"id": "p1", "price": 1}), ("products/delete", {"id": "p1"})):
        resp, id, before = call(d, method, params)
        assert_error(resp, UPSTREAM_UNAVAILABLE, id=id, data={"service": "products", "retryable": True})
        assert before == [], f"{method}: {short(before)}"
    d.expect_no_message(0.2)


def test_the_upstreams_own_message_is_the_errors_message(spawn, gql):
    # The product server's validation text is what the app shows in its dialog.
    d, _ = remote(spawn, gql.url)
    gql.faults({"status": 400, "message": "상품명은 50자 이하로 입력해 주세요"})
    resp, id, _ = call(d, "products/create", {"nameKo": "사과", "price": 1000})
    err = assert_error(resp, UPSTREAM_ERROR, id=id, data={
        "service": "products", "status": 400, "upstreamMessage": "상품명은 50자 이하로 입력해 주세요",
        "summary": "The products server answered with an error; try again later."})
    assert err["message"] == "상품명은 50자 이하로 입력해 주세요", short(err)
    gql.faults({"malformed": True})  # no words of the upstream's own: the daemon's generic text
    resp, id, _ = call(d, "products/list", {})
    err = assert_error(resp, UPSTREAM_ERROR, id=id, data={"service": "products"})
    assert err["data"]["upstreamMessage"].startswith("malformed response"), short(err)
    assert err["message"] == "The products server answered with an error; try again later.", short(err)
    gql.faults({})
