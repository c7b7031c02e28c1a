"""Headless Chromium for the tests of pages (Debian's `chromium`): a
screenshot, its pixels (a PNG read with zlib, no imaging library), and a page
driven over the DevTools protocol on a pipe, to click where a user would.

Every browser gets its own profile and home under the test's temp dir, and is
waited for with a deadline, then killed."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import struct
import subprocess
import threading
import time
import zlib
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

CHROMIUM = shutil.which("chromium")
DEADLINE = 60.0


def _flags(profile: Path, width: int, height: int) -> List[str]:
    assert CHROMIUM is not None
    return [
        CHROMIUM, "--headless", "--no-sandbox",  # root may not use the sandbox
        "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
        "--disable-extensions", "--hide-scrollbars", "--force-device-scale-factor=1",
        f"--user-data-dir={profile / 'profile'}", f"--window-size={width},{height}",
    ]  # fmt: skip


def _env(profile: Path) -> Dict[str, str]:
    home = profile / "home"
    home.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache")}


def screenshot(url: str, png: Path, profile: Path, width: int, height: int) -> "Image":
    """The page at `url` in a window of `width`×`height`, as Chromium draws it
    once the page has loaded."""
    r = subprocess.run(
        [*_flags(profile, width, height), f"--screenshot={png}", url],
        capture_output=True, text=True, timeout=DEADLINE, env=_env(profile),
    )
    assert r.returncode == 0 and png.is_file(), r.stderr[-3000:]
    return Image.read(png.read_bytes())


class Image:
    """The pixels of an 8-bit RGB or RGBA PNG, without interlacing (what Chromium writes)."""

    def __init__(self, width: int, height: int, channels: int, rows: List[bytes]) -> None:
        self.width, self.height, self.channels, self.rows = width, height, channels, rows

    def pixel(self, x: int, y: int) -> Tuple[int, int, int]:
        i = x * self.channels
        r, g, b = self.rows[y][i : i + 3]
        return r, g, b

    def count(self, colour: Tuple[int, int, int], right: int, bottom: int) -> List[Tuple[int, int]]:
        """The positions of the pixels of exactly `colour` in [0, right)×[0, bottom)."""
        packed = bytes(colour)
        found = []
        for y in range(min(bottom, self.height)):
            row = self.rows[y]
            i = row.find(packed)
            while i >= 0:
                if i % self.channels == 0 and i // self.channels < right:
                    found.append((i // self.channels, y))
                i = row.find(packed, i + 1)
        return found

    @classmethod
    def read(cls, data: bytes) -> "Image":
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, idat = 8, []
        header: Tuple[int, ...] = ()
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos : pos + 8])
            body = data[pos + 8 : pos + 8 + length]
            if kind == b"IHDR":
                header = struct.unpack(">IIBBBBB", body)
            elif kind == b"IDAT":
                idat.append(body)
            pos += 12 + length
        width, height, depth, colour_type, _, _, interlace = header
        assert depth == 8 and colour_type in (2, 6) and interlace == 0, header
        bpp = 3 if colour_type == 2 else 4
        raw = zlib.decompress(b"".join(idat))
        stride = width * bpp
        rows: List[bytes] = []
        prev = bytearray(stride)
        for y in range(height):
            start = y * (stride + 1)
            kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
            if kind == 1:  # Sub
                for i in range(bpp, stride):
                    line[i] = (line[i] + line[i - bpp]) & 255
            elif kind == 2:  # Up
                line = bytearray((a + b) & 255 for a, b in zip(line, prev))
            elif kind == 3:  # Average
                for i in range(stride):
                    left = line[i - bpp] if i >= bpp else 0
                    line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
            elif kind == 4:  # Paeth
                for i in range(stride):
                    a = line[i - bpp] if i >= bpp else 0
                    b = prev[i]
                    c = prev[i - bpp] if i >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(bytes(line))
            prev = line
        return cls(width, height, bpp, rows)


def _above(fd: int, lowest: int) -> int:
    """`fd` moved to a number of at least `lowest`."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, lowest)
    os.close(fd)
    return moved


class DevTools:
    """A headless Chromium driven over `--remote-debugging-pipe`: it reads
    commands on its fd 3 and writes replies and events on its fd 4, each a
    JSON text ended by a NUL byte. `page(url)` opens a tab and attaches to
    it; `send` and `wait_event` then talk to that tab."""

    def __init__(self, profile: Path, width: int, height: int) -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # Above fd 4, so that putting one end on fd 3 cannot overwrite the other.
        to_browser_r, from_browser_w = (_above(fd, 10) for fd in (to_browser_r, from_browser_w))
        # bash (dash takes one-digit fds only) puts the pipes on fds 3 and 4, then becomes Chromium (same pid).
        self.proc = subprocess.Popen(
            ["bash", "-c", f'exec "$@" 3<&{to_browser_r} 4>&{from_browser_w}', "bash",
             *_flags(profile, width, height), "--remote-debugging-pipe", "about:blank"],
            pass_fds=(to_browser_r, from_browser_w), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(profile),
        )  # fmt: skip
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.width, self.height = width, height
        self.session: Optional[str] = None
        self._next_id = 0
        self._messages: List[Dict[str, Any]] = []
        self._cond = threading.Condition()
        self._closed = False
        self._stderr: List[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        assert self.proc.stderr is not None
        threading.Thread(target=lambda: self._stderr.append(self.proc.stderr.read()), daemon=True).start()  # type: ignore[union-attr]

    def _read(self) -> None:
        buffer = b""
        while True:
            chunk = os.read(self._from_browser, 65536)
            if not chunk:
                break
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            with self._cond:
                self._messages.extend(json.loads(m) for m in messages)
                self._cond.notify_all()
        os.close(self._from_browser)
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _wait(self, match: Any, what: str, timeout: float = DEADLINE) -> Dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for i, m in enumerate(self._messages):
                    if match(m):
                        return self._messages.pop(i)
                left = deadline - time.monotonic()
                if self._closed or left <= 0:
                    raise AssertionError(f"Chromium never sent {what}: {b''.join(self._stderr)[-3000:]!r}")
                self._cond.wait(left)

    def send(self, method: str, params: Optional[Dict[str, Any]] = None, *, browser: bool = False) -> Dict[str, Any]:
        """A command to the tab (or to the browser), and its result."""
        self._next_id += 1
        message: Dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if not browser and self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        reply = self._wait(lambda m, n=self._next_id: m.get("id") == n, f"the reply to {method}")
        assert "error" not in reply, reply
        return reply["result"]  # type: ignore[no-any-return]

    def wait_event(self, method: str) -> Dict[str, Any]:
        return self._wait(lambda m: m.get("method") == method and m.get("sessionId") == self.session, method)

    def page(self, url: str) -> None:
        """A tab of the window's size showing `url`, loaded."""
        target = self.send("Target.createTarget", {"url": "about:blank"}, browser=True)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 browser=True)["sessionId"]
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False})
        self.send("Page.enable")
        self.send("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def click(self, x: float, y: float) -> None:
        """A left click at (x, y) of the viewport, as the mouse makes it."""
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left" if kind != "mouseMoved" else "none",
                       "clickCount": 1 if kind != "mouseMoved" else 0})

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        assert "exceptionDetails" not in result, result
        return result["result"].get("value")

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                os.write(self._to_browser, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
                self.proc.wait(DEADLINE)
        except (OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            os.close(self._to_browser)

    def __enter__(self) -> "DevTools":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
