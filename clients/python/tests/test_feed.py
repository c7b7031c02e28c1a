"""The feed objects (`Client.open_feed`, `AsyncClient.open_feed`) against the
real daemon: they mirror the daemon's feed, deliver their events before the
call that caused them returns, reload the list when a notification does not
fit, and close the feed. The live tests (a product created, updated and
deleted while a feed shows it) run when the daemon sends
`feeds/itemsChanged`, and are skipped otherwise."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any, Dict, List, Tuple

import pytest
from client_support import run, serves_live_feeds, trace_lines, wait_until, wait_until_async

from catalogd import (
    AsyncClient,
    AsyncFeed,
    Client,
    Feed,
    FeedEvent,
    FeedInsert,
    FeedOutOfSync,
    InvalidParams,
    NotFound,
    UpstreamUnavailable,
)

DEADLINE = 15.0


def held(client: Client, feed: Feed) -> List[Dict[str, Any]]:
    """What the daemon holds for the feed."""
    return client.feeds_items(feed_id=feed.feed_id, start=0, end=100_000).items


def test_a_feed_mirrors_the_daemons_feed_and_tells_its_listeners(client):
    events: List[FeedEvent] = []
    with client.open_feed("photos", page_size=50) as feed:
        assert isinstance(feed, Feed) and feed.feed_id.startswith("feed-")
        assert feed.state == "idle" and feed.items == [] and len(feed) == 0
        feed.on_change(events.append)
        r = feed.load_more()
        assert (r.start, r.end) == (0, 50)
        assert [e.kind for e in events] == ["state", "page", "state"], "the events came before the reply"
        assert events[1].changes == (FeedInsert("insert", 0, feed.items),)
        assert [e.state for e in events] == ["loading", "loading", "idle"]
        while feed.state != "ended":
            feed.load_more()
        assert len(feed) == feed.count == 120 and feed.end_reached
        assert feed.items == held(client, feed)
        assert feed[0] == feed.items[0] and feed[-2:] == feed.items[-2:] and list(feed) == feed.items

        events.clear()
        r = feed.refresh()
        assert feed.generation == 1 and len(feed) == r.end == feed.count
        assert ("reset", "refresh") in [(e.kind, e.reason) for e in events]
        assert feed.items == held(client, feed)
    assert feed.closed
    with pytest.raises(NotFound):
        client.feeds_items(feed_id=feed.feed_id, start=0, end=1)
    feed.close()  # again: nothing happens


def test_the_async_feed_joins_loads_and_keeps_feeds_apart(daemons):
    trace = daemons.trace_path()

    async def main() -> None:
        async with daemons("--trace", str(trace), cls=AsyncClient) as c:
            async with await c.open_feed("photos", page_size=50) as feed:
                assert isinstance(feed, AsyncFeed)
                states: List[str] = []
                feed.on_change(lambda e: states.append(e.state) if e.kind == "state" else None)
                a, b = await asyncio.gather(feed.load_more(), feed.load_more())
                assert a == b and len(feed) == 50, "asked twice before the first answer: one fetch"
                other = await c.open_feed("products", query={"query": "우유"}, page_size=5)
                await other.load_more()
                assert len(other) == 5 and len(feed) == 50, "each feed sees its own pages"
                assert states == ["loading", "idle"]
                await other.close()
                held = await c.feeds_items(feed_id=feed.feed_id, start=0, end=1000)
                assert held.items == feed.items

    run(main())
    loaded = [line for line in trace_lines(trace) if '"method":"feeds/pageLoaded"' in line]
    assert len(loaded) == 2


def test_a_notification_that_does_not_fit_reloads_the_items(client, caplog):
    feed = client.open_feed("products", page_size=10)
    feed.load_more()
    events: List[FeedEvent] = []
    feed.on_change(events.append)
    bogus = {"feedId": feed.feed_id, "generation": feed.generation,
             "changes": [{"op": "remove", "index": 0, "count": 1}], "count": 42}
    with caplog.at_level(logging.WARNING, logger="catalogd"):
        client._notify_observers("feeds/itemsChanged", bogus)  # as if the daemon had sent it
        assert wait_until(lambda: not feed.resyncing, DEADLINE)
    assert [e.kind for e in events] == ["desync", "reset"]
    assert isinstance(events[0].error, FeedOutOfSync) and "daemon holds 42" in str(events[0].error)
    assert events[1].reason == "resync"
    assert "reloading its items" in caplog.text
    assert len(feed) == 10 and feed.items == held(client, feed)
    feed.close()


def test_a_page_that_does_not_start_at_the_end_reloads_the_items_in_the_async_client(daemons):
    async def main() -> None:
        async with daemons(cls=AsyncClient) as c:
            feed = await c.open_feed("photos", page_size=5)
            await feed.load_more()
            kinds: List[str] = []
            feed.on_change(lambda e: kinds.append(e.kind))
            c._notify_observers("feeds/pageLoaded", {
                "feedId": feed.feed_id, "generation": 0, "start": 3, "end": 4, "items": [{"id": "x"}],
                "endReached": False, "reset": False,
            })
            assert await wait_until_async(lambda: kinds == ["desync", "reset"], DEADLINE), kinds
            got = await c.feeds_items(feed_id=feed.feed_id, start=0, end=100)
            assert feed.items == got.items and len(feed) == 5

    run(main())


def test_a_failed_load_keeps_the_items_and_reports_its_error(daemons):
    with daemons("--photos-url", "http://127.0.0.1:9") as c:
        feed = c.open_feed("photos")
        with pytest.raises(UpstreamUnavailable):
            feed.load_more()
        assert feed.state == "failed" and isinstance(feed.error, UpstreamUnavailable)
        assert feed.error.message == "The photos server cannot be reached; try again later."
        feed.close()


def test_a_refused_open_raises_and_leaves_nothing_behind(client):
    with pytest.raises(InvalidParams):
        client.open_feed("photos", page_size=0)
    assert client._feeds is not None and client._feeds._opening == 0 and not client._feeds._feeds


def test_notifications_right_after_the_open_reply_are_not_missed(daemons, monkeypatch):
    """A load is sent the moment the reply to feeds/open is read, so its
    notifications may arrive before the opener even has the feed object."""
    with daemons() as c:
        loaded = threading.Semaphore(0)
        original = Feed._on_open_reply

        def and_load(self: Feed, msg: Dict[str, Any]) -> None:
            original(self, msg)
            c._send_in_order("feeds/loadMore", {"feedId": msg["result"]["feedId"]}, lambda _: loaded.release())

        monkeypatch.setattr(Feed, "_on_open_reply", and_load)
        feeds = [c.open_feed("photos", page_size=7) for _ in range(10)]
        for _ in feeds:
            assert loaded.acquire(timeout=DEADLINE)
        for feed in feeds:
            assert len(feed) == 7 and feed.items == held(c, feed)


# ---------------------------------------------------------------- live feeds


@pytest.fixture
def live(client):
    if not serves_live_feeds(client):
        pytest.skip("the daemon under test does not send feeds/itemsChanged yet")
    return client


def fields(product: Dict[str, Any]) -> Tuple[Any, ...]:
    return tuple(product.get(k) for k in ("id", "nameKo", "price", "version"))


def gap_for_a_name(items: List[Dict[str, Any]]) -> Tuple[int, str]:
    """(i, name): a Korean name that sorts right after items[i - 1] and before
    items[i], by code point as the daemon's `name` sort orders them."""
    names = [p["nameKo"] for p in items]
    for i in range(3, len(names) - 2):
        candidate = names[i - 1] + " 새 상품"
        if names[i - 1] < candidate < names[i]:
            return i, candidate
    raise AssertionError(f"no gap between the names {names}")


def test_a_created_product_appears_in_place_in_an_open_feed(live):
    c = live
    events: List[FeedEvent] = []
    with c.open_feed("products", query={"sort": "name"}, page_size=10) as feed:
        feed.load_more()
        feed.load_more()
        assert len(feed) == 20
        feed.on_change(events.append)
        index, name = gap_for_a_name(feed.items)
        created = c.products_create(name_ko=name, price=4321)
        assert wait_until(lambda: len(feed) == 21, DEADLINE), feed
        assert feed.items == held(c, feed)
        assert fields(feed[index]) == fields(created.to_json())
        kinds = [e.kind for e in events]
        assert "changes" in kinds and "desync" not in kinds, kinds

        updated = c.products_update(id=created.id, price=5432)
        assert wait_until(lambda: feed[index]["price"] == 5432, DEADLINE), feed[index]
        assert feed.items == held(c, feed) and fields(feed[index]) == fields(updated.to_json())

        c.products_delete(id=created.id)
        assert wait_until(lambda: len(feed) == 20, DEADLINE), feed
        assert feed.items == held(c, feed) and created.id not in {p["id"] for p in feed}
        assert "desync" not in [e.kind for e in events]


def test_a_created_product_appears_in_place_in_an_async_feed(daemons):
    async def main() -> None:
        async with daemons(cls=AsyncClient) as c:
            doc = await c.rpc_discover()
            if not any(n["name"] == "feeds/itemsChanged" for n in doc.get("x-notifications", [])):
                pytest.skip("the daemon under test does not send feeds/itemsChanged yet")
            async with await c.open_feed("products", query={"sort": "name"}, page_size=10) as feed:
                await feed.load_more()
                await feed.load_more()
                kinds: List[str] = []
                feed.on_change(lambda e: kinds.append(e.kind))
                index, name = gap_for_a_name(feed.items)
                created = await c.products_create(name_ko=name, price=1234)
                assert await wait_until_async(lambda: len(feed) == 21, DEADLINE)
                got = await c.feeds_items(feed_id=feed.feed_id, start=0, end=feed.count)
                assert feed.items == got.items
                assert feed[index]["id"] == created.id
                assert "changes" in kinds and "desync" not in kinds, kinds

    run(main())


def test_a_refresh_keeps_the_items_until_its_first_page(live):
    c = live
    with c.open_feed("products", query={"sort": "name"}, page_size=10) as feed:
        feed.load_more()
        before = feed.items
        lengths: List[int] = []
        feed.on_change(lambda e: lengths.append(len(feed)) if e.kind == "state" else None)
        feed.refresh()
        assert lengths and all(n == len(before) for n in lengths), "no state saw an empty list"
        assert feed.generation == 1 and feed.items == held(c, feed)
