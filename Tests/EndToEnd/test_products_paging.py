"""Products, embedded backend: keyset paging of `products/list`.

Every sort walked to the end in pages of 7 equals the whole catalog sorted the
same way (ties broken by id); paging stays exact while products are created
and deleted between page requests; the supplier and text filters page the same
way; a cursor only works with the sort and filters it came from; the text
search is a case-insensitive substring search of the Korean and English names.

Expected orders (the daemon's documented sort keys, with the id as tie-breaker
in the sort's direction): newest = createdAt desc, id desc; priceAsc = price,
id; priceDesc = price desc, id desc; name = nameKo (code point order), id.
"""

from __future__ import annotations

import base64
import json
import random

import pytest

from catalogd_e2e import (
    INVALID_PARAMS,
    PRODUCT_SORTS,
    assert_error,
    assert_page,
    assert_product,
    assert_result,
    pipeline,
    rfc3339_micros,
    short,
    walk_products,
)

pytestmark = pytest.mark.both_catalogs

DEMO_PRODUCTS = 300


def sort_key(sort: str):
    return {
        "newest": lambda p: (-rfc3339_micros(p["createdAt"]), -int(p["id"])),
        "priceAsc": lambda p: (p["price"], int(p["id"])),
        "priceDesc": lambda p: (-p["price"], -int(p["id"])),
        "name": lambda p: (p["nameKo"], int(p["id"])),
    }[sort]


def matches(p: dict, query: str) -> bool:
    q = query.casefold()
    return q in p["nameKo"].casefold() or q in (p["nameEn"] or "").casefold()


def ids(items) -> list[str]:
    return [p["id"] for p in items]


def everything(d) -> list[dict]:
    """The whole catalog, by walking the newest order in pages of 100."""
    items = [p for page in walk_products(d, {"limit": 100}) for p in page["items"]]
    assert len(items) == len({p["id"] for p in items}), "duplicates in the newest order"
    return items


def check_walk(d, params: dict, expected: list[dict], limit: int = 7) -> list[dict]:
    """Walks `params` in pages of `limit`: every page but the last is full, every
    totalCount is len(expected), and the items are exactly `expected`, in order."""
    pages = walk_products(d, dict(params, limit=limit))
    for n, page in enumerate(pages):
        assert page["totalCount"] == len(expected), f"page {n} of {params}: totalCount {page['totalCount']}, expected {len(expected)}"
        if n < len(pages) - 1:
            assert len(page["items"]) == limit, f"page {n} of {params} has {len(page['items'])} items, not {limit}"
    got = [p for page in pages for p in page["items"]]
    assert len(set(ids(got))) == len(got), f"{params}: an id repeats across pages"
    if ids(got) != ids(expected):
        missing = set(ids(expected)) - set(ids(got))
        extra = set(ids(got)) - set(ids(expected))
        first_bad = next((i for i, (a, b) in enumerate(zip(ids(got), ids(expected))) if a != b), None)
        raise AssertionError(
            f"{params}: walk differs from the expected order: missing {sorted(missing)[:10]}, extra {sorted(extra)[:10]}, "
            f"first difference at {first_bad}: got {short(got[first_bad:first_bad + 3]) if first_bad is not None else ''} "
            f"expected {short(expected[first_bad:first_bad + 3]) if first_bad is not None else ''}")
    assert len(pages) == max(1, -(-len(expected) // limit)), f"{params}: {len(pages)} pages for {len(expected)} items"
    assert pages[-1]["nextCursor"] is None
    return got


@pytest.fixture
def catalog(daemon):
    """The demo catalog plus 12 products sharing one price and one name (ties
    across page boundaries), created in one burst; returns (daemon, all products)."""
    sup = daemon.result("suppliers/list", {})["items"][0]["id"]
    responses, _ = pipeline(daemon, [
        ("products/create", {"nameKo": "동일 상품", "nameEn": "Same Thing", "price": 1000, "supplierId": sup})
        for _ in range(12)
    ])
    for r in responses:
        assert_product(assert_result(r, r["id"]))
    items = everything(daemon)
    assert len(items) == DEMO_PRODUCTS + 12
    return daemon, items


# ---------------------------------------------------------------- plain walks


@pytest.mark.parametrize("sort", PRODUCT_SORTS)
def test_walk_every_sort_to_the_end(catalog, sort):
    d, items = catalog
    expected = sorted(items, key=sort_key(sort))
    got = check_walk(d, {"sort": sort}, expected)
    for p in got:
        assert_product(p)


def test_default_sort_is_newest(catalog):
    d, items = catalog
    first = d.result("products/list", {"limit": 50})
    assert ids(first["items"]) == ids(sorted(items, key=sort_key("newest"))[:50])


def test_every_sort_lists_the_same_products(catalog):
    d, items = catalog
    want = sorted(ids(items))
    for sort in PRODUCT_SORTS:
        got = [p for page in walk_products(d, {"sort": sort, "limit": 100}) for p in page["items"]]
        assert sorted(ids(got)) == want, f"sort {sort} lists other products"


def test_list_items_equal_products_get(catalog):
    d, items = catalog
    for p in items[::37]:
        assert d.result("products/get", {"id": p["id"]}) == p


def test_the_limit_may_change_between_pages(catalog):
    d, items = catalog
    expected = ids(sorted(items, key=sort_key("priceAsc")))
    got, cursor, limits = [], None, [1, 100, 3, 50, 7, 100, 100, 100]
    for limit in limits:
        params = {"sort": "priceAsc", "limit": limit}
        if cursor:
            params["cursor"] = cursor
        page = d.result("products/list", params)
        got += ids(page["items"])
        cursor = page["nextCursor"]
        if cursor is None:
            break
    assert got == expected


# ---------------------------------------------------------------- paging under change


@pytest.mark.parametrize("sort", PRODUCT_SORTS)
def test_paging_while_products_are_created_and_deleted(catalog, sort):
    """Between page requests: a product is created, one not yet seen is deleted,
    and one already seen (often the cursor's own anchor) is deleted. Nothing
    repeats, nothing that existed throughout is skipped, nothing deleted before
    its page appears, the order holds, and totalCount follows the changes."""
    d, items = catalog
    rng = random.Random(f"paging-{sort}")
    key = sort_key(sort)
    initial = {p["id"]: p for p in items}
    current = set(initial)
    deleted: set[str] = set()
    created: set[str] = set()
    seen: list[dict] = []
    cursor = None
    syllables = "가나다라마바사아자차카타파하고등어우유김치두부"
    for n in range(200):
        params = {"sort": sort, "limit": 7}
        if cursor:
            params["cursor"] = cursor
        page = assert_page(d.result("products/list", params))
        assert page["totalCount"] == len(current), f"page {n}: totalCount {page['totalCount']}, {len(current)} products exist"
        for p in page["items"]:
            assert p["id"] in current, f"page {n} lists {p['id']}, deleted before this page was asked for"
        seen += page["items"]
        cursor = page["nextCursor"]
        if cursor is None:
            break
        # Create one.
        name = "".join(rng.choice(syllables) for _ in range(rng.randint(1, 6)))
        q = d.result("products/create", {"nameKo": name, "price": rng.randint(0, 30000)})
        current.add(q["id"])
        created.add(q["id"])
        # Delete one not seen yet (from the demo catalog) and one already seen.
        seen_ids = {p["id"] for p in seen}
        ahead = sorted((i for i in current if i in initial and i not in seen_ids), key=lambda i: key(initial[i]))
        if len(ahead) > 3:
            victim = ahead[rng.randint(1, len(ahead) - 1)]
            assert_result(d.call("products/delete", {"id": victim}, id=f"da{n}"), f"da{n}", {"id": victim})
            current.discard(victim)
            deleted.add(victim)
        behind = page["items"][-1]["id"] if n % 2 == 0 else rng.choice(sorted(seen_ids & current))
        if behind in current:
            assert_result(d.call("products/delete", {"id": behind}, id=f"db{n}"), f"db{n}", {"id": behind})
            current.discard(behind)
            deleted.add(behind)
    else:
        raise AssertionError("the walk did not end")
    got = ids(seen)
    assert len(got) == len(set(got)), f"ids repeated: {[i for i in set(got) if got.count(i) > 1]}"
    throughout = set(initial) - deleted
    missing = throughout - set(got)
    assert not missing, f"skipped products that existed throughout: {sorted(missing)}"
    keys = [key(p) for p in seen]
    assert keys == sorted(keys), "the walk is out of order"
    assert len(deleted) > 40 and len(created) > 20, "the test did not change enough"


# ---------------------------------------------------------------- filters


def test_supplier_filter_pages_each_supplier(catalog):
    d, items = catalog
    suppliers = d.result("suppliers/list", {})["items"]
    total = 0
    for s in suppliers:
        expected = sorted((p for p in items if p["supplier"] and p["supplier"]["id"] == s["id"]), key=sort_key("priceAsc"))
        assert expected, f"supplier {s} has no demo products"
        got = check_walk(d, {"sort": "priceAsc", "supplierId": s["id"]}, expected)
        assert all(p["supplier"] == s for p in got)
        total += len(got)
    without = [p for p in items if p["supplier"] is None]
    assert total + len(without) == len(items)


@pytest.mark.parametrize("sort", PRODUCT_SORTS)
def test_supplier_filter_in_every_sort(catalog, sort):
    d, items = catalog
    sid = d.result("suppliers/list", {})["items"][0]["id"]
    expected = sorted((p for p in items if p["supplier"] and p["supplier"]["id"] == sid), key=sort_key(sort))
    check_walk(d, {"sort": sort, "supplierId": sid}, expected, limit=5)


def test_unknown_supplier_lists_nothing_or_is_rejected(catalog):
    d, _ = catalog
    for sid in ("999", "abc"):
        resp = d.call("products/list", {"supplierId": sid}, id=f"u{sid}")
        if "error" in resp:
            assert_error(resp, INVALID_PARAMS, data={"field": "supplierId"})
        else:
            assert resp["result"] == {"items": [], "nextCursor": None, "totalCount": 0}, short(resp)


SEARCHES = ["우유", "고등어", "김", "milk", "MILK", "Milk", "mIlK", "mackerel", "MACK", "kg", "1kg", "국산 고등어",
            "(2 pack)", " ", "a", "e"]


@pytest.mark.parametrize("query", SEARCHES)
def test_query_is_a_case_insensitive_substring_search(catalog, query):
    d, items = catalog
    expected = sorted((p for p in items if matches(p, query)), key=sort_key("name"))
    if query in ("우유", "고등어", "김", "milk", "MILK", "Milk", "mIlK", "a", "e"):
        assert expected, f"the demo catalog should have products matching {query!r}"
    check_walk(d, {"sort": "name", "query": query}, expected)


def test_required_searches_find_products(catalog):
    d, items = catalog
    for query, _sample in (("우유", "우유"), ("고등어", "고등어"), ("김", "김"), ("milk", "Milk")):
        page = d.result("products/list", {"query": query, "limit": 100})
        assert page["totalCount"] > 0, f"{query!r} finds nothing"
        for p in page["items"]:
            assert matches(p, query), f"{query!r} found {short(p)}"


def test_milk_in_any_case_finds_the_same_products(catalog):
    d, _ = catalog
    pages = [d.result("products/list", {"query": q, "limit": 100, "sort": "priceAsc"}) for q in ("milk", "MILK", "Milk")]
    assert pages[0]["totalCount"] > 0
    assert pages[0] == pages[1] == pages[2]


@pytest.mark.parametrize("sort", PRODUCT_SORTS)
def test_query_filter_pages_in_every_sort(catalog, sort):
    d, items = catalog
    expected = sorted((p for p in items if matches(p, "우유")), key=sort_key(sort))
    check_walk(d, {"sort": sort, "query": "우유"}, expected, limit=3)


def test_query_and_supplier_together(catalog):
    d, items = catalog
    for s in d.result("suppliers/list", {})["items"][:4]:
        for query in ("a", "국산", "우유"):
            expected = sorted((p for p in items if p["supplier"] and p["supplier"]["id"] == s["id"] and matches(p, query)),
                              key=sort_key("newest"))
            check_walk(d, {"supplierId": s["id"], "query": query}, expected, limit=4)


@pytest.mark.parametrize("query", ["존재하지않는상품", "zzqqxx", "쀍", "Q", "%", "_", "%%", "\\", "_%_", "a%b",
                                   'mil"k', "milk*", "name_ko:우유", "우유 OR 김", "NEAR(a b)", "'", "^milk", "-milk"])
def test_searches_without_a_match_and_special_characters(catalog, query):
    d, items = catalog
    expected = [p for p in items if matches(p, query)]
    page = assert_page(d.result("products/list", {"query": query, "limit": 100}))
    assert sorted(ids(page["items"])) == sorted(ids(expected)), f"{query!r}: got {short(page)}"
    assert page["totalCount"] == len(expected)
    if not expected:
        assert page == {"items": [], "nextCursor": None, "totalCount": 0}


def test_special_characters_followed_by_a_combining_mark_are_still_literal(daemon):
    """'%' or '_' followed by a combining mark is one character to Swift but
    still a wildcard to the database, and a quote so followed still ends an
    FTS5 string: each must be escaped all the same (they matched anything, or
    failed with -32603)."""
    accented = assert_product(assert_result(*_create(daemon, "가나\u0301다")))
    quoted = assert_product(assert_result(*_create(daemon, 'x"\u0301y')))
    for query, expected in (("%\u0301", []), ("_\u0301", []), ('"\u0301', [quoted["id"]]),
                            ('x"\u0301y OR c', []), ("나\u0301", [accented["id"]])):
        page = assert_page(daemon.result("products/list", {"query": query, "limit": 100}))
        assert ids(page["items"]) == expected and page["totalCount"] == len(expected), f"{query!r}: {short(page)}"


def _create(d, name_ko: str):
    id = d.request("products/create", {"nameKo": name_ko, "price": 1})
    resp, _ = d.read_until_response(id)
    return resp, id


@pytest.mark.parametrize("query", ["éc", "ÉC", "éco", "ÉCOLE", "мо", "МО", "мол", "МОЛ", "ю", "Ю"])
def test_short_and_long_queries_are_case_insensitive_beyond_ascii(daemon, query):
    """Case-insensitive for every length: 1–2 characters (a scan) like 3 or more (the trigram index)."""
    a = daemon.result("products/create", {"nameKo": "프랑스 빵", "nameEn": "École Bread", "price": 1})
    b = daemon.result("products/create", {"nameKo": "러시아 우유", "nameEn": "Молоко Юг", "price": 1})
    want = [p["id"] for p in (a, b) if matches(p, query)]
    assert want, query
    page = daemon.result("products/list", {"query": query, "limit": 100})
    assert sorted(ids(page["items"])) == sorted(want), f"{query!r} found {short(page['items'])}"
    assert page["totalCount"] == len(want)


def test_search_follows_creates_updates_and_deletes(daemon):
    def found(query):
        return ids(daemon.result("products/list", {"query": query, "limit": 100})["items"])

    p = daemon.result("products/create", {"nameKo": "특제 고등어 구이", "nameEn": "Special Grilled Mackerel", "price": 9000})
    assert p["id"] in found("고등어") and p["id"] in found("특제") and p["id"] in found("grilled mack")
    daemon.result("products/update", {"id": p["id"], "nameKo": "특제 삼치 구이", "nameEn": "Special Grilled Spanish"})
    assert p["id"] not in found("고등어") and p["id"] not in found("mackerel")
    assert p["id"] in found("삼치 구") and p["id"] in found("spanish")
    daemon.result("products/update", {"id": p["id"], "nameEn": None})
    assert p["id"] not in found("spanish")
    daemon.result("products/delete", {"id": p["id"]})
    assert p["id"] not in found("삼치")


# ---------------------------------------------------------------- cursors


def first_cursor(d, **params) -> str:
    page = d.result("products/list", dict(params, limit=3))
    assert isinstance(page["nextCursor"], str), short(page)
    return page["nextCursor"]


def test_cursor_from_another_sort_is_rejected(catalog):
    d, _ = catalog
    for a in PRODUCT_SORTS:
        c = first_cursor(d, sort=a)
        for b in PRODUCT_SORTS:
            if b != a:
                resp = d.call("products/list", {"cursor": c, "sort": b}, id=f"{a}-{b}")
                assert_error(resp, INVALID_PARAMS, id=f"{a}-{b}", data={"field": "cursor"})


def test_cursor_from_another_filter_is_rejected(catalog):
    d, _ = catalog
    sups = [s["id"] for s in d.result("suppliers/list", {})["items"]]
    plain = first_cursor(d)
    by_query = first_cursor(d, query="a")
    by_supplier = first_cursor(d, supplierId=sups[0])
    cases = [
        (plain, {"query": "a"}), (plain, {"supplierId": sups[0]}),
        (by_query, {}), (by_query, {"query": "e"}), (by_query, {"query": "A"}), (by_query, {"query": "a", "supplierId": sups[0]}),
        (by_supplier, {}), (by_supplier, {"supplierId": sups[1]}), (by_supplier, {"supplierId": sups[0], "query": "a"}),
    ]
    for n, (cursor, params) in enumerate(cases):
        resp = d.call("products/list", dict(params, cursor=cursor), id=f"c{n}")
        assert_error(resp, INVALID_PARAMS, id=f"c{n}", data={"field": "cursor"})


def test_same_filter_cursor_is_accepted(catalog):
    d, _ = catalog
    sid = d.result("suppliers/list", {})["items"][0]["id"]
    c = first_cursor(d, sort="name", query="a", supplierId=sid)
    assert_page(d.result("products/list", {"cursor": c, "sort": "name", "query": "a", "supplierId": sid}))


def b64(obj) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


@pytest.mark.parametrize("garbage", [
    "garbage", "!!!!", "=", "a", "eyJ", "bnVsbA", b64({}), b64({"x": 1}), b64([1, 2]), b64("newest"),
    b64({"s": "newest", "k": "x", "i": 1}), "\u00e9\u00e9\u00e9\u00e9", "0" * 1001, "%00", " ",
])
def test_garbage_cursor_is_rejected(catalog, garbage):
    d, _ = catalog
    resp = d.call("products/list", {"cursor": garbage}, id="g")
    assert_error(resp, INVALID_PARAMS, id="g", data={"field": "cursor"})


def test_damaged_real_cursors_are_rejected(catalog):
    d, _ = catalog
    for sort in PRODUCT_SORTS:
        c = first_cursor(d, sort=sort)
        for n, bad in enumerate([c[:-1], c[:-2], c[:-3], c[: len(c) // 2], c + "!", "x" + c]):
            resp = d.call("products/list", {"cursor": bad, "sort": sort}, id=f"{sort}{n}")
            assert_error(resp, INVALID_PARAMS, id=f"{sort}{n}", data={"field": "cursor"})


def test_cursor_past_the_end_gives_an_empty_last_page(catalog):
    """A cursor whose remaining products were all deleted: an empty last page."""
    d, items = catalog
    same = sorted((p for p in items if p["nameKo"] == "동일 상품"), key=sort_key("priceDesc"))
    assert len(same) == 12
    page = d.result("products/list", {"sort": "priceDesc", "query": "동일 상품", "limit": 10})
    assert ids(page["items"]) == ids(same[:10])
    for p in same[10:]:
        d.result("products/delete", {"id": p["id"]})
    last = d.result("products/list", {"sort": "priceDesc", "query": "동일 상품", "cursor": page["nextCursor"], "limit": 10})
    assert last == {"items": [], "nextCursor": None, "totalCount": 10}


def test_supplier_totals_follow_moves_clears_and_deletes(catalog):
    d, items = catalog
    sups = [s["id"] for s in d.result("suppliers/list", {})["items"]]

    def count(sid):
        return d.result("products/list", {"supplierId": sid, "limit": 1})["totalCount"]

    before = {s: count(s) for s in sups}
    movers = [p for p in items if p["supplier"] and p["supplier"]["id"] == sups[0]][:3]
    d.result("products/update", {"id": movers[0]["id"], "supplierId": sups[1]})
    d.result("products/update", {"id": movers[1]["id"], "supplierId": None})
    d.result("products/delete", {"id": movers[2]["id"]})
    d.result("products/create", {"nameKo": "새 공급", "price": 1, "supplierId": sups[2]})
    after = {s: count(s) for s in sups}
    want = dict(before)
    want[sups[0]] -= 3
    want[sups[1]] += 1
    want[sups[2]] += 1
    assert after == want
    for s in sups[:3]:
        walked = [p for page in walk_products(d, {"supplierId": s, "limit": 100}) for p in page["items"]]
        assert len(walked) == after[s] and all(p["supplier"]["id"] == s for p in walked)
    assert d.result("products/list", {"limit": 1})["totalCount"] == len(items)


@pytest.mark.parametrize("member", ["offset", "page", "skip"])
def test_numbered_paging_is_refused_saying_how_to_page(daemon, member):
    """An offset-paging client would otherwise show the first page forever."""
    resp = daemon.call("products/list", {member: 2, "limit": 5}, id="numbered")
    err = assert_error(resp, INVALID_PARAMS, id="numbered", data={"field": member})
    assert "nextCursor" in err["data"]["reason"] and "cursor" in err["message"], err
