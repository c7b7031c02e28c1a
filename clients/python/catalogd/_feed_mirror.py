"""`FeedMirror`: the items of one daemon feed, kept by applying its
notifications in the order they came. No I/O and no locking here: `Feed` and
`AsyncFeed` own a mirror, feed it the notifications of their feed and do the
requests.

The daemon guarantees that a client which starts from `feeds/open` (an empty
list) and applies every `feeds/pageLoaded` and `feeds/itemsChanged` of a feed
in order holds exactly what `feeds/items {start: 0, end: count}` returns. A
notification that does not fit what is held (a page that does not start at
the end, a step outside the list, a count other than the length after the
steps) raises `FeedOutOfSync` and leaves the list as it was; the owner then
reloads the list (`begin_resync`, `feeds/items`, `end_resync`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple

from ._errors import FeedOutOfSync, ProtocolError, RpcError
from ._types import (
    FEEDS_ITEMS_CHANGED,
    FEEDS_PAGE_LOADED,
    FEEDS_STATE_CHANGED,
    FeedInsert,
    FeedItemChange,
    FeedRemove,
    FeedsItemsChanged,
    FeedsPageLoaded,
    FeedsStateChanged,
    FeedUpdate,
)

Item = Dict[str, Any]
"""An item of a feed: the source's JSON object (a product, a photo, …)."""

FeedEventKind = Literal["page", "reset", "changes", "state", "desync"]

FEED_STATES = ("idle", "loading", "refreshing", "failed", "ended")


@dataclass(frozen=True)
class FeedEvent:
    """What one notification did to a feed, as its listeners receive it.

    `kind` says what changed:

    - "page": a page was appended; `changes` is one `FeedInsert` at the old length.
    - "changes": items changed in place (`feeds/itemsChanged`); `changes` are its
      steps, applied in order, each index in the list as it was after the
      steps before it. A UI moves, inserts, removes and redraws rows by them.
    - "reset": the whole list was replaced; redraw it from `feed.items`.
      `reason`: "refresh" (the first page of a new generation), "resync" (the
      list was reloaded after a "desync") or "cleared" (the daemon dropped the
      items: daemons before live feeds do so when a refresh starts).
    - "state": `feeds/stateChanged`; `state`, and `error` when it is "failed".
    - "desync": a notification did not fit the list (`error` is the
      `FeedOutOfSync`); the list is being reloaded and a "reset" follows.

    `state`, `count` and `generation` are the feed's after the event.
    """

    kind: FeedEventKind
    changes: Tuple[FeedItemChange, ...] = ()
    reason: Optional[str] = None
    state: str = "idle"
    count: int = 0
    generation: int = 0
    error: Optional[Exception] = None


class FeedMirror:
    """The items of one feed and its state, as its notifications describe them.

    Attributes:
        feed_id: the feed (None before `feeds/open` answered).
        items: the items held, in the feed's order.
        generation: the generation of the last page or change (grows by one at each refresh).
        count: the number of items the daemon reported last (equal to `len(items)` when in step).
        state: idle, loading, refreshing, failed or ended.
        end_reached: the last page is loaded.
        error: the error of the last failed load; cleared when a load succeeds.
        resyncing: a reload of the items is under way; pages and changes that
            arrive before it answers are not applied (its answer holds them).
    """

    def __init__(self, feed_id: Optional[str] = None, state: str = "idle") -> None:
        self.feed_id: Optional[str] = feed_id
        self.items: List[Item] = []
        self.generation: int = 0
        self.count: int = 0
        self.state: str = state
        self.end_reached: bool = False
        self.error: Optional[RpcError] = None
        self.resyncing: bool = False

    def apply(self, method: str, params: Any) -> List[FeedEvent]:
        """Applies one notification of this feed (`feeds/pageLoaded`,
        `feeds/itemsChanged` or `feeds/stateChanged`, its params as sent);
        returns the events to deliver. Raises `FeedOutOfSync` when it does
        not fit (the list is then as it was)."""
        try:
            if method == FEEDS_PAGE_LOADED:
                return self.page_loaded(FeedsPageLoaded.from_json(params))
            if method == FEEDS_ITEMS_CHANGED:
                return self.items_changed(FeedsItemsChanged.from_json(params))
            if method == FEEDS_STATE_CHANGED:
                return self.state_changed(FeedsStateChanged.from_json(params))
        except FeedOutOfSync:
            raise
        except ProtocolError as e:
            raise FeedOutOfSync(self.feed_id, f"{method} did not decode ({e})") from e
        return []

    def page_loaded(self, n: FeedsPageLoaded) -> List[FeedEvent]:
        """A page: appended at `start` (which must be the length held), or,
        with `reset`, the whole list of a new generation."""
        if n.end - n.start != len(n.items) or (n.reset and n.start != 0):
            what = "a first page of a refresh" if n.reset else "a page"
            raise FeedOutOfSync(self.feed_id, f"{what} {n.start}..<{n.end} carries {len(n.items)} items")
        self.generation = n.generation
        self.end_reached = n.end_reached
        if self.resyncing:
            return []
        if n.reset:
            self.items = list(n.items)
            self.count = len(self.items)
            return [self._event("reset", reason="refresh")]
        if n.start != len(self.items):
            raise FeedOutOfSync(self.feed_id, f"a page starts at {n.start} but {len(self.items)} items are held")
        insert = FeedInsert(op="insert", index=n.start, items=list(n.items))
        self.items.extend(n.items)
        self.count = len(self.items)
        return [self._event("page", changes=(insert,))]

    def items_changed(self, n: FeedsItemsChanged) -> List[FeedEvent]:
        """Steps applied in order; all of them or, when one does not fit or the
        length after them is not `count`, none."""
        self.generation = n.generation
        if self.resyncing:
            self.count = n.count
            return []
        items = apply_changes(self.items, n.changes, self.feed_id)
        if len(items) != n.count:
            raise FeedOutOfSync(
                self.feed_id, f"{len(items)} items after the changes, but the daemon holds {n.count}"
            )
        self.items = items
        self.count = n.count
        if not n.changes:
            return []
        return [self._event("changes", changes=tuple(n.changes))]

    def state_changed(self, n: FeedsStateChanged) -> List[FeedEvent]:
        events: List[FeedEvent] = []
        self.state = n.state
        if n.count == 0 and self.items and not self.resyncing:
            # The daemon holds nothing: a daemon before live feeds drops the
            # items when a refresh starts (since then they stay until the
            # first page of the refresh replaces them).
            self.items = []
            self.count = 0
            events.append(self._event("reset", reason="cleared"))
        self.count = n.count
        if n.state == "ended":
            self.end_reached = True
        if n.error is not None:
            self.error = RpcError.from_wire(n.error.to_json())
        elif n.state in ("idle", "ended"):
            self.error = None
        events.append(self._event("state", error=self.error if n.state == "failed" else None))
        return events

    def desync(self, error: FeedOutOfSync) -> FeedEvent:
        """The event that reports `error`."""
        return self._event("desync", error=error)

    def begin_resync(self) -> bool:
        """Starts a reload; False when one is under way already."""
        if self.resyncing:
            return False
        self.resyncing = True
        return True

    def end_resync(self, items: Optional[Sequence[Item]]) -> List[FeedEvent]:
        """The reload's answer: `items` replace the list (None: it failed, the
        list stays as it is). Pages and changes applied from now on come after it."""
        self.resyncing = False
        if items is None:
            return []
        self.items = list(items)
        self.count = len(self.items)
        return [self._event("reset", reason="resync")]

    def _event(
        self,
        kind: FeedEventKind,
        changes: Tuple[FeedItemChange, ...] = (),
        reason: Optional[str] = None,
        error: Optional[Exception] = None,
    ) -> FeedEvent:
        return FeedEvent(kind, changes, reason, self.state, self.count, self.generation, error)


def apply_changes(items: Sequence[Item], changes: Sequence[FeedItemChange], feed_id: Optional[str] = None) -> List[Item]:
    """`items` after the steps of a `feeds/itemsChanged`, as a new list. Raises
    `FeedOutOfSync` for a step outside the list."""
    out = list(items)
    for i, change in enumerate(changes):
        where = f"step {i + 1} of {len(changes)}"
        if isinstance(change, FeedInsert):
            if not 0 <= change.index <= len(out):
                raise FeedOutOfSync(feed_id, f"{where} inserts at {change.index} into {len(out)} items")
            out[change.index : change.index] = change.items
        elif isinstance(change, FeedRemove):
            if change.count < 1 or change.index < 0 or change.index + change.count > len(out):
                raise FeedOutOfSync(
                    feed_id, f"{where} removes {change.count} at {change.index} from {len(out)} items"
                )
            del out[change.index : change.index + change.count]
        elif isinstance(change, FeedUpdate):
            if change.index < 0 or change.index + len(change.items) > len(out):
                raise FeedOutOfSync(
                    feed_id, f"{where} updates {len(change.items)} at {change.index} of {len(out)} items"
                )
            out[change.index : change.index + len(change.items)] = change.items
        else:  # pragma: no cover - the decoder only makes the three
            raise FeedOutOfSync(feed_id, f"{where} is {change!r:.100}")
    return out
