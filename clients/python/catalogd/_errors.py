"""The exceptions of the client.

`CatalogdError` is the root of every exception the client raises, so one
`except CatalogdError` catches them all. Below it:

- `RpcError`: an error reply of the daemon (a JSON-RPC error object). It
  carries the wire `code`, the one-sentence `message` a UI can show and the
  machine-readable `data`; each well-known code has its subclass, so callers
  catch what they handle (`except NotFound`) and `RpcError` for the rest.
- `DaemonExited` (the process ended while calls were pending, or before a call
  was made), `RequestTimeout` (a call ran past its timeout; the daemon was told
  to cancel it), `NotificationTimeout` (no notification came in time),
  `ProtocolError` (the daemon wrote something that breaks the contract) and
  `BinaryNotFound` (no daemon to start).
- `UsageError`: the client was called wrongly, a programming error.

Each non-wire error also derives from the standard exception it was before
the root existed (`ConnectionError`, `TimeoutError`, `ValueError`,
`FileNotFoundError`, `TypeError`, `RuntimeError`), so `except` clauses written
for those keep working.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from typing import Any, ClassVar, Dict, Mapping, Optional, Type


class CatalogdError(Exception):
    """The root of every exception this client raises: `RpcError` (an error
    reply of the daemon), `DaemonExited`, `RequestTimeout`,
    `NotificationTimeout`, `ProtocolError`, `BinaryNotFound` and `UsageError`."""


class RpcError(CatalogdError):
    """An error reply of the daemon.

    Attributes:
        code: the JSON-RPC error code (`-32001`, …).
        message: one short sentence for people, as the daemon wrote it.
        data: the machine-readable detail (`{"field": …, "reason": …}`, …) or None.
        method: the method of the request that failed, when known.
    """

    CODE: ClassVar[Optional[int]] = None
    """The code this class stands for; None for `RpcError` itself."""

    def __init__(self, code: int, message: str, data: Any = None, method: Optional[str] = None) -> None:
        super().__init__(code, message, data)
        self.code: int = code
        self.message: str = message
        self.data: Any = data
        self.method: Optional[str] = method

    def __str__(self) -> str:
        where = f" [{self.code}" + (f" {self.method}" if self.method else "") + "]"
        detail = "" if self.data is None else f" data={self.data!r}"
        return f"{self.message}{where}{detail}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r}, data={self.data!r})"

    @staticmethod
    def from_wire(error: Any, method: Optional[str] = None) -> "RpcError":
        """The exception for a JSON-RPC error object: an instance of the
        subclass registered for its code, else of `RpcError` itself."""
        if not isinstance(error, Mapping):
            return InternalError(-32603, f"malformed error object: {error!r:.200}", None, method)
        code = error.get("code")
        if not isinstance(code, int) or isinstance(code, bool):
            code = -32603
        message = error.get("message")
        if not isinstance(message, str):
            message = str(message)
        cls = ERROR_CLASSES.get(code, RpcError)
        return cls(code, message, error.get("data"), method)


class ParseError(RpcError):
    """-32700: bad framing, bad JSON, a message too large or too deep; data `{reason}`."""

    CODE: ClassVar[Optional[int]] = -32700


class InvalidRequest(RpcError):
    """-32600: not a JSON-RPC 2.0 request, or a request after `shutdown`; data `{reason}`."""

    CODE: ClassVar[Optional[int]] = -32600


class MethodNotFound(RpcError):
    """-32601: the daemon does not serve this method; data `{method}`."""

    CODE: ClassVar[Optional[int]] = -32601


class InvalidParams(RpcError):
    """-32602: a parameter is missing, of the wrong type or out of range; data `{field, reason}`."""

    CODE: ClassVar[Optional[int]] = -32602

    @property
    def field(self) -> Optional[str]:
        """The parameter at fault, from `data.field`."""
        return self.data.get("field") if isinstance(self.data, Mapping) else None


class InternalError(RpcError):
    """-32603: a bug in the daemon; the details are on its stderr."""

    CODE: ClassVar[Optional[int]] = -32603


class ServerNotInitialized(RpcError):
    """-32002: a request before `initialize`."""

    CODE: ClassVar[Optional[int]] = -32002


class RequestCancelled(RpcError):
    """-32800: the request was cancelled with `$/cancelRequest`."""

    CODE: ClassVar[Optional[int]] = -32800


class NotFound(RpcError):
    """-32001: no such resource, or nothing matched a filter; data `{resource, id}`."""

    CODE: ClassVar[Optional[int]] = -32001


class Conflict(RpcError):
    """-32009: a stale `expectedVersion`; data `{currentVersion}`."""

    CODE: ClassVar[Optional[int]] = -32009


class UpstreamUnavailable(RpcError):
    """-32020: the upstream could not be reached (connect, TLS, DNS, timeout);
    retry later. data `{service, retryable: true, reason}`."""

    CODE: ClassVar[Optional[int]] = -32020

    @property
    def retryable(self) -> bool:
        """Whether trying again later may succeed (`data.retryable`, true unless the daemon says otherwise)."""
        if isinstance(self.data, Mapping) and isinstance(self.data.get("retryable"), bool):
            return bool(self.data["retryable"])
        return True


class UpstreamError(RpcError):
    """-32021: the upstream answered badly (status, malformed body); data `{service, status?, upstreamMessage?}`."""

    CODE: ClassVar[Optional[int]] = -32021


class StorageFull(RpcError):
    """-32030: a change was not saved: the disk that holds the daemon's data is
    full; retry after freeing space. data `{retryable: true, reason}`."""

    CODE: ClassVar[Optional[int]] = -32030

    @property
    def retryable(self) -> bool:
        """Whether trying again (once space was freed) may succeed."""
        return True


ERROR_CLASSES: Dict[int, Type[RpcError]] = {
    cls.CODE: cls
    for cls in (
        ParseError,
        InvalidRequest,
        MethodNotFound,
        InvalidParams,
        InternalError,
        ServerNotInitialized,
        RequestCancelled,
        NotFound,
        Conflict,
        UpstreamUnavailable,
        UpstreamError,
        StorageFull,
    )
    if cls.CODE is not None
}
"""Wire code → exception class."""


def describe_status(returncode: Optional[int]) -> str:
    """`status 1`, `killed by SIGKILL`, … for a `Popen.returncode`."""
    if returncode is None:
        return "status unknown"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"status {returncode}"


class DaemonExited(CatalogdError, ConnectionError):
    """The daemon's process ended: raised by the calls that were pending then
    and by every later call.

    Attributes:
        returncode: the exit status (negative: killed by that signal), None if unknown.
        stderr_tail: the last lines the daemon wrote on stderr, for diagnostics.
        method: the method of the call that failed, when there was one.
    """

    def __init__(self, returncode: Optional[int], stderr_tail: str, method: Optional[str] = None) -> None:
        self.returncode: Optional[int] = returncode
        self.stderr_tail: str = stderr_tail
        self.method: Optional[str] = method
        waiting = f" while {method} was pending" if method else ""
        text = f"catalogd exited ({describe_status(returncode)}){waiting}"
        if stderr_tail.strip():
            text += "; the end of its stderr:\n" + "\n".join("    " + line for line in stderr_tail.splitlines())
        else:
            text += "; it wrote nothing on stderr"
        super().__init__(text)

    def for_method(self, method: Optional[str]) -> "DaemonExited":
        """The same exit, reported to a call of `method`."""
        return DaemonExited(self.returncode, self.stderr_tail, method)


if sys.version_info >= (3, 11):
    _Timeout = TimeoutError
else:

    class _Timeout(TimeoutError, asyncio.TimeoutError):
        """Before Python 3.11 asyncio.TimeoutError is not the built-in
        TimeoutError: derive from both so `except asyncio.TimeoutError` works too."""


class RequestTimeout(CatalogdError, _Timeout):
    """A call ran past its timeout. The client sent `$/cancelRequest` for it
    and ignores its late reply.

    Attributes:
        method: the method called.
        id: the request id.
        timeout: the timeout in seconds.
    """

    def __init__(self, method: str, id: int, timeout: float) -> None:
        super().__init__(f"{method} (request {id}) timed out after {timeout:g} s; it was cancelled")
        self.method: str = method
        self.id: int = id
        self.timeout: float = timeout


class NotificationTimeout(CatalogdError, _Timeout):
    """`get(timeout=…)` of a notification stream: no notification came in time.

    Attributes:
        timeout: the time waited, in seconds.
    """

    def __init__(self, timeout: float) -> None:
        super().__init__(f"no notification within {timeout:g} s")
        self.timeout: float = timeout


class ProtocolError(CatalogdError, ValueError):
    """The daemon wrote something that breaks the wire contract: a reply that
    lacks a required member, or bytes on stdout that are not a message."""


class FeedOutOfSync(ProtocolError):
    """A feed's notifications did not fit the items held for it: a
    `feeds/pageLoaded` that does not start at the end of the list, a
    `feeds/itemsChanged` step outside the list or a `count` other than the
    length after the steps, or params that do not decode. The list is left as
    it was before that notification, and the feed reloads it with
    `feeds/items` (a resync). Not raised to callers: `Feed` delivers it in a
    `FeedEvent` of kind "desync" and logs it on the `catalogd` logger.

    Attributes:
        feed_id: the feed.
        reason: what did not fit, in words.
    """

    def __init__(self, feed_id: Optional[str], reason: str) -> None:
        super().__init__(f"feed {feed_id}: {reason}; reloading its items" if feed_id else f"{reason}; reloading")
        self.feed_id: Optional[str] = feed_id
        self.reason: str = reason


class BinaryNotFound(CatalogdError, FileNotFoundError):
    """No daemon to start: none at the path given (`binary=`, `$CATALOGD_BIN`),
    and, when none was given, none inside the package nor on PATH. The message
    names every place that was looked at."""


class BinaryNotExecutable(BinaryNotFound, PermissionError):
    """The daemon's file exists but may not be executed (its mode lacks `x`)."""


class UsageError(CatalogdError):
    """The client was called wrongly: a programming error to fix, not a
    condition to handle at run time. Raised as `InvalidArgument` or
    `InvalidState`, each also the standard exception such a mistake raises."""


class InvalidArgument(UsageError, TypeError, ValueError):
    """An argument of the wrong type or value: a framing other than "ndjson" or
    "lsp", a negative or non-numeric timeout, params that are neither an
    object nor an array, `args` given as one string. Also a `TypeError` and a
    `ValueError`, which the standard library raises for such mistakes."""


class InvalidState(UsageError, RuntimeError):
    """A call the client cannot make now: before `start`, a second `start`,
    or a blocking `request` from a notification handler (the reader thread
    must stay free to read its reply). Also a `RuntimeError`."""
