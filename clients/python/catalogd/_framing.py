"""Message framing: NDJSON (one JSON text per line) and LSP (`Content-Length`
headers). No I/O: `encode` makes bytes to write, `Decoder.feed` takes the bytes
read and returns the message bodies complete so far.

The daemon detects the framing from the first bytes the client sends and
answers in the same one, so a client picks one and keeps it.
"""

from __future__ import annotations

import json
from typing import Any, List, Literal, Tuple

from ._errors import InvalidArgument, ProtocolError

Framing = Literal["ndjson", "lsp"]
"""How messages are delimited on the pipes: "ndjson" (one JSON text per line)
or "lsp" (`Content-Length` headers)."""

FRAMINGS: Tuple[Framing, ...] = ("ndjson", "lsp")

MAX_HEADER_BYTES = 8192
"""A header block longer than this is not LSP framing: the stream is corrupt."""


def check_framing(framing: str) -> Framing:
    """`framing` when it is one the client speaks; else `InvalidArgument` (a `ValueError`)."""
    if framing in FRAMINGS:
        return framing
    raise InvalidArgument(f"framing must be one of {', '.join(FRAMINGS)}, not {framing!r}")


def dumps(message: Any) -> bytes:
    """Compact UTF-8 JSON. NaN and infinities are refused (they are not JSON);
    newlines inside strings are escaped, so a body never contains one."""
    try:
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as e:  # a value JSON cannot hold: the caller's params
        raise InvalidArgument(f"params cannot be sent as JSON: {e}") from e
    return text.encode("utf-8")


def encode(body: bytes, framing: str) -> bytes:
    """One framed message."""
    if framing == "lsp":
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    return body + b"\n"


class Decoder:
    """Splits a byte stream into message bodies.

    NDJSON: lines end with `\\n` (a `\\r` before it is dropped); blank lines are
    skipped. LSP: a header block ends with an empty line; `Content-Length` is
    required (names are case-insensitive) and other headers are ignored. A
    malformed header block raises `ProtocolError`: the stream cannot be
    resynchronised after it.
    """

    def __init__(self, framing: str) -> None:
        self.framing = check_framing(framing)
        self._buf = bytearray()
        self._scanned = 0
        """How much of `_buf` is known to hold no terminator (avoids rescanning a long partial line)."""
        self._need = -1
        """LSP: the end of the body being read, once its headers are parsed; -1 between messages."""

    @property
    def pending_bytes(self) -> int:
        """Bytes received that do not yet make a whole message."""
        return len(self._buf)

    def feed(self, data: bytes) -> List[bytes]:
        self._buf += data
        if self.framing == "lsp":
            return self._lsp()
        return self._ndjson()

    def _ndjson(self) -> List[bytes]:
        out: List[bytes] = []
        buf = self._buf
        start = 0
        while True:
            nl = buf.find(b"\n", max(start, self._scanned))
            if nl < 0:
                break
            line = bytes(buf[start:nl]).rstrip(b"\r")
            if line.strip():
                out.append(line)
            start = nl + 1
            self._scanned = start
        if start:
            del buf[:start]
        self._scanned = len(buf)
        return out

    def _lsp(self) -> List[bytes]:
        out: List[bytes] = []
        buf = self._buf
        while True:
            if self._need < 0:
                end = buf.find(b"\r\n\r\n", max(0, self._scanned - 3))
                if end < 0:
                    if len(buf) > MAX_HEADER_BYTES:
                        raise ProtocolError(f"no end of LSP headers in {len(buf)} bytes: {bytes(buf[:80])!r}")
                    self._scanned = len(buf)
                    return out
                length = self._content_length(bytes(buf[:end]))
                del buf[: end + 4]
                self._scanned = 0
                self._need = length
            if len(buf) < self._need:
                return out
            out.append(bytes(buf[: self._need]))
            del buf[: self._need]
            self._need = -1

    @staticmethod
    def _content_length(block: bytes) -> int:
        length = None
        for line in block.decode("ascii", "replace").split("\r\n"):
            name, sep, value = line.partition(":")
            if not sep:
                raise ProtocolError(f"malformed LSP header line {line!r}")
            if name.strip().lower() == "content-length":
                value = value.strip()
                if not value.isdigit():
                    raise ProtocolError(f"bad Content-Length {value!r}")
                length = int(value)
        if length is None:
            raise ProtocolError(f"LSP headers without Content-Length: {block!r}")
        return length
