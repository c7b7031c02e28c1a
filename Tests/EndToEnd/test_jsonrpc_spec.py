"""The examples of the JSON-RPC 2.0 specification (section 7), with
`daemon/echo` in place of subtract/sum/get_data and unknown methods in place of
foobar, in both framings; and ids echoed exactly as sent."""

from __future__ import annotations

import re
import time

import pytest

from catalogd_e2e import (
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    assert_error,
    assert_invalid_request,
    assert_parse_error,
    assert_result,
    short,
)

# Session-level behaviour: the same through a forwarder to a shared daemon.
pytestmark = pytest.mark.through_forwarder


def send_text(d, text: str) -> None:
    d.send_raw(d.frame(text.encode("utf-8")))


def test_rpc_call_with_positional_parameters(any_daemon):
    d = any_daemon
    send_text(d, '{"jsonrpc": "2.0", "method": "daemon/echo", "params": [42, 23], "id": 1}')
    assert_result(d.read_message(), 1, [42, 23])
    send_text(d, '{"jsonrpc": "2.0", "method": "daemon/echo", "params": [23, 42], "id": 2}')
    assert_result(d.read_message(), 2, [23, 42])


def test_rpc_call_with_named_parameters(any_daemon):
    d = any_daemon
    send_text(d, '{"jsonrpc": "2.0", "method": "daemon/echo", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}')
    assert_result(d.read_message(), 3, {"subtrahend": 23, "minuend": 42})
    send_text(d, '{"jsonrpc": "2.0", "method": "daemon/echo", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}')
    assert_result(d.read_message(), 4, {"minuend": 42, "subtrahend": 23})


def test_notifications_get_no_reply(any_daemon):
    d = any_daemon
    send_text(d, '{"jsonrpc": "2.0", "method": "daemon/echo", "params": [1,2,3,4,5]}')
    send_text(d, '{"jsonrpc": "2.0", "method": "foobar"}')
    send_text(d, '{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}')
    d.expect_no_message(0.3)
    d.echo_ok()


def test_rpc_call_of_non_existent_method(any_daemon):
    d = any_daemon
    send_text(d, '{"jsonrpc": "2.0", "method": "foobar", "id": "1"}')
    assert_error(d.read_message(), METHOD_NOT_FOUND, id="1", data={"method": "foobar"})


def test_rpc_call_with_invalid_json(any_daemon):
    d = any_daemon
    send_text(d, '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]')
    assert_parse_error(d.read_message())
    d.echo_ok()


def test_rpc_call_with_invalid_request_object(any_daemon):
    d = any_daemon
    send_text(d, '{"jsonrpc": "2.0", "method": 1, "params": "bar"}')
    assert_invalid_request(d.read_message(), id=None)
    d.echo_ok()


def test_rpc_call_batch_invalid_json(any_daemon):
    d = any_daemon
    send_text(
        d,
        '[ {"jsonrpc": "2.0", "method": "daemon/echo", "params": [1,2,4], "id": "1"}, {"jsonrpc": "2.0", "method" ]',
    )
    reply = d.read_message()
    assert isinstance(reply, dict), f"a batch that is not JSON gets ONE error object, got {short(reply)}"
    assert_parse_error(reply)
    d.echo_ok()


def test_rpc_call_with_an_empty_array(any_daemon):
    d = any_daemon
    send_text(d, "[]")
    reply = d.read_message()
    assert isinstance(reply, dict), f"an empty batch gets ONE Invalid Request object, not an array: {short(reply)}"
    assert_invalid_request(reply, id=None)
    d.echo_ok()


def test_rpc_call_with_an_invalid_batch_but_not_empty(any_daemon):
    d = any_daemon
    send_text(d, "[1]")
    reply = d.read_message()
    assert isinstance(reply, list) and len(reply) == 1, f"expected an array of one error, got {short(reply)}"
    assert_invalid_request(reply[0], id=None)
    d.echo_ok()


def test_rpc_call_with_invalid_batch(any_daemon):
    d = any_daemon
    send_text(d, "[1,2,3]")
    reply = d.read_message()
    assert isinstance(reply, list) and len(reply) == 3, f"expected an array of three errors, got {short(reply)}"
    for r in reply:
        assert_invalid_request(r, id=None)
    d.echo_ok()


def test_rpc_call_batch(any_daemon):
    d = any_daemon
    send_text(
        d,
        "["
        '{"jsonrpc": "2.0", "method": "daemon/echo", "params": [1,2,4], "id": "1"},'
        '{"jsonrpc": "2.0", "method": "daemon/echo", "params": [7]},'
        '{"jsonrpc": "2.0", "method": "daemon/echo", "params": [42,23], "id": "2"},'
        '{"foo": "boo"},'
        '{"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},'
        '{"jsonrpc": "2.0", "method": "daemon/echo", "id": "9"}'
        "]",
    )
    reply = d.read_message()
    assert isinstance(reply, list), f"a batch reply is one array, got {short(reply)}"
    assert len(reply) == 5, f"expected 5 replies (the notification gets none), got {short(reply, 2000)}"
    by_id = {}
    for r in reply:
        assert isinstance(r, dict) and "id" in r, short(r)
        key = repr(r["id"])
        assert key not in by_id, f"two replies with id {key}: {short(reply, 2000)}"
        by_id[key] = r
    assert set(by_id) == {"'1'", "'2'", "None", "'5'", "'9'"}, short(reply, 2000)
    assert_result(by_id["'1'"], "1", [1, 2, 4])
    assert_result(by_id["'2'"], "2", [42, 23])
    assert_invalid_request(by_id["None"], id=None)
    assert_error(by_id["'5'"], METHOD_NOT_FOUND, id="5", data={"method": "foo.get"})
    assert_result(by_id["'9'"], "9", None)
    d.expect_no_message(0.2)
    d.echo_ok()


def test_rpc_call_batch_all_notifications(any_daemon):
    d = any_daemon
    send_text(
        d,
        '[{"jsonrpc": "2.0", "method": "daemon/echo", "params": [1,2,4]},'
        '{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]',
    )
    d.expect_no_message(0.3)
    d.echo_ok()


def test_batch_replies_once_all_members_are_done(any_daemon):
    """A batch mixing a slow and a fast request still yields one array with both."""
    d = any_daemon
    send_text(
        d,
        '[{"jsonrpc":"2.0","method":"daemon/sleep","params":{"ms":200},"id":"slow"},'
        '{"jsonrpc":"2.0","method":"daemon/echo","params":["fast"],"id":"fast"}]',
    )
    reply = d.read_message(timeout=5)
    assert isinstance(reply, list) and len(reply) == 2, short(reply)
    by_id = {r["id"]: r for r in reply}
    assert_result(by_id["slow"], "slow", {"slept": 200})
    assert_result(by_id["fast"], "fast", ["fast"])


def test_batch_before_initialize_gets_not_initialized_per_member(spawn, framing):
    d = spawn(framing=framing)
    send_text(d, '[{"jsonrpc":"2.0","method":"daemon/echo","params":[1],"id":1},{"jsonrpc":"2.0","method":"daemon/echo","params":[2],"id":2}]')
    reply = d.read_message()
    assert isinstance(reply, list) and len(reply) == 2, short(reply)
    for r in reply:
        assert_error(r, -32002)
    assert sorted(r["id"] for r in reply) == [1, 2]


# ------------------------------------------------------------------ ids

EXACT_IDS = [
    ("9007199254740993", 9007199254740993),
    ("-9007199254740993", -9007199254740993),
    ("123456789012345678901234567890", 123456789012345678901234567890),
    ("1.5", 1.5),
    ("-1", -1),
    ("0", 0),
    ('"1"', "1"),
    ('""', ""),
    ('"abc-\\u00e9-\u00e9-\U0001F600"', "abc-\u00e9-\u00e9-\U0001F600"),
    ("1e2", 100.0),
    ("-0", 0),
    ("1.50", 1.5),
]


@pytest.mark.parametrize("text,value", EXACT_IDS, ids=[t for t, _ in EXACT_IDS])
def test_ids_are_echoed_exactly(any_daemon, text, value):
    d = any_daemon
    send_text(d, '{"jsonrpc":"2.0","method":"daemon/echo","params":["x"],"id":' + text + "}")
    frame = d.read_frame()
    resp = frame.obj
    assert_result(resp, value, ["x"])
    if not text.startswith('"'):
        # The number comes back as the very text that was sent (not reformatted through a double).
        m = re.search(rb'"id"\s*:\s*(-?[0-9][0-9.eE+-]*|-?0)', frame.body)
        assert m, frame.body
        assert m.group(1).decode() == text, f"id sent as {text} came back as {m.group(1).decode()} in {frame.body!r}"


def test_numeric_and_string_ids_are_distinct(any_daemon):
    d = any_daemon
    send_text(d, '{"jsonrpc":"2.0","method":"daemon/sleep","params":{"ms":150},"id":1}')
    send_text(d, '{"jsonrpc":"2.0","method":"daemon/echo","params":["string"],"id":"1"}')
    replies = [d.read_message(), d.read_message()]
    by_type = {type(r["id"]).__name__: r for r in replies}
    assert set(by_type) == {"int", "str"}, short(replies)
    assert_result(by_type["int"], 1, {"slept": 150})
    assert_result(by_type["str"], "1", ["string"])


def test_params_null_is_absent_params(any_daemon):
    d = any_daemon
    send_text(d, '{"jsonrpc":"2.0","method":"daemon/echo","params":null,"id":7}')
    assert_result(d.read_message(), 7, None)
    send_text(d, '{"jsonrpc":"2.0","method":"daemon/echo","id":8}')
    assert_result(d.read_message(), 8, None)


@pytest.mark.parametrize(
    "params",
    [
        {},
        [],
        {"nested": {"a": [1, 2, {"b": None}], "t": True, "f": False}},
        ["unicode: \u00e9 \u4e2d \U0001F600 \uc548\ub155", "controls: \u0000 \u001f \n \t \" \\ /"],
        [9007199254740993, -9007199254740993, 0.1, 1e-7, 123456789.125, -0.5],
        {"": "empty key", "k\u00e9y": "v"},
        ["x" * 100_000],
    ],
    ids=["empty-object", "empty-array", "nested", "strings", "numbers", "keys", "long-string"],
)
def test_echo_returns_params_unchanged(any_daemon, params):
    d = any_daemon
    resp = d.call("daemon/echo", params, id="e")
    assert_result(resp, "e", params)


def test_echo_keeps_number_text(any_daemon):
    d = any_daemon
    send_text(d, '{"jsonrpc":"2.0","method":"daemon/echo","params":[12345678901234567890123,1.10,1E400,-0.0],"id":"n"}')
    frame = d.read_frame()
    assert_result(frame.obj, "n")
    m = re.search(rb'"result"\s*:\s*\[([^\]]*)\]', frame.body)
    assert m, frame.body
    numbers = [x.strip() for x in m.group(1).split(b",")]
    assert numbers[0] == b"12345678901234567890123", frame.body
    assert numbers[1] in (b"1.10", b"1.1"), frame.body
    assert numbers[2].lower() in (b"1e400", b"1e+400"), f"1E400 must not become infinity or null: {frame.body!r}"


def test_unknown_method_gets_method_not_found_with_method(daemon):
    for method in ("nope", "quotes/nope", "$/unknownRequest", "rpc.nothing", "DAEMON/ECHO", ""):
        resp = daemon.call(method, {}, id=method or "empty")
        assert_error(resp, METHOD_NOT_FOUND, id=method or "empty", data={"method": method})


def test_invalid_request_keeps_a_readable_id(daemon):
    daemon.send_raw(daemon.frame(b'{"jsonrpc":"2.0","id":41,"method":"daemon/echo","params":"str"}'))
    assert_invalid_request(daemon.read_message(), id=41)
    assert INVALID_REQUEST == -32600


def test_escaped_method_names_are_decoded(any_daemon):
    d = any_daemon
    send_text(d, '{"jsonrpc":"2.0","method":"daemon\\/echo","params":[1],"id":"esc1"}')
    assert_result(d.read_message(), "esc1", [1])
    send_text(d, '{"jsonrpc":"2.0","method":"\\u0064aemon/echo","params":[2],"id":"esc2"}')
    assert_result(d.read_message(), "esc2", [2])
    send_text(d, '{"method":"daemon/echo","id":"order","params":[3],"jsonrpc":"2.0"}')
    assert_result(d.read_message(), "order", [3])


def test_a_large_batch(any_daemon):
    d = any_daemon
    d.send([{"jsonrpc": "2.0", "method": "daemon/echo", "params": [i], "id": i} for i in range(1000)])
    reply = d.read_message(timeout=20)
    assert isinstance(reply, list) and len(reply) == 1000
    assert sorted(r["id"] for r in reply) == list(range(1000))
    for r in reply:
        assert_result(r, r["id"], [r["id"]])


def test_a_batch_with_initialize_before_initialization(spawn, framing):
    d = spawn(framing=framing)
    d.send([{"jsonrpc": "2.0", "method": "initialize", "params": {}, "id": "i"}])
    reply = d.read_message()
    assert isinstance(reply, list) and len(reply) == 1, short(reply)
    # Either answer is defensible; what matters is one reply and a daemon that still works.
    d.call("initialize", {}, id="i2")
    d.echo_ok()


def test_notifications_caused_by_a_batch_come_before_its_reply(daemon):
    daemon.send([{"jsonrpc": "2.0", "method": "quotes/random", "params": {}, "id": "b1"}])
    first, second, third = daemon.read_message(), daemon.read_message(), daemon.read_message()
    assert first == {"jsonrpc": "2.0", "method": "quotes/loading", "params": {"isLoading": True}}, short(first)
    assert second == {"jsonrpc": "2.0", "method": "quotes/loading", "params": {"isLoading": False}}, short(second)
    assert isinstance(third, list) and len(third) == 1
    assert_result(third[0], "b1")


def test_cancel_a_member_of_a_batch(daemon):
    daemon.send(
        [
            {"jsonrpc": "2.0", "method": "daemon/sleep", "params": {"ms": 5000}, "id": "bs"},
            {"jsonrpc": "2.0", "method": "daemon/echo", "params": [1], "id": "be"},
        ]
    )
    time.sleep(0.1)
    started = time.monotonic()
    daemon.notify("$/cancelRequest", {"id": "bs"})
    reply = daemon.read_message(timeout=3)
    assert time.monotonic() - started < 2
    assert isinstance(reply, list) and len(reply) == 2, short(reply)
    by_id = {r["id"]: r for r in reply}
    assert_error(by_id["bs"], -32800, id="bs")
    assert_result(by_id["be"], "be", [1])
