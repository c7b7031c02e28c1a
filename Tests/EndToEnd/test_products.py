"""Products, on both catalogs (SQLite and PostgreSQL): create/get/update/delete
round trips, the demo catalog, validation (-32602 naming the field), unknown
ids (-32001), stale versions (-32009 with currentVersion), and the
notifications of a mutation: `products/listUpdated` (and `products/changed`
after an update) written before its response, none for a mutation that
failed; updates of one product applied in arrival order."""

from __future__ import annotations

import pytest

from catalogd_e2e import (
    ABSENT,
    CONFLICT,
    INVALID_PARAMS,
    NOT_FOUND,
    assert_error,
    assert_page,
    assert_product,
    assert_result,
    is_notification,
    pipeline,
    read_stream,
    rfc3339_micros,
    send_pipelined,
    short,
)

pytestmark = pytest.mark.both_catalogs

DEMO_PRODUCTS = 300
DEMO_SUPPLIERS = 10


def mutate(d, method: str, params, id=None, timeout: float = 10):
    """Send one request; returns (response, messages written before it)."""
    id = d.request(method, params) if id is None else d.request(method, params, id=id)
    resp, before = d.read_until_response(id, timeout)
    return resp, id, before


def notes(before, method: str) -> list:
    return [m["params"] for m in before if is_notification(m, method)]


def create(d, **params) -> dict:
    resp, id, before = mutate(d, "products/create", params)
    p = assert_product(assert_result(resp, id))
    assert before == [{"jsonrpc": "2.0", "method": "products/listUpdated", "params": {"reason": "created", "id": p["id"]}}], (
        f"exactly one products/listUpdated {{created, {p['id']}}} must precede the create response: {short(before, 2000)}"
    )
    return p


def suppliers(d) -> list[dict]:
    return d.result("suppliers/list", {})["items"]


def total(d) -> int:
    return assert_page(d.result("products/list", {"limit": 1}))["totalCount"]


def expect_rejected(d, method: str, params, code: int, data: dict | None = None) -> dict:
    """The request fails with `code` and no notification at all precedes or follows it."""
    resp, id, before = mutate(d, method, params)
    err = assert_error(resp, code, id=id, data=data)
    assert before == [], f"a failed {method} must send no notification: {short(before, 2000)}"
    return err


# ---------------------------------------------------------------- demo catalog


def test_fresh_data_dir_has_the_demo_catalog(daemon):
    page = assert_page(daemon.result("products/list", {}))
    assert page["totalCount"] == DEMO_PRODUCTS
    assert len(page["items"]) == 20, "the default limit is 20"
    assert isinstance(page["nextCursor"], str)
    for p in page["items"]:
        assert p["id"].isdigit(), f"embedded ids are strings of integers: {short(p)}"
        assert p["version"] == 1 and p["createdAt"] == p["updatedAt"], short(p)
    sups = suppliers(daemon)
    assert len(sups) == DEMO_SUPPLIERS, short(sups)
    for s in sups:
        assert set(s) == {"id", "name"} and s["id"].isdigit() and s["name"].strip(), short(s)
    assert [s["name"] for s in sups] == sorted(s["name"] for s in sups), "suppliers/list is sorted by name"
    assert len({s["id"] for s in sups}) == DEMO_SUPPLIERS
    assert any(any("\uac00" <= ch <= "\ud7a3" for ch in p["nameKo"]) for p in page["items"]), "Korean demo names"
    assert any(p["nameEn"] for p in page["items"]), "English demo names"


def test_suppliers_list_accepts_absent_params(daemon):
    assert daemon.result("suppliers/list") == daemon.result("suppliers/list", {})


@pytest.mark.sqlite_only
def test_catalog_opens_in_a_data_dir_that_does_not_exist_yet_when_initialize_gives_a_client_id(spawn, tmp_path):
    """With a clientId from `initialize` the daemon has no reason to write its
    own client-id file, so nothing else creates the data dir: the catalog must."""
    data = tmp_path / "not-yet" / "catalog-dir"
    d = spawn(data_dir=data)
    d.initialize({"clientId": "0b7e2a8c-5a8e-4c1e-9d3f-2f8d1c7a6b5e"})
    resp = d.call("products/list", {"limit": 1}, id="l")
    page = assert_page(assert_result(resp, "l"))
    assert page["totalCount"] == DEMO_PRODUCTS
    assert (data / "catalog.sqlite").is_file()


# ---------------------------------------------------------------- round trips


def test_create_get_list_round_trip(daemon):
    sup = suppliers(daemon)[3]
    p = create(daemon, nameKo="테스트 우유 1L", nameEn="Test Milk 1L", price=2500, supplierId=sup["id"])
    assert_product(p, nameKo="테스트 우유 1L", nameEn="Test Milk 1L", price=2500, supplier=sup, version=1)
    assert p["id"].isdigit()
    assert p["createdAt"] == p["updatedAt"]
    assert daemon.result("products/get", {"id": p["id"]}) == p
    page = daemon.result("products/list", {"limit": 1})
    assert page["items"] == [p], "a new product comes first in the newest order"
    assert page["totalCount"] == DEMO_PRODUCTS + 1
    assert daemon.result("products/list", {"supplierId": sup["id"], "limit": 1})["items"] == [p]


def test_create_with_only_the_required_fields(daemon):
    p = create(daemon, nameKo="귤", price=0)
    assert_product(p, nameKo="귤", nameEn=None, price=0, supplier=None, version=1)
    assert daemon.result("products/get", {"id": p["id"]}) == p


def test_create_with_explicit_nulls(daemon):
    p = create(daemon, nameKo="배", nameEn=None, price=10, supplierId=None)
    assert_product(p, nameEn=None, supplier=None)


def test_names_of_200_characters_are_accepted(daemon):
    ko, en = "가" * 200, "a" * 200
    p = create(daemon, nameKo=ko, nameEn=en, price=1)
    assert_product(p, nameKo=ko, nameEn=en)


def test_ids_are_never_reused(daemon):
    a = create(daemon, nameKo="하나", price=1)
    assert_result(daemon.call("products/delete", {"id": a["id"]}, id="d"), "d", {"id": a["id"]})
    b = create(daemon, nameKo="둘", price=2)
    assert b["id"] != a["id"]


def test_update_each_field(daemon):
    s1, s2 = suppliers(daemon)[:2]
    p = create(daemon, nameKo="원래 이름", nameEn="Original", price=100, supplierId=s1["id"])

    steps = [
        ({"price": 150}, {"price": 150}),
        ({"nameKo": "새 이름"}, {"nameKo": "새 이름"}),
        ({"nameEn": "Renamed"}, {"nameEn": "Renamed"}),
        ({"supplierId": s2["id"]}, {"supplier": s2}),
        ({"nameEn": None}, {"nameEn": None}),
        ({"supplierId": None}, {"supplier": None}),
        ({"nameEn": "Back", "supplierId": s1["id"], "price": 0}, {"nameEn": "Back", "supplier": s1, "price": 0}),
    ]
    current = p
    for n, (change, effect) in enumerate(steps, start=2):
        resp, id, before = mutate(daemon, "products/update", {"id": p["id"], **change})
        q = assert_product(assert_result(resp, id))
        expected = dict(current, **effect, version=n)
        expected["updatedAt"] = q["updatedAt"]
        assert q == expected, f"update {change}: expected {short(expected)}, got {short(q)}"
        assert rfc3339_micros(q["updatedAt"]) >= rfc3339_micros(current["updatedAt"])
        assert q["createdAt"] == p["createdAt"]
        assert notes(before, "products/listUpdated") == [{"reason": "updated", "id": p["id"]}], short(before)
        assert notes(before, "products/changed") == [{"product": q}], short(before)
        assert len(before) == 2, short(before)
        assert daemon.result("products/get", {"id": p["id"]}) == q
        current = q
    assert rfc3339_micros(current["updatedAt"]) > rfc3339_micros(p["createdAt"])


def test_update_with_the_current_expected_version(daemon):
    p = create(daemon, nameKo="버전", price=1)
    q = daemon.result("products/update", {"id": p["id"], "price": 2, "expectedVersion": 1})
    assert_product(q, price=2, version=2)
    r = daemon.result("products/update", {"id": p["id"], "price": 3, "expectedVersion": 2})
    assert_product(r, price=3, version=3)


def test_stale_expected_version_is_a_conflict_with_the_current_version(daemon):
    p = create(daemon, nameKo="충돌", price=1)
    q = daemon.result("products/update", {"id": p["id"], "price": 2})
    assert q["version"] == 2
    for stale in (1, 3, 0, 1000):
        err = expect_rejected(daemon, "products/update", {"id": p["id"], "price": 99, "expectedVersion": stale}, CONFLICT,
                              {"currentVersion": 2})
        assert set(err["data"]) >= {"currentVersion"} and err["data"]["currentVersion"] == 2
        assert daemon.result("products/get", {"id": p["id"]}) == q, "a conflicting update changes nothing"
    daemon.expect_no_message(0.3)


def test_delete(daemon):
    p = create(daemon, nameKo="지울 상품", price=5)
    resp, id, before = mutate(daemon, "products/delete", {"id": p["id"]})
    assert_result(resp, id, {"id": p["id"]})
    assert before == [{"jsonrpc": "2.0", "method": "products/listUpdated", "params": {"reason": "deleted", "id": p["id"]}}], short(before)
    expect_rejected(daemon, "products/get", {"id": p["id"]}, NOT_FOUND, {"resource": "product", "id": p["id"]})
    expect_rejected(daemon, "products/delete", {"id": p["id"]}, NOT_FOUND, {"resource": "product", "id": p["id"]})
    expect_rejected(daemon, "products/update", {"id": p["id"], "price": 1}, NOT_FOUND, {"resource": "product", "id": p["id"]})
    assert total(daemon) == DEMO_PRODUCTS
    daemon.expect_no_message(0.3)


def test_delete_a_demo_product(daemon):
    first = daemon.result("products/list", {"limit": 1})["items"][0]
    assert_result(daemon.call("products/delete", {"id": first["id"]}, id="d"), "d", {"id": first["id"]})
    assert total(daemon) == DEMO_PRODUCTS - 1
    assert first["id"] not in {p["id"] for p in daemon.result("products/list", {"limit": 100})["items"]}


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def shared(request, shared_daemon_factory, catalog_maker):
    """One daemon per catalog for the tests whose requests must all be rejected
    (they change nothing): the module's tests that use it run on both catalogs."""
    return shared_daemon_factory("lsp", database_url=catalog_maker(request.param, request).url)


@pytest.mark.parametrize("unknown", ["999999", "0", "-1", "abc", "1.5", "9223372036854775808", ""])
def test_unknown_id_is_not_found(shared, unknown):
    d = shared.get()
    for method, extra in (("products/get", {}), ("products/delete", {}), ("products/update", {"price": 1}),
                          ("products/update", {"price": 1, "expectedVersion": 1})):
        resp, id, before = mutate(d, method, {"id": unknown, **extra})
        if unknown == "" and "error" in resp and resp["error"]["code"] == INVALID_PARAMS:
            assert_error(resp, INVALID_PARAMS, id=id, data={"field": "id"})  # an empty id may be invalid instead
        else:
            assert_error(resp, NOT_FOUND, id=id, data={"resource": "product", "id": unknown})
        assert before == [], short(before)


# ---------------------------------------------------------------- validation

LONG = "가" * 201

CREATE_INVALID = [
    ({"price": 1}, "nameKo"),
    ({"nameKo": "이름"}, "price"),
    ({"nameKo": "", "price": 1}, "nameKo"),
    ({"nameKo": "   ", "price": 1}, "nameKo"),
    ({"nameKo": "\t\n", "price": 1}, "nameKo"),
    ({"nameKo": LONG, "price": 1}, "nameKo"),
    ({"nameKo": 5, "price": 1}, "nameKo"),
    ({"nameKo": None, "price": 1}, "nameKo"),
    ({"nameKo": ["a"], "price": 1}, "nameKo"),
    ({"nameKo": "이름", "nameEn": "", "price": 1}, "nameEn"),
    ({"nameKo": "이름", "nameEn": "  ", "price": 1}, "nameEn"),
    ({"nameKo": "이름", "nameEn": "a" * 201, "price": 1}, "nameEn"),
    ({"nameKo": "이름", "nameEn": 7, "price": 1}, "nameEn"),
    ({"nameKo": "이름", "price": -1}, "price"),
    ({"nameKo": "이름", "price": 1.5}, "price"),
    ({"nameKo": "이름", "price": "100"}, "price"),
    ({"nameKo": "이름", "price": True}, "price"),
    ({"nameKo": "이름", "price": None}, "price"),
    ({"nameKo": "이름", "price": 1, "supplierId": "999"}, "supplierId"),
    ({"nameKo": "이름", "price": 1, "supplierId": "abc"}, "supplierId"),
    ({"nameKo": "이름", "price": 1, "supplierId": ""}, "supplierId"),
    ({"nameKo": "이름", "price": 1, "supplierId": 1}, "supplierId"),
]


@pytest.mark.parametrize("params,field", CREATE_INVALID, ids=[f"{f}-{i}" for i, (_, f) in enumerate(CREATE_INVALID)])
def test_create_validation_names_the_field(shared, params, field):
    d = shared.get()
    count = total(d)
    expect_rejected(d, "products/create", params, INVALID_PARAMS, {"field": field, "reason": ABSENT})
    assert total(d) == count, "a rejected create adds nothing"


UPDATE_INVALID = [
    ({}, "params"),
    ({"expectedVersion": 1}, "params"),
    ({"price": -5}, "price"),
    ({"price": 2.5}, "price"),
    ({"price": "5"}, "price"),
    ({"price": None, "nameKo": "함께"}, "price"),
    ({"nameKo": ""}, "nameKo"),
    ({"nameKo": "  "}, "nameKo"),
    ({"nameKo": None, "price": 5}, "nameKo"),
    ({"nameKo": LONG}, "nameKo"),
    ({"nameEn": ""}, "nameEn"),
    ({"nameEn": "b" * 201}, "nameEn"),
    ({"nameEn": 3}, "nameEn"),
    ({"supplierId": "999"}, "supplierId"),
    ({"supplierId": "x"}, "supplierId"),
    ({"supplierId": 2}, "supplierId"),
    ({"price": 1, "expectedVersion": "1"}, "expectedVersion"),
    ({"price": 1, "expectedVersion": -1}, "expectedVersion"),
    ({"price": 1, "expectedVersion": 1.5}, "expectedVersion"),
]


@pytest.mark.parametrize("params,field", UPDATE_INVALID, ids=[f"{f}-{i}" for i, (_, f) in enumerate(UPDATE_INVALID)])
def test_update_validation_names_the_field(shared, params, field):
    """`null` clears only nameEn and supplierId; for nameKo and price it is a
    wrong type, not "leave unchanged" (else the other fields would be applied)."""
    daemon = shared.get()
    p = create(daemon, nameKo="검증", nameEn="Check", price=10, supplierId=suppliers(daemon)[0]["id"])
    expect_rejected(daemon, "products/update", {"id": p["id"], **params}, INVALID_PARAMS, {"field": field, "reason": ABSENT})
    assert daemon.result("products/get", {"id": p["id"]}) == p, "a rejected update changes nothing"


@pytest.mark.parametrize("method,params,field", [
    ("products/get", {}, "id"),
    ("products/get", {"id": 1}, "id"),
    ("products/get", {"id": None}, "id"),
    ("products/delete", {}, "id"),
    ("products/delete", {"id": 1}, "id"),
    ("products/update", {"price": 1}, "id"),
    ("products/update", {"id": 1, "price": 1}, "id"),
    ("products/list", {"limit": 0}, "limit"),
    ("products/list", {"limit": 101}, "limit"),
    ("products/list", {"limit": -1}, "limit"),
    ("products/list", {"limit": 1.5}, "limit"),
    ("products/list", {"limit": "5"}, "limit"),
    ("products/list", {"sort": "oldest"}, "sort"),
    ("products/list", {"sort": "NEWEST"}, "sort"),
    ("products/list", {"sort": 1}, "sort"),
    ("products/list", {"query": 5}, "query"),
    ("products/list", {"query": "a" * 201}, "query"),
    ("products/list", {"cursor": 5}, "cursor"),
    ("products/list", {"supplierId": 3}, "supplierId"),
])
def test_read_validation_names_the_field(shared, method, params, field):
    expect_rejected(shared.get(), method, params, INVALID_PARAMS, {"field": field, "reason": ABSENT})


@pytest.mark.parametrize("limit", [1, 100])
def test_limit_bounds_are_accepted(daemon, limit):
    page = assert_page(daemon.result("products/list", {"limit": limit}))
    assert len(page["items"]) == limit and page["totalCount"] == DEMO_PRODUCTS


def test_failed_mutations_send_no_notification_at_all(daemon):
    """A burst of failing mutations, then a good one: the only notification is the good one's."""
    p = create(daemon, nameKo="기준", price=1)
    bad = [
        ("products/create", {"nameKo": "", "price": 1}),
        ("products/create", {"nameKo": "x", "price": -1}),
        ("products/update", {"id": p["id"]}),
        ("products/update", {"id": p["id"], "price": 5, "expectedVersion": 7}),
        ("products/update", {"id": "987654", "price": 5}),
        ("products/delete", {"id": "987654"}),
        ("products/update", {"id": p["id"], "supplierId": "424242"}),
    ]
    responses, others = pipeline(daemon, bad + [("products/delete", {"id": p["id"]})])
    for (method, params), resp in zip(bad, responses[:-1]):
        assert "error" in resp, f"{method} {params} should fail: {short(resp)}"
    assert_result(responses[-1], responses[-1]["id"], {"id": p["id"]})
    assert others == [{"jsonrpc": "2.0", "method": "products/listUpdated", "params": {"reason": "deleted", "id": p["id"]}}], short(others, 2000)
    daemon.expect_no_message(0.3)


# ---------------------------------------------------------------- notifications and order


def test_pipelined_creates_each_notify_before_their_response(daemon):
    """20 creates in one write: every response comes after its own listUpdated."""
    ids = send_pipelined(daemon, [("products/create", {"nameKo": f"묶음 {i}", "price": i}) for i in range(20)])
    seen: list[str] = []
    for msg in read_stream(daemon, ids, 10):
        if is_notification(msg, "products/listUpdated"):
            assert set(msg["params"]) == {"reason", "id"} and msg["params"]["reason"] == "created", short(msg)
            seen.append(msg["params"]["id"])
        else:
            p = assert_product(assert_result(msg, msg["id"]))
            assert p["id"] in seen, f"the response creating {p['id']} came before its listUpdated (seen {seen})"
    assert len(seen) == len(set(seen)) == 20
    daemon.expect_no_message(0.3)


def test_pipelined_creates_with_one_missing_supplier_fail_only_that_one(daemon):
    """Creates sent together are committed together (group commit): the one
    naming a supplier that does not exist fails alone, every other one is
    created, and alike drafts still get ids of their own."""
    sup = suppliers(daemon)[0]
    calls = [("products/create", {"nameKo": f"함께 {i % 5}", "price": i % 5, "supplierId": sup["id"] if i % 2 else None})
             for i in range(40)]
    calls[17] = ("products/create", {"nameKo": "없는 공급자", "price": 1, "supplierId": "424242"})
    before = total(daemon)
    responses, others = pipeline(daemon, calls)
    assert_error(responses[17], INVALID_PARAMS, id=responses[17]["id"], data={"field": "supplierId"})
    made = []
    for i, ((_, params), resp) in enumerate(zip(calls, responses)):
        if i == 17:
            continue
        p = assert_product(assert_result(resp, resp["id"]))
        assert (p["nameKo"], p["price"]) == (params["nameKo"], params["price"]), short(p)
        assert (p["supplier"] or {}).get("id") == params["supplierId"], short(p)
        made.append(p["id"])
    assert len(set(made)) == 39, f"each create has an id of its own: {made}"
    assert sorted(n["params"]["id"] for n in others) == sorted(made), short(others, 2000)
    assert total(daemon) == before + 39
    for id in made[:5]:
        assert daemon.result("products/get", {"id": id})["id"] == id


def test_pipelined_updates_each_notify_before_their_response(daemon):
    """10 updates of one product in one write: the listUpdated and changed of
    version v both come before the response that carries version v."""
    p = create(daemon, nameKo="알림", price=0)
    ids = send_pipelined(daemon, [("products/update", {"id": p["id"], "price": i}) for i in range(1, 11)])
    changed_versions: list[int] = []
    listed = 0
    for msg in read_stream(daemon, ids, 10):
        if is_notification(msg, "products/listUpdated"):
            assert msg["params"] == {"reason": "updated", "id": p["id"]}, short(msg)
            listed += 1
        elif is_notification(msg, "products/changed"):
            changed_versions.append(assert_product(msg["params"]["product"])["version"])
            assert set(msg["params"]) == {"product"}, short(msg)
        else:
            q = assert_product(assert_result(msg, msg["id"]))
            assert q["version"] in changed_versions, f"response v{q['version']} before its products/changed ({changed_versions})"
            assert listed >= len(changed_versions), "listUpdated must accompany every changed before the response"
    assert listed == 10 and len(changed_versions) == 10
    daemon.expect_no_message(0.3)


def test_burst_of_updates_to_one_product_applies_in_arrival_order(daemon):
    p = create(daemon, nameKo="순서", price=0)
    calls = [("products/update", {"id": p["id"], "price": i}) for i in range(1, 51)]
    responses, others = pipeline(daemon, calls)
    versions = []
    for i, resp in enumerate(responses, start=1):
        q = assert_product(assert_result(resp, resp["id"]))
        assert q["price"] == i, f"update #{i} answered price {q['price']}: {short(q)}"
        versions.append(q["version"])
    assert versions == list(range(2, 52)), f"versions in request order: {versions}"
    final = daemon.result("products/get", {"id": p["id"]})
    assert_product(final, price=50, version=51)
    changed = [n["product"] for n in notes(others, "products/changed")]
    assert [c["version"] for c in changed] == list(range(2, 52)), "products/changed in the order the updates applied"
    assert [c["price"] for c in changed] == list(range(1, 51))


def test_burst_with_expected_versions_in_order_all_succeed(daemon):
    p = create(daemon, nameKo="낙관적", price=0)
    calls = [("products/update", {"id": p["id"], "price": v, "expectedVersion": v}) for v in range(1, 31)]
    responses, _ = pipeline(daemon, calls)
    for v, resp in enumerate(responses, start=1):
        assert_product(assert_result(resp, resp["id"]), price=v, version=v + 1)


def test_update_then_delete_then_update_in_one_burst(daemon):
    p = create(daemon, nameKo="삭제 경쟁", price=0)
    responses, others = pipeline(daemon, [
        ("products/update", {"id": p["id"], "price": 1}),
        ("products/update", {"id": p["id"], "price": 2}),
        ("products/delete", {"id": p["id"]}),
        ("products/update", {"id": p["id"], "price": 3}),
        ("products/delete", {"id": p["id"]}),
    ])
    assert_product(assert_result(responses[0], responses[0]["id"]), price=1, version=2)
    assert_product(assert_result(responses[1], responses[1]["id"]), price=2, version=3)
    assert_result(responses[2], responses[2]["id"], {"id": p["id"]})
    assert_error(responses[3], NOT_FOUND, data={"resource": "product", "id": p["id"]})
    assert_error(responses[4], NOT_FOUND, data={"resource": "product", "id": p["id"]})
    assert notes(others, "products/listUpdated") == [
        {"reason": "updated", "id": p["id"]}, {"reason": "updated", "id": p["id"]}, {"reason": "deleted", "id": p["id"]},
    ]


def test_ndjson_framing_round_trip(spawn):
    d = spawn(framing="ndjson")
    d.initialize()
    p = create(d, nameKo="줄 단위", nameEn="NDJSON", price=3)
    assert d.result("products/get", {"id": p["id"]}) == p


@pytest.mark.parametrize("alias", ["05", "+5", "0005"])
def test_ids_are_exact_strings_not_numbers(daemon, alias):
    """Ids are opaque strings: "05" or "+5" is not product "5" (else a client is
    told that product "+5" was deleted while product "5" vanished)."""
    five = daemon.result("products/get", {"id": "5"})
    for method, extra in (("products/get", {}), ("products/update", {"price": 1}), ("products/delete", {})):
        expect_rejected(daemon, method, {"id": alias, **extra}, NOT_FOUND, {"resource": "product", "id": alias})
    assert daemon.result("products/get", {"id": "5"}) == five


def test_names_round_trip_exactly(daemon):
    for name in ["'; DROP TABLE products; --", "한글 English 混合 😀👍🏽", "a\u0301 e\u0301", "tab\tinside", "\u202eRTL", "%_\\\"*"]:
        p = create(daemon, nameKo=name, nameEn=name, price=1)
        assert_product(p, nameKo=name, nameEn=name)
        assert daemon.result("products/get", {"id": p["id"]}) == p


@pytest.mark.parametrize("price,ok", [(0, True), (1_000_000_000_000, True), (1_000_000_000_001, False), (10**20, False)])
def test_price_bounds(daemon, price, ok):
    resp, id, before = mutate(daemon, "products/create", {"nameKo": "가격", "price": price})
    if ok:
        assert_product(assert_result(resp, id), price=price)
    else:
        assert_error(resp, INVALID_PARAMS, id=id, data={"field": "price"})
        assert before == []
