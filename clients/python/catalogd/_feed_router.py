"""`FeedRouter`: hands each `feeds/*` notification of a client to the feed
object of its `feedId`.

A feed object learns its id from the reply to `feeds/open`. The client runs a
hook when it reads that reply, in stream order, before the notifications that
follow it, so from then on nothing is missed. For notifications the daemon
may send about the new feed before the reply, the router keeps those of
unknown feeds while an open is under way and gives them to the feed that
claims their id.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, Mapping, Protocol, Tuple

from ._types import FEEDS_ITEMS_CHANGED, FEEDS_PAGE_LOADED, FEEDS_STATE_CHANGED

FEED_NOTIFICATIONS = (FEEDS_PAGE_LOADED, FEEDS_ITEMS_CHANGED, FEEDS_STATE_CHANGED)

MAX_EARLY = 1000
"""How many notifications of unknown feeds are kept while opens are under way."""


class FeedReceiver(Protocol):
    """What the router delivers to: a feed object."""

    def _receive(self, method: str, params: Any) -> None: ...


class NotificationSource(Protocol):
    def on(self, method: str, callback: Callable[[Any], Any]) -> Callable[[], None]: ...


class FeedRouter:
    """The feed objects of one client by id. Thread-safe: `Client` routes on
    its reader thread while other threads open and close feeds."""

    def __init__(self, client: NotificationSource) -> None:
        self._lock = threading.Lock()
        self._feeds: Dict[str, FeedReceiver] = {}
        """Open feed objects by feed id."""
        self._opening = 0
        """`feeds/open` calls sent and not yet ended."""
        self._early: List[Tuple[str, str, Any]] = []
        """(feed id, method, params) of unknown feeds received while `_opening`."""
        for method in FEED_NOTIFICATIONS:
            client.on(method, self._router(method))

    def begin_open(self) -> None:
        """Call before sending `feeds/open`: notifications of unknown feeds are kept from now on."""
        with self._lock:
            self._opening += 1

    def end_open(self) -> None:
        """Call when that `feeds/open` call ended (answered, failed or abandoned)."""
        with self._lock:
            self._opening -= 1
            if self._opening == 0:
                self._early.clear()

    def attach(self, feed_id: str, feed: FeedReceiver) -> List[Tuple[str, Any]]:
        """Routes `feed_id` to `feed`; returns the (method, params) that came
        for it before, in order, for the feed to apply first."""
        with self._lock:
            self._feeds[feed_id] = feed
            mine = [(m, p) for (i, m, p) in self._early if i == feed_id]
            self._early = [e for e in self._early if e[0] != feed_id]
        return mine

    def detach(self, feed_id: str) -> None:
        with self._lock:
            self._feeds.pop(feed_id, None)

    def _router(self, method: str) -> Callable[[Any], None]:
        def route(params: Any) -> None:
            feed_id = params.get("feedId") if isinstance(params, Mapping) else None
            if not isinstance(feed_id, str):
                return
            with self._lock:
                feed = self._feeds.get(feed_id)
                if feed is None:
                    if self._opening and len(self._early) < MAX_EARLY:
                        self._early.append((feed_id, method, params))
                    return
            feed._receive(method, params)

        return route
