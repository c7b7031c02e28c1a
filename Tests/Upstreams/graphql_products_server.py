"""A local products upstream for catalogd's remote products backend.

It executes the real schema (Sources/Services/Products/Upstream/products.graphql)
with graphql-core over an in-memory catalog, records every GraphQL request and
can be told to fail. Run it as a program:

    python3 Tests/Upstreams/graphql_products_server.py [--port N] [--exit-on-eof]

It prints its port on the first line of stdout, then serves until killed (or,
with --exit-on-eof, until its stdin closes: a test that dies takes it along).
The GraphQL endpoint is any POST path but the control ones, e.g.
http://127.0.0.1:PORT/graphql. Or use it from Python:

    server = ProductsUpstream().start()   # server.url, server.requests, server.faults
    server.stop()

Control endpoints (JSON bodies):
    GET  /_requests  every GraphQL request so far, oldest first:
                     [{"operationName", "croquisUuid", "variables", "query", "contentType"}]
    POST /_reset     back to the start: seed catalog, no faults, no requests
    POST /_faults    how to answer the following GraphQL requests, until the next
                     /_faults or /_reset ({} clears). Members, all optional:
                       "status": 500       that HTTP status, body {"errors": [{"message"}]}
                       "errors": "boom"    HTTP 200, {"data": null, "errors": [{"message": "boom"}]}
                       "partial": true     the real data plus {"errors": [{"message"}]}
                       "malformed": true   HTTP 200, body `not json`
                       "body": {...}       HTTP 200 with this JSON as the body
                       "delayMs": 2000     wait that long before answering
                       "message": "..."    the message of "status" and "partial"
                       "operation": "Product"  only requests with this operationName
"""

from __future__ import annotations

import argparse
import base64
import binascii
import datetime
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from graphql import GraphQLError, build_schema, execute, parse, validate

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "Sources/Services/Products/Upstream/products.graphql"

SEED_SUPPLIERS = [
    {"id": "s1", "name": "Croquis Farm"},
    {"id": "s2", "name": "Seoul Bakery"},
    {"id": "s3", "name": "Jeju Orchard"},
]

SEED_PRODUCTS = [
    # The oldest first; "newest" lists them the other way round.
    {"id": "p1", "nameKo": "사과", "nameEn": "Apple", "price": 1200, "supplierId": "s3",
     "createdAt": "2024-01-01T09:00:00.000Z", "updatedAt": "2024-01-01T09:00:00.000Z"},
    {"id": "p2", "nameKo": "식빵", "nameEn": "White bread", "price": 3500, "supplierId": "s2",
     "createdAt": "2024-01-02T09:00:00.000Z", "updatedAt": "2024-02-10T12:30:00.250Z"},
    {"id": "p3", "nameKo": "귤", "nameEn": None, "price": 800, "supplierId": None,
     "createdAt": None, "updatedAt": None},  # an upstream that does not say when
    {"id": "p4", "nameKo": "우유", "nameEn": "Milk", "price": 2700, "supplierId": "s1",
     "createdAt": "2024-01-04T09:00:00.000Z", "updatedAt": "2024-01-04T09:00:00.000Z"},
    {"id": "p5", "nameKo": "달걀", "nameEn": "Eggs", "price": 6900, "supplierId": "s1",
     "createdAt": "2024-01-05T09:00:00.000Z", "updatedAt": "2024-01-05T09:00:00.000Z"},
]


def rfc3339(milliseconds: int) -> str:
    moment = datetime.datetime.fromtimestamp(milliseconds / 1000, tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{milliseconds % 1000:03d}Z"


class Catalog:
    """The products and suppliers, and the resolvers of Query and Mutation.

    graphql-core's default resolver reads each root field from this object and
    calls it with (info, **arguments).
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.suppliers = {s["id"]: dict(s) for s in SEED_SUPPLIERS}
        self.products = {p["id"]: dict(p, seq=i) for i, p in enumerate(SEED_PRODUCTS)}
        self.next_id = len(SEED_PRODUCTS) + 1
        self.last_ms = 0

    def _now(self) -> str:
        """Now, strictly later than any time handed out before, so every update changes updatedAt."""
        self.last_ms = max(int(time.time() * 1000), self.last_ms + 1)
        return rfc3339(self.last_ms)

    def _view(self, product: dict) -> dict:
        fields = {k: product[k] for k in ("id", "nameKo", "nameEn", "price", "createdAt", "updatedAt")}
        fields["imageUrl"] = product.get("imageUrl")
        supplier_id = product["supplierId"]
        return dict(fields, supplier=dict(self.suppliers[supplier_id]) if supplier_id else None)

    def _supplier_id(self, value: str | None) -> str | None:
        if value is not None and value not in self.suppliers:
            raise GraphQLError(f"supplier {value} does not exist")
        return value

    def _product(self, id: str) -> dict:
        if id not in self.products:
            raise GraphQLError(f"product {id} does not exist")
        return self.products[id]

    @staticmethod
    def _key(product: dict) -> tuple:
        """The "newest" order, descending: creation time (unknown ones last), then creation order."""
        return (product["createdAt"] or "", product["seq"])

    @staticmethod
    def _cursor(key: tuple) -> str:
        return base64.urlsafe_b64encode(json.dumps(list(key)).encode()).decode()

    @staticmethod
    def _after(cursor: str) -> tuple:
        try:
            created_at, seq = json.loads(base64.urlsafe_b64decode(cursor.encode()))
            return (str(created_at), int(seq))
        except (ValueError, TypeError, binascii.Error):
            raise GraphQLError("invalid cursor") from None

    # Query

    def productList(self, info: Any, cursor: str | None = None, limit: int | None = None,
                    query: str | None = None) -> dict:
        limit = 20 if limit is None else limit
        if not 1 <= limit <= 100:
            raise GraphQLError("limit must be between 1 and 100")
        with self.lock:
            needle = (query or "").casefold()
            matching = sorted(
                (p for p in self.products.values()
                 if needle in p["nameKo"].casefold() or needle in (p["nameEn"] or "").casefold()),
                key=self._key, reverse=True)
            after = matching
            if cursor is not None:
                bound = self._after(cursor)
                after = [p for p in matching if self._key(p) < bound]
            page = after[:limit]
            more = len(after) > limit
            return {
                "itemList": [self._view(p) for p in page],
                "totalCount": len(matching),
                "nextCursor": self._cursor(self._key(page[-1])) if more else None,
            }

    def product(self, info: Any, id: str) -> dict | None:
        with self.lock:
            product = self.products.get(id)
            return self._view(product) if product else None

    def supplierList(self, info: Any) -> dict:
        with self.lock:
            return {"itemList": [dict(s) for s in self.suppliers.values()]}

    # Mutation

    def createProduct(self, info: Any, input: dict) -> dict:
        with self.lock:
            now = self._now()
            product = {
                "id": f"p{self.next_id}", "nameKo": input["nameKo"], "nameEn": input.get("nameEn"),
                "price": input["price"], "supplierId": self._supplier_id(input.get("supplierId")),
                "createdAt": now, "updatedAt": now, "seq": self.next_id, "imageUrl": input.get("imageUrl"),
            }
            self.next_id += 1
            self.products[product["id"]] = product
            return self._view(product)

    def updateProduct(self, info: Any, input: dict) -> dict:
        # graphql-core leaves absent input fields out and passes an explicit null as None.
        with self.lock:
            product = self._product(input["id"])
            changes = {}
            for name in ("nameKo", "price"):
                if name in input:
                    if input[name] is None:
                        raise GraphQLError(f"{name} cannot be null")
                    changes[name] = input[name]
            for name in ("nameEn", "imageUrl"):
                if name in input:
                    changes[name] = input[name]
            if "supplierId" in input:
                changes["supplierId"] = self._supplier_id(input["supplierId"])
            product.update(changes, updatedAt=self._now())
            return self._view(product)

    def deleteProduct(self, info: Any, id: str) -> str:
        with self.lock:
            self._product(id)
            del self.products[id]
            return id


class ProductsUpstream:
    """The HTTP server: GraphQL on POST, the control endpoints under /_."""

    def __init__(self, port: int = 0, schema_path: Path = SCHEMA_PATH) -> None:
        self.schema = build_schema(schema_path.read_text(encoding="utf-8"))
        self.port_wanted = port
        self.lock = threading.Lock()
        self.reset()
        self.httpd: ThreadingHTTPServer | None = None

    def reset(self) -> None:
        with self.lock:
            self.catalog = Catalog()
            self.faults: dict = {}
            self.requests: list[dict] = []

    @property
    def port(self) -> int:
        assert self.httpd is not None
        return self.httpd.server_address[1]

    @property
    def url(self) -> str:
        """The GraphQL endpoint."""
        return f"http://127.0.0.1:{self.port}/graphql"

    def answer(self, body: bytes, headers: Any) -> tuple[int, bytes]:
        """Runs one GraphQL request: (status, response body)."""
        try:
            request = json.loads(body)
            if not isinstance(request, dict) or not isinstance(request.get("query"), str):
                raise ValueError("the body has no query")
        except ValueError as error:  # JSONDecodeError and UnicodeDecodeError included
            return 400, json.dumps({"errors": [{"message": f"bad request: {error}"}]}).encode()
        operation = request.get("operationName")
        with self.lock:
            self.requests.append({
                "operationName": operation,
                "croquisUuid": headers.get("Croquis-UUID"),
                "variables": request.get("variables"),
                "query": request["query"],
                "contentType": headers.get("Content-Type"),
            })
            faults = dict(self.faults)
            catalog = self.catalog
        if faults.get("operation") not in (None, operation):
            faults = {}
        time.sleep(faults.get("delayMs", 0) / 1000)
        message = faults.get("message")
        if "status" in faults:
            return faults["status"], json.dumps({"errors": [{"message": message or "upstream failure"}]}).encode()
        if "errors" in faults:
            return 200, json.dumps({"data": None, "errors": [{"message": faults["errors"]}]}).encode()
        if faults.get("malformed"):
            return 200, b"not json"
        if "body" in faults:
            return 200, json.dumps(faults["body"]).encode()
        # A document that does not parse or validate against the schema is a bad request (400);
        # errors while executing one come back with status 200, as GraphQL servers do.
        try:
            document = parse(request["query"])
        except GraphQLError as error:
            return 400, json.dumps({"errors": [error.formatted]}).encode()
        invalid = validate(self.schema, document)
        if invalid:
            return 400, json.dumps({"errors": [error.formatted for error in invalid]}).encode()
        result = execute(self.schema, document, root_value=catalog,
                         variable_values=request.get("variables"), operation_name=operation)
        payload: dict = {"data": result.data}
        if result.errors:
            payload["errors"] = [error.formatted for error in result.errors]
        if faults.get("partial"):
            payload.setdefault("errors", []).append({"message": message or "partial failure"})
        return 200, json.dumps(payload).encode()

    def start(self) -> "ProductsUpstream":
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                pass

            def reply(self, status: int, body: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout)
                    pass

            def do_GET(self) -> None:
                if self.path == "/_requests":
                    with upstream.lock:
                        self.reply(200, json.dumps(upstream.requests).encode())
                else:
                    self.reply(404, json.dumps({"message": "POST GraphQL requests"}).encode())

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path == "/_reset":
                    upstream.reset()
                    self.reply(200, b"{}")
                elif self.path == "/_faults":
                    try:
                        faults = json.loads(body or b"{}")
                        assert isinstance(faults, dict)
                    except (ValueError, AssertionError):
                        return self.reply(400, b'{"message": "faults must be a JSON object"}')
                    with upstream.lock:
                        upstream.faults = faults
                    self.reply(200, b"{}")
                else:
                    self.reply(*upstream.answer(body, self.headers))

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:  # client went away
                pass

        self.httpd = Server(("127.0.0.1", self.port_wanted), Handler)
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        return self

    def stop(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="0 (the default): any free port")
    parser.add_argument("--schema", type=Path, default=SCHEMA_PATH)
    parser.add_argument("--exit-on-eof", action="store_true", help="exit when stdin closes")
    arguments = parser.parse_args()
    server = ProductsUpstream(arguments.port, arguments.schema).start()
    print(server.port, flush=True)
    try:
        if arguments.exit_on_eof:
            sys.stdin.buffer.read()
        else:
            threading.Event().wait()
    except KeyboardInterrupt:
        pass
    server.stop()


if __name__ == "__main__":
    main()
