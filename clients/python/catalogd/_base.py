"""The part of `Client` and `AsyncClient` that does not depend on how they
wait: configuration, handlers, notification streams, incoming dispatch and
diagnostics."""

from __future__ import annotations

import json
import os
import threading
import weakref
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Generic,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Protocol,
    Sequence,
    Set,
    Tuple,
    TypeVar,
    Union,
)

from ._core import (
    DEFAULT_STDERR_LINES,
    DEFAULT_TIMEOUT,
    INVALID,
    NOTIFICATION,
    REQUEST,
    RESPONSE,
    Handlers,
    StderrTail,
    check_timeout,
    classify,
    default_client_info,
    find_binary,
    logger,
    merge_env,
    method_not_found_reply,
    trace_received,
)
from ._errors import DaemonExited, InvalidArgument, RpcError
from ._exit_status import ExitStatus
from ._feed_router import FeedRouter
from ._framing import Framing, check_framing
from ._types import InitializeResult

ReplyHook = Callable[[Dict[str, Any]], None]
"""Runs with a reply (the whole message, `result` or `error`) when the client
reads it: in stream order, after the notifications before it and before
those after it (on the reader thread of `Client`, in the reader task of
`AsyncClient`)."""

P = TypeVar("P")
"""The type of a notification's params."""

if TYPE_CHECKING:

    class Notification(NamedTuple, Generic[P]):
        """A notification from the daemon; unpacks as `(method, params)`."""

        method: str
        params: P

else:

    class Notification(NamedTuple):
        """A notification from the daemon; unpacks as `(method, params)`.

        Generic for type checkers (`Notification[QuotesLoadingJson]`); a
        generic NamedTuple needs Python 3.11, so at run time the subscript
        returns the class itself."""

        method: str
        params: Any

    Notification.__class_getitem__ = classmethod(lambda cls, item: cls)


PathLike = Union[str, "os.PathLike[str]"]


class TextSink(Protocol):
    """Where the daemon's stderr can be copied to: `sys.stderr`, an open text file, `io.StringIO`."""

    def write(self, text: str, /) -> Any: ...

    def flush(self) -> Any: ...


class ClientBase:
    """Configuration and bookkeeping shared by `Client` and `AsyncClient`."""

    def __init__(
        self,
        binary: Optional[PathLike] = None,
        args: Sequence[PathLike] = (),
        env: Optional[Mapping[str, Optional[str]]] = None,
        *,
        framing: Framing = "ndjson",
        timeout: Optional[float] = DEFAULT_TIMEOUT,
        client_info: Optional[Mapping[str, Any]] = None,
        client_id: Optional[str] = None,
        locale: Optional[str] = None,
        remote: Optional[str] = None,
        cwd: Optional[PathLike] = None,
        stderr: Optional[TextSink] = None,
        stderr_lines: int = DEFAULT_STDERR_LINES,
        handshake_timeout: Optional[float] = DEFAULT_TIMEOUT,
    ) -> None:
        """A client of a daemon it starts (`start`, or entering `with`).

        Args:
            binary: the daemon's executable; else `$CATALOGD_BIN`, else the daemon
                bundled in this package, else `catalogd` on PATH.
            args: its command-line arguments, e.g. `["--data-dir", "/tmp/d"]`.
            env: variables to add to this process's environment for the daemon; a
                value of None removes that variable (None: this process's environment).
            framing: "ndjson" (default) or "lsp"; passed as `--framing` unless `args` hold one.
            timeout: default seconds a request waits for its reply (default 30; None: no limit).
            client_info: `initialize`'s clientInfo (default: this library's name and version).
            client_id: `initialize`'s clientId (default: the daemon's persisted UUID).
            locale: the language of the daemon's error messages, "ko" or "en" (default:
                the daemon's LC_ALL, LC_MESSAGES or LANG).
            remote: "auto" to run the session in the shared daemon of this configuration
                (started when none runs), or the path of a shared daemon's socket; passed
                as `--remote` (None: a daemon of this client's own).
            cwd: the daemon's working directory.
            stderr: a text stream that also receives each line of the daemon's stderr.
            stderr_lines: how many lines of stderr to keep for `stderr_tail` and `DaemonExited`.
            handshake_timeout: seconds `start` waits for the `initialize` reply (None: no limit).

        Wrong arguments raise `InvalidArgument` (a `TypeError` and a `ValueError`).
        """
        if isinstance(args, (str, bytes)):
            raise InvalidArgument("args must be a sequence of arguments, not one string")
        self.framing: Framing = check_framing(framing)
        """"ndjson" (one JSON text per line) or "lsp" (Content-Length headers)."""
        self.timeout: Optional[float] = check_timeout(timeout)
        """Seconds a request waits for its reply when it names no timeout; None: no limit."""
        self.handshake_timeout: Optional[float] = check_timeout(handshake_timeout, "handshake_timeout")
        """Seconds `start` waits for the reply to `initialize`; None: no limit."""
        self.binary: str = find_binary(binary)
        """The daemon's executable."""
        if remote is not None and not isinstance(remote, str):
            raise InvalidArgument(f"remote must be \"auto\" or a socket path, not {type(remote).__name__}")
        self.args: List[str] = [os.fspath(a) for a in args] + ([] if remote is None else [f"--remote={remote}"])
        """Command-line arguments for the daemon (`--data-dir DIR`, `--quotes-url URL`, …)."""
        self.env: Optional[Dict[str, str]] = merge_env(env)
        """The daemon's whole environment (this process's with `env` applied); None inherits this process's."""
        self.cwd: Optional[str] = None if cwd is None else os.fspath(cwd)
        """The daemon's working directory; None: this process's."""
        self._initialize_result: Optional[InitializeResult] = None
        self._client_info = dict(client_info) if client_info is not None else default_client_info()
        self._client_id = client_id
        self._locale = locale
        self._handlers = Handlers()
        self._streams: "weakref.WeakSet[Any]" = weakref.WeakSet()
        self._streams_lock = threading.Lock()
        self._stderr = StderrTail(stderr_lines, stderr)
        self._exited: Optional[DaemonExited] = None
        """Set once the daemon has exited and every pending call has failed."""
        self._exit_status: Optional[ExitStatus] = None
        """What `close` returned, returned again by later calls."""
        self._shutdown_done = False
        self._next_id = 1
        self._abandoned: Set[int] = set()
        """Ids of calls that stopped waiting (timeout, cancel): their late replies are expected."""
        self._reply_hooks: Dict[int, Tuple[ReplyHook, bool]] = {}
        """Hooks by request id, each with whether it alone takes the reply (no call waits for it)."""
        self._reply_hooks_lock = threading.Lock()
        self._feeds: Optional[FeedRouter] = None
        """Routes feeds/* notifications to the feed objects; made by the first open_feed."""
        self._init_transport()

    def _init_transport(self) -> None:
        """The state of how the subclass talks to the process (made at the end of `__init__`)."""

    # ---------------------------------------------------------------- surface

    def on(self, method: str, callback: Callable[[Any], Any]) -> Callable[[], None]:
        """Calls `callback(params)` for every notification `method` from the
        daemon; returns a function that removes the handler (calling it again
        does nothing). Exceptions raised by a callback are logged on the
        `catalogd` logger and do not stop the client."""
        return self._handlers.add(method, callback)

    @property
    def initialize_result(self) -> Optional[InitializeResult]:
        """What `initialize` answered: server info, client id, capabilities (None before `start`)."""
        return self._initialize_result

    def stderr_tail(self, lines: Optional[int] = 20) -> str:
        """The last `lines` lines the daemon wrote on stderr (None: all that
        are kept, `stderr_lines` at most)."""
        return self._stderr.tail(lines)

    @property
    def exited(self) -> bool:
        """Whether the daemon's process has ended (and every pending call failed)."""
        return self._exited is not None

    # ---------------------------------------------------------------- internals

    def _command(self) -> List[str]:
        """The daemon's command line: `--framing` first, unless `args` choose one
        (so that a `CATALOGD_FRAMING` in the environment cannot break the session)."""
        if any(a == "--framing" or a.startswith("--framing=") for a in self.args):
            return [self.binary, *self.args]
        return [self.binary, "--framing", self.framing, *self.args]

    def _initialize_params(self) -> Dict[str, Any]:
        return {"client_info": self._client_info, "client_id": self._client_id, "locale": self._locale}

    def _feed_router(self) -> FeedRouter:
        with self._reply_hooks_lock:
            if self._feeds is None:
                self._feeds = FeedRouter(self)
            return self._feeds

    def _hook_reply(self, id: int, hook: ReplyHook, takes_reply: bool) -> None:
        with self._reply_hooks_lock:
            self._reply_hooks[id] = (hook, takes_reply)

    def _unhook_reply(self, id: int) -> None:
        with self._reply_hooks_lock:
            self._reply_hooks.pop(id, None)

    def _run_reply_hook(self, id: int, msg: Dict[str, Any]) -> bool:
        """Runs the hook of `id`, if any; True when it took the reply."""
        with self._reply_hooks_lock:
            entry = self._reply_hooks.pop(id, None)
        if entry is None:
            return False
        hook, takes_reply = entry
        try:
            hook(msg)
        except Exception:
            logger.exception("the reply hook of request %d raised", id)
        return takes_reply

    def _take_id(self) -> int:
        id = self._next_id
        self._next_id += 1
        return id

    def _add_stream(self, stream: Any) -> None:
        with self._streams_lock:
            if self._exited is not None:
                stream._end()
            else:
                self._streams.add(stream)

    def _remove_stream(self, stream: Any) -> None:
        with self._streams_lock:
            self._streams.discard(stream)

    def _end_streams(self) -> None:
        with self._streams_lock:
            streams = list(self._streams)
            self._streams.clear()
        for s in streams:
            s._end()

    def _outcome(self, msg: Dict[str, Any], method: str) -> Any:
        """The result of a response, or its error raised as the class of its code."""
        if "error" in msg:
            raise RpcError.from_wire(msg["error"], method)
        if method == "shutdown":
            self._shutdown_done = True
        return msg.get("result")

    def _handle_body(self, body: bytes) -> Optional[bytes]:
        """Handles one incoming message; returns a reply to write, if any."""
        trace_received(body)
        try:
            msg = json.loads(body)
        except ValueError as e:
            logger.warning("catalogd wrote a message that is not JSON (%s): %.200r", e, body)
            return None
        kind, msg = classify(msg)
        if kind == RESPONSE:
            id = msg["id"]
            if type(id) is int:  # noqa: E721 - True must not match id 1
                if not self._run_reply_hook(id, msg):
                    self._resolve(id, msg)
            elif id is None and isinstance(msg.get("error"), dict):
                logger.warning("catalogd reported an error for a message it could not read: %s", msg["error"])
            else:
                logger.warning("catalogd answered an id this client never sent: %.200r", msg)
        elif kind == NOTIFICATION:
            self._notify_observers(msg["method"], msg.get("params"))
        elif kind == REQUEST:
            return method_not_found_reply(msg["id"], msg["method"])
        elif kind == INVALID:
            logger.warning("catalogd wrote a message that is neither a response nor a notification: %.200r", msg)
        return None

    def _resolve(self, id: int, msg: Dict[str, Any]) -> None:
        raise NotImplementedError

    def _send_in_order(self, method: str, params: Any, on_reply: ReplyHook) -> None:
        """Sends a request without waiting; `on_reply` gets its reply where
        notifications are handled, in stream order."""
        raise NotImplementedError

    def _unclaimed_reply(self, id: int, msg: Dict[str, Any]) -> None:
        """A reply no call waits for: expected after a timeout or a cancel, else a daemon bug.
        (Client calls it holding its lock.)"""
        if id in self._abandoned:
            self._abandoned.discard(id)
            logger.debug("the late reply to request %d, which no longer waits (timed out or cancelled)", id)
        else:
            logger.warning("catalogd answered an id this client never sent, or answered it twice: %.200r", msg)

    def _notify_observers(self, method: str, params: Any) -> None:
        with self._streams_lock:
            streams = list(self._streams)
        for s in streams:
            s._offer(method, params)
        for callback in self._handlers.get(method):
            try:
                result = callback(params)
            except Exception:
                logger.exception("the handler of %s raised", method)
                continue
            self._after_callback(method, result)

    def _after_callback(self, method: str, result: Any) -> None:
        """AsyncClient schedules the awaitables callbacks return."""
