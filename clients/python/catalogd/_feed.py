"""`Feed` and `AsyncFeed`: a live daemon feed as a list that keeps itself up
to date, what a `PagingDataAdapter` is to Android's Paging 3.

`client.open_feed(source, …)` opens the feed; the object applies every
`feeds/pageLoaded`, `feeds/itemsChanged` and `feeds/stateChanged` of its feed
to a local list, in the order the daemon sent them, and tells its listeners
what each one changed (`FeedEvent`), so that a UI can insert, remove and
redraw rows in place.

Ordering: a `FeedRouter` per client routes the notifications by `feedId`.
It is listening before `feeds/open` is sent; the feed learns its id from a
hook that runs when the reply is read, in stream order, so the notifications
that follow the reply are never missed, and those of the new feed that came
before it are kept and applied first.

Consistency: when a notification does not fit the list (see `FeedMirror`),
the feed reports a "desync" event, logs a warning on the `catalogd` logger,
and reloads the list with `feeds/items` (a "reset" event with reason
"resync" follows). Pages and changes that arrive before that reply are not
applied: the reply holds them.
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Union, overload

from ._core import Handlers, logger
from ._errors import DaemonExited, FeedOutOfSync, InvalidState, NotFound, ProtocolError, RpcError
from ._feed_mirror import FeedEvent, FeedMirror, Item
from ._types import FeedRange

if TYPE_CHECKING:
    from ._async_client import AsyncClient
    from ._base import ClientBase
    from ._client import Client

RESYNC_END = 2**31 - 1
"""`end` of the `feeds/items` that reloads a feed: past any count (the daemon cuts it to the count)."""

_CHANGE = "change"

ChangeListener = Callable[[FeedEvent], Any]


class _FeedBase:
    """What `Feed` and `AsyncFeed` share: the mirror, the routing and the listeners."""

    def __init__(
        self,
        client: "ClientBase",
        source: str,
        query: Optional[Mapping[str, Any]],
        page_size: Optional[int],
        changes: Optional[str],
    ) -> None:
        self.source = source
        """The list the feed pages through: photos, products, places or quotes."""
        self.query: Optional[Dict[str, Any]] = dict(query) if query is not None else None
        """The source's filters, as given to `feeds/open`."""
        self.page_size = page_size
        """Items per page as asked (None: the source's default)."""
        self.changes = changes
        """How it follows changes of its source, as asked: "diff", "reset" or None (the daemon's default, diff)."""
        self._client = client
        self._router = client._feed_router()
        self._mirror = FeedMirror()
        self._lock = threading.Lock()
        """Guards `_mirror` and `_closed`: `Client` applies notifications on its reader thread."""
        self._listeners = Handlers()
        self._closed = False

    # ---------------------------------------------------------------- what it holds

    @property
    def feed_id(self) -> str:
        """The daemon's id of the feed."""
        feed_id = self._mirror.feed_id
        if feed_id is None:
            raise InvalidState("the feed is not open")
        return feed_id

    @property
    def items(self) -> List[Item]:
        """A copy of the items held, in the feed's order (the source's JSON
        objects; `Product.from_json(item)` reads a product)."""
        with self._lock:
            return list(self._mirror.items)

    def __len__(self) -> int:
        with self._lock:
            return len(self._mirror.items)

    @overload
    def __getitem__(self, index: int) -> Item: ...

    @overload
    def __getitem__(self, index: slice) -> List[Item]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Item, List[Item]]:
        with self._lock:
            return self._mirror.items[index]

    def __iter__(self) -> Iterator[Item]:
        """Iterates over a copy of the items."""
        return iter(self.items)

    @property
    def generation(self) -> int:
        """Grows by one at each refresh."""
        return self._mirror.generation

    @property
    def count(self) -> int:
        """The number of items the daemon reported last; `len(feed)` when in step."""
        return self._mirror.count

    @property
    def state(self) -> str:
        """idle, loading, refreshing, failed or ended (the last `feeds/stateChanged`)."""
        return self._mirror.state

    @property
    def end_reached(self) -> bool:
        """The last page is loaded."""
        return self._mirror.end_reached

    @property
    def error(self) -> Optional[RpcError]:
        """The error of the last failed load or refresh (the items stay); None
        once a load succeeded."""
        return self._mirror.error

    @property
    def resyncing(self) -> bool:
        """The items are being reloaded after a notification did not fit them."""
        return self._mirror.resyncing

    @property
    def closed(self) -> bool:
        return self._closed

    def __repr__(self) -> str:
        feed_id = self._mirror.feed_id or "unopened"
        return f"<{type(self).__name__} {feed_id} {self.source} {self.state} {len(self)} items gen {self.generation}>"

    # ---------------------------------------------------------------- listeners

    def on_change(self, callback: ChangeListener) -> Callable[[], None]:
        """Calls `callback(event)` with a `FeedEvent` for every change the
        feed applied (a page, a reset, changes in place, a state, a desync),
        after applying it; returns the function that removes the listener.

        The callbacks run where the client runs notification handlers (the
        reader thread of `Client`: they may read the feed but not call the
        daemon; the event loop for `AsyncClient`, where a coroutine function is
        scheduled as a task). An exception is logged and does not stop the feed."""
        return self._listeners.add(_CHANGE, callback)

    # ---------------------------------------------------------------- internals

    def _open_params(self) -> Dict[str, Any]:
        params: Dict[str, Any] = {"source": self.source}
        if self.query is not None:
            params["query"] = self.query
        if self.page_size is not None:
            params["pageSize"] = self.page_size
        if self.changes is not None:
            params["changes"] = self.changes
        return params

    def _on_open_reply(self, msg: Dict[str, Any]) -> None:
        """The reply to `feeds/open`, as the client reads it: from here on the
        feed's notifications come to this object."""
        result = msg.get("result")
        if not isinstance(result, Mapping) or not isinstance(result.get("feedId"), str):
            return  # an error reply: the call raises it
        feed_id: str = result["feedId"]
        with self._lock:
            self._mirror.feed_id = feed_id
            if isinstance(result.get("state"), str):
                self._mirror.state = result["state"]
        for method, params in self._router.attach(feed_id, self):
            self._receive(method, params)

    def _opened(self, result: Any) -> None:
        """Checks the result of `feeds/open` once the call returned."""
        if self._mirror.feed_id is None:
            raise ProtocolError(f"feeds/open answered without a feedId: {result!r:.200}")

    def _receive(self, method: str, params: Any) -> None:
        """One notification of this feed (from the router, in stream order)."""
        with self._lock:
            if self._closed:
                return
            try:
                events = self._mirror.apply(method, params)
                error: Optional[FeedOutOfSync] = None
                resync = False
            except FeedOutOfSync as e:
                error = e
                events = [self._mirror.desync(e)]
                resync = self._mirror.begin_resync()
        if error is not None:
            logger.warning("%s", error)
        self._emit(events)
        if resync:
            self._resync()

    def _resync(self) -> None:
        """Reloads the items with `feeds/items` (without waiting: this runs
        where notifications are handled)."""
        params = {"feedId": self.feed_id, "start": 0, "end": RESYNC_END}
        try:
            self._client._send_in_order("feeds/items", params, self._on_resync_reply)
        except (DaemonExited, OSError, RuntimeError) as e:
            logger.warning("feed %s: could not reload its items: %s", self.feed_id, e)
            with self._lock:
                self._mirror.end_resync(None)

    def _on_resync_reply(self, msg: Dict[str, Any]) -> None:
        result = msg.get("result")
        items = result.get("items") if isinstance(result, Mapping) else None
        if not isinstance(items, list):
            logger.warning("feed %s: reloading its items failed: %.200r", self.feed_id, msg.get("error", msg))
            items = None
        with self._lock:
            if self._closed:
                return
            events = self._mirror.end_resync(items)
        self._emit(events)

    def _emit(self, events: Sequence[FeedEvent]) -> None:
        for event in events:
            for callback in self._listeners.get(_CHANGE):
                try:
                    result = callback(event)
                except Exception:
                    logger.exception("a change listener of feed %s raised", self._mirror.feed_id)
                    continue
                self._client._after_callback("feed change listener", result)

    def _begin_close(self) -> bool:
        """Stops applying notifications; True when `feeds/close` is to be sent."""
        with self._lock:
            if self._closed:
                return False
            self._closed = True
            feed_id = self._mirror.feed_id
        if feed_id is None:
            return False
        self._router.detach(feed_id)
        return not self._client.exited


class Feed(_FeedBase):
    """A feed of the daemon kept up to date by its notifications, from
    `Client.open_feed`. See `_FeedBase` for what it holds:

        with client.open_feed("products", query={"sort": "name"}, page_size=20) as feed:
            feed.on_change(lambda event: print(event.kind, event.changes))
            feed.load_more()
            for product in feed.items: ...

    `len(feed)`, `feed[i]` and `feed.items` (a copy) read the items; `state`,
    `count`, `generation`, `end_reached` and `error` the rest. Leaving the
    `with` block, or `close()`, closes the feed in the daemon.
    """

    _client: "Client"

    def __init__(
        self,
        client: "Client",
        source: str,
        query: Optional[Mapping[str, Any]] = None,
        page_size: Optional[int] = None,
        changes: Optional[str] = None,
    ) -> None:
        super().__init__(client, source, query, page_size, changes)

    def _open(self, timeout: Optional[float]) -> None:
        self._router.begin_open()
        try:
            result = self._client._call("feeds/open", self._open_params(), timeout, self._on_open_reply)
            self._opened(result)
        except BaseException:
            try:
                self.close()  # when the reply came as the call gave up, the feed is open: close it
            except Exception as e:
                logger.debug("closing feed %s after its open failed: %s", self._mirror.feed_id, e)
            raise
        finally:
            self._router.end_open()

    def load_more(self, *, timeout: Optional[float] = None) -> FeedRange:
        """Appends the next page (`feeds/loadMore`): when this returns, the
        page is in `items` and the listeners have seen it. A call while a load
        runs joins it. Raises the load's error (the state is then "failed",
        the items stay, and the next call tries the same page again)."""
        return self._client.feeds_load_more(feed_id=self.feed_id, timeout=timeout)

    def refresh(self, *, timeout: Optional[float] = None) -> FeedRange:
        """Pull-to-refresh (`feeds/refresh`): a new generation, whose first
        page replaces the items (a "reset" event) before this returns."""
        return self._client.feeds_refresh(feed_id=self.feed_id, timeout=timeout)

    def close(self, *, timeout: Optional[float] = None) -> None:
        """Closes the feed in the daemon (`feeds/close`) and stops following
        it; the items stay readable. Calling it again does nothing."""
        if not self._begin_close():
            return
        try:
            self._client.feeds_close(feed_id=self.feed_id, timeout=timeout)
        except (NotFound, DaemonExited):
            pass  # closed already, or the daemon is gone: nothing is left to close

    def __enter__(self) -> "Feed":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class AsyncFeed(_FeedBase):
    """A feed of the daemon kept up to date by its notifications, from
    `AsyncClient.open_feed`; `Feed` with coroutines:

        async with await client.open_feed("photos") as feed:
            await feed.load_more()
    """

    _client: "AsyncClient"

    def __init__(
        self,
        client: "AsyncClient",
        source: str,
        query: Optional[Mapping[str, Any]] = None,
        page_size: Optional[int] = None,
        changes: Optional[str] = None,
    ) -> None:
        super().__init__(client, source, query, page_size, changes)

    async def _open(self, timeout: Optional[float]) -> None:
        self._router.begin_open()
        try:
            result = await self._client._call("feeds/open", self._open_params(), timeout, self._on_open_reply)
            self._opened(result)
        except BaseException:
            if self._begin_close():  # the reply came as the call gave up: the feed is open, close it
                task = asyncio.ensure_future(self._client.feeds_close(feed_id=self.feed_id))
                task.add_done_callback(lambda t: t.cancelled() or t.exception())  # nobody waits for it
            raise
        finally:
            self._router.end_open()

    async def load_more(self, *, timeout: Optional[float] = None) -> FeedRange:
        """Appends the next page (`feeds/loadMore`): when this returns, the
        page is in `items` and the listeners have seen it. A call while a load
        runs joins it. Raises the load's error (the state is then "failed",
        the items stay, and the next call tries the same page again)."""
        return await self._client.feeds_load_more(feed_id=self.feed_id, timeout=timeout)

    async def refresh(self, *, timeout: Optional[float] = None) -> FeedRange:
        """Pull-to-refresh (`feeds/refresh`): a new generation, whose first
        page replaces the items (a "reset" event) before this returns."""
        return await self._client.feeds_refresh(feed_id=self.feed_id, timeout=timeout)

    async def close(self, *, timeout: Optional[float] = None) -> None:
        """Closes the feed in the daemon (`feeds/close`) and stops following
        it; the items stay readable. Calling it again does nothing."""
        if not self._begin_close():
            return
        try:
            await self._client.feeds_close(feed_id=self.feed_id, timeout=timeout)
        except (NotFound, DaemonExited):
            pass  # closed already, or the daemon is gone: nothing is left to close

    async def __aenter__(self) -> "AsyncFeed":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()
