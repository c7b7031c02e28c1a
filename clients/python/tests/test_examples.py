"""The examples run: the tour, the feed model, and the feed app piped and on a
pseudo-terminal."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Dict, List, Optional

import pytest
from client_support import PACKAGE_ROOT, REPO_ROOT, run, trace_lines

from catalogd import AsyncClient, Client
from catalogd.examples import tour
from catalogd.examples.feed import Feed


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
    with Client(daemons.bin, ["--data-dir", str(daemons.data_dir())], daemons.env()) as c:
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


def test_the_feed_model_mirrors_the_daemons_feed(daemons):
    trace = daemons.trace_path()

    async def main() -> None:
        async with daemons("--trace", str(trace), cls=AsyncClient) as c:
            changes: List[str] = []
            feed = Feed(c, "photos", page_size=50, on_change=lambda: changes.append(feed.state))
            await feed.open()
            assert feed.state == "idle" and feed.items == []
            feed.load_more()
            feed.load_more()  # asked twice before the first answer: the daemon joins them
            await feed.settled()
            assert len(feed.items) == 50 and feed.state == "idle"
            assert "loading" in changes

            while feed.state != "ended":
                feed.load_more()
                await feed.settled()
            assert len(feed.items) == 120 and len({p["id"] for p in feed.items}) == 120
            held = await c.feeds_items(feed_id=feed.feed_id, start=0, end=200)
            assert held.items == feed.items, "the mirror holds what the daemon holds"

            seen: List[int] = []
            feed.refresh(then=lambda: seen.append(len(feed.items)))
            await feed.settled()
            assert feed.generation == 1 and seen == [50] and feed.state == "idle"
            assert "refreshing" in changes

            other = Feed(c, "products", query={"query": "우유"}, page_size=5)
            await other.open()
            other.load_more()
            await other.settled()
            assert len(other.items) == 5 and len(feed.items) == 50, "each feed sees its own pages"
            for f in (feed, other):
                await f.close()

    run(main())
    methods = trace_methods(trace)
    assert methods.count("feeds/pageLoaded") == 3 + 1 + 1, "the doubled load_more was one fetch"
    assert methods.count("feeds/close") == 2


def test_the_feed_app_piped_scrolls_loads_refreshes_and_closes(daemons):
    trace = daemons.trace_path()
    r = example(daemons, "feed", "--source", "products", "--page-size", "10", "--", "--trace", str(trace),
                input="j" * 12 + "r" + "jj" + "q", env={"LINES": "8", "COLUMNS": "60"})
    assert r.returncode == 0, r.stderr
    shown = screens(r.stdout)
    assert re.search(r"^products · 0 · ⠋ loading…$", shown[0], re.M), "the first load shows its state"
    assert any(re.search(r"^products · \d+/10 · ⠋ loading…$", s, re.M) for s in shown[2:]), "scrolling loads more"
    assert any(re.search(r"^> +13  #", s, re.M) for s in shown), "the cursor went 12 lines down"
    refreshing = next(i for i, s in enumerate(shown) if "⠋ refreshing…" in s)
    assert re.search(r"^products · 0 · ⠋ refreshing…$", shown[refreshing], re.M), "the list empties at once"
    assert re.search(r"^> +3  #", shown[-1], re.M) and "3/10" in shown[-1], "after the refresh: one page, scrolled"
    for screen in shown:
        assert len(screen.splitlines()) == 8
        # Hangul syllables take two cells of a terminal.
        assert all(sum(2 if "가" <= ch <= "힣" else 1 for ch in line) <= 60 for line in screen.splitlines())
    methods = [m for m in trace_methods(trace) if m.startswith("feeds/") and "/" in m]
    asked = [m for m in methods if m in ("feeds/open", "feeds/loadMore", "feeds/refresh", "feeds/close")]
    assert asked == ["feeds/open", "feeds/loadMore", "feeds/loadMore", "feeds/refresh", "feeds/close"], asked


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
    failed = "photos · 0 · failed: The photos server is unavailable. (Enter: retry)"
    loading = "photos · 0 · ⠋ loading…"
    statuses = [s.splitlines()[-2] for s in shown]
    assert statuses == [loading, failed, failed, loading, failed], "j does not retry a failed load; Enter does"
    assert trace_methods(trace).count("feeds/loadMore") == 2


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.timeout_s(90)
def test_the_feed_app_on_a_terminal_reads_raw_keys_and_restores_the_terminal(daemons):
    trace = daemons.trace_path()
    with Client(daemons.bin, ["--data-dir", str(daemons.data_dir())], daemons.env()) as c:
        feed = c.feeds_open(source="photos", page_size=30)
        c.feeds_load_more(feed_id=feed.feed_id)
        photos = c.feeds_items(feed_id=feed.feed_id, start=0, end=30).items
    steps = [
        ["wait", 3], ["raw", None], ["mark", None],
        *[step for _ in range(8) for step in (["send", "j"], ["wait", 0.1])],
        *[step for _ in range(8) for step in (["send", "\x1b[B"], ["wait", 0.1])],  # arrow keys
        ["wait", 0.5], ["mark", None],
        ["send", "r"], ["wait", 1], ["mark", None],
        ["send", "\x03"], ["wait", 1],  # Ctrl-C quits like q
    ]
    env = daemons.env({"PYTHONPATH": str(PACKAGE_ROOT), "TERM": "xterm", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    r = subprocess.run(
        [sys.executable, str(REPO_ROOT / "scripts" / "pty-run.py"), "12", "100", json.dumps(steps), "--",
         sys.executable, "-m", "catalogd.examples.feed", "--bin", daemons.bin, "--page-size", "10",
         "--", "--trace", str(trace)],
        capture_output=True, text=True, timeout=60, env=env, cwd=str(daemons.base),
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
    assert "photos · 1/10\x1b[K" in refreshed
    assert quit.endswith("\x1b[?25h\x1b[?1049l"), "the cursor and the main screen come back"
    assert run["restored"], "the terminal is left as it was found"
    methods = trace_methods(trace)
    assert methods.count("feeds/loadMore") >= 3 and methods.count("feeds/refresh") == 1
    assert methods.index("feeds/close") < methods.index("shutdown")
