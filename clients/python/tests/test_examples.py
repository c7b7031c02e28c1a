"""The examples run: the tour, the feed model, and the feed app in its plain
and full-screen views."""

from __future__ import annotations

import asyncio
import json
import os
import select
import subprocess
import sys
import time
from typing import List

import pytest
from client_support import PACKAGE_ROOT, run

from catalogd import AsyncClient, Client
from catalogd.examples import tour
from catalogd.examples.feed import QuoteFeed


def example(daemons, module: str, *args: str, input: str = "", timeout: float = 60) -> subprocess.CompletedProcess:
    env = daemons.env({"PYTHONPATH": str(PACKAGE_ROOT)})
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


def test_the_feed_model_pages_joins_and_refreshes(daemons):
    trace = daemons.trace_path()

    async def main() -> None:
        async with daemons("--trace", str(trace), cls=AsyncClient) as c:
            feed = QuoteFeed(c, page_size=4, delay_ms=200)
            first, joined = await asyncio.gather(feed.load_more(), feed.load_more())
            assert first == joined == (0, 4, False), "a second load_more joins the running one"
            assert feed.pages_loaded == 1 and not feed.loading
            assert await feed.load_more() == (4, 8, False)
            ids = [q.id for q in feed.items]
            assert len(set(ids)) == 8
            assert await feed.refresh() == (0, 4, False)
            assert [q.id for q in feed.items] == ids[:4]

            one_author = QuoteFeed(c, page_size=100, author="albert-einstein")
            start, end, end_reached = await one_author.load_more()
            assert end_reached and end > 0 and one_author.end_reached
            assert await one_author.load_more() == (end, end, True)

            broken = QuoteFeed(c, page_size=1000)
            assert await broken.load_more() == (0, 0, False)
            assert broken.error and "limit" in broken.error
            broken.page_size = 5
            assert await broken.load_more() == (0, 5, False), "a failed load is retried on the same page"
            for f in (feed, one_author, broken):
                f.close()

    run(main())
    pages = [json.loads(line.split(" <- ", 1)[1]) for line in trace.read_text().splitlines() if " <- " in line]
    lists = [m["params"] for m in pages if m.get("method") == "quotes/list"]
    assert [p.get("page") for p in lists[:3]] == [1, 2, 1], lists


def test_the_feed_app_plain(daemons):
    r = example(daemons, "feed", "--pages", "3", "--page-size", "4")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("Loading page") == 3
    assert "  12. “" in r.stdout and "  13. “" not in r.stdout
    r = example(daemons, "feed", "--plain", "--page-size", "2", input="\nq\n")
    assert r.returncode == 0, r.stderr
    assert "Loading page 2…" in r.stdout and "Loading page 3…" not in r.stdout


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_the_feed_app_scrolls_with_the_keyboard(daemons):
    import fcntl
    import struct
    import termios

    with Client(daemons.bin, ["--data-dir", str(daemons.data_dir())], daemons.env()) as c:
        page1 = c.quotes_list(page=1, limit=5).items
        page3 = c.quotes_list(page=3, limit=5).items
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = daemons.env({"PYTHONPATH": str(PACKAGE_ROOT), "TERM": "xterm", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "catalogd.examples.feed", "--bin", daemons.bin, "--page-size", "5", "--delay-ms", "100"],
        stdin=slave, stdout=slave, stderr=slave, env=env, cwd=str(daemons.base), start_new_session=True,
    )
    os.close(slave)
    chunks: List[bytes] = []

    def pump(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    chunks.append(os.read(master, 65536))
                except OSError:
                    return

    try:
        pump(2.0)
        for key in b"jjjjjjjjjj":  # ten down: pages 2 and 3 load as the selection nears the end
            os.write(master, bytes([key]))
            pump(0.15)
        pump(1.5)
        os.write(master, b"q")
        pump(1.0)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    screen = b"".join(chunks).decode("utf-8", "replace")
    assert "catalogd quotes" in screen and "Loading" in screen
    assert page1[0].author in screen
    assert any(q.author in screen for q in page3), "scrolling down loaded page 3"
