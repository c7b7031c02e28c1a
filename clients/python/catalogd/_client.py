"""`Client`: the synchronous client.

Threads: a reader thread reads the daemon's stdout, resolves the calls that
wait for their replies and runs the notification handlers; a second thread
drains stderr into the stderr tail. Handlers therefore run on the reader
thread, one at a time, in the order the daemon wrote the notifications, and
all handlers of the notifications that precede a response have returned
before the call waiting for that response returns. A handler may call
`notify`, but not `request` (that would wait for a reply the reader thread
itself has to read): it raises `InvalidState`. Any number of threads may call
`request` at once, and one thread may have many requests in flight with
`submit`, whose futures are resolved on the reader thread too.
"""

from __future__ import annotations

import queue
import subprocess
import threading
from concurrent.futures import Future, InvalidStateError
from typing import Any, Callable, Dict, Generic, Iterator, List, Mapping, Optional, Tuple

from ._base import ClientBase, Notification, P, ReplyHook
from ._core import check_timeout, logger, notification_filter, notification_message, request_message, trace_sent
from ._deadlines import Deadlines
from ._errors import DaemonExited, InvalidState, NotificationTimeout, ProtocolError, RequestTimeout, RpcError
from ._exit_status import ExitStatus
from ._feed import Feed
from ._framing import Decoder, encode
from ._methods import ClientMethods
from ._wire import to_json

READ_CHUNK = 1 << 16

_END = object()


class _Pending:
    """A request waiting for its reply: a thread blocked in `request` (the
    event), or a `submit` future."""

    __slots__ = ("method", "event", "msg", "error", "future")

    def __init__(self, method: str, future: "Optional[Future[Any]]" = None) -> None:
        self.method = method
        self.event = threading.Event()
        self.msg: Optional[Dict[str, Any]] = None
        self.error: Optional[BaseException] = None
        self.future = future


def _settle(future: "Future[Any]", result: Any = None, error: Optional[BaseException] = None) -> None:
    """Resolves `future` unless it was cancelled meanwhile (its request then was abandoned)."""
    try:
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
    except InvalidStateError:
        pass


class NotificationStream(Generic[P]):
    """The notifications received since it was made, in order, as
    `Notification(method, params)`: iterate it (blocking) or call `get`.
    Iteration ends when the daemon exits or the stream is closed.

    `P` is the type of the params, as the daemon sent them (JSON): the
    `…Json` TypedDict of the notification when the stream was made for one
    notification name, else `Any`."""

    def __init__(self, client: "Client", methods: Tuple[str, ...]) -> None:
        self._client = client
        self._wanted = notification_filter(methods)
        self._queue: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
        self._ended = False

    def _offer(self, method: str, params: Any) -> None:
        if self._wanted(method):
            self._queue.put(Notification(method, params))

    def _end(self) -> None:
        self._queue.put(_END)

    def get(self, timeout: Optional[float] = None) -> Optional[Notification[P]]:
        """The next notification; None once the stream has ended. Raises
        `NotificationTimeout` (a `TimeoutError`) when none came within `timeout` seconds."""
        if self._ended:
            return None
        timeout = check_timeout(timeout)
        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise NotificationTimeout(timeout or 0.0) from None
        if item is _END:
            self._ended = True
            return None
        return item  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[Notification[P]]:
        return self

    def __next__(self) -> Notification[P]:
        item = self.get()
        if item is None:
            raise StopIteration
        return item

    def close(self) -> None:
        """Stops receiving; what was received is still returned, then iteration ends."""
        self._client._remove_stream(self)
        self._end()

    def __enter__(self) -> "NotificationStream[P]":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Client(ClientBase, ClientMethods):
    """A `catalogd` process driven over its stdin and stdout.

        with Client() as client:
            quote = client.quotes_random(tags=["wisdom"])

    `ClientBase.__init__` documents the arguments (keyword-only after `env`):
    `binary`, `args`, `env`, `framing`, `timeout` (30 s by default), `client_info`,
    `client_id`, `locale`, `remote`, `cwd`, `stderr`, `stderr_lines`, `handshake_timeout`.

    Entering the `with` block starts the daemon and does the `initialize`
    handshake (`start`); leaving it sends `shutdown` and `exit` and waits for the
    process (`close`). See the module docstring for threads and handlers.
    """

    def _init_transport(self) -> None:
        self._proc: Optional["subprocess.Popen[bytes]"] = None
        self._lock = threading.Lock()
        """Guards `_pending`, `_next_id` and `_exited`."""
        self._write_lock = threading.Lock()
        self._pending: Dict[int, _Pending] = {}
        self._reader: Optional[threading.Thread] = None
        self._stderr_reader: Optional[threading.Thread] = None
        self._deadlines: Optional[Deadlines] = None
        """The timeouts of `submit`'s futures; made by the first one that has a timeout."""
        self._done = threading.Event()
        """Set when the reader thread has finished: the process ended and pending calls failed."""
        self._closing = False

    # ---------------------------------------------------------------- lifecycle

    def start(self) -> "Client":
        """Starts the daemon and does the handshake (`initialize`, then the
        `initialized` notification). Raises `DaemonExited` when the daemon
        ends before answering (its stderr says why)."""
        if self._proc is not None:
            raise InvalidState("this Client was already started; make a new one")
        self._proc = subprocess.Popen(
            self._command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.env,
            cwd=self.cwd,
            bufsize=0,
        )
        name = f"catalogd-{self._proc.pid}"
        self._stderr_reader = threading.Thread(target=self._read_stderr, name=name + "-stderr", daemon=True)
        self._reader = threading.Thread(target=self._read_stdout, name=name + "-reader", daemon=True)
        self._stderr_reader.start()
        self._reader.start()
        try:
            self._initialize_result = self.initialize(**self._initialize_params(), timeout=self.handshake_timeout)
            self.notify("initialized", {})
        except BaseException:
            self._kill()
            raise
        return self

    def close(self, timeout: float = 5.0) -> ExitStatus:
        """Ends the session: cancels the calls still pending (they raise
        `RequestCancelled`, or `DaemonExited` if the daemon ends first), sends
        `shutdown` and `exit`, then waits up to `timeout` seconds for the
        process (it is killed after that). Returns how the process ended:
        `ExitStatus(exit_code=0, signal=None)` after a clean shutdown, both None
        if it was never started. Calling it again returns the same status."""
        if self._exit_status is not None:
            return self._exit_status
        proc = self._proc
        if proc is None:
            return ExitStatus(None, None)
        self._check_not_reader("close")
        if not self._closing:
            self._closing = True
            if self._exited is None:
                with self._lock:
                    pending = list(self._pending)
                for id in pending:  # shutdown is answered after them: make them end now
                    try:
                        self._write(notification_message("$/cancelRequest", {"id": id}), "$/cancelRequest")
                    except (DaemonExited, OSError):
                        break
                if not self._shutdown_done:
                    try:
                        self.request("shutdown", None, timeout=timeout)
                    except Exception as e:  # the daemon may be gone or wedged: the process still has to end
                        logger.debug("shutdown failed: %s", e)
                try:
                    self.notify("exit")
                except (DaemonExited, OSError) as e:
                    logger.debug("exit failed: %s", e)
            with self._write_lock:
                try:
                    if proc.stdin is not None:
                        proc.stdin.close()
                except OSError:
                    pass
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            logger.warning("catalogd (pid %d) did not exit within %g s of exit: killing it", proc.pid, timeout)
            self._kill()
        self._done.wait(timeout)
        self._exit_status = ExitStatus.from_returncode(proc.returncode)
        return self._exit_status

    def _kill(self) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                proc.kill()
            except OSError:
                pass
        proc.wait()
        self._done.wait(5.0)

    def __enter__(self) -> "Client":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def pid(self) -> Optional[int]:
        """The daemon's process id (None before `start`)."""
        return self._proc.pid if self._proc is not None else None

    @property
    def returncode(self) -> Optional[int]:
        """The exit status once the process has ended (negative: killed by that signal), else None."""
        return self._proc.poll() if self._proc is not None else None

    # ---------------------------------------------------------------- calls

    def request(self, method: str, params: Any = None, timeout: Optional[float] = None) -> Any:
        """Sends a request and returns its result.

        Raises the `RpcError` subclass of the error's code when the daemon
        answers with an error; `RequestTimeout` after `timeout` seconds
        (default: the client's `timeout`), having sent `$/cancelRequest`;
        `DaemonExited` when the daemon ends first. Ctrl-C while waiting also
        cancels the request. `params` may hold dataclasses of this package."""
        return self._call(method, params, timeout)

    def submit(self, method: str, params: Any = None, timeout: Optional[float] = None) -> "Future[Any]":
        """Sends a request now and returns a `concurrent.futures.Future` of its
        result without waiting for it, so that one thread can have many
        requests in flight (pipelining); `future.result()` waits.

        The future ends as `request` would: with the result, or with the
        `RpcError` of an error reply, `RequestTimeout` after `timeout` seconds
        (default: the client's `timeout`; `$/cancelRequest` is sent) or
        `DaemonExited`. `future.cancel()` while the reply has not come sends
        `$/cancelRequest`: the future is cancelled, the daemon stops the work
        and its late reply is ignored.

        Futures are resolved on the reader thread, in stream order (after the
        handlers of the notifications before the reply): callbacks added with
        `add_done_callback` run there, like handlers, and must not call
        `request`. `submit` itself may be called from a handler."""
        timeout = self.timeout if timeout is None else check_timeout(timeout)
        future: "Future[Any]" = Future()
        id, body = self._register(method, params, _Pending(method, future))
        if timeout is not None:
            with self._lock:
                if self._deadlines is None:
                    self._deadlines = Deadlines(f"catalogd-{self.pid}-timeouts")
                deadlines = self._deadlines
            cancel_deadline = deadlines.add(timeout, lambda: self._expire(id, future, method, timeout))
            future.add_done_callback(lambda _: cancel_deadline())
        future.add_done_callback(lambda f: self._abandon(id) if f.cancelled() else None)
        self._write_anywhere(body, method)
        return future

    def _register(self, method: str, params: Any, pending: "_Pending") -> Tuple[int, bytes]:
        """Takes an id for a request and records it as pending; returns the id
        and the body to write. Bad params or a client that is not running raise
        before anything is recorded."""
        wire_params = to_json(params)
        with self._lock:
            self._check_running(method)
            id = self._take_id()
            body = request_message(id, method, wire_params)
            self._pending[id] = pending
        return id, body

    def _expire(self, id: int, future: "Future[Any]", method: str, timeout: float) -> None:
        """A submitted request ran past its timeout (on the deadline thread)."""
        if self._abandon(id):
            _settle(future, error=RequestTimeout(method, id, timeout))

    def _call(
        self, method: str, params: Any, timeout: Optional[float], on_reply: Optional[ReplyHook] = None
    ) -> Any:
        """`request`, and `on_reply` runs on the reader thread when the reply
        is read (before this returns, unless the call timed out first)."""
        timeout = self.timeout if timeout is None else check_timeout(timeout)
        self._check_not_reader(f"request({method!r})")
        pending = _Pending(method)
        id, body = self._register(method, params, pending)
        if on_reply is not None:  # before the request is written, so before its reply can come
            self._hook_reply(id, on_reply, takes_reply=False)
        try:
            self._write(body, method)
            finished = pending.event.wait(timeout)
        except BaseException:
            self._abandon(id)
            raise
        if not finished and self._abandon(id):
            raise RequestTimeout(method, id, timeout)  # type: ignore[arg-type]
        if pending.error is not None:
            raise pending.error
        assert pending.msg is not None
        return self._outcome(pending.msg, method)

    def _send_in_order(self, method: str, params: Any, on_reply: ReplyHook) -> None:
        """Sends a request without waiting for it: `on_reply` gets its reply on
        the reader thread, in stream order (never, if the daemon exits first).
        May be called from a notification handler."""
        with self._lock:
            self._check_running(method)
            id = self._take_id()
            body = request_message(id, method, to_json(params))
            self._hook_reply(id, on_reply, takes_reply=True)
        self._write_anywhere(body, method, lambda: self._unhook_reply(id))

    def _write_anywhere(self, body: bytes, method: str, on_failure: Optional[Callable[[], None]] = None) -> None:
        """Writes a message from any thread, the reader's included: there it
        writes from a new thread, as the reader must not block on a full pipe
        while the daemon waits for it to read. A daemon that is gone fails the
        pending calls on its own; `on_failure()` runs then."""

        def write() -> None:
            try:
                self._write(body, method, wait_for_exit=False)
            except (DaemonExited, OSError):
                if on_failure is not None:
                    on_failure()

        if threading.current_thread() is self._reader:
            threading.Thread(target=write, name=f"catalogd-{self.pid}-write", daemon=True).start()
        else:
            write()

    def notify(self, method: str, params: Any = None) -> None:
        """Sends a notification (no reply)."""
        with self._lock:
            self._check_running(method)
        self._write(notification_message(method, to_json(params)), method)

    def open_feed(
        self,
        source: str,
        query: Optional[Mapping[str, Any]] = None,
        page_size: Optional[int] = None,
        changes: Optional[str] = None,
        *,
        timeout: Optional[float] = None,
    ) -> Feed:
        """Opens a feed of the daemon (`feeds/open`) as a `Feed`: a list of its
        items that keeps itself up to date with the feed's notifications.

        Args:
            source: "photos", "products", "places" or "quotes".
            query: the source's filters (products: query, supplierId, sort; …).
            page_size: items per page (None: the source's default).
            changes: "diff" (changes arrive in place, `feeds/itemsChanged`) or
                "reset" (a change reloads the items); None: the daemon's default, diff.
            timeout: seconds to wait for the reply; None: the client's default.
        """
        feed = Feed(self, source, query, page_size, changes)
        feed._open(timeout)
        return feed

    def _notification_stream(self, methods: Tuple[str, ...]) -> NotificationStream[Any]:
        stream: NotificationStream[Any] = NotificationStream(self, methods)
        self._add_stream(stream)
        return stream

    def _check_running(self, method: str) -> None:
        if self._exited is not None:
            raise self._exited.for_method(method)
        if self._proc is None:
            raise InvalidState("the Client is not started: use `with Client(...) as client:` or call start()")

    def _check_not_reader(self, what: str) -> None:
        if threading.current_thread() is self._reader:
            raise InvalidState(
                f"{what} from a notification handler: handlers run on the reader thread, which must stay "
                "free to read the reply; use notify() or submit(), or hand the work to another thread"
            )

    def _abandon(self, id: int) -> bool:
        """Stops waiting for `id`; tells the daemon to cancel it if it was still pending."""
        with self._lock:
            pending = self._pending.pop(id, None)
            running = self._exited is None
            if pending is not None and running:
                self._abandoned.add(id)
        if pending is None:
            return False  # answered: its reply hook, if any, has run
        self._unhook_reply(id)
        if running:
            self._write_anywhere(notification_message("$/cancelRequest", {"id": id}), "$/cancelRequest")
        return True

    def _write(self, body: bytes, method: str, wait_for_exit: bool = True) -> None:
        trace_sent(body)
        data = encode(body, self.framing)
        assert self._proc is not None and self._proc.stdin is not None
        with self._write_lock:
            try:
                view = memoryview(data)
                while view:
                    n = self._proc.stdin.write(view)
                    view = view[n or 0 :]
                return
            except (OSError, ValueError):  # broken pipe, or stdin already closed
                pass
        # The daemon is gone: report its exit, once the reader has seen it.
        if wait_for_exit:
            self._done.wait(5.0)
        raise (self._exited or DaemonExited(self.returncode, self.stderr_tail())).for_method(method)

    # ---------------------------------------------------------------- reader threads

    def _read_stdout(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        stdout = self._proc.stdout
        decoder = Decoder(self.framing)
        try:
            while True:
                try:
                    chunk = stdout.read(READ_CHUNK)
                except (OSError, ValueError):
                    break
                if not chunk:
                    break
                try:
                    bodies = decoder.feed(chunk)
                except ProtocolError as e:
                    logger.error("catalogd broke the framing (%s): stopping it", e)
                    self._proc.kill()
                    break
                for body in bodies:
                    reply = self._handle_body(body)
                    if reply is not None:
                        try:
                            self._write(reply, "reply", wait_for_exit=False)
                        except DaemonExited:
                            pass
            if decoder.pending_bytes:
                logger.warning("catalogd's stdout ended inside a message (%d bytes)", decoder.pending_bytes)
        finally:
            self._finish()

    def _finish(self) -> None:
        """stdout ended: wait for the process and its stderr, then fail whatever is pending."""
        proc = self._proc
        assert proc is not None
        try:
            proc.wait(5.0)
        except subprocess.TimeoutExpired:
            logger.warning("catalogd (pid %d) closed its stdout but kept running: killing it", proc.pid)
            proc.kill()
            proc.wait()
        if self._stderr_reader is not None:
            self._stderr_reader.join(2.0)
        # Close the pipes whose reader is done (one still reading keeps its own).
        stderr_done = self._stderr_reader is None or not self._stderr_reader.is_alive()
        for pipe in (proc.stdout, proc.stderr if stderr_done else None):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        self._stderr.close()
        exited = DaemonExited(proc.returncode, self._stderr.tail(20))
        futures: List[_Pending] = []
        with self._lock:
            self._exited = exited
            for p in self._pending.values():
                if p.future is not None:
                    futures.append(p)
                else:
                    p.error = exited.for_method(p.method)
                    p.event.set()
            self._pending.clear()
        if self._deadlines is not None:
            self._deadlines.close()
        for p in futures:  # outside the lock: their done callbacks run now
            assert p.future is not None
            _settle(p.future, error=exited.for_method(p.method))
        self._end_streams()
        self._done.set()

    def _read_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        stderr = self._proc.stderr
        while True:
            try:
                chunk = stderr.read(READ_CHUNK)
            except (OSError, ValueError):
                break
            if not chunk:
                break
            self._stderr.feed(chunk)

    def _resolve(self, id: int, msg: Dict[str, Any]) -> None:
        with self._lock:  # so that a caller whose _abandon finds nothing sees the reply
            pending = self._pending.pop(id, None)
            if pending is None:
                self._unclaimed_reply(id, msg)
                return
            if pending.future is None:
                pending.msg = msg
                pending.event.set()
                return
        try:  # a submitted request: resolved outside the lock, as its done callbacks run now
            result = self._outcome(msg, pending.method)
        except RpcError as e:
            _settle(pending.future, error=e)
        else:
            _settle(pending.future, result)
