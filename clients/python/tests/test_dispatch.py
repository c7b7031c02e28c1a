"""Incoming messages the daemon should not send, handled without a process:
the client stays up and says what happened."""

from __future__ import annotations

import json
import logging

from client_support import binary_path

from catalogd import Client
from catalogd._client import _Pending


def make() -> Client:
    return Client(str(binary_path()))


def test_a_request_from_the_daemon_gets_method_not_found():
    reply = make()._handle_body(b'{"jsonrpc":"2.0","id":"s1","method":"window/showMessage","params":{}}')
    assert reply is not None
    assert json.loads(reply) == {
        "jsonrpc": "2.0",
        "id": "s1",
        "error": {
            "code": -32601,
            "message": "The client has no method window/showMessage.",
            "data": {"method": "window/showMessage"},
        },
    }


def test_ids_match_by_type():
    c = make()
    pending = _Pending("daemon/echo")
    c._pending[1] = pending
    for id in ("true", "1.0", '"1"'):
        assert c._handle_body(f'{{"jsonrpc":"2.0","id":{id},"result":"wrong"}}'.encode()) is None
    assert not pending.event.is_set(), "true, 1.0 and \"1\" are not the id 1"
    c._handle_body(b'{"jsonrpc":"2.0","id":1,"result":"right"}')
    assert pending.event.is_set() and pending.msg == {"jsonrpc": "2.0", "id": 1, "result": "right"}


def test_odd_messages_are_logged_and_skipped(caplog):
    c = make()
    seen = []
    c.on("x/y", seen.append)
    with caplog.at_level(logging.WARNING, logger="catalogd"):
        assert c._handle_body(b"not json") is None
        assert c._handle_body(b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}') is None
        assert c._handle_body(b'{"jsonrpc":"2.0","id":77,"result":1}') is None
        assert c._handle_body(b"[1,2]") is None
        assert c._handle_body(b'{"jsonrpc":"2.0","method":"x/y","params":[1]}') is None
    text = caplog.text
    assert "not JSON" in text
    assert "could not read" in text and "-32700" in text
    assert "never sent" in text
    assert "neither a response nor a notification" in text
    assert seen == [[1]]
