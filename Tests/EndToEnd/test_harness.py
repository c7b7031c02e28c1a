"""The harness can fail: its stdout checks and timeouts, tried on small fake
daemons written in Python (no catalogd needed)."""

from __future__ import annotations

import json
import sys
import time

import pytest

from catalogd_e2e import (
    Daemon,
    _Requests,
    assert_error,
    assert_result,
    contract,
    isolated_env,
    same_id,
    strict_equal,
)


def fake(tmp_path, script: str, framing: str = "lsp") -> Daemon:
    return Daemon(
        [sys.executable, "-c", script],
        env=isolated_env(tmp_path),
        cwd=tmp_path,
        stderr_path=tmp_path / "fake-stderr.log",
        framing=framing,
    )


def writes(payload: bytes) -> str:
    return f"import sys, time; sys.stdout.buffer.write({payload!r}); sys.stdout.flush(); time.sleep(5)"


@pytest.fixture
def fakes(tmp_path):
    made: list[Daemon] = []

    def make(script: str, framing: str = "lsp") -> Daemon:
        d = fake(tmp_path, script, framing)
        made.append(d)
        return d

    yield make
    for d in made:
        d.kill()
        d.finish()


GOOD = b'{"jsonrpc":"2.0","id":1,"result":null}'


def lsp(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_a_well_formed_reply_passes(fakes):
    d = fakes(writes(b"Content-Length: %d\r\n\r\n" % len(GOOD) + GOOD))
    assert_result(d.read_message(timeout=5), 1, None)
    assert d.violations == []


@pytest.mark.parametrize(
    "payload,what",
    [
        (b"log: started\n" + b"Content-Length: %d\r\n\r\n" % len(GOOD) + GOOD, "strict JSON"),
        (b"Content-Length: %d\r\nContent-Type: application/json\r\n\r\n" % len(GOOD) + GOOD, "exactly one header"),
        (b"content-length: %d\r\n\r\n" % len(GOOD) + GOOD, "exactly one header"),
        (lsp(b'{"jsonrpc":"2.0","id":1,"id":2,"result":1}'), "duplicate key"),
        (lsp(b'{"jsonrpc":"2.0","id":1,"result":NaN}'), "constant"),
        (lsp(b'{"jsonrpc":"2.0","id":1,"result":"\x01"}'), "strict JSON"),
        (GOOD + b"\n", "ndjson framing, expected lsp"),
    ],
    ids=["log-line", "extra-header", "lowercase-header", "duplicate-key", "nan", "control-char", "wrong-framing"],
)
def test_non_protocol_stdout_fails_the_read(fakes, payload, what):
    d = fakes(writes(payload))
    with pytest.raises(AssertionError, match="non-protocol output"):
        for _ in range(3):
            d.read_message(timeout=5)
    assert any(what in v for v in d.violations), d.violations


def test_a_silent_daemon_times_out(fakes):
    d = fakes("import time; time.sleep(5)")
    started = time.monotonic()
    with pytest.raises(AssertionError, match="no message from catalogd within"):
        d.read_message(timeout=0.3)
    assert time.monotonic() - started < 2


def test_a_daemon_that_dies_fails_the_read(fakes):
    d = fakes("import sys; sys.exit(3)")
    with pytest.raises(AssertionError, match="closed its stdout"):
        d.read_message(timeout=5)
    assert d.wait(5) == 3


def test_expect_no_message_fails_on_a_message(fakes):
    d = fakes(writes(b"Content-Length: %d\r\n\r\n" % len(GOOD) + GOOD))
    with pytest.raises(AssertionError, match="unexpected message"):
        d.expect_no_message(3)


def test_id_and_value_comparison_is_type_strict():
    assert same_id(1, 1) and not same_id(1, "1") and not same_id(1, True) and not same_id(1, 1.0)
    assert strict_equal({"a": [1, "x", None]}, {"a": [1, "x", None]})
    assert not strict_equal([1], [True]) and not strict_equal([1], [1.0])
    with pytest.raises(AssertionError):
        assert_error({"jsonrpc": "2.0", "id": 1, "result": None}, -32600)
    with pytest.raises(AssertionError):
        assert_result({"jsonrpc": "2.0", "id": "1", "result": None}, 1)


# ---------------------------------------------------------------- the declared contract

GOOD_PRODUCT = {"id": "1", "nameKo": "사과", "nameEn": None, "price": 1000, "supplier": None,
                "createdAt": None, "updatedAt": None, "version": 1, "imageUrl": None}


def answers(*replies: dict) -> str:
    """A fake that reads one NDJSON request, then writes `replies` (NDJSON)."""
    payload = b"".join(json.dumps(r).encode() + b"\n" for r in replies)
    return f"import sys, time; sys.stdin.buffer.readline(); sys.stdout.buffer.write({payload!r}); sys.stdout.flush(); time.sleep(5)"


def test_a_result_that_matches_its_declared_schema_passes(fakes):
    d = fakes(answers({"jsonrpc": "2.0", "id": 1, "result": GOOD_PRODUCT}), framing="ndjson")
    assert_result(d.call("products/get", {"id": "1"}, id=1, timeout=5), 1, GOOD_PRODUCT)
    assert d.violations == []


@pytest.mark.parametrize("raw", [False, True], ids=["sent", "sent-raw"])
def test_a_result_that_breaks_its_declared_schema_fails_the_read(fakes, raw):
    bad = {**GOOD_PRODUCT, "price": -1, "supplier": {"id": 3}}
    d = fakes(answers({"jsonrpc": "2.0", "id": "g", "result": bad}), framing="ndjson")
    if raw:
        d.send_raw(b'{"jsonrpc":"2.0","id":"g","method":"products/get","params":{"id":"1"}}\n')
    else:
        d.request("products/get", {"id": "1"}, id="g")
    with pytest.raises(AssertionError, match=r"declared contract .*the result of products/get \(id 'g'\).*result\.price"):
        d.read_message(timeout=5)
    assert len(d.violations) == 1 and d.violations[0].startswith("contract: ")
    assert "result.supplier" in d.violations[0], d.violations


def test_results_of_undeclared_methods_and_errors_pass(fakes):
    d = fakes(answers({"jsonrpc": "2.0", "id": 1, "result": "anything"},
                      {"jsonrpc": "2.0", "id": 2, "result": {"any": ["thing"]}},
                      {"jsonrpc": "2.0", "id": 3, "error": {"code": -32001, "message": "No product with id 9."}}),
              framing="ndjson")
    d.send_raw(b"".join(json.dumps(m).encode() + b"\n" for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "no/such"},
        {"jsonrpc": "2.0", "id": 2, "method": "daemon/echo", "params": {"any": ["thing"]}},
        {"jsonrpc": "2.0", "id": 3, "method": "products/get", "params": {"id": "9"}},
    ]))
    assert [d.read_message(timeout=5)["id"] for _ in range(3)] == [1, 2, 3]
    assert d.violations == []


def test_a_notification_that_breaks_its_declared_params_fails_the_read(fakes):
    d = fakes(answers({"jsonrpc": "2.0", "method": "feeds/stateChanged", "params": {"feedId": "f", "state": "bogus", "count": 0}},
                      {"jsonrpc": "2.0", "method": "no/such", "params": 1}), framing="ndjson")
    d.notify("initialized", {})
    with pytest.raises(AssertionError, match=r"the notification feeds/stateChanged .*params\.state"):
        d.read_message(timeout=5)
    assert d.read_message(timeout=5)["method"] == "feeds/stateChanged"
    assert d.read_message(timeout=5)["method"] == "no/such"
    assert len(d.violations) == 1


def test_requests_written_raw_are_split_like_the_daemon_splits_them():
    r = _Requests()
    frame = lsp(b'{"jsonrpc":"2.0","id":1,"method":"products/list"}')
    r.written(frame[:7])
    r.written(frame[7:] + b"\r\n" + lsp(b'[{"jsonrpc":"2.0","id":"b","method":"suppliers/list"},{"id":2}]'))
    r.written(b'{"jsonrpc":"2.0","id":1.0,"method":"quotes/list"}\n{bad json}\n')
    assert r.answered(1) == "products/list"
    assert r.answered(1) is None
    assert r.answered(1.0) == "quotes/list"
    assert r.answered("b") == "suppliers/list"
    assert r.answered(2) is None
    # The same id awaiting two different methods: which one answered is unknown.
    r.written(b"", {"jsonrpc": "2.0", "id": 7, "method": "products/get"})
    r.written(b"", {"jsonrpc": "2.0", "id": 7, "method": "products/list"})
    assert r.answered(7) is None
    assert r.answered(7) == "products/list"


def _mutations(value):
    """`value` with one part changed at a time: each member dropped, retyped or pushed out of range, one added."""
    yield value
    replacements = [None, True, 1, 1.0, 1.5, -1, "x", "", [], {}, [1], {"x": 1}]
    if isinstance(value, dict):
        yield {**value, "noSuchMember": 1}
        for k, v in value.items():
            yield {x: y for x, y in value.items() if x != k}
            for r in replacements:
                yield {**value, k: r}
            for sub in _mutations(v) if isinstance(v, (dict, list)) else ():
                yield {**value, k: sub}
    elif isinstance(value, list) and value:
        yield value[1:]
        for r in replacements:
            yield [r, *value[1:]]
        for sub in _mutations(value[0]) if isinstance(value[0], (dict, list)) else ():
            yield [sub, *value[1:]]


def test_the_cheap_check_agrees_with_jsonschema():
    """The compiled check that passes valid results without `jsonschema` says
    valid exactly when `jsonschema` does."""
    c = contract()
    page = {"items": [GOOD_PRODUCT, {**GOOD_PRODUCT, "id": "2", "supplier": {"id": "s", "name": "n"}, "createdAt": "2026-01-01T00:00:00Z"}],
            "nextCursor": None, "totalCount": 2}
    samples = {
        "products/list": page,
        "products/get": GOOD_PRODUCT,
        "quotes/list": {"items": [{"id": "q", "content": "c", "author": "a", "tags": ["t"], "length": 1}], "page": 1, "nextPage": None},
        "feeds/open": {"feedId": "f", "state": "idle"},
    }
    checked = 0
    for method, value in samples.items():
        fast, validator = c.results[method]
        assert fast is not None, f"{method}: the cheap check does not cover its schema"
        for v in _mutations(value):
            assert fast(v) == validator.is_valid(v), f"{method}: the checks disagree on {v!r}"
            checked += 1
    changes = {"feedId": "f", "generation": 0, "count": 1,
               "changes": [{"op": "insert", "index": 0, "items": [{}]}, {"op": "remove", "index": 0, "count": 1}]}
    fast, validator = c.notifications["feeds/itemsChanged"]
    for v in _mutations(changes):
        assert fast(v) == validator.is_valid(v), f"feeds/itemsChanged: the checks disagree on {v!r}"
        checked += 1
    assert checked > 500
