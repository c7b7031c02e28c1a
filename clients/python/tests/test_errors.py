"""Error replies become the exception class of their code, with code, message
and data."""

from __future__ import annotations

import asyncio
import http.server
import json
import socket
import threading
from pathlib import Path

import pytest
from client_support import REPO_ROOT, run

import catalogd
from catalogd import (
    AsyncClient,
    CatalogdError,
    InvalidParams,
    InvalidRequest,
    MethodNotFound,
    NotFound,
    RpcError,
    UpstreamError,
    UpstreamUnavailable,
)


def test_unknown_method(client):
    with pytest.raises(MethodNotFound) as e:
        client.request("nope/nothing", {"a": 1})
    err = e.value
    assert err.code == -32601 and err.data == {"method": "nope/nothing"}
    assert err.method == "nope/nothing"
    assert err.message and err.message in str(err) and "-32601" in str(err)


def test_invalid_params_name_the_field(client):
    with pytest.raises(InvalidParams) as e:
        client.quotes_list(limit=1000)
    assert e.value.code == -32602
    assert e.value.data["field"] == "limit" and e.value.field == "limit"
    assert e.value.data["reason"]
    with pytest.raises(InvalidParams) as e:
        client.request("daemon/sleep", {"ms": "soon"})
    assert e.value.field == "ms"


def test_not_found_carries_resource_and_id(client):
    with pytest.raises(NotFound) as e:
        client.quotes_random(author="nobody-at-all")
    assert e.value.code == -32001
    assert e.value.data == {"resource": "quote", "id": None}


def test_every_error_reply_is_an_rpc_error(client):
    with pytest.raises(RpcError) as e:
        client.quotes_random(tags=["no-such-tag-anywhere"])
    assert type(e.value) is NotFound and isinstance(e.value, CatalogdError)


def test_request_after_shutdown(client):
    client.shutdown()
    with pytest.raises(InvalidRequest) as e:
        client.quotes_random()
    assert e.value.data["reason"]


def test_async_errors_are_the_same_classes(daemons):
    async def main() -> None:
        async with daemons(cls=AsyncClient) as c:
            with pytest.raises(InvalidParams) as e:
                await c.quotes_list(page=0)
            assert e.value.field == "page"
            with pytest.raises(MethodNotFound):
                await c.request("nope/nothing")
            assert await c.daemon_echo([1]) == [1]

    run(main())


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_upstream_unavailable_is_retryable(daemons):
    url = f"http://127.0.0.1:{_closed_port()}"
    with daemons("--quotes-url", url, "--upstream-timeout-ms", "3000") as c:
        with pytest.raises(UpstreamUnavailable) as e:
            c.quotes_random()
    err = e.value
    assert err.code == -32020 and err.retryable is True
    assert err.data["service"] == "quotes"


class _Failing(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        body = json.dumps({"statusCode": 503, "statusMessage": "down for maintenance"}).encode()
        self.send_response(503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_upstream_error_carries_the_status(daemons):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Failing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        with daemons("--quotes-url", url) as c:
            with pytest.raises(UpstreamError) as e:
                c.quotes_random()
    finally:
        server.shutdown()
        server.server_close()
    assert e.value.code == -32021
    assert e.value.data["service"] == "quotes"
    assert e.value.data.get("status") == 503


def test_each_well_known_code_has_its_class():
    doc = json.loads(Path(REPO_ROOT, "openrpc.json").read_text(encoding="utf-8"))
    codes = {e["code"] for e in doc["components"]["errors"].values()}
    assert codes <= set(catalogd.ERROR_CLASSES), f"no class for {codes - set(catalogd.ERROR_CLASSES)}"
    expected = {
        -32700: "ParseError", -32600: "InvalidRequest", -32601: "MethodNotFound", -32602: "InvalidParams",
        -32603: "InternalError", -32002: "ServerNotInitialized", -32800: "RequestCancelled",
        -32001: "NotFound", -32009: "Conflict", -32020: "UpstreamUnavailable", -32021: "UpstreamError",
        -32030: "StorageFull",
    }
    for code, name in expected.items():
        err = RpcError.from_wire({"code": code, "message": "m", "data": {"x": 1}}, "a/b")
        assert type(err).__name__ == name and type(err) is getattr(catalogd, name)
        assert (err.code, err.message, err.data, err.method) == (code, "m", {"x": 1}, "a/b")
        assert isinstance(err, RpcError) and isinstance(err, CatalogdError) and err.CODE == code


def test_unknown_codes_and_malformed_errors_stay_rpc_errors():
    err = RpcError.from_wire({"code": -31999, "message": "new"})
    assert type(err) is RpcError and err.code == -31999 and err.data is None
    odd = RpcError.from_wire("not an object")
    assert type(odd) is catalogd.InternalError
    assert RpcError.from_wire({"code": -32020, "message": "m", "data": {"retryable": False}}).retryable is False


def test_catalogd_error_is_the_root_of_every_exception_of_the_client():
    """One `except CatalogdError` catches them all; each also keeps the
    standard base it had, so older `except` clauses still work."""
    import inspect

    exported = [v for v in vars(catalogd).values() if inspect.isclass(v) and issubclass(v, BaseException)]
    assert len(exported) >= 20
    assert all(issubclass(cls, CatalogdError) for cls in exported), [
        c.__name__ for c in exported if not issubclass(c, CatalogdError)
    ]
    assert not issubclass(CatalogdError, RpcError) and issubclass(catalogd.NotFound, RpcError)
    for cls, base in [
        (catalogd.DaemonExited, ConnectionError),
        (catalogd.RequestTimeout, TimeoutError),
        (catalogd.NotificationTimeout, TimeoutError),
        (catalogd.NotificationTimeout, asyncio.TimeoutError),
        (catalogd.ProtocolError, ValueError),
        (catalogd.BinaryNotFound, FileNotFoundError),
        (catalogd.BinaryNotExecutable, PermissionError),
        (catalogd.InvalidArgument, TypeError),
        (catalogd.InvalidArgument, ValueError),
        (catalogd.InvalidState, RuntimeError),
    ]:
        assert issubclass(cls, base) and issubclass(cls, CatalogdError), cls
    assert not issubclass(catalogd.DaemonExited, RpcError) and not issubclass(catalogd.UsageError, RpcError)


def test_misuse_raises_usage_errors(client, tmp_path):
    with pytest.raises(catalogd.InvalidArgument, match="params"):
        client.request("daemon/echo", "text")  # neither an object nor an array
    with pytest.raises(catalogd.InvalidArgument, match="JSON"):
        client.request("daemon/echo", [float("nan")])
    with pytest.raises(catalogd.InvalidArgument, match="timeout"):
        client.request("daemon/echo", [1], timeout=-1)
    with pytest.raises(catalogd.InvalidArgument, match="timeout"):
        client.daemon_echo([1], timeout="soon")  # type: ignore[arg-type]
    with pytest.raises(catalogd.InvalidArgument, match="timeout"):
        catalogd.Client(client.binary, timeout="soon")  # type: ignore[arg-type]
    with pytest.raises(catalogd.InvalidArgument, match="env"):
        catalogd.Client(client.binary, env="A=1")  # type: ignore[arg-type]
    assert client.daemon_echo([1], timeout=float("inf")) == [1], "infinity: no limit"

    def from_handler(params: object) -> None:
        try:
            client.daemon_echo()
        except catalogd.InvalidState as e:
            raised.append(e)

    raised: list = []
    client.on("quotes/loading", from_handler)
    client.quotes_random()
    assert len(raised) == 2 and "notification handler" in str(raised[0])
