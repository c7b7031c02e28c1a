"""Scroll a feed of quotes with the keyboard; pages load as you near the end.

    python3 -m catalogd.examples.feed [--page-size N] [--author SLUG] [--tag TAG]
                                      [--delay-ms MS] [--plain] [--pages N] [--bin PATH] [-- DAEMON ARGS...]

Keys: ↓ j / ↑ k move, PgDn space / PgUp b page, g / G first / last,
r refresh, q quit. A spinner shows while a page loads; `--delay-ms 800`
slows each page down so you can watch it. `--plain` (the default when stdout
is not a terminal) prints page after page instead: Enter for more, q to quit,
or `--pages N` to print N pages and stop.

The feed's state lives in `QuoteFeed`, shaped like the daemon's feeds
service (`feeds/open`, `feeds/loadMore` → `{start, end, endReached}`,
`feeds/refresh`): today it pages with `quotes/list`; when feeds land, its
`_fetch` becomes `feeds/loadMore` with `feeds/pageLoaded` notifications and
the views stay as they are.
"""

from __future__ import annotations

import asyncio
import sys
import textwrap
import time
from typing import Any, Callable, List, Optional, Tuple

from .. import AsyncClient, CatalogdError, DaemonExited, Quote, QuotesLoading
from ._common import daemon_binary, parser, split_daemon_args

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
PREFETCH = 3
"""Load the next page when the selection is this close to the end."""


class QuoteFeed:
    """A paginated list of quotes whose next page loads on demand.

    Attributes:
        items: the quotes loaded so far.
        loading: a page is being fetched.
        daemon_loading: the daemon's own `quotes/loading` state.
        end_reached: the last page is loaded.
        error: why the last load failed (the next `load_more` retries the same page).
    """

    def __init__(
        self,
        client: AsyncClient,
        page_size: int = 10,
        author: Optional[str] = None,
        tag: Optional[str] = None,
        delay_ms: int = 0,
        on_change: Callable[[], None] = lambda: None,
    ) -> None:
        self.client = client
        self.page_size = page_size
        self.author = author
        self.tag = tag
        self.delay_ms = delay_ms
        self.on_change = on_change
        self.items: List[Quote] = []
        self.loading = False
        self.daemon_loading = False
        self.end_reached = False
        self.error: Optional[str] = None
        self.pages_loaded = 0
        self._next_page: Optional[int] = 1
        self._task: "Optional[asyncio.Future[Tuple[int, int, bool]]]" = None
        self._dispose = client.on_quotes_loading(self._on_quotes_loading)

    def _on_quotes_loading(self, n: QuotesLoading) -> None:
        self.daemon_loading = n.is_loading
        self.on_change()

    @property
    def busy(self) -> bool:
        return self.loading or self.daemon_loading

    async def load_more(self) -> Tuple[int, int, bool]:
        """Appends the next page: `(start, end, end_reached)`, the index range
        added. A call while a load runs joins it, as `feeds/loadMore` does."""
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._fetch())
        return await asyncio.shield(self._task)

    def want_more(self) -> None:
        """Starts loading the next page unless one is loading, the end is
        reached, or the last load failed (then `load_more` retries)."""
        if not self.loading and not self.end_reached and self.error is None:
            self._task = asyncio.ensure_future(self._fetch())

    async def refresh(self) -> Tuple[int, int, bool]:
        """Pull to refresh: abandons a running load (which cancels its
        request), drops what was loaded and loads the first page again."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self.items, self._next_page, self.end_reached, self.error, self.pages_loaded = [], 1, False, None, 0
        self.loading = False
        self.on_change()
        return await self.load_more()

    async def _fetch(self) -> Tuple[int, int, bool]:
        start = len(self.items)
        if self._next_page is None:
            return start, start, True
        self.loading, self.error = True, None
        self.on_change()
        try:
            if self.delay_ms:
                await self.client.daemon_sleep(ms=self.delay_ms)
            page = await self.client.quotes_list(
                page=self._next_page, limit=self.page_size, author=self.author, tag=self.tag
            )
        except CatalogdError as e:
            self.error = e.message
            return start, start, False
        finally:
            self.loading = False
            self.on_change()
        self.items.extend(page.items)
        self.pages_loaded += 1
        self._next_page = page.next_page
        self.end_reached = page.next_page is None
        self.on_change()
        return start, len(self.items), self.end_reached

    def close(self) -> None:
        self._dispose()
        if self._task is not None and not self._task.done():
            self._task.cancel()


# ---------------------------------------------------------------- plain view


async def run_plain(feed: QuoteFeed, pages: Optional[int]) -> None:
    loop = asyncio.get_running_loop()
    shown = 0
    while True:
        print(f"Loading page {feed.pages_loaded + 1}…", flush=True)
        start, end, end_reached = await feed.load_more()
        if feed.error:
            print(f"! {feed.error}", flush=True)
        for i in range(start, end):
            q = feed.items[i]
            print(textwrap.fill(f"{i + 1:4}. “{q.content}” — {q.author}", width=100, subsequent_indent="      "))
        shown += 1
        if end_reached:
            print("— the end —", flush=True)
            return
        if pages is not None:
            if shown >= pages:
                return
            continue
        print("[Enter] more, q quit: ", end="", flush=True)
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line or line.strip().lower().startswith("q"):
            return


# ---------------------------------------------------------------- terminal view


class TerminalView:
    """Draws the feed with curses and moves a selection through it."""

    def __init__(self, screen: Any, feed: QuoteFeed, title: str) -> None:
        self.screen = screen
        self.feed = feed
        self.title = title
        self.selected = 0
        self.top = 0

    def _block(self, i: int, width: int) -> List[str]:
        q = self.feed.items[i]
        lines = textwrap.wrap(f"“{q.content}”", width=max(10, width - 8))
        out = [f"{i + 1:4}  {lines[0]}"] + [f"      {line}" for line in lines[1:]]
        out.append(f"      — {q.author}")
        return out + [""]

    def _page_size(self) -> int:
        h, w = self.screen.getmaxyx()
        return max(1, (int(h) - 2) // 4)

    def draw(self) -> None:
        import curses

        scr = self.screen
        h, w = scr.getmaxyx()
        scr.erase()
        feed = self.feed
        spinner = SPINNER[int(time.monotonic() * 10) % len(SPINNER)]
        state = f"{spinner} loading" if feed.busy else ("the end" if feed.end_reached else "")
        filters = "".join(f" {k} {v}" for k, v in (("author", feed.author), ("tag", feed.tag)) if v)
        head = f" catalogd quotes{filters} · {len(feed.items)} loaded, {feed.pages_loaded} pages "
        self._put(0, 0, head.ljust(w), curses.A_REVERSE)
        self._put(0, max(0, w - len(state) - 2), state, curses.A_REVERSE | curses.A_BOLD)

        body = h - 2
        if feed.items:
            self.selected = max(0, min(self.selected, len(feed.items) - 1))
            self.top = min(self.top, self.selected)
            # Scroll down until the selected quote fits.
            while True:
                used = sum(len(self._block(i, w)) for i in range(self.top, self.selected + 1))
                if used <= body or self.top == self.selected:
                    break
                self.top += 1
        y = 1
        i = self.top
        while y < h - 1 and i < len(feed.items):
            attr = curses.A_BOLD if i == self.selected else curses.A_NORMAL
            for line in self._block(i, w):
                if y >= h - 1:
                    break
                self._put(y, 0, line, attr)
                y += 1
            i += 1
        if y < h - 1 and i >= len(feed.items):
            if feed.busy:
                self._put(y, 6, f"{spinner} Loading…", curses.A_DIM)
            elif feed.error:
                self._put(y, 6, f"! {feed.error} (r to retry)", curses.A_BOLD)
            elif feed.end_reached:
                self._put(y, 6, "— the end —", curses.A_DIM)
        keys = " ↓j ↑k move · PgDn/space PgUp/b page · g/G first/last · r refresh · q quit"
        self._put(h - 1, 0, keys.ljust(w)[: w - 1], curses.A_REVERSE)
        scr.refresh()

    def _put(self, y: int, x: int, text: str, attr: int) -> None:
        import curses

        h, w = self.screen.getmaxyx()
        if 0 <= y < h and 0 <= x < w:
            try:
                self.screen.addnstr(y, x, text, w - x - (1 if y == h - 1 else 0), attr)
            except curses.error:  # writing the last cell of the screen
                pass

    def key(self, key: int) -> bool:
        """Handles one key; False to quit."""
        import curses

        n = len(self.feed.items)
        if key in (ord("q"), 27):
            return False
        if key in (curses.KEY_DOWN, ord("j")):
            self.selected += 1
        elif key in (curses.KEY_UP, ord("k")):
            self.selected -= 1
        elif key in (curses.KEY_NPAGE, ord(" ")):
            self.selected += self._page_size()
        elif key in (curses.KEY_PPAGE, ord("b")):
            self.selected -= self._page_size()
        elif key in (curses.KEY_HOME, ord("g")):
            self.selected = 0
        elif key in (curses.KEY_END, ord("G")):
            self.selected = n - 1
        elif key == ord("r"):
            if self.feed.error:
                self.feed.error = None
                self.feed.want_more()
            else:
                self.selected = self.top = 0
                asyncio.ensure_future(self.feed.refresh())
        self.selected = max(0, min(self.selected, max(0, n - 1)))
        if self.selected >= n - PREFETCH:
            self.feed.want_more()
        return True


async def run_terminal(screen: Any, feed: QuoteFeed, title: str) -> None:
    import curses

    try:
        curses.curs_set(0)
    except curses.error:
        pass
    screen.nodelay(True)
    screen.keypad(True)
    view = TerminalView(screen, feed, title)
    feed.want_more()
    while True:
        view.draw()
        key = screen.getch()
        if key == -1:
            if feed.client.exited:
                return
            await asyncio.sleep(0.05)
            continue
        if not view.key(key):
            return


# ---------------------------------------------------------------- main


async def run(args: Any, binary: str, daemon_args: List[str], screen: Any = None) -> int:
    async with AsyncClient(binary, daemon_args, framing=args.framing) as client:
        feed = QuoteFeed(client, args.page_size, args.author, args.tag, args.delay_ms)
        try:
            if screen is None:
                await run_plain(feed, args.pages)
            else:
                await run_terminal(screen, feed, "quotes")
        finally:
            feed.close()
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    own, daemon_args = split_daemon_args(argv)
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--page-size", type=int, default=10, help="quotes per page (1–100, default 10)")
    p.add_argument("--author", help="only this author's quotes (name or slug)")
    p.add_argument("--tag", help="only quotes with this tag")
    p.add_argument("--delay-ms", type=int, default=0, help="wait this long before each page (to see the spinner)")
    p.add_argument("--plain", action="store_true", help="print pages instead of the full-screen view")
    p.add_argument("--pages", type=int, help="with --plain: print this many pages and stop")
    args = p.parse_args(own)
    binary = daemon_binary(args.bin)
    try:
        if args.plain or args.pages is not None or not sys.stdout.isatty():
            return asyncio.run(run(args, binary, daemon_args))
        import curses
        import locale

        locale.setlocale(locale.LC_ALL, "")
        return int(curses.wrapper(lambda screen: asyncio.run(run(args, binary, daemon_args, screen))))
    except DaemonExited as e:
        print(e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
