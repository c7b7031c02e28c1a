"""The typed methods: params built with the wire names, results decoded into
the generated dataclasses; concurrent calls."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Any, List, Tuple

import pytest
from client_support import run

import catalogd
from catalogd import UNSET, AsyncClient, ProtocolError, Quote, QuotePage, SleepResult, Status
from catalogd._methods import AsyncClientMethods, ClientMethods


def test_quotes_random_returns_a_quote_matching_the_filters(client):
    q = client.quotes_random(tags=["wisdom"], min_length=20, max_length=120)
    assert isinstance(q, Quote)
    assert "wisdom" in q.tags
    assert 20 <= q.length <= 120 and q.length == len(q.content)
    by = client.quotes_random(author="albert-einstein")
    assert by.author == "Albert Einstein"


def test_quotes_random_never_repeats_itself_in_a_row(client):
    ids = [client.quotes_random().id for _ in range(10)]
    assert all(a != b for a, b in zip(ids, ids[1:]))


def test_quotes_list_pages(client):
    first = client.quotes_list(limit=5)
    assert isinstance(first, QuotePage)
    assert first.page == 1 and first.next_page == 2 and len(first.items) == 5
    second = client.quotes_list(page=first.next_page, limit=5)
    assert second.page == 2
    assert not {q.id for q in first.items} & {q.id for q in second.items}
    one_author = client.quotes_list(author="albert-einstein", limit=100)
    assert one_author.next_page is None
    assert one_author.items and all(q.author == "Albert Einstein" for q in one_author.items)


def test_daemon_methods(client):
    status = client.daemon_status()
    assert isinstance(status, Status)
    assert status.backends["quotes"] == "embedded"
    assert status.requests.received >= 1 and status.in_flight >= 0
    assert client.daemon_sleep(ms=10) == SleepResult(slept=10)
    assert client.daemon_echo({"big": 9007199254740993, "text": "한국어 ✓ 😀", "nested": [[{}]]}) == {
        "big": 9007199254740993,
        "text": "한국어 ✓ 😀",
        "nested": [[{}]],
    }
    assert client.daemon_echo() is None
    doc = client.rpc_discover()
    assert doc["openrpc"] and any(m["name"] == "quotes/random" for m in doc["methods"])


def test_the_async_client_has_the_same_typed_methods(daemons):
    async def main() -> None:
        async with daemons(cls=AsyncClient) as c:
            q = await c.quotes_random(tags=["wisdom"])
            assert isinstance(q, Quote) and "wisdom" in q.tags
            page = await c.quotes_list(page=2, limit=3)
            assert page.page == 2 and len(page.items) == 3
            assert (await c.daemon_sleep(ms=5)).slept == 5
            assert isinstance(await c.daemon_status(), Status)

    run(main())


def test_many_threads_share_one_client_and_replies_come_out_of_order(client):
    results: List[Any] = [None] * 20
    slow: List[Any] = []

    def call(i: int) -> None:
        results[i] = client.daemon_echo({"i": i})

    sleeper = threading.Thread(target=lambda: slow.append(client.daemon_sleep(ms=400)))
    sleeper.start()
    threads = [threading.Thread(target=call, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert results == [{"i": i} for i in range(20)]
    assert not slow, "the echoes were answered while the sleep was still running"
    sleeper.join(10)
    assert slow == [SleepResult(slept=400)]


def test_many_concurrent_async_calls(daemons):
    async def main() -> None:
        async with daemons(cls=AsyncClient) as c:
            got = await asyncio.gather(*(c.daemon_echo([i]) for i in range(200)))
            assert got == [[i] for i in range(200)]

    run(main())


def test_params_must_be_an_object_or_an_array(client):
    with pytest.raises(TypeError, match="mapping, a sequence or None"):
        client.request("daemon/echo", "text")
    with pytest.raises(ValueError):
        client.daemon_echo([float("nan")])  # not JSON
    assert client.daemon_echo([1]) == [1], "a refused call leaves the client usable"


# ---------------------------------------------------------------- without a daemon


class Recorder(ClientMethods):
    """Records what the typed methods send."""

    def __init__(self, result: Any = None) -> None:
        self.calls: List[Tuple[str, Any, Any]] = []
        self.result = result

    def request(self, method: str, params: Any = None, timeout: Any = None) -> Any:
        self.calls.append((method, params, timeout))
        return self.result


def test_typed_methods_send_wire_names_and_leave_out_what_is_not_given():
    r = Recorder(result={"id": "q", "content": "c", "author": "a", "tags": [], "length": 1})
    r.quotes_random(min_length=3, timeout=2.5)
    assert r.calls[-1] == ("quotes/random", {"minLength": 3}, 2.5)
    r.quotes_random()
    assert r.calls[-1] == ("quotes/random", {}, None)
    r.quotes_random(tags=("a", "b"))
    assert r.calls[-1][1] == {"tags": ["a", "b"]}


def test_nullable_params_tell_null_from_absent():
    """products/update: None sends null (clear the field), UNSET leaves it out."""
    if "products/update" not in catalogd.METHODS:
        pytest.skip("products/update is not in openrpc.json yet")
    product = {
        "id": "p1", "nameKo": "사과", "nameEn": None, "price": 1000, "supplier": None,
        "createdAt": "2024-01-01T00:00:00Z", "updatedAt": "2024-01-01T00:00:00Z", "version": 2,
        "imageUrl": None,
    }
    r = Recorder(result=product)
    got = r.products_update(id="p1", name_en=None)
    assert r.calls[-1][1] == {"id": "p1", "nameEn": None}
    assert got.name_ko == "사과" and got.supplier is None and got.version == 2
    r.products_update(id="p1", name_en=UNSET, price=5)
    assert r.calls[-1][1] == {"id": "p1", "price": 5}


def test_typed_methods_take_keywords_only():
    r = Recorder()
    with pytest.raises(TypeError):
        r.daemon_sleep(10)  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.quotes_random(minLength=3)  # type: ignore[call-arg]  # wire names are not Python names


def test_results_tolerate_unknown_members_and_reject_missing_ones():
    q = Quote.from_json({"id": "x", "content": "c", "author": "a", "tags": ["t"], "length": 1, "newField": 7})
    assert q == Quote(id="x", content="c", author="a", tags=["t"], length=1)
    assert q.to_json() == {"id": "x", "content": "c", "author": "a", "tags": ["t"], "length": 1}
    with pytest.raises(ProtocolError, match="'content'"):
        Quote.from_json({"id": "x", "author": "a", "tags": [], "length": 1})
    with pytest.raises(ProtocolError, match="JSON object"):
        Quote.from_json(["not", "an", "object"])
    page = QuotePage.from_json({"items": [q.to_json()], "page": 1, "nextPage": None})
    assert page.items == [q] and page.next_page is None
    assert page.to_json() == {"items": [q.to_json()], "page": 1, "nextPage": None}


def test_dataclasses_are_values():
    q = Quote(id="x", content="c", author="a", tags=[], length=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.id = "y"  # type: ignore[misc]
    assert catalogd.QuotesLoading.METHOD == catalogd.QUOTES_LOADING == "quotes/loading"
    assert catalogd.NOTIFICATION_PARAMS["quotes/loading"] is catalogd.QuotesLoading


def test_async_typed_methods_are_coroutines():
    import inspect

    for name in catalogd.METHODS.values():
        assert inspect.iscoroutinefunction(getattr(AsyncClientMethods, name)), name
        assert not inspect.iscoroutinefunction(getattr(ClientMethods, name)), name
