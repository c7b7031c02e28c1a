"""The examples run: the tour, and the feed app piped, on a pseudo-terminal,
and following a product created by another daemon on the same catalog."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from typing import Dict, List, Optional

import pytest
from client_support import PACKAGE_ROOT, REPO_ROOT, serves_live_feeds, trace_lines

from catalogd import Client, FeedInsert, FeedRemove, FeedUpdate
from catalogd.examples import tour
from catalogd.examples.feed import follow


def example(daemons, module: str, *args: str, input: str = "", timeout: float = 60,
            env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    env = daemons.env({"PYTHONPATH": str(PACKAGE_ROOT), **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", f"catalogd.examples.{module}", "--bin", daemons.bin, *args],
        input=input, capture_output=True, text=True, timeout=timeout, env=env, cwd=str(daemons.base),
    )


def test_the_tour_runs_every_section_the_daemon_serves(daemons):
    r = example(daemons, "tour")
    assert r.returncode == 0, r.stderr + r.stdout
    out = r.stdout
    assert "== daemon" in out and "== quotes" in out
    assert "quotes/loading while it ran (the refresh button's state): [True, False]" in out
    assert "NotFound" in out and "InvalidParams on field 'limit'" in out and "timed out" in out
    assert "the daemon exited with status 0" in out
    with Client(daemons.bin, ["--data-dir", str(daemons.data_dir())], daemons.client_env()) as c:
        served = {m["name"] for m in c.rpc_discover()["methods"]}
    if "feeds/open" in served:
        assert "scrolled to its end: pages 0..<30, 30..<60, 60..<90, 90..<120; 120 photos" in out
        assert "ended 120" in out
    if "places/search" in served:
        assert "convenience stores within 1 km of Seoul City Hall" in out
    for section in tour.SECTIONS:
        header = out.index(f"== {section.title}")
        body = out[header : out.find("\n== ", header + 1)]
        if all(m in served for m in section.requires):
            assert "skipped" not in body, body
        else:
            assert "skipped: the daemon does not serve" in body, body


def test_the_tour_in_lsp_framing_on_a_given_data_dir(daemons, tmp_path):
    data = tmp_path / "tour-data"
    r = example(daemons, "tour", "--framing", "lsp", "--", "--data-dir", str(data))
    assert r.returncode == 0, r.stderr + r.stdout
    assert f"data dir {data}" in r.stdout


def test_the_tour_skips_what_the_daemon_does_not_serve(client, capsys):
    sections = [
        tour.Section("quotes", ("quotes/random", "quotes/list"), lambda c: print("  ran quotes")),
        tour.Section("future", ("future/thing",), lambda c: print("  ran future")),
        tour.Section("announced", ("daemon/echo",), None),
    ]
    assert tour.run_tour(client, sections) == ["quotes"]
    out = capsys.readouterr().out
    assert "ran quotes" in out and "ran future" not in out
    assert "skipped: the daemon does not serve future/thing yet" in out
    assert "this tour has no section for it yet" in out


def trace_methods(path) -> List[str]:
    """The methods of the messages the daemon received and sent, in order."""
    out = []
    for line in trace_lines(path):
        message = json.loads(line.split(" ", 2)[2])
        if "method" in message:
            out.append(message["method"])
    return out


def screens(stdout: str) -> List[str]:
    """The screens a piped run of the feed app printed."""
    return [s for s in re.split(r"^-+\n", stdout, flags=re.M) if s]


def ins(index: int, n: int = 1) -> FeedInsert:
    return FeedInsert("insert", index, [{"id": f"new-{index}-{i}"} for i in range(n)])


def rem(index: int, n: int = 1) -> FeedRemove:
    return FeedRemove("remove", index, n)


@pytest.mark.parametrize(
    "changes, expected",
    [
        ([ins(0)], (11, 6)),  # above the screen: everything moves down one, nothing jumps
        ([ins(5, 2)], (12, 5)),  # at the first row on screen: it shows there, the cursor follows its item
        ([ins(8)], (11, 5)),  # on screen above the cursor
        ([ins(10)], (11, 5)),  # at the cursor: the selected item moved down
        ([ins(11), ins(40)], (10, 5)),  # below the cursor: nothing moves
        ([rem(0, 2)], (8, 3)),  # above the screen
        ([rem(4, 3)], (7, 4)),  # across the first row on screen
        ([rem(10)], (10, 5)),  # the selected item: the next one is selected
        ([rem(8, 5)], (8, 5)),  # a run through the cursor
        ([FeedUpdate("update", 10, [{"id": "x"}])], (10, 5)),
        ([rem(0), ins(0, 3)], (12, 7)),  # in order, each on the list the previous left
    ],
)
def test_the_feed_app_keeps_the_selected_item_and_the_screen_where_they_are(changes, expected):
    assert follow(10, 5, 50, changes) == expected


def test_the_first_items_do_not_push_the_cursor():
    assert follow(0, 0, 0, [ins(0, 10)]) == (0, 0)
    assert follow(0, 0, 1, [ins(0, 2)]) == (2, 0)


def test_the_feed_app_piped_scrolls_loads_refreshes_and_closes(daemons):
    with daemons() as c:
        live = serves_live_feeds(c)
    trace = daemons.trace_path()
    r = example(daemons, "feed", "--source", "products", "--page-size", "10", "--", "--trace", str(trace),
                input="j" * 12 + "r" + "jj" + "q", env={"LINES": "8", "COLUMNS": "60"})
    assert r.returncode == 0, r.stderr
    shown = screens(r.stdout)
    assert re.search(r"^products · 0 · ⠋ loading…$", shown[0], re.M), "the first load shows its state"
    assert any(re.search(r"^products · \d+/10 · ⠋ loading…$", s, re.M) for s in shown[2:]), "scrolling loads more"
    assert any(re.search(r"^> +13  #", s, re.M) for s in shown), "the cursor went 12 lines down"
    refreshing = next(i for i, s in enumerate(shown) if "⠋ refreshing…" in s)
    if live:
        # The items stay while the refresh runs, and it reloads as many as were loaded.
        assert re.search(r"^products · 1/20 · ⠋ refreshing…$", shown[refreshing], re.M), shown[refreshing]
        assert re.search(r"^> +3  #", shown[-1], re.M) and "3/20" in shown[-1], "after the refresh: scrolled"
    else:
        # A daemon before live feeds drops the items when a refresh starts and loads one page.
        assert re.search(r"^products · 0 · ⠋ refreshing…$", shown[refreshing], re.M), "the list empties at once"
        assert re.search(r"^> +3  #", shown[-1], re.M) and "3/10" in shown[-1], "after the refresh: one page, scrolled"
    for screen in shown:
        assert len(screen.splitlines()) == 8
        # Hangul syllables take two cells of a terminal.
        assert all(sum(2 if "가" <= ch <= "힣" else 1 for ch in line) <= 60 for line in screen.splitlines())
    methods = [m for m in trace_methods(trace) if m.startswith("feeds/") and "/" in m]
    asked = [m for m in methods if m in ("feeds/open", "feeds/loadMore", "feeds/refresh", "feeds/close")]
    assert asked == ["feeds/open", "feeds/loadMore", "feeds/loadMore", "feeds/refresh", "feeds/close"], asked


class Screens:
    """The screens of a feed app running piped, read as it prints them."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.queue: "queue.Queue[Optional[str]]" = queue.Queue()
        self.seen: List[str] = []
        threading.Thread(target=self._read, args=(proc.stdout,), daemon=True).start()

    def _read(self, stdout) -> None:
        screen: List[str] = []
        for line in stdout:
            if re.fullmatch(r"-+\n", line):
                self.queue.put("".join(screen))
                screen = []
            else:
                screen.append(line)
        self.queue.put(None)

    def wait_for(self, pattern: str, timeout: float = 30.0) -> str:
        """The first screen from now on that matches `pattern`."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                screen = self.queue.get(timeout=max(0.01, left))
            except queue.Empty:
                screen = None
            if screen is None or left <= 0:
                raise AssertionError(f"no screen matched {pattern!r}; the last ones:\n" + "\n".join(self.seen[-3:]))
            self.seen.append(screen)
            if re.search(pattern, screen, re.M):
                return screen


@pytest.mark.timeout_s(90)
def test_the_feed_app_shows_a_product_created_elsewhere_in_place(daemons):
    """Another daemon on the same catalog creates a product (newest first: at
    the top); the app keeps the selected product selected."""
    data = daemons.data_dir()
    with Client(daemons.bin, ["--data-dir", str(data)], daemons.client_env()) as other:
        live = serves_live_feeds(other)
        env = daemons.env({"PYTHONPATH": str(PACKAGE_ROOT), "LINES": "8", "COLUMNS": "80"})
        proc = subprocess.Popen(
            [sys.executable, "-m", "catalogd.examples.feed", "--bin", daemons.bin, "--source", "products",
             "--page-size", "10", "--", "--data-dir", str(data)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            cwd=str(daemons.base),
        )
        try:
            screens = Screens(proc)
            screens.wait_for(r"^products · 1/10$")
            proc.stdin.write("jjj")
            proc.stdin.flush()
            selected = re.search(r"^> +4  #(\d+) ", screens.wait_for(r"^products · 4/10$"), re.M).group(1)
            created = other.products_create(name_ko="다른 터미널에서 만든 상품", price=1000)
            # On the same row or one below, the same product, one further down the list.
            moved = screens.wait_for(rf"^> +5  #{selected} ")
            if live:
                assert "5/11" in moved and re.search(rf"^ +1  #{created.id} ", moved, re.M), moved
            proc.stdin.write("q")
            proc.stdin.close()
            assert proc.wait(30) == 0, proc.stderr.read()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_the_feed_app_scrolls_the_photos_to_their_end(daemons):
    r = example(daemons, "feed", "--page-size", "50", input="GGGG", env={"LINES": "10", "COLUMNS": "80"})
    assert r.returncode == 0, r.stderr  # the end of the input quits
    last = screens(r.stdout)[-1]
    assert re.search(r"^photos · 120/120 · the end$", last, re.M), last
    assert re.search(r"^> *120  [0-9a-f]+  \d+×\d+  by ", last, re.M), last


def test_the_feed_app_shows_a_failed_load_and_retries_on_enter(daemons):
    trace = daemons.trace_path()
    r = example(daemons, "feed", "--", "--photos-url", "http://127.0.0.1:9", "--trace", str(trace),
                input="j\nq", env={"LINES": "6", "COLUMNS": "100"})
    assert r.returncode == 0, r.stderr
    shown = screens(r.stdout)
    failed = "photos · 0 · failed: The photos server cannot be reached; try again later. (Enter: retry)"
    loading = "photos · 0 · ⠋ loading…"
    statuses = [s.splitlines()[-2] for s in shown]
    assert statuses == [loading, failed, failed, loading, failed], "j does not retry a failed load; Enter does"
    assert trace_methods(trace).count("feeds/loadMore") == 2


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.timeout_s(90)
def test_the_feed_app_on_a_terminal_reads_raw_keys_and_restores_the_terminal(daemons):
    trace = daemons.trace_path()
    with Client(daemons.bin, ["--data-dir", str(daemons.data_dir())], daemons.client_env()) as c:
        live = serves_live_feeds(c)
        feed = c.feeds_open(source="photos", page_size=30)
        c.feeds_load_more(feed_id=feed.feed_id)
        photos = c.feeds_items(feed_id=feed.feed_id, start=0, end=30).items
    # Each step waits for what it should bring (generous deadlines: a loaded machine is slow).
    steps = [
        ["until", ["photos · 1/10\x1b[K", 60]], ["raw", None], ["mark", None],
        *[step for _ in range(8) for step in (["send", "j"], ["wait", 0.05])],
        *[step for _ in range(8) for step in (["send", "\x1b[B"], ["wait", 0.05])],  # arrow keys
        ["until", ["photos · 17/30\x1b[K", 60]], ["mark", None],
        ["send", "r"], ["until", [f"photos · 1/{30 if live else 10}\x1b[K", 60]], ["mark", None],
        ["send", "\x03"],  # Ctrl-C quits like q
    ]
    env = daemons.env({"PYTHONPATH": str(PACKAGE_ROOT), "TERM": "xterm", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    r = subprocess.run(
        [sys.executable, str(REPO_ROOT / "scripts" / "pty-run.py"), "12", "100", json.dumps(steps), "--",
         sys.executable, "-m", "catalogd.examples.feed", "--bin", daemons.bin, "--page-size", "10",
         "--", "--trace", str(trace)],
        capture_output=True, text=True, timeout=240, env=env, cwd=str(daemons.base),
    )
    assert r.returncode == 0, r.stderr
    run = json.loads(r.stdout)
    start, moved, refreshed, quit = run["segments"]
    assert run["exitCode"] == 0, start + quit
    assert start.startswith("\x1b[?1049h\x1b[?25l"), "the alternate screen, no cursor"
    assert photos[0]["id"] in start and "photos · 1/10\x1b[K" in start
    assert run["raw"] == [True], "raw: keys one by one, Ctrl-C a key"
    assert re.search(r"\x1b\[7m  17  " + photos[16]["id"], moved), "the cursor went down 16 lines"
    assert "photos · 17/30\x1b[K" in moved, "pages loaded as the cursor neared the end"
    # A refresh reloads one page, or, on a daemon with live feeds, as many as were loaded.
    assert f"photos · 1/{30 if live else 10}\x1b[K" in refreshed
    assert quit.endswith("\x1b[?25h\x1b[?1049l"), "the cursor and the main screen come back"
    assert run["restored"], "the terminal is left as it was found"
    methods = trace_methods(trace)
    assert methods.count("feeds/loadMore") >= 3 and methods.count("feeds/refresh") == 1
    assert methods.index("feeds/close") < methods.index("shutdown")
