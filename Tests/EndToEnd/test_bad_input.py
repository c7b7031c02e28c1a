"""Bad input: every case gets a clean error (or a defined outcome), never a
crash or a hang, and after EACH case the same daemon process still answers
`daemon/echo` correctly. One daemon per framing serves the whole battery."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

import pytest

from catalogd_e2e import (
    ABSENT,
    PARSE_ERROR,
    assert_error,
    assert_invalid_request,
    assert_parse_error,
    assert_result,
    dumps,
    lsp_frame,
    ndjson_frame,
    recover_echo,
    request_obj,
    same_id,
    short,
)

SIZE_RE = re.compile(r"size|large|long|big|limit|exceed|bytes|length", re.I)
DEPTH_RE = re.compile(r"dep|nest|deep", re.I)

MiB = 1 << 20


def nested(depth: int, leaf: Any = 0) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _garbage() -> bytes:
    rng = random.Random(1234)
    data = bytes(rng.randrange(256) for _ in range(512))
    return data.replace(b"\n", b"\x00").replace(b"\r", b"\x01")


@dataclass
class Case:
    name: str
    body: bytes | None = None
    """A message body, framed in the daemon's framing."""
    raw: bytes | None = None
    """Bytes sent as they are (framing-level cases)."""
    expect: tuple = ("parse",)
    framings: tuple[str, ...] = ("lsp", "ndjson")


def _req(id: Any, method: Any = "daemon/echo", params: Any = ABSENT, **extra: Any) -> bytes:
    obj = request_obj(method, params, id)
    obj.update(extra)
    return dumps(obj)


BIG_BODY = b'{"jsonrpc":"2.0","id":"big","method":"daemon/echo","params":["' + b"x" * (17 * MiB) + b'"]}'
OK_2MIB = "y" * (2 * MiB)

CASES = [
    # ---- not JSON
    Case("invalid-json", b'{"jsonrpc":'),
    Case("truncated-json", b'{"jsonrpc":"2.0","id":1,"method":"daemon/echo"'),
    Case("bare-close-bracket", b"]"),
    Case("binary-garbage", _garbage()),
    Case("nul-bytes", b"\x00" * 16),
    Case("invalid-utf8-outside-strings", b"\xff\xfe{}"),
    Case("invalid-utf8-inside-a-string", b'{"jsonrpc":"2.0","id":"u8","method":"daemon/echo","params":["a\xffb"]}', expect=("parse_or_response", "u8")),
    Case("lone-surrogate-escape", b'{"jsonrpc":"2.0","id":"sur","method":"daemon/echo","params":["\\ud800"]}', expect=("parse_or_response", "sur")),
    Case("bom-before-json", b"\xef\xbb\xbf" + _req("bom"), expect=("parse_or_response", "bom")),
    Case("two-json-texts-in-one-message", _req("two") + _req("two2")),
    Case("trailing-garbage", _req("tg") + b" x"),
    Case("nan", b'{"jsonrpc":"2.0","id":"nan","method":"daemon/echo","params":[NaN]}'),
    Case("infinity", b'{"jsonrpc":"2.0","id":"inf","method":"daemon/echo","params":[-Infinity]}'),
    Case("single-quotes", b"{'jsonrpc':'2.0','id':'sq','method':'daemon/echo'}"),
    Case("comment", b'{"jsonrpc":"2.0",/* c */"id":"c","method":"daemon/echo"}'),
    Case("trailing-comma", b'{"jsonrpc":"2.0","id":"tc","method":"daemon/echo",}'),
    Case("control-char-in-string", b'{"jsonrpc":"2.0","id":"cc","method":"daemon/echo","params":["a\x01b"]}'),
    Case("leading-zero-number", b'{"jsonrpc":"2.0","id":01,"method":"daemon/echo"}'),
    Case("words", b"hello world"),
    # ---- size and depth limits
    Case("message-of-17-MiB", BIG_BODY, expect=("parse_size",)),
    Case("message-of-2-MiB-is-fine", _req("2mib", params=[OK_2MIB]), expect=("result", "2mib", [OK_2MIB])),
    Case("100000-open-brackets", b"[" * 100_000),
    Case("100000-balanced-brackets", b"[" * 100_000 + b"]" * 100_000, expect=("parse_depth",)),
    Case("200-levels", b"[" * 200 + b"]" * 200, expect=("parse_depth",)),
    Case("200-levels-inside-a-request", _req("deep", params=nested(199)), expect=("parse_depth",)),
    Case("100-levels-inside-a-request-are-fine", _req("deep100", params=nested(99)), expect=("result", "deep100", nested(99))),
    Case("100000-nested-objects", b'{"a":' * 100_000),
    # ---- JSON, but not a valid request
    Case("jsonrpc-1.0", _req(1, jsonrpc="1.0"), expect=("invalid", 1)),
    Case("jsonrpc-missing", b'{"id":2,"method":"daemon/echo"}', expect=("invalid", 2)),
    Case("jsonrpc-a-number", b'{"jsonrpc":2.0,"id":7,"method":"daemon/echo"}', expect=("invalid", 7)),
    Case("method-not-a-string", b'{"jsonrpc":"2.0","id":3,"method":5}', expect=("invalid", 3)),
    Case("method-null", b'{"jsonrpc":"2.0","id":9,"method":null}', expect=("invalid", 9)),
    Case("method-missing", b'{"jsonrpc":"2.0","id":8}', expect=("invalid", 8)),
    Case("params-a-string", b'{"jsonrpc":"2.0","id":4,"method":"daemon/echo","params":"x"}', expect=("invalid", 4)),
    Case("params-a-number", b'{"jsonrpc":"2.0","id":5,"method":"daemon/echo","params":5}', expect=("invalid", 5)),
    Case("params-a-boolean", b'{"jsonrpc":"2.0","id":6,"method":"daemon/echo","params":true}', expect=("invalid", 6)),
    Case("params-a-string-without-id", b'{"jsonrpc":"2.0","method":"daemon/echo","params":"x"}', expect=("invalid", None)),
    Case("id-an-object", b'{"jsonrpc":"2.0","id":{"a":1},"method":"daemon/echo"}', expect=("invalid", None)),
    Case("id-an-array", b'{"jsonrpc":"2.0","id":[1],"method":"daemon/echo"}', expect=("invalid", None)),
    Case("id-a-boolean", b'{"jsonrpc":"2.0","id":true,"method":"daemon/echo"}', expect=("invalid", None)),
    Case("empty-object", b"{}", expect=("invalid", None)),
    Case("top-level-string", b'"hello"', expect=("invalid", None)),
    Case("top-level-number", b"42", expect=("invalid", None)),
    Case("top-level-null", b"null", expect=("invalid", None)),
    Case("top-level-true", b"true", expect=("invalid", None)),
    # ---- LSP framing errors
    Case("empty-body", b"", framings=("lsp",)),
    Case("whitespace-body", b"   \t ", framings=("lsp",)),
    Case("headers-without-content-length", raw=b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n", framings=("lsp",)),
    Case("header-line-without-colon", raw=b"Garbage\r\n\r\n", framings=("lsp",)),
    Case("binary-garbage-as-headers", raw=b"\xff\xfe\x00junk\x01\r\n\r\n", framings=("lsp",)),
    Case("content-length-not-a-number", raw=b"Content-Length: abc\r\n\r\n", framings=("lsp",)),
    Case("content-length-negative", raw=b"Content-Length: -5\r\n\r\n", framings=("lsp",)),
    Case("content-length-empty", raw=b"Content-Length: \r\n\r\n", framings=("lsp",)),
    Case("content-length-huge", raw=b"Content-Length: 99999999999999999999999999\r\n\r\n", framings=("lsp",)),
    Case("content-length-shorter-than-body", raw=b"Content-Length: 10\r\n\r\n" + _req("short"), expect=("resync",), framings=("lsp",)),
    Case("content-length-longer-than-body", raw=b"Content-Length: 70\r\n\r\n" + b'{"short":1}', expect=("resync",), framings=("lsp",)),
    Case("one-MiB-header-line", raw=b"X-Junk: " + b"j" * MiB + b"\r\n" + lsp_frame(_req("hdr")), expect=("response_maybe_after_parse_error", "hdr"), framings=("lsp",)),
    Case("json-where-headers-belong", raw=b'{"jsonrpc":"2.0","id":"nd","method":"daemon/echo"}\r\n\r\n', framings=("lsp",)),
]


@pytest.fixture(scope="module")
def battery_daemons(shared_daemon_factory):
    return {"lsp": shared_daemon_factory("lsp"), "ndjson": shared_daemon_factory("ndjson")}


PARAMS = [pytest.param(f, c, id=f"{f}-{c.name}") for c in CASES for f in c.framings]


@pytest.mark.timeout_s(60)
@pytest.mark.parametrize("framing,case", PARAMS)
def test_bad_input_then_echo_still_works(battery_daemons, framing, case):
    d = battery_daemons[framing].get()
    pid = d.pid
    data = case.raw if case.raw is not None else d.frame(case.body)
    d.send_raw(data)
    kind = case.expect[0]
    if kind == "parse":
        assert_parse_error(d.read_message(timeout=10))
    elif kind == "parse_size":
        err = assert_parse_error(d.read_message(timeout=30))
        assert SIZE_RE.search(err["data"]["reason"]), f"the reason should say the message is too large: {err}"
    elif kind == "parse_depth":
        err = assert_parse_error(d.read_message(timeout=10))
        assert DEPTH_RE.search(err["data"]["reason"]), f"the reason should say the nesting is too deep: {err}"
    elif kind == "invalid":
        assert_invalid_request(d.read_message(), id=case.expect[1])
    elif kind == "result":
        assert_result(d.read_message(timeout=20), case.expect[1], case.expect[2])
    elif kind == "parse_or_response":
        msg = d.read_message()
        if isinstance(msg, dict) and msg.get("id") is None:
            assert_parse_error(msg)
        else:
            assert isinstance(msg, dict) and same_id(msg.get("id"), case.expect[1]), short(msg)
            assert "result" in msg or "error" in msg, short(msg)
    elif kind == "response_maybe_after_parse_error":
        # A header too long to accept may be reported; the frame after it must still be answered.
        msg = d.read_message()
        if isinstance(msg, dict) and msg.get("id") is None:
            assert_parse_error(msg)
            msg = d.read_message()
        assert_result(msg, case.expect[1])
    elif kind == "resync":
        # The daemon cannot know where the next message starts: it may report
        # one or more parse errors, then it must find the next header block.
        assert recover_echo(d) >= 1, "the bad message itself must get a -32700"
    else:  # pragma: no cover
        raise AssertionError(kind)
    d.echo_ok()
    assert d.pid == pid and d.alive


@pytest.mark.parametrize("framing", ["lsp", "ndjson"])
def test_17_MiB_message_is_skipped_and_the_next_message_in_the_same_write_is_answered(spawn, framing):
    d = spawn(framing=framing)
    d.initialize()
    d.send_raw(d.frame(BIG_BODY) + d.frame(_req("next", params=["after"])))
    err = assert_parse_error(d.read_message(timeout=30))
    assert SIZE_RE.search(err["data"]["reason"]), err
    assert_result(d.read_message(timeout=30), "next", ["after"])


def test_message_size_limit_is_inclusive_and_configurable_lsp(spawn):
    d = spawn("--max-message-bytes", "1000", framing="lsp")
    d.initialize()
    prefix = b'{"jsonrpc":"2.0","id":"fit","method":"daemon/echo","params":["'
    suffix = b'"]}'
    fit = prefix + b"z" * (1000 - len(prefix) - len(suffix)) + suffix
    assert len(fit) == 1000
    d.send_raw(lsp_frame(fit))
    assert_result(d.read_message(), "fit", ["z" * (1000 - len(prefix) - len(suffix))])
    over = fit.replace(b'"fit"', b'"ovr"').replace(b'["z', b'["zz')
    assert len(over) == 1001
    d.send_raw(lsp_frame(over))
    err = assert_parse_error(d.read_message())
    assert SIZE_RE.search(err["data"]["reason"]), err
    d.echo_ok()


def test_message_size_limit_ndjson(spawn):
    d = spawn("--max-message-bytes", "1000", framing="ndjson")
    d.initialize()
    d.send_raw(ndjson_frame(_req("small", params=["a" * 900])))
    assert_result(d.read_message(), "small", ["a" * 900])
    d.send_raw(ndjson_frame(_req("large", params=["a" * 1100])))
    err = assert_parse_error(d.read_message())
    assert SIZE_RE.search(err["data"]["reason"]), err
    d.echo_ok()


@pytest.mark.parametrize("framing", ["lsp", "ndjson"])
def test_depth_limit_is_configurable(spawn, framing):
    d = spawn("--max-depth", "10", framing=framing)
    d.initialize()
    # Depth counts the request object: params nested 8 deep is depth 9 (fine), 11 deep is depth 12 (too deep).
    assert_result(d.call("daemon/echo", nested(8), id="d9"), "d9", nested(8))
    d.send_raw(d.frame(_req("d12", params=nested(11))))
    err = assert_parse_error(d.read_message())
    assert DEPTH_RE.search(err["data"]["reason"]), err
    d.echo_ok()


def test_parse_error_code_constant():
    assert PARSE_ERROR == -32700
    assert_error({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "m", "data": {"reason": "r"}}}, -32700, id=None)
