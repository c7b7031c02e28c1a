"""What `Client` and `AsyncClient` share: finding the binary, building and
classifying messages, the handler registry and the stderr tail. No I/O here
beyond `find_binary` looking at the file system.
"""

from __future__ import annotations

import collections
import logging
import math
import os
import shutil
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Deque, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ._errors import BinaryNotExecutable, BinaryNotFound, InvalidArgument
from ._framing import dumps
from ._version import __version__

logger = logging.getLogger("catalogd")
"""The client's log: protocol oddities (warning) and exceptions raised by
notification handlers (error). A library logs and lets the application decide
where logs go: the `NullHandler` keeps Python's last-resort handler from
printing these when the application configured no logging."""
logger.addHandler(logging.NullHandler())

daemon_logger = logging.getLogger("catalogd.daemon")
"""Each line the daemon writes on stderr, at debug level."""

wire_logger = logging.getLogger("catalogd.wire")
"""Every message sent (`--> {json}`) and received (`<-- {json}`), at debug level."""

ENV_BINARY = "CATALOGD_BIN"

BUNDLED_BINARY = Path(__file__).resolve().parent / "_bin" / "catalogd"
"""The daemon a platform wheel carries (written by scripts/dist; absent in the
repository and in the pure wheel)."""

DEFAULT_STDERR_LINES = 200

DEFAULT_TIMEOUT = 30.0
"""Seconds a request waits for its reply unless told otherwise (the Node client: 30_000 ms)."""


def find_binary(binary: Union[str, "os.PathLike[str]", None] = None) -> str:
    """The daemon to run: `binary`, else `$CATALOGD_BIN`, else the daemon
    bundled in this package (`catalogd/_bin/catalogd`, in a platform wheel),
    else `catalogd` on `PATH`. Raises `BinaryNotFound` naming the places it
    looked at, or `BinaryNotExecutable`."""
    if binary is not None:
        path = os.fspath(binary)
        source = "the binary argument"
    elif os.environ.get(ENV_BINARY):
        path = os.environ[ENV_BINARY]
        source = f"${ENV_BINARY}"
    elif BUNDLED_BINARY.is_file():
        path = str(BUNDLED_BINARY)
        source = "the daemon bundled in this package"
    else:
        found = which_daemon()
        if found is None:
            raise BinaryNotFound(
                "catalogd not found: no binary= argument, no $CATALOGD_BIN, no daemon bundled in this package "
                f"(it would be {BUNDLED_BINARY}: install the platform wheel), and no catalogd on PATH"
            )
        return found
    if os.sep not in path and not os.path.exists(path):
        found = shutil.which(path)
        if found is not None:
            return found
    if not os.path.isfile(path):
        raise BinaryNotFound(f"catalogd not found at {path!r} (from {source})")
    if not os.access(path, os.X_OK):
        raise BinaryNotExecutable(f"catalogd at {path!r} (from {source}) is not executable")
    return path


def which_daemon() -> Optional[str]:
    """`catalogd` on PATH, skipping the `catalogd` command of a package without
    a daemon (`_launcher.py` would only say so): in a virtualenv that holds the
    pure wheel, that command comes first on PATH and would hide a real daemon."""
    for directory in os.environ.get("PATH", os.defpath).split(os.pathsep):
        found = shutil.which("catalogd", path=directory or os.curdir)
        if found is not None and not _is_launcher(found):
            return found
    return None


def _is_launcher(path: str) -> bool:
    """Whether `path` is the console script that pip writes for `catalogd._launcher:main`."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return head.startswith(b"#!") and b"catalogd._launcher" in head


def check_timeout(timeout: Optional[float], name: str = "timeout") -> Optional[float]:
    """A time limit in seconds: None or infinity (no limit), else a number >= 0."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise InvalidArgument(f"{name} must be a number of seconds or None, not {type(timeout).__name__}")
    if math.isnan(timeout) or timeout < 0:
        raise InvalidArgument(f"{name} must be a number of seconds >= 0 or None, not {timeout!r}")
    if math.isinf(timeout):
        return None
    return float(timeout)


def trace_sent(body: bytes) -> None:
    if wire_logger.isEnabledFor(logging.DEBUG):
        wire_logger.debug("--> %s", body.decode("utf-8", "replace"))


def trace_received(body: bytes) -> None:
    if wire_logger.isEnabledFor(logging.DEBUG):
        wire_logger.debug("<-- %s", body.decode("utf-8", "replace"))


def default_client_info() -> Dict[str, str]:
    return {"name": "catalogd-python", "version": f"{__version__} (Python {sys.version.split()[0]})"}


def check_params(params: Any) -> Any:
    """JSON-RPC params are an object, an array, or absent (None)."""
    if params is None or isinstance(params, (dict, list)):
        return params
    raise InvalidArgument(
        f"params must be a mapping, a sequence or None (JSON-RPC sends an object or an array), "
        f"not {type(params).__name__}"
    )


def request_message(id: int, method: str, params: Any) -> bytes:
    msg: Dict[str, Any] = {"jsonrpc": "2.0", "id": id, "method": method}
    if check_params(params) is not None:
        msg["params"] = params
    return dumps(msg)


def notification_message(method: str, params: Any) -> bytes:
    msg: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if check_params(params) is not None:
        msg["params"] = params
    return dumps(msg)


def method_not_found_reply(id: Any, method: Any) -> bytes:
    return dumps(
        {
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": -32601, "message": f"The client has no method {method}.", "data": {"method": method}},
        }
    )


# The kinds of incoming message.
RESPONSE = "response"
NOTIFICATION = "notification"
REQUEST = "request"
INVALID = "invalid"


def classify(msg: Any) -> Tuple[str, Any]:
    """(kind, msg): a response (has id, result or error), a notification
    (method, no id), a request from the daemon (method and id), or invalid."""
    if not isinstance(msg, dict):
        return INVALID, msg
    if "method" in msg:
        if not isinstance(msg["method"], str):
            return INVALID, msg
        return (REQUEST if "id" in msg else NOTIFICATION), msg
    if "id" in msg and ("result" in msg or "error" in msg):
        return RESPONSE, msg
    return INVALID, msg


Callback = Callable[[Any], Any]


class Handlers:
    """Notification handlers by method. `add` returns the function that
    removes the handler; safe to call from any thread, and more than once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_method: Dict[str, Tuple[Callback, ...]] = {}

    def add(self, method: str, callback: Callback) -> Callable[[], None]:
        if not isinstance(method, str):
            raise InvalidArgument(f"method must be a str, not {type(method).__name__}")
        if not callable(callback):
            raise InvalidArgument("callback must be callable")
        entry = _Entry(callback)
        with self._lock:
            self._by_method[method] = self._by_method.get(method, ()) + (entry,)

        def dispose() -> None:
            with self._lock:
                current = self._by_method.get(method, ())
                rest = tuple(e for e in current if e is not entry)
                if rest:
                    self._by_method[method] = rest
                else:
                    self._by_method.pop(method, None)

        return dispose

    def get(self, method: str) -> Sequence[Callback]:
        with self._lock:
            return self._by_method.get(method, ())


class _Entry:
    """One registration: the same callback registered twice is two entries."""

    __slots__ = ("callback",)

    def __init__(self, callback: Callback) -> None:
        self.callback = callback

    def __call__(self, params: Any) -> Any:
        return self.callback(params)


class StderrTail:
    """The last lines the daemon wrote on stderr, kept for diagnostics; each
    line is also logged on `catalogd.daemon` (debug) and, when given, written
    to a text stream."""

    def __init__(self, max_lines: int = DEFAULT_STDERR_LINES, tee: Any = None) -> None:
        self._lines: Deque[str] = collections.deque(maxlen=max(1, max_lines))
        self._partial = b""
        self._lock = threading.Lock()
        self._tee = tee
        self.total_lines = 0

    def feed(self, data: bytes) -> None:
        with self._lock:
            data = self._partial + data
            *lines, self._partial = data.split(b"\n")
            for raw in lines:
                self._add(raw)

    def close(self) -> None:
        with self._lock:
            if self._partial:
                self._add(self._partial)
                self._partial = b""

    def _add(self, raw: bytes) -> None:
        line = raw.rstrip(b"\r").decode("utf-8", "replace")
        self._lines.append(line)
        self.total_lines += 1
        daemon_logger.debug("%s", line)
        if self._tee is not None:
            try:
                self._tee.write(line + "\n")
                self._tee.flush()
            except Exception:  # a broken tee must not stop the draining of the pipe
                logger.exception("writing the daemon's stderr to %r failed", self._tee)
                self._tee = None

    def tail(self, lines: Optional[int] = None) -> str:
        with self._lock:
            kept: List[str] = list(self._lines)
            if self._partial:
                kept.append(self._partial.decode("utf-8", "replace"))
        if lines is not None:
            kept = kept[-lines:] if lines > 0 else []
        return "\n".join(kept)


def notification_filter(methods: Sequence[str]) -> Callable[[str], bool]:
    wanted = frozenset(methods)
    if not wanted:
        return lambda method: True
    return lambda method: method in wanted


def merge_env(env: Optional[Mapping[str, Optional[str]]]) -> Optional[Dict[str, str]]:
    """The daemon's whole environment, as `subprocess` wants it: None (inherit
    this process's) when `env` is None, else this process's environment with
    `env` applied: its variables added or replaced, those set to None removed."""
    if env is None:
        return None
    if isinstance(env, (str, bytes)) or not isinstance(env, Mapping):
        raise InvalidArgument(f"env must be a mapping of names to values or None, not {type(env).__name__}")
    merged = dict(os.environ)
    for name, value in env.items():
        if value is None:
            merged.pop(str(name), None)
        else:
            merged[str(name)] = str(value)
    return merged
