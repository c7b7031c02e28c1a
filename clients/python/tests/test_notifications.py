"""Notifications: handlers (`on`, typed `on_…`) with their disposers, and
`notifications()` as an iterator; they come before the response they precede."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any, List

import pytest
from client_support import run

import catalogd
from catalogd import AsyncClient, Notification, QuotesLoading


def test_on_sees_quotes_loading_before_quotes_random_returns(client, framing):
    seen: List[Any] = []
    client.on("quotes/loading", lambda params: seen.append(params))
    client.quotes_random()
    assert seen == [{"isLoading": True}, {"isLoading": False}]


def test_typed_handler_gets_the_dataclass(client):
    seen: List[QuotesLoading] = []
    client.on_quotes_loading(seen.append)
    client.quotes_random()
    assert seen == [QuotesLoading(is_loading=True), QuotesLoading(is_loading=False)]


def test_the_disposer_removes_only_its_handler(client):
    first: List[Any] = []
    second: List[Any] = []
    dispose = client.on("quotes/loading", first.append)
    client.on("quotes/loading", second.append)
    client.quotes_random()
    assert len(first) == 2 and len(second) == 2
    dispose()
    dispose()  # a second call does nothing
    client.quotes_random()
    assert len(first) == 2, "the disposed handler was called"
    assert len(second) == 4


def test_the_same_callback_twice_is_two_registrations(client):
    seen: List[Any] = []
    d1 = client.on("quotes/loading", seen.append)
    client.on("quotes/loading", seen.append)
    client.quotes_random()
    assert len(seen) == 4
    d1()
    client.quotes_random()
    assert len(seen) == 6


def test_notifications_iterator_in_order_and_filtered(client):
    everything = client.notifications()
    loading = client.notifications("quotes/loading")
    other = client.notifications("products/changed")
    client.quotes_random()
    assert everything.get(timeout=5) == Notification("quotes/loading", {"isLoading": True})
    method, params = everything.get(timeout=5)  # unpacks as a pair
    assert (method, params) == ("quotes/loading", {"isLoading": False})
    assert [loading.get(timeout=5).params["isLoading"] for _ in range(2)] == [True, False]
    with pytest.raises(catalogd.NotificationTimeout) as e:
        other.get(timeout=0.2)
    assert isinstance(e.value, TimeoutError) and e.value.timeout == 0.2
    with pytest.raises(TimeoutError):
        everything.get(timeout=0.1)


def test_notifications_iteration_ends_when_the_client_closes(daemons):
    c = daemons().start()
    stream = c.notifications()
    c.quotes_random()
    c.close()
    assert [n.params["isLoading"] for n in stream] == [True, False]
    assert stream.get() is None
    late = c.notifications()
    assert list(late) == []


def test_a_closed_stream_stops_receiving(client):
    stream = client.notifications()
    client.quotes_random()
    stream.close()
    client.quotes_random()
    assert len(list(stream)) == 2


def test_async_handlers_and_notifications(daemons, framing):
    async def main() -> None:
        async with daemons(cls=AsyncClient, framing=framing) as c:
            seen: List[Any] = []
            typed: List[QuotesLoading] = []
            dispose = c.on("quotes/loading", seen.append)
            c.on_quotes_loading(typed.append)
            stream = c.notifications("quotes/loading")
            await c.quotes_random()
            assert seen == [{"isLoading": True}, {"isLoading": False}]
            assert typed == [QuotesLoading(True), QuotesLoading(False)]
            got = []
            async for method, params in stream:
                got.append((method, params["isLoading"]))
                if len(got) == 2:
                    break
            assert got == [("quotes/loading", True), ("quotes/loading", False)]
            dispose()
            await c.quotes_random()
            assert len(seen) == 2 and len(typed) == 4
            assert (await stream.get(timeout=5)).params == {"isLoading": True}
            assert (await stream.get(timeout=5)).params == {"isLoading": False}
            with pytest.raises(catalogd.NotificationTimeout) as e:
                await stream.get(timeout=0.1)
            assert isinstance(e.value, asyncio.TimeoutError)
            stream.close()

    run(main())


def test_async_notifications_end_when_the_client_closes(daemons):
    async def main() -> None:
        c = daemons(cls=AsyncClient)
        async with c:
            stream = c.notifications()
            await c.quotes_random()
        assert [n.params["isLoading"] async for n in stream] == [True, False]

    run(main())


def test_async_handler_may_be_a_coroutine(daemons):
    async def main() -> None:
        async with daemons(cls=AsyncClient) as c:
            done = asyncio.Event()
            got: List[Any] = []

            async def handler(params: Any) -> None:
                got.append(await c.daemon_echo([params["isLoading"]]))  # may call the daemon
                if len(got) == 2:
                    done.set()

            c.on("quotes/loading", handler)
            await c.quotes_random()
            await asyncio.wait_for(done.wait(), 5)
            assert sorted(got) == [[False], [True]]

    run(main())


def test_a_handler_that_raises_is_logged_and_the_client_goes_on(client, caplog):
    def bad(params: Any) -> None:
        raise RuntimeError("boom")

    seen: List[Any] = []
    client.on("quotes/loading", bad)
    client.on("quotes/loading", seen.append)
    with caplog.at_level(logging.ERROR, logger="catalogd"):
        client.quotes_random()
    assert len(seen) == 2
    assert "the handler of quotes/loading raised" in caplog.text and "boom" in caplog.text
    assert client.daemon_echo([1]) == [1]


def test_handlers_run_on_the_reader_thread_and_cannot_wait_for_replies(client):
    outcomes: List[Any] = []

    def handler(params: Any) -> None:
        outcomes.append(threading.current_thread().name)
        try:
            client.daemon_echo([1])
        except RuntimeError as e:
            outcomes.append(str(e))
        client.notify("$/cancelRequest", {"id": 999999})  # notify is allowed

    client.on("quotes/loading", handler)
    client.quotes_random()
    assert outcomes[0].endswith("-reader")
    assert "notification handler" in outcomes[1]
    assert client.daemon_echo([2]) == [2]
