"""`AsyncClient`: the asyncio client.

One reader task reads the daemon's stdout, resolves the futures of pending
calls and runs the notification handlers on the event loop, in the order the
daemon wrote the notifications; all handlers of the notifications that
precede a response have run before the call awaiting that response resumes.
A handler may return an awaitable: it is scheduled as a task (and its
exceptions logged). Cancelling a task that awaits a call sends
`$/cancelRequest` for it; the task gets `CancelledError` as usual.

An `AsyncClient` belongs to the event loop it was started in.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any, AsyncIterator, Dict, Generic, Mapping, Optional, Set, Tuple

from ._base import ClientBase, Notification, P, ReplyHook
from ._core import check_timeout, logger, notification_filter, notification_message, request_message, trace_sent
from ._errors import DaemonExited, InvalidState, NotificationTimeout, ProtocolError, RequestTimeout
from ._exit_status import ExitStatus
from ._feed import AsyncFeed
from ._framing import Decoder, encode
from ._methods import AsyncClientMethods
from ._wire import to_json

READ_CHUNK = 1 << 16

_END = object()


class AsyncNotificationStream(Generic[P]):
    """The notifications received since it was made, in order, as
    `Notification(method, params)`: `async for` over it or await `get`.
    Iteration ends when the daemon exits or the stream is closed.

    `P` is the type of the params, as the daemon sent them (JSON): the
    `…Json` TypedDict of the notification when the stream was made for one
    notification name, else `Any`."""

    def __init__(self, client: "AsyncClient", methods: Tuple[str, ...]) -> None:
        self._client = client
        self._wanted = notification_filter(methods)
        self._queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self._ended = False

    def _offer(self, method: str, params: Any) -> None:
        if self._wanted(method):
            self._queue.put_nowait(Notification(method, params))

    def _end(self) -> None:
        self._queue.put_nowait(_END)

    async def get(self, timeout: Optional[float] = None) -> Optional[Notification[P]]:
        """The next notification; None once the stream has ended. Raises
        `NotificationTimeout` (a `TimeoutError`, and an `asyncio.TimeoutError`)
        when none came within `timeout` seconds."""
        if self._ended:
            return None
        timeout = check_timeout(timeout)
        if timeout is None:
            item = await self._queue.get()
        else:
            try:
                item = await asyncio.wait_for(self._queue.get(), timeout)
            except asyncio.TimeoutError:
                raise NotificationTimeout(timeout) from None
        if item is _END:
            self._ended = True
            return None
        return item  # type: ignore[no-any-return]

    def __aiter__(self) -> AsyncIterator[Notification[P]]:
        return self

    async def __anext__(self) -> Notification[P]:
        item = await self.get()
        if item is None:
            raise StopAsyncIteration
        return item

    def close(self) -> None:
        """Stops receiving; what was received is still returned, then iteration ends."""
        self._client._remove_stream(self)
        self._end()

    async def aclose(self) -> None:
        """`close`, for `contextlib.aclosing` and async generators' protocol."""
        self.close()

    async def __aenter__(self) -> "AsyncNotificationStream[P]":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.close()


class AsyncClient(ClientBase, AsyncClientMethods):
    """A `catalogd` process driven over its stdin and stdout, from asyncio.

        async with AsyncClient() as client:
            quote = await client.quotes_random(tags=["wisdom"])
            async for method, params in client.notifications("quotes/loading"):
                ...

    Takes the same arguments as `Client`. Entering the `async with` block
    starts the daemon and does the `initialize` handshake (`start`); leaving
    it sends `shutdown` and `exit` and waits for the process (`close`).
    """

    def _init_transport(self) -> None:
        self._proc: Optional[asyncio.subprocess.Process] = None
        self._pending: Dict[int, Tuple["asyncio.Future[Dict[str, Any]]", str]] = {}
        self._reader_task: Optional["asyncio.Task[None]"] = None
        self._stderr_task: Optional["asyncio.Task[None]"] = None
        self._done: Optional[asyncio.Event] = None
        self._drain_lock: Optional[asyncio.Lock] = None
        self._callback_tasks: Set["asyncio.Future[Any]"] = set()
        self._closing = False

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> "AsyncClient":
        """Starts the daemon and does the handshake (`initialize`, then the
        `initialized` notification). Raises `DaemonExited` when the daemon
        ends before answering (its stderr says why)."""
        if self._proc is not None:
            raise InvalidState("this AsyncClient was already started; make a new one")
        # Made here, inside the running loop (Python 3.9 binds them to a loop when made).
        self._done = asyncio.Event()
        self._drain_lock = asyncio.Lock()
        self._proc = await asyncio.create_subprocess_exec(
            *self._command(),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self.env,
            cwd=self.cwd,
        )
        self._stderr_task = asyncio.ensure_future(self._read_stderr())
        self._reader_task = asyncio.ensure_future(self._read_stdout())
        try:
            self._initialize_result = await self.initialize(
                **self._initialize_params(), timeout=self.handshake_timeout
            )
            await self.notify("initialized", {})
        except BaseException:
            await self._kill()
            raise
        return self

    async def close(self, timeout: float = 5.0) -> ExitStatus:
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
        if not self._closing:
            self._closing = True
            if self._exited is None:
                for id in list(self._pending):  # shutdown is answered after them: make them end now
                    self._write_nowait(notification_message("$/cancelRequest", {"id": id}))
                if not self._shutdown_done:
                    try:
                        await self.request("shutdown", None, timeout=timeout)
                    except Exception as e:  # the daemon may be gone or wedged: the process still has to end
                        logger.debug("shutdown failed: %s", e)
                try:
                    await self.notify("exit")
                except (DaemonExited, OSError) as e:
                    logger.debug("exit failed: %s", e)
            try:
                if proc.stdin is not None:
                    proc.stdin.close()
            except (OSError, RuntimeError):
                pass
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except asyncio.TimeoutError:
            logger.warning("catalogd (pid %d) did not exit within %g s of exit: killing it", proc.pid, timeout)
            await self._kill()
        assert self._done is not None
        try:
            await asyncio.wait_for(self._done.wait(), timeout)
        except asyncio.TimeoutError:
            pass
        self._exit_status = ExitStatus.from_returncode(proc.returncode)
        return self._exit_status

    async def _kill(self) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.returncode is None:
            try:
                proc.kill()
            except ProcessLookupError:
                pass
        await proc.wait()
        if self._done is not None:
            try:
                await asyncio.wait_for(self._done.wait(), 5.0)
            except asyncio.TimeoutError:
                pass

    async def __aenter__(self) -> "AsyncClient":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    @property
    def pid(self) -> Optional[int]:
        """The daemon's process id (None before `start`)."""
        return self._proc.pid if self._proc is not None else None

    @property
    def returncode(self) -> Optional[int]:
        """The exit status once the process has ended (negative: killed by that signal), else None."""
        return self._proc.returncode if self._proc is not None else None

    # ---------------------------------------------------------------- calls

    async def request(self, method: str, params: Any = None, timeout: Optional[float] = None) -> Any:
        """Sends a request and returns its result.

        Raises the `RpcError` subclass of the error's code when the daemon
        answers with an error; `RequestTimeout` after `timeout` seconds
        (default: the client's `timeout`), having sent `$/cancelRequest`;
        `DaemonExited` when the daemon ends first. Cancelling the awaiting task
        sends `$/cancelRequest` and raises `CancelledError` in it."""
        return await self._call(method, params, timeout)

    async def _call(
        self, method: str, params: Any, timeout: Optional[float], on_reply: Optional[ReplyHook] = None
    ) -> Any:
        """`request`, and `on_reply` runs in the reader task when the reply is
        read, before the notifications after it (and before this returns,
        unless the call timed out or was cancelled first)."""
        timeout = self.timeout if timeout is None else check_timeout(timeout)
        self._check_running(method)
        id = self._take_id()
        body = request_message(id, method, to_json(params))
        future: "asyncio.Future[Dict[str, Any]]" = asyncio.get_running_loop().create_future()
        self._pending[id] = (future, method)
        if on_reply is not None:
            self._hook_reply(id, on_reply, takes_reply=False)
        try:
            await self._send(body, method)
            if timeout is None:
                msg = await future
            else:
                msg = await asyncio.wait_for(asyncio.shield(future), timeout)
        except asyncio.TimeoutError:
            if self._abandon(id):
                raise RequestTimeout(method, id, timeout) from None  # type: ignore[arg-type]
            msg = future.result()  # the reply came as the time ran out
        except BaseException:  # CancelledError above all: tell the daemon
            self._abandon(id)
            raise
        return self._outcome(msg, method)

    def _send_in_order(self, method: str, params: Any, on_reply: ReplyHook) -> None:
        """Sends a request without waiting for it: `on_reply` gets its reply in
        the reader task, in stream order (never, if the daemon exits first).
        May be called from a notification handler."""
        self._check_running(method)
        id = self._take_id()
        body = request_message(id, method, to_json(params))
        self._hook_reply(id, on_reply, takes_reply=True)
        self._write_nowait(body)

    async def notify(self, method: str, params: Any = None) -> None:
        """Sends a notification (no reply)."""
        self._check_running(method)
        await self._send(notification_message(method, to_json(params)), method)

    async def open_feed(
        self,
        source: str,
        query: Optional[Mapping[str, Any]] = None,
        page_size: Optional[int] = None,
        changes: Optional[str] = None,
        *,
        timeout: Optional[float] = None,
    ) -> AsyncFeed:
        """Opens a feed of the daemon (`feeds/open`) as an `AsyncFeed`: a list
        of its items that keeps itself up to date with the feed's
        notifications. The arguments are those of `Client.open_feed`."""
        feed = AsyncFeed(self, source, query, page_size, changes)
        await feed._open(timeout)
        return feed

    def _notification_stream(self, methods: Tuple[str, ...]) -> AsyncNotificationStream[Any]:
        stream: AsyncNotificationStream[Any] = AsyncNotificationStream(self, methods)
        self._add_stream(stream)
        return stream

    def _check_running(self, method: str) -> None:
        if self._exited is not None:
            raise self._exited.for_method(method)
        if self._proc is None:
            raise InvalidState("the AsyncClient is not started: use `async with AsyncClient(...) as client:`")

    def _abandon(self, id: int) -> bool:
        """Stops waiting for `id`; tells the daemon to cancel it if it was still pending."""
        entry = self._pending.pop(id, None)
        if entry is None:
            return False  # answered: its reply hook, if any, has run
        self._unhook_reply(id)
        entry[0].cancel()
        if self._exited is None:
            self._abandoned.add(id)
            self._write_nowait(notification_message("$/cancelRequest", {"id": id}))
        return True

    def _write_nowait(self, body: bytes) -> None:
        """Queues bytes without waiting for the pipe (for replies and cancels)."""
        assert self._proc is not None and self._proc.stdin is not None
        trace_sent(body)
        try:
            if not self._proc.stdin.is_closing():
                self._proc.stdin.write(encode(body, self.framing))
        except (OSError, RuntimeError):
            pass

    async def _send(self, body: bytes, method: str) -> None:
        assert self._proc is not None and self._proc.stdin is not None and self._drain_lock is not None
        stdin = self._proc.stdin
        trace_sent(body)
        try:
            if stdin.is_closing():
                raise BrokenPipeError("stdin is closed")
            stdin.write(encode(body, self.framing))
            # One drain at a time: Python 3.9 fails concurrent drains of one writer.
            async with self._drain_lock:
                await stdin.drain()
            return
        except (OSError, RuntimeError):  # broken pipe, connection reset, closed transport
            pass
        assert self._done is not None
        try:
            await asyncio.wait_for(self._done.wait(), 5.0)
        except asyncio.TimeoutError:
            pass
        raise (self._exited or DaemonExited(self.returncode, self.stderr_tail())).for_method(method)

    # ---------------------------------------------------------------- reader tasks

    async def _read_stdout(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        stdout = self._proc.stdout
        decoder = Decoder(self.framing)
        try:
            while True:
                try:
                    chunk = await stdout.read(READ_CHUNK)
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
                        self._write_nowait(reply)
            if decoder.pending_bytes:
                logger.warning("catalogd's stdout ended inside a message (%d bytes)", decoder.pending_bytes)
        finally:
            await self._finish()

    async def _finish(self) -> None:
        """stdout ended: wait for the process and its stderr, then fail whatever is pending."""
        proc = self._proc
        assert proc is not None
        try:
            try:
                await asyncio.wait_for(proc.wait(), 5.0)
            except asyncio.TimeoutError:
                logger.warning("catalogd (pid %d) closed its stdout but kept running: killing it", proc.pid)
                proc.kill()
                await proc.wait()
            if self._stderr_task is not None:
                try:
                    await asyncio.wait_for(asyncio.shield(self._stderr_task), 2.0)
                except asyncio.TimeoutError:
                    pass
        finally:
            self._stderr.close()
            exited = DaemonExited(proc.returncode, self._stderr.tail(20))
            self._exited = exited
            pending = list(self._pending.values())
            self._pending.clear()
            for future, method in pending:
                if not future.done():
                    future.set_exception(exited.for_method(method))
            self._end_streams()
            if self._done is not None:
                self._done.set()

    async def _read_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        stderr = self._proc.stderr
        while True:
            try:
                chunk = await stderr.read(READ_CHUNK)
            except (OSError, ValueError):
                break
            if not chunk:
                break
            self._stderr.feed(chunk)

    def _resolve(self, id: int, msg: Dict[str, Any]) -> None:
        entry = self._pending.pop(id, None)
        if entry is None:
            self._unclaimed_reply(id, msg)
            return
        if not entry[0].done():
            entry[0].set_result(msg)

    def _after_callback(self, method: str, result: Any) -> None:
        if inspect.isawaitable(result):
            task = asyncio.ensure_future(result)
            self._callback_tasks.add(task)
            task.add_done_callback(self._callback_done(method))

    def _callback_done(self, method: str) -> Any:
        def done(task: "asyncio.Future[Any]") -> None:
            self._callback_tasks.discard(task)
            if not task.cancelled() and task.exception() is not None:
                logger.error("the handler of %s raised", method, exc_info=task.exception())

        return done
