"""Scroll the photo or product feed with the keyboard; pages load as you near the end.

    python3 -m catalogd.examples.feed [--source photos|products] [--query TEXT]
                                      [--page-size N] [--bin PATH] [-- DAEMON ARGS...]

The feed lives in the daemon; `AsyncClient.open_feed` mirrors it here as an
`AsyncFeed`, which applies its pages (`feeds/pageLoaded`) and its changes in
place (`feeds/itemsChanged`) and tells this app what changed. When the cursor
comes within a screen of the end of what is loaded the app asks for the next
page (`feeds/loadMore`), and it shows the state of the last
`feeds/stateChanged` (loading, refreshing, failed, ended) in its status line.
A product created, changed or deleted elsewhere (another terminal, another
daemon on the same catalog) appears in place: the selected item stays
selected and the rows on screen stay where they are. `r` is pull-to-refresh
(`feeds/refresh`); quitting closes the feed (`feeds/close`).

Keys: ↓ j / ↑ k move, PgDn space / PgUp b page, g / G top / end of what is
loaded, Enter loads more now (and retries after a failure), r refresh,
q or Ctrl-C quit.

On a terminal the keyboard is read in raw mode and the list is drawn full
screen. When stdin or stdout is not a terminal, the keys come from stdin
(`printf 'jjjjq' | python3 -m catalogd.examples.feed`): each is handled after
the loads it started have ended, every change of the feed is printed as a
screen of plain text (its size from $LINES and $COLUMNS), and the end of the
input quits.
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
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Set, TextIO, Tuple

from .. import (
    AsyncClient,
    AsyncFeed,
    DaemonExited,
    FeedEvent,
    FeedInsert,
    FeedItemChange,
    FeedRemove,
    Photo,
    Product,
    RpcError,
)
from ._common import daemon_binary, parser, split_daemon_args

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
BUSY = ("loading", "refreshing")


def follow(cursor: int, top: int, length: int, changes: Sequence[FeedItemChange]) -> Tuple[int, int]:
    """The cursor and the first row on screen after `changes` to a list of
    `length` items: the selected item stays selected, and rows inserted or
    removed above the screen move it by as much, so that what is on screen
    does not jump. (Rows inserted or removed on screen above the cursor push
    it down or pull it up.)"""
    for change in changes:
        if isinstance(change, FeedInsert):
            n = len(change.items)
            if change.index <= cursor < length:  # an empty list has no selected item to push
                cursor += n
            if change.index < top:
                top += n
            length += n
        elif isinstance(change, FeedRemove):
            length -= change.count
            end = change.index + change.count
            if cursor >= end:
                cursor -= change.count
            elif cursor >= change.index:
                cursor = change.index  # the selected item is gone: the one that took its place
            if top >= end:
                top -= change.count
            elif top > change.index:
                top = change.index
    return cursor, top


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
    """A window on the feed, a cursor and a status line; turns keys into
    moves and loads, and follows the feed's changes."""

    def __init__(self, feed: AsyncFeed, out: TextIO, interactive: bool) -> None:
        self.feed = feed
        self.out = out
        self.interactive = interactive
        self.cursor: int = 0
        self.top: int = 0
        self.frame = 0
        self.selected: Optional[Any] = None
        """The id of the item under the cursor, to find it again after a reset."""
        self._draw_pending = False
        self._tasks: Set["asyncio.Task[bool]"] = set()
        feed.on_change(self.changed)

    def changed(self, event: FeedEvent) -> None:
        """The feed changed. Piped, every change is a screen, in order; on a
        terminal, a burst of notifications is one redraw."""
        if event.kind in ("page", "changes"):
            added = sum(len(c.items) for c in event.changes if isinstance(c, FeedInsert))
            removed = sum(c.count for c in event.changes if isinstance(c, FeedRemove))
            before = len(self.feed) - added + removed
            self.cursor, self.top = follow(self.cursor, self.top, before, event.changes)
        elif event.kind == "reset" and self.feed.items:
            # A new list: the selected item where it now is, on the same row of the screen.
            found = next((i for i, item in enumerate(self.feed.items) if item.get("id") == self.selected), None)
            if found is not None:
                row = self.cursor - self.top
                self.cursor, self.top = found, max(0, found - row)
        if not self.interactive:
            self.render()
        elif not self._draw_pending:
            self._draw_pending = True
            asyncio.get_running_loop().call_soon(self._draw)

    def _draw(self) -> None:
        self._draw_pending = False
        self.render()

    # Loads run in the background: the keyboard stays live while they run.

    @property
    def busy(self) -> bool:
        """A load or a refresh runs, or was asked for and has not answered yet."""
        return self.feed.state in BUSY or bool(self._tasks)

    def load_more(self, then: Callable[[], None] = lambda: None) -> None:
        """Asks for the next page in the background; `then` runs when the answer is in."""
        self._background(self.feed.load_more(), then)

    def refresh(self, then: Callable[[], None] = lambda: None) -> None:
        """Pull to refresh, in the background: the daemon abandons a running load."""
        self._background(self.feed.refresh(), then)

    async def settled(self) -> None:
        """Returns when no load or refresh asked for here is running (including
        those started by the `then` of another)."""
        while self._tasks:
            await asyncio.gather(*self._tasks)

    def _background(self, call: Awaitable[Any], then: Callable[[], None]) -> None:
        async def run() -> bool:
            try:
                await call
            except RpcError:
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
        items = self.feed.items
        last = max(0, len(items) - 1)
        self.cursor = int(min(last, max(0, self.cursor + delta)))
        self.top = max(0, min(self.top, self.cursor))
        if self.cursor >= self.top + self.rows:
            self.top = self.cursor - self.rows + 1
        if items:
            self.selected = items[self.cursor].get("id")

    def near_end(self) -> bool:
        """The cursor is within a screen of the end of what is loaded."""
        return len(self.feed) - self.cursor <= self.rows

    def want_more(self) -> None:
        """Loads the next page when the cursor nears the end, unless a load
        runs, the feed ended, or the last load failed (Enter retries). Runs
        again after each page, so a small page size still fills the screen."""
        if self.near_end() and not self.busy and self.feed.state not in ("ended", "failed"):
            self.load_more(then=self.want_more)

    def status(self) -> str:
        feed = self.feed
        spinner = SPINNER[self.frame % len(SPINNER)]
        return {
            "loading": f"{spinner} loading…",
            "refreshing": f"{spinner} refreshing…",
            "failed": f"failed: {feed.error.message if feed.error else 'unknown error'} (Enter: retry)",
            "ended": "the end",
        }.get(feed.state, "")

    def render(self) -> None:
        feed, width = self.feed, self.columns
        items = feed.items
        if items:
            self.move(0)  # a refresh or a removal may have shortened the list under the cursor
        lines = []
        for i in range(self.top, self.top + self.rows):
            if i >= len(items):
                lines.append("")
                continue
            text = fit(f"{i + 1:4}  {describe(feed.source, items[i])}", width)
            if i != self.cursor:
                lines.append(text)
            elif self.interactive:
                lines.append(f"\x1b[7m{text}{' ' * (width - sum(map(cells, text)))}\x1b[0m")
            else:
                lines.append(">" + text[1:])
        where = f"{self.cursor + 1}/{len(items)}" if items else "0"
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
            self.move(float("-inf"))  # pull-to-refresh happens at the top
            self.refresh(then=self.want_more)
        elif key in ("\r", "\n") and self.feed.state != "ended" and not self.busy:
            self.load_more(then=self.want_more)
        return True


# ---------------------------------------------------------------- the two ways to run


async def run_piped(pager: Pager, client: AsyncClient) -> None:
    """Keys from stdin, each handled once the loads it started have ended."""
    loop = asyncio.get_running_loop()
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    fd = sys.stdin.fileno()
    while True:
        data = await loop.run_in_executor(None, os.read, fd, 4096)
        for key in split_keys(decoder.decode(data, final=not data)):
            if not pager.key(key):
                return
            await pager.settled()
        if not data or client.exited:
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


async def run_terminal(pager: Pager, client: AsyncClient) -> None:
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
        while not client.exited:
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
        feed = await client.open_feed(args.source, query, args.page_size)
        pager = Pager(feed, sys.stdout, interactive)
        try:
            if interactive:
                await run_terminal(pager, client)
            else:
                pager.want_more()
                await pager.settled()
                await run_piped(pager, client)
        finally:
            await feed.close()  # a load still running then fails in the daemon
            await pager.settled()
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
    except RpcError as e:  # feeds/open refused: a bad page size, too many feeds
        print(f"catalogd: {e.message}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
