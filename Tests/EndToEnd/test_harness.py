"""The harness can fail: its stdout checks and timeouts, tried on small fake
daemons written in Python (no catalogd needed)."""

from __future__ import annotations

import sys
import time

import pytest

from catalogd_e2e import Daemon, assert_error, assert_result, isolated_env, same_id, strict_equal


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
