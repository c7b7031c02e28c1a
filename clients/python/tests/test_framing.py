"""Framing: the decoder on hand-made streams, and both framings end to end."""

from __future__ import annotations

import json

import pytest
from client_support import run

from catalogd import AsyncClient, ProtocolError
from catalogd._framing import Decoder, dumps, encode


def feed_bytewise(decoder: Decoder, data: bytes):
    out = []
    for i in range(len(data)):
        out += decoder.feed(data[i : i + 1])
    return out


def test_ndjson_decoder():
    d = Decoder("ndjson")
    assert d.feed(b'{"a":1}\n{"b":') == [b'{"a":1}']
    assert d.pending_bytes == 5
    assert d.feed(b'2}\r\n\n  \n{"c":3}\n') == [b'{"b":2}', b'{"c":3}']
    assert d.pending_bytes == 0
    assert feed_bytewise(Decoder("ndjson"), b'{"x":"\xc3\xa9"}\n[1]\n') == [b'{"x":"\xc3\xa9"}', b"[1]"]


def test_lsp_decoder():
    body1 = '{"x":"한국어"}'.encode()
    body2 = b"[1,2]"
    stream = encode(body1, "lsp") + b"content-length: 5\r\nContent-Type: application/vscode-jsonrpc\r\n\r\n" + body2
    assert Decoder("lsp").feed(stream) == [body1, body2]
    assert feed_bytewise(Decoder("lsp"), stream) == [body1, body2]
    d = Decoder("lsp")
    assert d.feed(stream[:7]) == [] and d.feed(stream[7:30]) == [] and d.feed(stream[30:]) == [body1, body2]


@pytest.mark.parametrize(
    "bad",
    [b"Content-Length: x\r\n\r\n", b"Content-Type: a\r\n\r\n{}", b"garbage without colon\r\n\r\n", b"A: b\r\n" * 2000],
)
def test_lsp_decoder_refuses_broken_headers(bad):
    with pytest.raises(ProtocolError):
        Decoder("lsp").feed(bad)


def test_encode():
    assert encode(b"{}", "ndjson") == b"{}\n"
    assert encode("é".encode(), "lsp") == b"Content-Length: 2\r\n\r\n\xc3\xa9"
    assert dumps({"t": "a\nb", "k": "한"}) == '{"t":"a\\nb","k":"한"}'.encode()
    with pytest.raises(ValueError):
        dumps({"x": float("inf")})
    with pytest.raises(ValueError):
        Decoder("xml")


def test_both_framings_end_to_end(daemons, framing):
    payload = {"text": "한국어 ✓ 😀 \u2028 \n", "big": 2**70, "deep": [[[[{"a": None}]]]], "long": "x" * 300_000}
    with daemons(framing=framing) as c:
        assert c.daemon_echo(payload) == payload
        assert json.dumps(c.rpc_discover())  # a large reply, many reads


def test_both_framings_end_to_end_async(daemons, framing):
    async def main() -> None:
        async with daemons(cls=AsyncClient, framing=framing) as c:
            payload = {"long": "y" * 200_000, "n": 1}
            assert await c.daemon_echo(payload) == payload

    run(main())
