"""`Deadlines`: callbacks run at given times on one thread, for the timeouts
of `Client.submit`'s futures (a `threading.Timer` each would be a thread per
request in flight)."""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from typing import Callable, List, Optional, Tuple

from ._core import logger


class _Entry:
    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False


class Deadlines:
    """Runs each callback once its delay has passed, unless cancelled first.
    The thread starts with the first deadline and ends with `close`; callbacks
    run on it one at a time (an exception is logged)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._cond = threading.Condition()
        self._heap: List[Tuple[float, int, _Entry]] = []
        self._seq = itertools.count()
        self._thread: Optional[threading.Thread] = None
        self._closed = False

    def add(self, delay: float, callback: Callable[[], None]) -> Callable[[], None]:
        """Schedules `callback` in `delay` seconds; returns the function that cancels it."""
        entry = _Entry(callback)
        with self._cond:
            if self._closed:
                return lambda: None
            heapq.heappush(self._heap, (time.monotonic() + delay, next(self._seq), entry))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._cond.notify()

        def cancel() -> None:
            entry.cancelled = True

        return cancel

    def close(self) -> None:
        """Drops the deadlines not yet reached and ends the thread."""
        with self._cond:
            self._closed = True
            self._heap.clear()
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._closed:
                    if not self._heap:
                        self._cond.wait()
                        continue
                    wait = self._heap[0][0] - time.monotonic()
                    if wait <= 0:
                        break
                    self._cond.wait(wait)
                if self._closed:
                    return
                _, _, entry = heapq.heappop(self._heap)
            if entry.cancelled:
                continue
            try:
                entry.callback()
            except Exception:
                logger.exception("a deadline callback raised")
