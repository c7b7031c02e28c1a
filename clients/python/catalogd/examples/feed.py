"""Scroll the photo or product feed with the keyboard; pages load as you near the end.

    python3 -m catalogd.examples.feed [--source photos|products] [--query TEXT]
                                      [--page-size N] [--bin PATH] [-- DAEMON ARGS...]

The feed lives in the daemon (`feeds/open`); this app mirrors it. When the
cursor comes within a screen of the end of what is loaded it asks for the next
page (`feeds/loadMore`), appends what `feeds/pageLoaded` brings, and shows the
state of the last `feeds/stateChanged` (loading, refreshing, failed, ended) in
its status line. `r` is pull-to-refresh (`feeds/refresh`); quitting closes the
feed (`feeds/close`).

Keys: ↓ j / ↑ k move, PgDn space / PgUp b page, g / G top / end of what is
loaded, Enter loads more now (and retries after a failure), r refresh,
q or Ctrl-C quit.

On a terminal the keyboard is read in raw mode and the list is drawn full
screen. When stdin or stdout is not a terminal, the keys come from stdin
(`printf 'jjjjq' | python3 -m catalogd.examples.feed`): each is handled after
the loads it started have ended, every screen is printed as plain text (its
size from $LINES and $COLUMNS), and the end of the input quits.
"""

from __future__ import annotations

import asyncio
import codecs
import os
import re
import shutil
import signal
import sys
import unicodedata
from typing import Any, Awaitable, Callable, Dict, List, Optional, Set, TextIO

from .. import AsyncClient, CatalogdError, DaemonExited, FeedsPageLoaded, FeedsStateChanged, Photo, Product
from ._common import daemon_binary, parser, split_daemon_args

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
BUSY = ("loading", "refreshing")


class Feed:
    """A feed of the daemon as a screen sees it: the items loaded so far,
    mirrored from `feeds/pageLoaded`, and the state of the last
    `feeds/stateChanged`. Nothing is fetched here: the daemon pages, joins a
    second `loadMore` to the running one and drops pages of older generations.

    Attributes:
        items: the loaded items, as the source's JSON objects.
        state: idle, loading, refreshing, failed or ended.
        error: the message of the failed load (the next load retries the same page).
        generation: grows by one at each refresh.
    """

    def __init__(
        self,
        client: AsyncClient,
        source: str,
        query: Optional[Dict[str, Any]] = None,
        page_size: Optional[int] = None,
        on_change: Callable[[], None] = lambda: None,
    ) -> None:
        self.client = client
        self.source = source
        self.query = query
        self.page_size = page_size
        self.on_change = on_change
        self.feed_id: Optional[str] = None
        self.items: List[Dict[str, Any]] = []
        self.state = "idle"
        self.error: Optional[str] = None
        self.generation = 0
        self._tasks: Set["asyncio.Task[bool]"] = set()
        self._dispose = [
            client.on_feeds_page_loaded(self._on_page_loaded),
            client.on_feeds_state_changed(self._on_state_changed),
        ]

    async def open(self) -> None:
        opened = await self.client.feeds_open(source=self.source, query=self.query, page_size=self.page_size)
        self.feed_id, self.state = opened.feed_id, opened.state

    def _on_page_loaded(self, n: FeedsPageLoaded) -> None:
        if n.feed_id != self.feed_id:
            return
        if n.reset:
            self.items = []
        self.generation = n.generation
        del self.items[n.start :]
        self.items.extend(n.items)
        self.on_change()

    def _on_state_changed(self, n: FeedsStateChanged) -> None:
        if n.feed_id != self.feed_id:
            return
        self.state = n.state
        self.error = n.error.message if n.error is not None else None
        if n.state == "refreshing":
            # The daemon dropped the loaded items at once; the list shows what it holds.
            self.items = []
        self.on_change()

    @property
    def busy(self) -> bool:
        """A load or a refresh runs, or was asked for and has not answered yet."""
        return self.state in BUSY or bool(self._tasks)

    def load_more(self, then: Callable[[], None] = lambda: None) -> None:
        """Asks for the next page in the background; `then` runs when the answer is in."""
        self._background(self.client.feeds_load_more(feed_id=self._id()), then)

    def refresh(self, then: Callable[[], None] = lambda: None) -> None:
        """Pull to refresh, in the background: the daemon abandons a running load."""
        self._background(self.client.feeds_refresh(feed_id=self._id()), then)

    async def settled(self) -> None:
        """Returns when no load or refresh asked for here is running (including
        those started by the `then` of another)."""
        while self._tasks:
            await asyncio.gather(*self._tasks)

    async def close(self) -> None:
        """Closes the feed in the daemon (a running load then fails there) and
        stops listening."""
        for dispose in self._dispose:
            dispose()
        if self.feed_id is not None and not self.client.exited:
            try:
                await self.client.feeds_close(feed_id=self.feed_id)
            except (CatalogdError, DaemonExited):
                pass  # closed already, or the daemon is gone: either way nothing is left to close
        await self.settled()

    def _id(self) -> str:
        if self.feed_id is None:
            raise RuntimeError("open() the feed first")
        return self.feed_id

    def _background(self, call: Awaitable[Any], then: Callable[[], None]) -> None:
        async def run() -> bool:
            try:
                await call
            except CatalogdError:
                pass  # feeds/stateChanged carried the error: the status line shows it
            except DaemonExited:
                return False  # the app notices and quits
            return True

        def done(task: "asyncio.Task[bool]") -> None:
            # Out of the set first, so that `then` sees no load running and may start the next.
            self._tasks.discard(task)
            if not task.cancelled() and task.result():
                then()

        task = asyncio.ensure_future(run())
        self._tasks.add(task)
        task.add_done_callback(done)


# ---------------------------------------------------------------- what a row shows


def describe(source: str, item: Dict[str, Any]) -> str:
    """One line for an item, read through the client's dataclasses."""
    if source == "photos":
        photo = Photo.from_json(item)
        return f"{photo.id}  {photo.width}×{photo.height}  by {photo.author or 'unknown'}"
    if source == "products":
        p = Product.from_json(item)
        name = p.name_ko + (f" ({p.name_en})" if p.name_en else "")
        supplier = f" · {p.supplier.name}" if p.supplier else ""
        return f"#{p.id} {name} · ₩{p.price:,}{supplier}"
    return str(item)


def cells(ch: str) -> int:
    """Terminal cells a character takes: Hangul and other wide characters two."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def fit(text: str, width: int) -> str:
    """`text` on one line of at most `width` cells, with … when cut."""
    flat = re.sub(r"[\r\n\t\f\v]+", " ", text)  # a name with a newline must not break the screen
    if sum(map(cells, flat)) <= width:
        return flat
    out, used = [], 0
    for ch in flat:
        if used + cells(ch) > width - 1:
            break
        out.append(ch)
        used += cells(ch)
    return "".join(out) + "…"


def split_keys(text: str) -> List[str]:
    """The keys in a chunk of input: escape sequences whole, other characters one by one."""
    return re.findall(r"\x1b\[[0-9;]*[A-Za-z~]|\x1bO[A-Za-z]|\x1b.|.", text, re.S)


# ---------------------------------------------------------------- the screen


class Pager:
    """A window on the feed, a cursor and a status line; turns keys into moves and loads."""

    def __init__(self, feed: Feed, out: TextIO, interactive: bool) -> None:
        self.feed = feed
        self.out = out
        self.interactive = interactive
        self.cursor = 0
        self.top = 0
        self.frame = 0
        self._draw_pending = False

    def changed(self) -> None:
        """The feed changed. Piped, every change is a screen, in order; on a
        terminal, a burst of notifications is one redraw."""
        if not self.interactive:
            self.render()
        elif not self._draw_pending:
            self._draw_pending = True
            asyncio.get_running_loop().call_soon(self._draw)

    def _draw(self) -> None:
        self._draw_pending = False
        self.render()

    @property
    def size(self) -> os.terminal_size:
        # shutil reads $LINES and $COLUMNS first, then the terminal: piped runs size themselves.
        return shutil.get_terminal_size((80, 14))

    @property
    def rows(self) -> int:
        return max(3, self.size.lines - 2)

    @property
    def columns(self) -> int:
        return max(20, self.size.columns)

    def move(self, delta: float) -> None:
        last = max(0, len(self.feed.items) - 1)
        self.cursor = int(min(last, max(0, self.cursor + delta)))
        self.top = min(self.top, self.cursor)
        if self.cursor >= self.top + self.rows:
            self.top = self.cursor - self.rows + 1

    def near_end(self) -> bool:
        """The cursor is within a screen of the end of what is loaded."""
        return len(self.feed.items) - self.cursor <= self.rows

    def want_more(self) -> None:
        """Loads the next page when the cursor nears the end, unless a load
        runs, the feed ended, or the last load failed (Enter retries). Runs
        again after each page, so a small page size still fills the screen."""
        if self.near_end() and not self.feed.busy and self.feed.state not in ("ended", "failed"):
            self.feed.load_more(then=self.want_more)

    def status(self) -> str:
        feed = self.feed
        spinner = SPINNER[self.frame % len(SPINNER)]
        return {
            "loading": f"{spinner} loading…",
            "refreshing": f"{spinner} refreshing…",
            "failed": f"failed: {feed.error} (Enter: retry)",
            "ended": "the end",
        }.get(feed.state, "")

    def render(self) -> None:
        feed, width = self.feed, self.columns
        if feed.items:
            self.move(0)  # a refresh may have shortened the list under the cursor
        lines = []
        for i in range(self.top, self.top + self.rows):
            if i >= len(feed.items):
                lines.append("")
                continue
            text = fit(f"{i + 1:4}  {describe(feed.source, feed.items[i])}", width)
            if i != self.cursor:
                lines.append(text)
            elif self.interactive:
                lines.append(f"\x1b[7m{text}{' ' * (width - sum(map(cells, text)))}\x1b[0m")
            else:
                lines.append(">" + text[1:])
        where = f"{self.cursor + 1}/{len(feed.items)}" if feed.items else "0"
        lines.append(fit(" · ".join(s for s in (feed.source, where, self.status()) if s), width))
        lines.append(fit("j/k ↑/↓ move · space/b page · g/G top/end · Enter more · r refresh · q quit", width))
        if self.interactive:
            # Home, each line then clear to its end: no flicker from clearing the whole screen.
            self.out.write("\x1b[H" + "\r\n".join(f"{line}\x1b[K" for line in lines) + "\x1b[J")
        else:
            self.out.write("\n".join(lines) + "\n" + "-" * min(width, 40) + "\n")
        self.out.flush()

    def key(self, key: str) -> bool:
        """Handles one key; False to quit."""
        if key in ("q", "\x03"):
            return False
        moves = {
            "j": 1, "\x1b[B": 1, "\x1bOB": 1,
            "k": -1, "\x1b[A": -1, "\x1bOA": -1,
            " ": self.rows, "\x1b[6~": self.rows,
            "b": -self.rows, "\x1b[5~": -self.rows,
            "g": float("-inf"), "\x1b[H": float("-inf"), "\x1b[1~": float("-inf"),
            "G": float("inf"), "\x1b[F": float("inf"), "\x1b[4~": float("inf"),
        }  # fmt: skip
        if key in moves:
            self.move(moves[key])
            self.render()
            self.want_more()
        elif key == "r":
            self.cursor = self.top = 0
            self.feed.refresh(then=self.want_more)
        elif key in ("\r", "\n") and self.feed.state != "ended" and not self.feed.busy:
            self.feed.load_more(then=self.want_more)
        return True


# ---------------------------------------------------------------- the two ways to run


async def run_piped(pager: Pager) -> None:
    """Keys from stdin, each handled once the loads it started have ended."""
    loop = asyncio.get_running_loop()
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    fd = sys.stdin.fileno()
    while True:
        data = await loop.run_in_executor(None, os.read, fd, 4096)
        for key in split_keys(decoder.decode(data, final=not data)):
            if not pager.key(key):
                return
            await pager.feed.settled()
        if not data or pager.feed.client.exited:
            return


def raw_mode(fd: int) -> List[Any]:
    """Puts the terminal in raw input mode and returns its previous settings.
    Output processing stays on (unlike tty.setraw), as Node's setRawMode does,
    so a newline still returns the carriage; Ctrl-C arrives as a key."""
    import termios

    saved = termios.tcgetattr(fd)
    mode = termios.tcgetattr(fd)
    mode[0] &= ~(termios.BRKINT | termios.ICRNL | termios.INPCK | termios.ISTRIP | termios.IXON)
    mode[3] &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN | termios.ISIG)
    mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
    termios.tcsetattr(fd, termios.TCSAFLUSH, mode)
    return saved


async def run_terminal(pager: Pager) -> None:
    """The keyboard in raw mode, the list on the alternate screen, a spinner while loading."""
    import termios

    loop = asyncio.get_running_loop()
    keys: "asyncio.Queue[Optional[str]]" = asyncio.Queue()
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    fd = sys.stdin.fileno()

    def readable() -> None:
        try:
            data = os.read(fd, 1024)
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(fd)
            keys.put_nowait(None)
        for key in split_keys(decoder.decode(data)):
            keys.put_nowait(key)

    async def tick() -> None:
        while not pager.feed.client.exited:
            await asyncio.sleep(0.08)
            if pager.feed.state in BUSY:
                pager.frame += 1
                pager.render()
        keys.put_nowait(None)  # the daemon is gone: quit rather than wait for a key

    saved = raw_mode(fd)
    pager.out.write("\x1b[?1049h\x1b[?25l")  # the alternate screen, no cursor
    loop.add_reader(fd, readable)
    loop.add_signal_handler(signal.SIGWINCH, pager.render)
    for quit_signal in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(quit_signal, keys.put_nowait, None)
    ticker = loop.create_task(tick())
    try:
        pager.render()
        pager.want_more()
        while True:
            key = await keys.get()
            if key is None or not pager.key(key):
                return
    finally:
        ticker.cancel()
        loop.remove_reader(fd)
        for sig in (signal.SIGWINCH, signal.SIGTERM, signal.SIGHUP):
            loop.remove_signal_handler(sig)
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        pager.out.write("\x1b[?25h\x1b[?1049l")
        pager.out.flush()


async def run(args: Any, binary: str, daemon_args: List[str], interactive: bool) -> int:
    query = {"query": args.query} if args.query else None
    async with AsyncClient(binary, daemon_args, framing=args.framing) as client:
        feed = Feed(client, args.source, query, args.page_size)
        pager = Pager(feed, sys.stdout, interactive)
        feed.on_change = pager.changed
        try:
            await feed.open()
            if interactive:
                await run_terminal(pager)
            else:
                pager.want_more()
                await feed.settled()
                await run_piped(pager)
        finally:
            await feed.close()
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    own, daemon_args = split_daemon_args(argv)
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--source", choices=("photos", "products"), default="photos", help="the feed (default photos)")
    p.add_argument("--query", help="products: only those whose Korean or English name contains this")
    p.add_argument("--page-size", type=int, help="items per page (1–100; default the source's: photos 30, products 20)")
    args = p.parse_args(own)
    if args.query and args.source != "products":
        p.error("--query filters the products feed")
    binary = daemon_binary(args.bin)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    try:
        return asyncio.run(run(args, binary, daemon_args, interactive))
    except DaemonExited as e:
        print(e, file=sys.stderr)
        return 1
    except CatalogdError as e:  # feeds/open refused: a bad page size, too many feeds
        print(f"catalogd: {e.message}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
