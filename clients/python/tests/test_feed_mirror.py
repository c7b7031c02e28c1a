"""The apply logic of the feed objects, on synthetic notification sequences
(no daemon): pages, resets, changes in place at the edges and in the middle,
several steps in one notification, the checks that detect a feed out of step,
the reload that follows, and the routing of notifications by feed id."""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, List, Optional

import pytest
from client_support import PACKAGE_ROOT  # noqa: F401 - puts the source tree first on sys.path

from catalogd import (
    FEEDS_ITEMS_CHANGED,
    FEEDS_PAGE_LOADED,
    FEEDS_STATE_CHANGED,
    FeedEvent,
    FeedInsert,
    FeedMirror,
    FeedOutOfSync,
    FeedRemove,
    FeedUpdate,
    UpstreamUnavailable,
    apply_changes,
    feed_item_change_from_json,
)
from catalogd._feed_router import FeedRouter

FEED = "feed-1"


def item(n: int, version: int = 1) -> Dict[str, Any]:
    return {"id": str(n), "name": f"item {n}", "version": version}


def items(*ns: int) -> List[Dict[str, Any]]:
    return [item(n) for n in ns]


def page(start: int, its: List[Dict[str, Any]], generation: int = 0, reset: bool = False,
         end_reached: bool = False) -> Dict[str, Any]:
    return {"feedId": FEED, "generation": generation, "start": start, "end": start + len(its), "items": its,
            "endReached": end_reached, "reset": reset}


def changed(changes: List[Dict[str, Any]], count: int, generation: int = 0) -> Dict[str, Any]:
    return {"feedId": FEED, "generation": generation, "changes": changes, "count": count}


def state(name: str, count: int, error: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    params: Dict[str, Any] = {"feedId": FEED, "state": name, "count": count}
    if error is not None:
        params["error"] = error
    return params


def insert(index: int, *ns: int) -> Dict[str, Any]:
    return {"op": "insert", "index": index, "items": items(*ns)}


def remove(index: int, count: int) -> Dict[str, Any]:
    return {"op": "remove", "index": index, "count": count}


def update(index: int, *ns: int, version: int = 2) -> Dict[str, Any]:
    return {"op": "update", "index": index, "items": [item(n, version) for n in ns]}


def mirror_with(*ns: int) -> FeedMirror:
    """A mirror that loaded one page holding items `ns`."""
    m = FeedMirror(FEED)
    m.apply(FEEDS_PAGE_LOADED, page(0, items(*ns)))
    return m


def ids(m: FeedMirror) -> List[int]:
    return [int(i["id"]) for i in m.items]


# ---------------------------------------------------------------- pages


def test_pages_append_in_order_with_their_insert():
    m = FeedMirror(FEED)
    events = m.apply(FEEDS_STATE_CHANGED, state("loading", 0))
    assert [e.kind for e in events] == ["state"] and events[0].state == "loading"
    first = m.apply(FEEDS_PAGE_LOADED, page(0, items(1, 2, 3)))
    assert first == [FeedEvent("page", (FeedInsert("insert", 0, items(1, 2, 3)),), None, "loading", 3, 0)]
    second = m.apply(FEEDS_PAGE_LOADED, page(3, items(4, 5), end_reached=True))
    assert second[0].changes == (FeedInsert("insert", 3, items(4, 5)),)
    assert ids(m) == [1, 2, 3, 4, 5] and m.count == 5 and m.end_reached
    m.apply(FEEDS_STATE_CHANGED, state("ended", 5))
    assert m.state == "ended"


def test_an_empty_last_page_appends_nothing():
    m = mirror_with(1, 2)
    events = m.apply(FEEDS_PAGE_LOADED, page(2, [], end_reached=True))
    assert ids(m) == [1, 2] and m.end_reached
    assert events[0].changes == (FeedInsert("insert", 2, []),)


@pytest.mark.parametrize("start", [0, 1, 3, 10])
def test_a_page_that_does_not_start_at_the_end_is_out_of_sync(start):
    m = mirror_with(1, 2)
    with pytest.raises(FeedOutOfSync) as e:
        m.apply(FEEDS_PAGE_LOADED, page(start, items(7, 8)))
    assert e.value.feed_id == FEED and "starts at" in e.value.reason
    assert ids(m) == [1, 2], "the list is as it was"


def test_a_page_whose_range_does_not_match_its_items_is_out_of_sync():
    m = mirror_with(1, 2)
    bad = page(2, items(3))
    bad["end"] = 5
    with pytest.raises(FeedOutOfSync):
        m.apply(FEEDS_PAGE_LOADED, bad)
    assert ids(m) == [1, 2]


def test_a_reset_page_replaces_the_list_and_takes_its_generation():
    m = mirror_with(1, 2, 3, 4)
    m.apply(FEEDS_STATE_CHANGED, state("refreshing", 4))
    assert ids(m) == [1, 2, 3, 4], "the items stay while the refresh runs"
    events = m.apply(FEEDS_PAGE_LOADED, page(0, items(9, 1, 2), generation=1, reset=True))
    assert [(e.kind, e.reason) for e in events] == [("reset", "refresh")]
    assert ids(m) == [9, 1, 2] and m.generation == 1 and m.count == 3
    m.apply(FEEDS_PAGE_LOADED, page(3, items(3), generation=1))
    assert ids(m) == [9, 1, 2, 3]


def test_a_reset_page_that_does_not_start_at_0_is_out_of_sync():
    m = mirror_with(1, 2)
    with pytest.raises(FeedOutOfSync):
        m.apply(FEEDS_PAGE_LOADED, page(2, items(3), generation=1, reset=True))
    assert ids(m) == [1, 2]


# ---------------------------------------------------------------- changes in place


@pytest.mark.parametrize(
    "change, expected",
    [
        (insert(0, 10), [10, 1, 2, 3, 4]),  # at the start
        (insert(2, 10, 11), [1, 2, 10, 11, 3, 4]),  # in the middle
        (insert(4, 10), [1, 2, 3, 4, 10]),  # at the end
        (remove(0, 1), [2, 3, 4]),  # the first
        (remove(3, 1), [1, 2, 3]),  # the last
        (remove(1, 2), [1, 4]),  # a run
        (remove(0, 4), []),  # everything
    ],
    ids=["insert-first", "insert-middle", "insert-end", "remove-first", "remove-last", "remove-run", "remove-all"],
)
def test_one_step(change, expected):
    m = mirror_with(1, 2, 3, 4)
    events = m.apply(FEEDS_ITEMS_CHANGED, changed([change], len(expected)))
    assert ids(m) == expected and m.count == len(expected)
    assert [e.kind for e in events] == ["changes"]
    assert events[0].changes == (feed_item_change_from_json(change),)


@pytest.mark.parametrize("index, ns", [(0, (1,)), (3, (4,)), (1, (2, 3)), (0, (1, 2, 3, 4))])
def test_updates_replace_items_in_place(index, ns):
    m = mirror_with(1, 2, 3, 4)
    m.apply(FEEDS_ITEMS_CHANGED, changed([update(index, *ns)], 4))
    assert ids(m) == [1, 2, 3, 4]
    versions = [i["version"] for i in m.items]
    assert versions == [2 if index <= k < index + len(ns) else 1 for k in range(4)]


def test_several_steps_apply_in_order_each_on_the_list_the_previous_left():
    m = mirror_with(1, 2, 3, 4, 5)
    steps = [
        remove(1, 1),  # 1 3 4 5
        insert(3, 2),  # 1 3 4 2 5: item 2 moved (a remove then an insert)
        update(0, 1, 3),  # new versions of 1 and 3
        insert(5, 6),  # 1 3 4 2 5 6: at the new end
        remove(0, 1),  # 3 4 2 5 6
    ]
    events = m.apply(FEEDS_ITEMS_CHANGED, changed(steps, 5))
    assert ids(m) == [3, 4, 2, 5, 6]
    assert m.items[0]["version"] == 2 and m.items[1]["version"] == 1
    assert [type(c) for c in events[0].changes] == [FeedRemove, FeedInsert, FeedUpdate, FeedInsert, FeedRemove]


def test_changes_into_an_empty_feed_and_back():
    m = FeedMirror(FEED)
    m.apply(FEEDS_ITEMS_CHANGED, changed([insert(0, 1)], 1))
    assert ids(m) == [1]
    m.apply(FEEDS_ITEMS_CHANGED, changed([remove(0, 1)], 0))
    assert ids(m) == []


def test_no_steps_is_no_event():
    m = mirror_with(1, 2)
    assert m.apply(FEEDS_ITEMS_CHANGED, changed([], 2)) == []


@pytest.mark.parametrize(
    "steps, count",
    [
        ([insert(5, 9)], 5),  # past the end
        ([insert(-1, 9)], 5),
        ([remove(3, 2)], 2),  # runs past the end
        ([remove(4, 1)], 3),
        ([{"op": "remove", "index": 0, "count": 0}], 4),
        ([update(3, 4, 5)], 4),  # runs past the end
        ([insert(0, 9), remove(5, 1)], 4),  # the second step is outside the list the first left
        ([insert(4, 9)], 4),  # fits, but the count disagrees
        ([remove(0, 1)], 4),
        ([], 3),
    ],
)
def test_a_change_that_does_not_fit_is_out_of_sync_and_changes_nothing(steps, count):
    m = mirror_with(1, 2, 3, 4)
    with pytest.raises(FeedOutOfSync):
        m.apply(FEEDS_ITEMS_CHANGED, changed(steps, count))
    assert ids(m) == [1, 2, 3, 4], "all steps or none"


@pytest.mark.parametrize(
    "method, params",
    [
        (FEEDS_ITEMS_CHANGED, {"feedId": FEED, "generation": 0, "changes": [{"op": "move", "index": 0}], "count": 2}),
        (FEEDS_ITEMS_CHANGED, {"feedId": FEED, "generation": 0, "count": 2}),
        (FEEDS_PAGE_LOADED, {"feedId": FEED, "start": 2}),
        (FEEDS_STATE_CHANGED, ["not", "an", "object"]),
    ],
    ids=["unknown-op", "no-changes", "page-without-items", "state-not-an-object"],
)
def test_params_that_do_not_decode_are_out_of_sync(method, params):
    m = mirror_with(1, 2)
    with pytest.raises(FeedOutOfSync):
        m.apply(method, params)
    assert ids(m) == [1, 2]


def test_random_sequences_match_a_reference_list():
    """Pages and changes drawn at random, applied to a plain list the way the
    daemon describes them, give the same list in the mirror."""
    rng = random.Random(13)
    for _ in range(200):
        m = FeedMirror(FEED)
        reference: List[Dict[str, Any]] = []
        next_id = 0
        generation = 0
        for _ in range(rng.randrange(1, 15)):
            roll = rng.random()
            if roll < 0.25:
                new = items(*range(next_id, next_id + rng.randrange(0, 4)))
                next_id += len(new)
                m.apply(FEEDS_PAGE_LOADED, page(len(reference), new, generation))
                reference += new
            elif roll < 0.3:
                generation += 1
                new = items(*range(next_id, next_id + rng.randrange(0, 4)))
                next_id += len(new)
                m.apply(FEEDS_PAGE_LOADED, page(0, new, generation, reset=True))
                reference = list(new)
            else:
                steps = []
                for _ in range(rng.randrange(1, 5)):
                    kind = rng.choice(["insert", "remove", "update"] if reference else ["insert"])
                    if kind == "insert":
                        at = rng.randrange(0, len(reference) + 1)
                        new = items(*range(next_id, next_id + rng.randrange(1, 3)))
                        next_id += len(new)
                        steps.append({"op": "insert", "index": at, "items": new})
                        reference[at:at] = new
                    elif kind == "remove":
                        at = rng.randrange(0, len(reference))
                        n = rng.randrange(1, len(reference) - at + 1)
                        steps.append(remove(at, n))
                        del reference[at : at + n]
                    else:
                        at = rng.randrange(0, len(reference))
                        n = rng.randrange(1, len(reference) - at + 1)
                        new = [dict(i, version=i["version"] + 1) for i in reference[at : at + n]]
                        steps.append({"op": "update", "index": at, "items": new})
                        reference[at : at + n] = new
                m.apply(FEEDS_ITEMS_CHANGED, changed(steps, len(reference), generation))
            assert m.items == reference
            assert m.count == len(reference)


def test_apply_changes_leaves_its_input_alone():
    before = items(1, 2, 3)
    after = apply_changes(before, [feed_item_change_from_json(remove(0, 1))])
    assert [i["id"] for i in before] == ["1", "2", "3"] and [i["id"] for i in after] == ["2", "3"]


# ---------------------------------------------------------------- states


def test_a_failed_load_keeps_the_items_and_its_error_until_a_load_succeeds():
    m = mirror_with(1, 2)
    error = {"code": -32020, "message": "The photos server cannot be reached; try again later.",
             "data": {"service": "photos", "retryable": True}}
    events = m.apply(FEEDS_STATE_CHANGED, state("failed", 2, error))
    assert ids(m) == [1, 2] and m.state == "failed"
    assert isinstance(m.error, UpstreamUnavailable) and m.error.message == error["message"]
    assert events[0].error is m.error
    m.apply(FEEDS_STATE_CHANGED, state("loading", 2))
    assert m.error is not None, "a retry still shows what went wrong"
    m.apply(FEEDS_STATE_CHANGED, state("idle", 2))
    assert m.error is None


def test_a_state_with_count_0_while_items_are_held_clears_them():
    """A daemon before live feeds drops the items when a refresh starts."""
    m = mirror_with(1, 2, 3)
    events = m.apply(FEEDS_STATE_CHANGED, state("refreshing", 0))
    assert [(e.kind, e.reason) for e in events] == [("reset", "cleared"), ("state", None)]
    assert ids(m) == [] and events[0].state == "refreshing"
    m.apply(FEEDS_PAGE_LOADED, page(0, items(5), generation=1, reset=True))
    assert ids(m) == [5]


# ---------------------------------------------------------------- reloads


def test_a_reload_replaces_everything_that_came_before_its_answer():
    m = mirror_with(1, 2, 3)
    with pytest.raises(FeedOutOfSync) as e:
        m.apply(FEEDS_ITEMS_CHANGED, changed([remove(0, 1)], 7))
    assert m.desync(e.value).kind == "desync"
    assert m.begin_resync() and not m.begin_resync(), "one reload at a time"
    # While it runs, pages and changes are not applied: its answer holds them.
    assert m.apply(FEEDS_PAGE_LOADED, page(9, items(9), generation=0)) == []
    assert m.apply(FEEDS_ITEMS_CHANGED, changed([insert(99, 9)], 8)) == []
    assert ids(m) == [1, 2, 3] and m.count == 8
    assert [e.state for e in m.apply(FEEDS_STATE_CHANGED, state("idle", 8))] == ["idle"]
    events = m.end_resync(items(2, 3, 4, 5, 6, 7, 8, 9))
    assert [(e.kind, e.reason) for e in events] == [("reset", "resync")]
    assert ids(m) == [2, 3, 4, 5, 6, 7, 8, 9] and not m.resyncing
    m.apply(FEEDS_ITEMS_CHANGED, changed([insert(0, 1)], 9))
    assert ids(m)[:2] == [1, 2], "changes after the answer apply on top of it"


def test_a_failed_reload_keeps_the_list():
    m = mirror_with(1, 2)
    m.begin_resync()
    assert m.end_resync(None) == []
    assert ids(m) == [1, 2] and not m.resyncing


# ---------------------------------------------------------------- routing


class FakeClient:
    def __init__(self) -> None:
        self.handlers: Dict[str, List[Callable[[Any], Any]]] = {}

    def on(self, method: str, callback: Callable[[Any], Any]) -> Callable[[], None]:
        self.handlers.setdefault(method, []).append(callback)
        return lambda: None

    def send(self, method: str, params: Any) -> None:
        for h in self.handlers.get(method, []):
            h(params)


class Receiver:
    def __init__(self) -> None:
        self.got: List[Any] = []

    def _receive(self, method: str, params: Any) -> None:
        self.got.append((method, params["state"] if "state" in params else params.get("start")))


def test_the_router_keeps_what_came_for_a_new_feed_before_its_open_answered():
    client = FakeClient()
    router = FeedRouter(client)
    known = Receiver()
    router.attach("feed-1", known)
    client.send(FEEDS_STATE_CHANGED, {"feedId": "feed-2", "state": "ignored"})  # no open under way: dropped
    router.begin_open()
    client.send(FEEDS_STATE_CHANGED, {"feedId": "feed-1", "state": "idle"})
    client.send(FEEDS_STATE_CHANGED, {"feedId": "feed-2", "state": "loading"})
    client.send(FEEDS_PAGE_LOADED, {"feedId": "feed-2", "start": 0})
    client.send(FEEDS_STATE_CHANGED, {"feedId": "feed-3", "state": "other"})
    new = Receiver()
    early = router.attach("feed-2", new)  # the reply of feeds/open
    assert early == [(FEEDS_STATE_CHANGED, {"feedId": "feed-2", "state": "loading"}),
                     (FEEDS_PAGE_LOADED, {"feedId": "feed-2", "start": 0})]
    client.send(FEEDS_STATE_CHANGED, {"feedId": "feed-2", "state": "idle"})
    router.end_open()
    assert new.got == [(FEEDS_STATE_CHANGED, "idle")], "after the reply, straight to the feed"
    assert known.got == [(FEEDS_STATE_CHANGED, "idle")]
    assert router.attach("feed-3", Receiver()) == [], "kept only while an open is under way"
    router.detach("feed-2")
    client.send(FEEDS_STATE_CHANGED, {"feedId": "feed-2", "state": "closed"})
    assert len(new.got) == 1
