"""A local quotable-compatible upstream (https://github.com/lukePeavey/quotable)
for the remote quotes backend: `GET /random` and `GET /quotes`, answered from
programmable routes, every request recorded.

    server = QuotableServer().start()
    server.route("random", json=[QUOTE])            # the newer array shape
    server.route("random", status=500, json={"statusCode": 500, "statusMessage": "boom"})
    server.route("random", body=b"{not json", delay=2.0)
    ... server.url, server.requests ...
    server.stop()
"""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

SAMPLE_QUOTE = {
    "_id": "q-remote-1",
    "content": "Remote wisdom travels far.",
    "author": "Test Author",
    "tags": ["wisdom", "testing"],
    "authorSlug": "test-author",
    "length": 26,
    "dateAdded": "2023-04-14",
    "dateModified": "2023-04-14",
}
"""A quote as quotable sends it; the daemon must answer with `EXPECTED_SAMPLE`."""

EXPECTED_SAMPLE = {
    "id": "q-remote-1",
    "content": "Remote wisdom travels far.",
    "author": "Test Author",
    "tags": ["wisdom", "testing"],
    "length": 26,
}


def remote_quote(i: int) -> dict:
    content = f"Remote quote number {i}."
    return {
        "_id": f"rq-{i}",
        "content": content,
        "author": "Remote Author",
        "tags": ["remote"],
        "authorSlug": "remote-author",
        "length": len(content),
        "dateAdded": "2023-04-14",
        "dateModified": "2023-04-14",
    }


def list_payload(page: int, total_pages: int, per_page: int = 2) -> dict:
    results = [remote_quote((page - 1) * per_page + i) for i in range(per_page)]
    return {
        "count": len(results),
        "totalCount": total_pages * per_page,
        "page": page,
        "totalPages": total_pages,
        "lastItemIndex": page * per_page if page < total_pages else None,
        "results": results,
    }


@dataclass
class Route:
    status: int = 200
    json: Any = None
    body: bytes | None = None
    delay: float = 0.0
    content_type: str = "application/json; charset=utf-8"


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    raw_query: str
    headers: dict[str, str] = field(default_factory=dict)

    def param(self, name: str) -> str | None:
        values = self.query.get(name)
        return values[0] if values else None


LIVE_SERVERS: "set[QuotableServer]" = set()
_LOCK = threading.Lock()


def kill_all_live_servers() -> None:
    with _LOCK:
        servers = list(LIVE_SERVERS)
    for s in servers:
        s.stop()


class QuotableServer:
    def __init__(self) -> None:
        self.routes: dict[str, Route] = {
            "random": Route(json=SAMPLE_QUOTE),
            "quotes": Route(json=list_payload(1, 1)),
        }
        self.requests: list[Recorded] = []
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # The last path segment picks the route, so base URLs with a path prefix work.
    def route(self, name: str, **kwargs: Any) -> None:
        self.routes[name] = Route(**kwargs)

    @property
    def port(self) -> int:
        assert self._httpd is not None
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "QuotableServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
                pass

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                server.requests.append(
                    Recorded(
                        method="GET",
                        path=parts.path,
                        query=parse_qs(parts.query, keep_blank_values=True),
                        raw_query=parts.query,
                        headers={k.lower(): v for k, v in self.headers.items()},
                    )
                )
                name = parts.path.rstrip("/").rsplit("/", 1)[-1]
                route = server.routes.get(name)
                if route is None:
                    route = Route(status=404, json={"statusCode": 404, "statusMessage": "The requested resource could not be found"})
                if route.delay and server._stopping.wait(route.delay):
                    return
                body = route.body if route.body is not None else json.dumps(route.json).encode("utf-8")
                try:
                    self.send_response(route.status)
                    self.send_header("Content-Type", route.content_type)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:  # client went away
                pass

        self._httpd = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        with _LOCK:
            LIVE_SERVERS.add(self)
        return self

    def stop(self) -> None:
        self._stopping.set()
        httpd = self._httpd
        if httpd is not None and self._thread is not None and self._thread.is_alive():
            httpd.shutdown()
            httpd.server_close()
        with _LOCK:
            LIVE_SERVERS.discard(self)

    def paths(self) -> list[str]:
        return [r.path for r in self.requests]


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (connection refused)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
