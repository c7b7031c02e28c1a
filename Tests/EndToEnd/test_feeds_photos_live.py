"""A photos feed over a folder follows the folder live: files added, removed
or changed (inotify) reach the open feed as `feeds/itemsChanged` steps at
their place in path order, and a client applying every notification holds
what `feeds/items` and `photos/list` give."""
from __future__ import annotations

import os

import pytest

from feed_mirror import FeedMirror, ids
from test_photos import png

DEADLINE = 10.0  # seconds: generous; a change reaches the feed in tens of milliseconds


def write(path, width=8, height=8):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "wb") as f:
        f.write(png(width, height))
    os.replace(path + ".tmp", path)  # never seen half written


def listed(mirror, count):
    items, page = [], 1
    while len(items) < count:
        result = mirror.result("photos/list", {"page": page, "limit": 100})
        items += result["items"]
        if result["nextPage"] is None:
            break
        page = result["nextPage"]
    return items[:count]


@pytest.fixture
def folder_feed(spawn, tmp_path):
    folder = tmp_path / "photos"
    for n in range(20):
        write(str(folder / f"a{n:03}.png"))
    d = spawn("--photos-dir", str(folder))
    d.initialize()
    mirror = FeedMirror(d)
    feed = mirror.open("photos", pageSize=5)
    mirror.result("feeds/loadMore", {"feedId": feed})
    mirror.result("feeds/loadMore", {"feedId": feed})
    return folder, mirror, feed


def urls(mirror, feed):
    return [os.path.basename(item["url"]) for item in mirror.items[feed]]


def test_files_added_removed_and_changed_become_steps_in_path_order(folder_feed):
    folder, m, feed = folder_feed
    assert urls(m, feed) == [f"a{n:03}.png" for n in range(10)]
    write(str(folder / "a004b.png"))
    m.wait_until(lambda: "a004b.png" in urls(m, feed), DEADLINE, "the added file")
    assert urls(m, feed).index("a004b.png") == 5 and m.changes[feed][-1]["op"] == "insert"
    os.remove(folder / "a002.png")
    m.wait_until(lambda: "a002.png" not in urls(m, feed), DEADLINE, "the removed file")
    assert m.changes[feed][-1] == {"op": "remove", "index": 2, "count": 1}
    write(str(folder / "a006.png"), 16, 12)
    m.wait_until(lambda: any(i["width"] == 16 for i in m.items[feed]), DEADLINE, "the changed file")
    assert m.changes[feed][-1]["op"] == "update"
    # A new folder filled at once: its files are found however fast they came.
    for name in ("x.png", "y.png"):
        write(str(folder / "a003" / name))
    m.wait_until(lambda: len([u for u in urls(m, feed) if u in ("x.png", "y.png")]) == 2, DEADLINE, "the new folder")
    # Beyond the loaded items: no step now, and the next pages bring it.
    before = len(m.changes[feed])
    write(str(folder / "z.png"))
    m.drain(0.5)
    assert len(m.changes[feed]) == before
    m.assert_in_step(feed)
    assert m.items[feed] == listed(m, len(m.items[feed]))
    while m.states[feed] != "ended":
        m.result("feeds/loadMore", {"feedId": feed})
    assert urls(m, feed)[-1] == "z.png"
    assert m.items[feed] == listed(m, 1000)
    assert len(set(ids(m.items[feed]))) == len(m.items[feed]) == 23
