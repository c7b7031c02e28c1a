"""Live products feeds, on both catalogs: every create, update and delete —
through the feed's daemon or another daemon on the same catalog — reaches
each open feed whose loaded window it touches as `feeds/itemsChanged` steps:
inserted at its sorted place, removed, updated in place, moved. A client that
applies every pageLoaded and itemsChanged holds exactly what `feeds/items`
returns, and the loaded window is what `products/list` returns for it."""
from __future__ import annotations

import os
import random
import time

import pytest

from catalogd_e2e import assert_result, is_notification, pipeline
from feed_mirror import ITEMS_CHANGED, FeedMirror, listed_window

pytestmark = pytest.mark.both_catalogs

PROPAGATION = 5.0  # seconds: generous; the SQLite poll runs every 200 ms, PostgreSQL notifies at commit


@pytest.fixture
def pair(spawn, tmp_path):
    """Two daemons on one catalog (one data dir, or one PostgreSQL database), each with its mirror."""
    data = tmp_path / "shared-data"
    a, b = spawn(data_dir=data), spawn(data_dir=data)
    a.initialize()
    b.initialize()
    return FeedMirror(a), FeedMirror(b)


def loaded_feed(mirror, query, pages=2, page_size=10, **params):
    feed = mirror.open("products", query=query, pageSize=page_size, **params)
    for _ in range(pages):
        mirror.result("feeds/loadMore", {"feedId": feed})
    return feed


def steps_of(messages, feed):
    return [step for m in messages if is_notification(m, ITEMS_CHANGED) and m["params"]["feedId"] == feed
            for step in m["params"]["changes"]]


def ids(items):
    return [item["id"] for item in items]


def test_a_create_inside_the_window_is_inserted_at_its_place_before_the_reply(pair):
    a, _ = pair
    query = {"sort": "name"}
    feed = loaded_feed(a, query)
    before = list(a.items[feed])
    # A name that sorts between the 5th and 6th loaded products.
    name = before[4]["nameKo"] + "\u0001"
    id = a.daemon.request("products/create", {"nameKo": name, "price": 1234})
    response, seen = a.daemon.read_until_response(id)
    for message in seen:
        a.observe(message)
    product = response["result"]
    assert steps_of(seen, feed) == [{"op": "insert", "index": 5, "items": [product]}], \
        "the step precedes the create's reply"
    assert ids(a.items[feed]) == ids(before[:5]) + [product["id"]] + ids(before[5:])
    a.assert_in_step(feed)
    assert a.items[feed] == listed_window(a, query, len(a.items[feed]))


def test_a_create_beyond_the_window_changes_nothing_loaded_and_the_next_page_brings_it(pair):
    a, _ = pair
    query = {"sort": "priceAsc"}
    feed = loaded_feed(a, query)
    highest = a.items[feed][-1]["price"]
    response = a.request("products/create", {"nameKo": "비싼 상품", "price": highest + 1_000_000})
    assert not a.changes[feed]
    a.result("feeds/loadMore", {"feedId": feed})
    assert response["result"] not in a.items[feed][:20]
    while a.states[feed] != "ended":
        a.result("feeds/loadMore", {"feedId": feed})
    assert a.items[feed][-1] == response["result"], "the most expensive product comes last, once"
    assert a.items[feed] == listed_window(a, query, 10_000)


def test_updates_move_update_in_place_and_remove_when_no_longer_matching(pair):
    a, _ = pair
    query = {"sort": "priceAsc"}
    feed = loaded_feed(a, query)
    first, third = a.items[feed][0], a.items[feed][2]
    # A new name, the same price: an update in place.
    a.result("products/update", {"id": third["id"], "nameKo": third["nameKo"] + " (새 이름)"})
    assert a.changes[feed][-1]["op"] == "update" and a.changes[feed][-1]["index"] == 2
    # The cheapest becomes the most expensive in the window: a move (remove, insert).
    last_price = a.items[feed][-1]["price"]
    count = len(a.changes[feed])
    a.result("products/update", {"id": first["id"], "price": last_price})
    moved = a.changes[feed][count:]
    assert [step["op"] for step in moved] == ["remove", "insert"] and moved[0]["index"] == 0
    a.assert_in_step(feed)
    assert a.items[feed] == listed_window(a, query, len(a.items[feed]))
    # A search feed loses a product renamed out of the search, and gains one renamed into it.
    search = {"sort": "name", "query": "사과"}
    found = loaded_feed(a, search, pages=1)
    if not a.items[found]:
        pytest.skip("the demo catalog has no 사과")
    gone = a.items[found][0]
    a.result("products/update", {"id": gone["id"], "nameKo": "배", "nameEn": None})
    assert gone["id"] not in ids(a.items[found])
    outsider = a.items[feed][1]
    a.result("products/update", {"id": outsider["id"], "nameKo": "가 사과"})
    a.assert_in_step(found)
    assert a.items[found] == listed_window(a, search, len(a.items[found]))


def test_a_delete_is_removed_and_a_supplier_feed_follows_moves_between_suppliers(pair):
    a, _ = pair
    query = {"sort": "newest", "supplierId": "2"}
    feed = loaded_feed(a, query)
    victim = a.items[feed][3]
    a.result("products/delete", {"id": victim["id"]})
    assert a.changes[feed][-1] == {"op": "remove", "index": 3, "count": 1}
    moved = a.items[feed][0]
    a.result("products/update", {"id": moved["id"], "supplierId": "3"})
    assert moved["id"] not in ids(a.items[feed])
    a.result("products/update", {"id": moved["id"], "supplierId": "2"})
    assert a.items[feed][0]["id"] == moved["id"], "back at its place (newest first)"
    a.assert_in_step(feed)
    assert a.items[feed] == listed_window(a, query, len(a.items[feed]))


def test_changes_made_by_another_daemon_arrive_as_steps(pair):
    a, b = pair
    query = {"sort": "name"}
    feed = loaded_feed(a, query)
    name = a.items[feed][0]["nameKo"] + "\u0001"
    created = b.result("products/create", {"nameKo": name, "price": 500})
    a.wait_until(lambda: created["id"] in ids(a.items[feed]), PROPAGATION, "the other daemon's create")
    assert a.items[feed][1] == created
    updated = b.result("products/update", {"id": created["id"], "price": 600})
    a.wait_until(lambda: updated in a.items[feed], PROPAGATION, "the other daemon's update")
    b.result("products/delete", {"id": created["id"]})
    a.wait_until(lambda: created["id"] not in ids(a.items[feed]), PROPAGATION, "the other daemon's delete")
    a.assert_in_step(feed)
    assert a.items[feed] == listed_window(a, query, len(a.items[feed]))


def test_a_burst_of_another_daemons_changes_reaches_the_feeds_whole_and_each_is_announced_once(pair, catalog_backend):
    """B makes 300 creates, 3 updates and 3 deletes at once. A's feeds end as
    products/list lists them, A announces each change once (the creates in
    commit order), and the changes noticed together (a SQLite poll's, the
    PostgreSQL notifications that arrived meanwhile) reach each feed as one
    itemsChanged, not one per change."""
    a, b = pair
    newest = loaded_feed(a, {"sort": "newest"})
    cheap = loaded_feed(a, {"sort": "priceAsc"}, pages=1)
    shown = ids(a.items[cheap])
    notified_before = {feed: len(a.history[feed]) for feed in (newest, cheap)}
    calls = [("products/create", {"nameKo": f"한꺼번에 {n}", "price": n % 7}) for n in range(300)]
    calls += [("products/update", {"id": id, "price": 1_000_000 + n}) for n, id in enumerate(shown[:3])]
    calls += [("products/delete", {"id": id}) for id in shown[3:6]]
    started = time.monotonic()
    responses, _ = pipeline(b.daemon, calls, timeout=60)
    created = [assert_result(r, r["id"])["id"] for r in responses[:300]]
    for response in responses[300:]:
        assert_result(response, response["id"])
    # A announces B's marker once every change before it reached the feeds.
    marker = b.result("products/create", {"nameKo": "표지", "price": 0})
    a.wait_until(lambda: {"reason": "created", "id": marker["id"]} in a.list_updates, 30, "B's marker announced")
    elapsed = time.monotonic() - started
    a.wait_until_settled(PROPAGATION)
    for feed, query in ((newest, {"sort": "newest"}), (cheap, {"sort": "priceAsc"})):
        a.assert_in_step(feed)
        a.assert_window(feed, query)
    announced = [(u["reason"], u.get("id")) for u in a.list_updates]
    assert ("resync", None) not in announced
    assert sorted(announced) == sorted(
        [("created", id) for id in created + [marker["id"]]] + [("updated", id) for id in shown[:3]]
        + [("deleted", id) for id in shown[3:6]]), "each change announced once"
    assert [id for reason, id in announced if reason == "created"] == sorted(created + [marker["id"]], key=int), \
        "the creates in commit order"
    for feed in (newest, cheap):
        notified = [line for line in a.history[feed][notified_before[feed]:] if line.startswith("changed")]
        if catalog_backend.kind == "sqlite":
            # A poll every 200 ms at most, each one notification per feed at most.
            assert 1 <= len(notified) <= elapsed / 0.2 + 2, (
                f"{len(notified)} itemsChanged for {feed} in {elapsed:.1f} s: one per poll at most")
        else:
            # Notifications that arrive while others are handled go together.
            assert 1 <= len(notified) <= len(calls) // 2, f"{len(notified)} itemsChanged for {feed}"


def test_a_reset_feed_gets_pages_and_never_steps(pair):
    a, _ = pair
    feed = loaded_feed(a, {"sort": "name"}, changes="reset")
    a.result("products/create", {"nameKo": a.items[feed][0]["nameKo"] + "\u0001", "price": 1})
    a.wait_until(lambda: a.generation[feed] == 1 and a.states[feed] == "idle", PROPAGATION, "the reload")
    assert len(a.items[feed]) == 20 and not a.changes[feed]
    a.assert_in_step(feed)


# ---------------------------------------------------------------- the invariant, on random interleavings

NAMES = ["사과", "배", "감귤", "포도", "딸기", "사과즙", "apple", "배추", "가", "힣"]
QUERIES = [{"sort": "name"}, {"sort": "priceAsc"}, {"sort": "priceDesc"}, {"sort": "newest"},
           {"sort": "name", "query": "사과"}, {"sort": "priceAsc", "supplierId": "1"},
           {"sort": "newest", "query": "a"}]


def test_items_read_while_another_daemon_writes_stay_in_step_with_the_notifications(pair):
    """feeds/items is answered on the reader thread from the feed's snapshot
    when it can: while B's creates, updates and deletes reach A's feeds at
    unforeseen moments, each reply holds exactly the items that the
    notifications before it show, never a change announced after it and
    never one short of a change announced before it."""
    a, b = pair
    newest = loaded_feed(a, {"sort": "newest"}, pages=3)
    cheap = loaded_feed(a, {"sort": "priceAsc"}, pages=2, page_size=7)
    made: list[str] = []
    for round in range(150):
        if round % 3 == 2 and made:
            b.request("products/update", {"id": made[round % len(made)], "price": round * 10})
        elif round % 7 == 6 and made:
            b.request("products/delete", {"id": made.pop(0)})
        else:
            made.append(b.result("products/create", {"nameKo": f"경합 {round}", "price": round % 5})["id"])
        a.assert_in_step(newest)
        a.assert_in_step(cheap)
    # A announces B's marker once every change before it reached the feeds;
    # reloads they started may still run.
    marker = b.result("products/create", {"nameKo": "표지", "price": 0})
    a.wait_until(lambda: {"reason": "created", "id": marker["id"]} in a.list_updates, PROPAGATION,
                 "B's marker announced")
    a.wait_until_settled(PROPAGATION)
    a.assert_in_step(newest)
    a.assert_in_step(cheap)
    assert a.items[newest] == listed_window(a, {"sort": "newest"}, len(a.items[newest]))


@pytest.mark.timeout_s(300)
@pytest.mark.parametrize("seed", range(int(os.environ.get("CATALOGD_LIVE_FEED_CASES", "4"))))
def test_random_interleavings_keep_every_copy_in_step_with_the_catalog(pair, seed):
    """Random loadMore, refresh, close and reopen on daemon A's feeds, with
    creates, updates that move sort keys, and deletes from A and B. After
    every request the client's copy equals feeds/items; once B's changes have
    reached A, each feed's window equals products/list, and paging on to the
    end gives exactly the rest of the list."""
    a, b = pair
    rng = random.Random(seed)
    feeds = {}
    for query in rng.sample(QUERIES, 4):
        feeds[a.open("products", query=query, pageSize=rng.choice([3, 7, 10]))] = query
    mine: list[str] = []
    for _ in range(60):
        writer = rng.choice([a, b])
        roll = rng.random()
        feed = rng.choice(list(feeds))
        if roll < 0.25:
            a.request("feeds/loadMore", {"feedId": feed})
        elif roll < 0.32:
            a.request("feeds/refresh", {"feedId": feed})
        elif roll < 0.36:
            query = feeds.pop(feed)
            a.close(feed)
            feeds[a.open("products", query=query, pageSize=rng.choice([3, 7, 10]))] = query
        elif roll < 0.6 or not mine:
            product = writer.result("products/create", {
                "nameKo": rng.choice(NAMES) + f" {rng.randrange(100)}", "price": rng.randrange(0, 50_000, 500),
                "supplierId": str(rng.randint(1, 3))})
            mine.append(product["id"])
        elif roll < 0.9:
            change = rng.choice([{"price": rng.randrange(0, 50_000, 500)},
                                 {"nameKo": rng.choice(NAMES) + f" {rng.randrange(100)}"},
                                 {"supplierId": str(rng.randint(1, 3))}])
            target = rng.choice(mine + [str(rng.randint(1, 300))])
            writer.request("products/update", {"id": target, **change})
        else:
            target = mine.pop(rng.randrange(len(mine)))
            writer.request("products/delete", {"id": target})
        if writer is b:
            b.drain()
        for feed in feeds:
            a.assert_in_step(feed)
    # A hears of B's changes in the order B made them, and announces each
    # (products/listUpdated) once the feeds have it: once B's marker is
    # announced, it and every change before it have reached the feeds.
    # Reloads started by them may still run.
    marker = b.result("products/create", {"nameKo": "표지", "price": 0})
    a.wait_until(lambda: {"reason": "created", "id": marker["id"]} in a.list_updates, PROPAGATION,
                 "B's marker announced")
    a.wait_until_settled(PROPAGATION)
    for feed, query in feeds.items():
        a.assert_in_step(feed)
        a.assert_window(feed, query)
        while a.states.get(feed) != "ended":
            a.result("feeds/loadMore", {"feedId": feed})
        assert a.items[feed] == listed_window(a, query, 10_000), f"paged to the end: {query}"
