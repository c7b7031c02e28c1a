"""Products, embedded backend, two daemons on one data dir: a mutation through
one makes the other send `products/listUpdated {reason, id}` (and
`products/changed` after an update) within about a second, and the daemon that
made the change sends exactly one listUpdated (no echo from its own poller)."""

from __future__ import annotations

import time

import pytest

from catalogd_e2e import (
    assert_product,
    assert_result,
    is_notification,
    pipeline,
    short,
)

pytestmark = pytest.mark.both_catalogs

PROPAGATION = 1.5  # seconds: the poll interval is 200 ms


def pair(spawn, tmp_path, b_reads_first: bool = True):
    data = tmp_path / "shared-data"
    a = spawn(data_dir=data)
    a.initialize()
    b = spawn(data_dir=data)
    b.initialize()
    a.result("products/list", {"limit": 1})
    if b_reads_first:
        b.result("products/list", {"limit": 1})
    return a, b


def notifications(d, count: int, timeout: float = PROPAGATION) -> list[dict]:
    """The next `count` messages, each a notification, within `timeout` seconds from now."""
    deadline = time.monotonic() + timeout
    got = []
    while len(got) < count:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"only {len(got)} of {count} notifications within {timeout}s: {short(got, 2000)}")
        try:
            msg = d.read_message(remaining)
        except AssertionError as e:
            raise AssertionError(f"only {len(got)} of {count} notifications within {timeout}s: {short(got, 2000)}\n{e}") from None
        assert is_notification(msg), f"expected a notification, got {short(msg)}"
        got.append(msg)
    return got


def mutate(d, method, params):
    id = d.request(method, params)
    resp, before = d.read_until_response(id)
    return assert_result(resp, id), before


def test_create_update_delete_reach_the_other_daemon(spawn, tmp_path):
    a, b = pair(spawn, tmp_path)

    p, before = mutate(a, "products/create", {"nameKo": "공유 상품", "price": 100})
    assert [m["params"] for m in before] == [{"reason": "created", "id": p["id"]}], short(before)
    t0 = time.monotonic()
    got = notifications(b, 1)
    assert got == [{"jsonrpc": "2.0", "method": "products/listUpdated", "params": {"reason": "created", "id": p["id"]}}], short(got)
    assert time.monotonic() - t0 < PROPAGATION
    assert b.result("products/get", {"id": p["id"]}) == p

    q, before = mutate(a, "products/update", {"id": p["id"], "price": 200, "nameEn": "Shared"})
    assert_product(q, price=200, nameEn="Shared", version=2)
    assert len(before) == 2, short(before)
    got = notifications(b, 2)
    assert got[0] == {"jsonrpc": "2.0", "method": "products/listUpdated", "params": {"reason": "updated", "id": p["id"]}}, short(got)
    assert got[1] == {"jsonrpc": "2.0", "method": "products/changed", "params": {"product": q}}, short(got)

    r, before = mutate(a, "products/delete", {"id": p["id"]})
    assert r == {"id": p["id"]}
    got = notifications(b, 1)
    assert got == [{"jsonrpc": "2.0", "method": "products/listUpdated", "params": {"reason": "deleted", "id": p["id"]}}], short(got)

    # No echo: A saw each of its changes once, before the response, and nothing later.
    a.expect_no_message(0.8)
    b.expect_no_message(0.3)


def test_changes_flow_both_ways(spawn, tmp_path):
    a, b = pair(spawn, tmp_path)
    p, _ = mutate(b, "products/create", {"nameKo": "역방향", "price": 1})
    assert notifications(a, 1)[0]["params"] == {"reason": "created", "id": p["id"]}
    q, _ = mutate(a, "products/update", {"id": p["id"], "price": 2})
    got = notifications(b, 2)
    assert [m["method"] for m in got] == ["products/listUpdated", "products/changed"]
    assert got[1]["params"]["product"] == q
    b.expect_no_message(0.8)
    a.expect_no_message(0.1)


def test_a_burst_of_mutations_each_reaches_the_other_daemon_once(spawn, tmp_path):
    a, b = pair(spawn, tmp_path)
    responses, others = pipeline(a, [("products/create", {"nameKo": f"연속 {i}", "price": i}) for i in range(20)])
    created = [assert_result(r, r["id"])["id"] for r in responses]
    assert sorted(m["params"]["id"] for m in others) == sorted(created), "A: one listUpdated per create"
    got = notifications(b, 20, timeout=3)
    params = [m["params"] for m in got]
    assert all(p["reason"] == "created" for p in params), short(params)
    assert sorted(p["id"] for p in params) == sorted(created)
    assert [p["id"] for p in params] == sorted((p["id"] for p in params), key=int), "B reports the creates in commit order"
    a.expect_no_message(0.8)
    b.expect_no_message(0.2)


def test_updates_made_elsewhere_carry_the_product_as_it_was_then(spawn, tmp_path):
    """Three quick updates through A: B's products/changed show versions 2, 3, 4
    (or, if B read the product later, the latest one) — never an older state after a newer."""
    a, b = pair(spawn, tmp_path)
    p, _ = mutate(a, "products/create", {"nameKo": "세 번", "price": 0})
    notifications(b, 1)
    responses, _ = pipeline(a, [("products/update", {"id": p["id"], "price": i}) for i in (1, 2, 3)])
    final = assert_result(responses[-1], responses[-1]["id"])
    got = notifications(b, 6, timeout=3)
    changed = [m["params"]["product"] for m in got if m["method"] == "products/changed"]
    listed = [m["params"] for m in got if m["method"] == "products/listUpdated"]
    assert listed == [{"reason": "updated", "id": p["id"]}] * 3, short(got)
    assert len(changed) == 3, short(got)
    versions = [c["version"] for c in changed]
    assert versions == sorted(versions), f"products/changed went back in time: {versions}"
    assert changed[-1] == final


def test_a_daemon_hears_of_changes_from_initialize_on(spawn, tmp_path):
    """B's client never asked for products: from its initialize on B tells it of every change."""
    a, b = pair(spawn, tmp_path, b_reads_first=False)
    p, _ = mutate(a, "products/create", {"nameKo": "조용한 이웃", "price": 1})
    # B opens its catalog after initialize's reply, in the background: generous on a loaded machine.
    got = notifications(b, 1, timeout=10)
    assert got[0]["method"] == "products/listUpdated", short(got)
    assert got[0]["params"] in ({"reason": "created", "id": p["id"]}, {"reason": "resync"}), short(got)
