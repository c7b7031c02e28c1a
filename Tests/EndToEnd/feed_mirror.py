"""What a client holds of a daemon's feeds: it applies every
`feeds/pageLoaded` and `feeds/itemsChanged` in the order they arrive, checks
each against what it holds (an append at the end, steps within the list, the
count after them), and reads messages for a `Daemon` so that nothing passes
it by."""
from __future__ import annotations

import time
from typing import Any, Callable

from catalogd_e2e import Daemon, assert_result, is_notification, is_response, same_id, short

PAGE_LOADED = "feeds/pageLoaded"
ITEMS_CHANGED = "feeds/itemsChanged"
STATE_CHANGED = "feeds/stateChanged"


class FeedMirror:
    """One client's copy of each feed of one daemon."""

    def __init__(self, daemon: Daemon):
        self.daemon = daemon
        self.items: dict[str, list[dict]] = {}
        self.generation: dict[str, int] = {}
        self.states: dict[str, str] = {}
        self.changes: dict[str, list[dict]] = {}
        """Every itemsChanged step applied, per feed."""
        self.list_updates: list[dict] = []
        """Every `products/listUpdated` seen, in order."""
        self.history: dict[str, list[str]] = {}
        """What happened to each feed, a line each, for the message of a failed check."""

    def open(self, source: str, **params: Any) -> str:
        feed = self.result("feeds/open", {"source": source, **params})["feedId"]
        self.items[feed], self.generation[feed], self.changes[feed], self.history[feed] = [], 0, [], []
        return feed

    def close(self, feed: str) -> None:
        self.result("feeds/close", {"feedId": feed})
        for table in (self.items, self.generation, self.changes, self.states, self.history):
            table.pop(feed, None)

    # ------------------------------------------------------------ messages

    def observe(self, message: Any) -> None:
        """Applies one message from the daemon to the feeds it names."""
        params = message.get("params") if isinstance(message, dict) else None
        if is_notification(message, "products/listUpdated"):
            self.list_updates.append(params)
        if isinstance(params, dict) and params.get("feedId") in self.history:
            self.history[params["feedId"]].append(_summary(message))
        if is_notification(message, PAGE_LOADED):
            p = message["params"]
            feed = p["feedId"]
            if feed not in self.items:
                return
            assert len(p["items"]) == p["end"] - p["start"], short(p)
            if p["reset"]:
                assert p["start"] == 0 and p["generation"] == self.generation[feed] + 1, short(p)
                self.items[feed] = list(p["items"])
                self.generation[feed] = p["generation"]
            else:
                assert p["generation"] == self.generation[feed], short(p)
                assert p["start"] == len(self.items[feed]), f"an append at {p['start']} to {len(self.items[feed])} items"
                self.items[feed].extend(p["items"])
        elif is_notification(message, ITEMS_CHANGED):
            p = message["params"]
            feed = p["feedId"]
            if feed not in self.items:
                return
            assert p["generation"] == self.generation[feed], short(p)
            assert p["changes"], "itemsChanged without steps"
            items = self.items[feed]
            for step in p["changes"]:
                apply_step(items, step)
                self.changes[feed].append(step)
            assert len(items) == p["count"], f"{len(items)} items after the steps, the daemon says {p['count']}"
        elif is_notification(message, STATE_CHANGED):
            p = message["params"]
            if p["feedId"] in self.items:
                self.states[p["feedId"]] = p["state"]
                assert p["count"] == len(self.items[p["feedId"]]), short(p)

    def request(self, method: str, params: Any) -> Any:
        """Sends one request; returns its response, every message before it observed."""
        id = self.daemon.request(method, params)
        while True:
            message = self.daemon.read_message()
            self.observe(message)
            if is_response(message) and same_id(message["id"], id):
                return message

    def result(self, method: str, params: Any) -> Any:
        response = self.request(method, params)
        return assert_result(response, response["id"])

    def drain(self, seconds: float = 0.0) -> None:
        """Observes every message that arrives within `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                message = self.daemon.read_message(max(deadline - time.monotonic(), 0.001))
            except AssertionError:
                return
            self.observe(message)

    def wait_until(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        """Observes messages until `condition()` holds (checked after each one)."""
        deadline = time.monotonic() + timeout
        while not condition():
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"not within {timeout} s: {what}"
            try:
                self.observe(self.daemon.read_message(min(remaining, 0.2)))
            except AssertionError as e:
                if "no message" not in str(e):
                    raise

    # ------------------------------------------------------------ checks

    def wait_until_settled(self, timeout: float) -> None:
        """Observes messages until no feed loads or reloads (a reload after a change may be under way)."""
        self.wait_until(lambda: all(self.states.get(feed) in (None, "idle", "ended", "failed") for feed in self.items),
                        timeout, "every feed idle")

    def assert_window(self, feed: str, query: dict) -> None:
        """The feed's items are what `products/list` returns for as many."""
        listed = listed_window(self, query, len(self.items[feed]))
        differing = [(held, item) for held, item in zip(self.items[feed], listed) if held != item]
        assert ids(self.items[feed]) == ids(listed) and not differing, (
            f"window of {feed} {query} differs from products/list:\n  held   {ids(self.items[feed])}\n  listed {ids(listed)}\n"
            + "".join(f"  held {short(a)}\n  listed {short(b)}\n" for a, b in differing[:3])
            + "\n".join(self.history[feed][-120:]))

    def daemon_items(self, feed: str) -> list[dict]:
        """What feeds/items returns for the whole feed (its reply is ordered with the feed's notifications)."""
        return self.result("feeds/items", {"feedId": feed, "start": 0, "end": 100_000})["items"]

    def assert_in_step(self, feed: str) -> None:
        daemon = self.daemon_items(feed)
        held = self.items[feed]  # as it is when the reply arrived, after the notifications before it
        assert ids(held) == ids(daemon) and held == daemon, (
            f"the client's copy of {feed} differs from feeds/items:\n  held   {ids(held)}\n  daemon {ids(daemon)}\n"
            + "\n".join(self.history[feed][-30:]))


def ids(items: list[dict]) -> list[str]:
    return [item["id"] for item in items]


def _summary(message: dict) -> str:
    """One line for a feed notification: the method, then what it did, by id."""
    p = message["params"]
    method = message.get("method", "reply")
    if method == PAGE_LOADED:
        return f"page g{p['generation']} {p['start']}..<{p['end']} reset={p['reset']} {ids(p['items'])}"
    if method == ITEMS_CHANGED:
        steps = [f"{s['op']}@{s['index']}:" + (str(s['count']) if s["op"] == "remove" else str(ids(s["items"])))
                 for s in p["changes"]]
        return f"changed g{p['generation']} count={p['count']} {steps}"
    return f"{method} {p.get('state', '')} {p.get('count', '')}"


def apply_step(items: list, step: dict) -> None:
    op, index = step["op"], step["index"]
    if op == "insert":
        assert 0 <= index <= len(items), short(step)
        items[index:index] = step["items"]
    elif op == "remove":
        assert step["count"] >= 1 and 0 <= index and index + step["count"] <= len(items), short(step)
        del items[index:index + step["count"]]
    elif op == "update":
        assert step["items"] and 0 <= index and index + len(step["items"]) <= len(items), short(step)
        for offset, item in enumerate(step["items"]):
            assert items[index + offset]["id"] == item["id"], "an update replaces the same item"
        items[index:index + len(step["items"])] = step["items"]
    else:
        raise AssertionError(f"unknown op {short(step)}")


def listed_window(daemon_or_mirror: Any, query: dict, count: int) -> list[dict]:
    """The first `count` products of `products/list` with `query` (the pages a feed loads)."""
    items: list[dict] = []
    cursor = None
    while len(items) < count:
        params = dict(query, limit=100)
        if cursor:
            params["cursor"] = cursor
        page = daemon_or_mirror.result("products/list", params)
        items += page["items"]
        cursor = page["nextCursor"]
        if cursor is None:
            break
    return items[:count]
