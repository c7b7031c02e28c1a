#!/usr/bin/env python3
"""Writes openrpc.json, the OpenRPC document of catalogd, and embeds it in the
daemon as Sources/Daemon/Support/OpenRPCDocument.swift (served by rpc.discover).

The document is written from the tables below so that schemas shared by
several methods are defined once. Run it after changing a method:
    python3 scripts/openrpc.py
`python3 scripts/openrpc.py --check` fails when either file is out of date
(the test suite runs it).
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
VERSION = "0.1.0"


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def param(name, schema, description, required=False):
    return {"name": name, "schema": schema, "description": description, "required": required}


def integer(minimum=None, maximum=None, default=None):
    schema = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    if default is not None:
        schema["default"] = default
    return schema


STRING = {"type": "string"}
CATEGORY_CODES = ["MT1", "CS2", "PS3", "SC4", "AC5", "PK6", "OL7", "SW8", "BK9", "CT1", "AG2", "PO3", "AT4", "AD5", "FD6", "CE7", "HP8", "PM9"]
COUNTERS = ["received", "succeeded", "failed", "cancelled", "parseError"]

SCHEMAS = {
    "Capabilities": {
        "type": "object",
        "required": ["services", "limits", "framings", "cancelRequest", "workDoneProgress"],
        "properties": {
            "services": {
                "type": "object",
                "description": "each hosted service by name (quotes, products, …)",
                "additionalProperties": ref("ServiceCapabilities"),
            },
            "limits": {
                "type": "object",
                "required": ["maxMessageBytes", "maxDepth", "maxInFlight"],
                "properties": {k: {"type": "integer"} for k in ["maxMessageBytes", "maxDepth", "maxInFlight"]},
            },
            "framings": {"type": "array", "items": {"enum": ["lsp", "ndjson"]}},
            "cancelRequest": {"type": "boolean"},
            "workDoneProgress": {"type": "boolean"},
        },
    },
    "ServiceCapabilities": {
        "type": "object",
        "required": ["backend", "methods", "notifications"],
        "properties": {
            "backend": {"enum": ["embedded", "remote", "postgres"]},
            "methods": {"type": "array", "items": STRING},
            "notifications": {"type": "array", "items": STRING},
        },
    },
    "Quote": {
        "type": "object",
        "required": ["id", "content", "author", "tags", "length"],
        "properties": {
            "id": STRING,
            "content": STRING,
            "author": STRING,
            "tags": {"type": "array", "items": STRING},
            "length": {"type": "integer", "description": "characters in content"},
        },
    },
    "QuotePage": {
        "type": "object",
        "required": ["items", "page", "nextPage"],
        "properties": {
            "items": {"type": "array", "items": ref("Quote")},
            "page": {"type": "integer"},
            "nextPage": {"type": ["integer", "null"], "description": "null on the last page"},
        },
    },
    "Supplier": {
        "type": "object",
        "required": ["id", "name"],
        "properties": {"id": STRING, "name": STRING},
    },
    "Product": {
        "type": "object",
        "required": ["id", "nameKo", "nameEn", "price", "supplier", "createdAt", "updatedAt", "version"],
        "properties": {
            "id": STRING,
            "nameKo": STRING,
            "nameEn": {"type": ["string", "null"]},
            "price": {"type": "integer", "minimum": 0, "description": "won"},
            "supplier": {"oneOf": [ref("Supplier"), {"type": "null"}]},
            "createdAt": {"type": ["string", "null"], "format": "date-time"},
            "updatedAt": {"type": ["string", "null"], "format": "date-time"},
            "version": {"type": "integer", "description": "grows by one at every update"},
        },
    },
    "ProductPage": {
        "type": "object",
        "required": ["items", "nextCursor", "totalCount"],
        "properties": {
            "items": {"type": "array", "items": ref("Product")},
            "nextCursor": {"type": ["string", "null"], "description": "opaque; null on the last page"},
            "totalCount": {"type": "integer"},
        },
    },
    "FeedRange": {
        "type": "object",
        "required": ["start", "end", "endReached"],
        "properties": {
            "start": {"type": "integer", "minimum": 0},
            "end": {"type": "integer", "minimum": 0, "description": "start == end when nothing was appended"},
            "endReached": {"type": "boolean"},
        },
    },
    "FeedItemChange": {
        "description": "one step of feeds/itemsChanged, at the index the list has when it is applied",
        "oneOf": [
            {"type": "object", "title": "FeedInsert", "required": ["op", "index", "items"], "properties": {"op": {"const": "insert"}, "index": {"type": "integer", "minimum": 0}, "items": {"type": "array", "items": {"type": "object"}}}},
            {"type": "object", "title": "FeedRemove", "required": ["op", "index", "count"], "properties": {"op": {"const": "remove"}, "index": {"type": "integer", "minimum": 0}, "count": {"type": "integer", "minimum": 1}}},
            {"type": "object", "title": "FeedUpdate", "required": ["op", "index", "items"], "properties": {"op": {"const": "update"}, "index": {"type": "integer", "minimum": 0}, "items": {"type": "array", "items": {"type": "object"}}}},
        ],
    },
    "FeedState": {"enum": ["idle", "loading", "refreshing", "failed", "ended"]},
    "Photo": {
        "type": "object",
        "required": ["id", "author", "width", "height", "url", "source"],
        "properties": {
            "id": {"type": "string", "description": "stable across restarts"},
            "author": {"type": ["string", "null"], "description": "from the file's metadata (EXIF Artist, PNG Author) or the upstream"},
            "width": {"type": "integer", "description": "as stored (EXIF rotation is not applied)"},
            "height": {"type": "integer"},
            "url": {"type": "string", "description": "file:// for folder photos, the download URL for picsum"},
            "source": {"enum": ["folder", "picsum"]},
        },
    },
    "PhotoPage": {
        "type": "object",
        "required": ["items", "page", "nextPage"],
        "properties": {
            "items": {"type": "array", "items": ref("Photo")},
            "page": {"type": "integer"},
            "nextPage": {"type": ["integer", "null"], "description": "null on the last page"},
        },
    },
    "PhotoImage": {
        "type": "object",
        "required": ["path", "contentType", "bytes", "cached"],
        "properties": {
            "path": {"type": "string", "description": "a local file holding the image; for remote photos a file of the bounded disk cache"},
            "contentType": {"enum": ["image/jpeg", "image/png", "image/gif", "image/webp"]},
            "bytes": {"type": "integer"},
            "cached": {"type": "boolean", "description": "true when no download was needed"},
        },
    },
    "Place": {
        "type": "object",
        "required": ["id", "placeName", "categoryGroupCode", "categoryGroupName", "categoryName", "phone", "addressName", "roadAddressName", "x", "y", "distance", "placeUrl"],
        "properties": {
            "id": STRING,
            "placeName": STRING,
            "categoryGroupCode": {"enum": CATEGORY_CODES},
            "categoryGroupName": STRING,
            "categoryName": STRING,
            "phone": {"type": "string", "description": "may be empty"},
            "addressName": STRING,
            "roadAddressName": STRING,
            "x": {"type": "number", "minimum": -180, "maximum": 180, "description": "longitude, degrees"},
            "y": {"type": "number", "minimum": -90, "maximum": 90, "description": "latitude, degrees"},
            "distance": {"type": ["integer", "null"], "description": "whole metres (great circle) from the search centre; null without one and in places/get"},
            "placeUrl": {"type": "string", "description": "may be empty"},
        },
    },
    "PlaceSearchResult": {
        "type": "object",
        "required": ["items", "meta"],
        "properties": {
            "items": {"type": "array", "items": ref("Place")},
            "meta": {
                "type": "object",
                "required": ["totalCount", "pageableCount", "isEnd"],
                "properties": {
                    "totalCount": {"type": "integer"},
                    "pageableCount": {"type": "integer", "minimum": 0, "maximum": 45},
                    "isEnd": {"type": "boolean", "description": "true on the last pageable page: hide the more button"},
                },
            },
        },
    },
    "PlaceImportResult": {
        "type": "object",
        "required": ["imported", "rejected", "rejectedCount"],
        "properties": {
            "imported": {"type": "integer"},
            "rejected": {"type": "array", "description": "the first 1,000 bad rows", "items": {"type": "object", "required": ["line", "reason"], "properties": {"line": {"type": "integer"}, "reason": STRING}}},
            "rejectedCount": {"type": "integer", "description": "every bad row"},
        },
    },
    "ProgressValue": {
        "type": "object",
        "required": ["kind"],
        "properties": {
            "kind": {"enum": ["begin", "report", "end"]},
            "title": STRING,
            "message": STRING,
            "percentage": integer(0, 100),
        },
    },
}

ERRORS = [
    (-32700, "Parse error", "bad framing, bad JSON, a message too large or too deep; data {reason}"),
    (-32600, "Invalid request", "not a JSON-RPC 2.0 request, an empty batch, a request after shutdown; data {reason}"),
    (-32601, "Method not found", "data {method}"),
    (-32602, "Invalid params", "missing, wrong type or out of range; data {field, reason}"),
    (-32603, "Internal error", "logged on the daemon's stderr; no data"),
    (-32002, "Server not initialized", "a request other than initialize before initialize"),
    (-32800, "Request cancelled", "the request was cancelled with $/cancelRequest"),
    (-32001, "Not found", "data {resource, id}; id is null when a filter matched nothing"),
    (-32009, "Conflict", "stale expectedVersion; data {currentVersion}"),
    (-32020, "Upstream unavailable", "connect, TLS, DNS or timeout failure, or the data dir's database locked by another daemon past the retries; data {service, retryable: true, reason}"),
    (-32021, "Upstream error", "bad status or malformed payload; data {service, status?, upstreamMessage?}"),
    (-32030, "Storage full", "a change was not saved: the disk that holds the data is full; data {retryable: true, reason}"),
]

METHODS = [
    {
        "name": "initialize",
        "summary": "Starts the session (Language Server Protocol conventions); every other request before it gets -32002.",
        "params": [
            param("clientInfo", {"type": "object", "properties": {"name": STRING, "version": STRING}}, "who the client is, for logs"),
            param("clientId", STRING, "the per-device UUID sent to the product upstream; without it the daemon uses a UUID persisted in its data dir"),
        ],
        "result": {"name": "InitializeResult", "schema": {
            "type": "object",
            "required": ["serverInfo", "clientId", "capabilities"],
            "properties": {
                "serverInfo": {"type": "object", "required": ["name", "version"], "properties": {"name": {"const": "catalogd"}, "version": STRING}},
                "clientId": STRING,
                "capabilities": ref("Capabilities"),
            },
        }},
    },
    {
        "name": "shutdown",
        "summary": "Ends the session: answered once every earlier request is answered; later requests get -32600. Follow it with the exit notification.",
        "params": [],
        "result": {"name": "null", "schema": {"type": "null"}},
    },
    {
        "name": "daemon/echo",
        "summary": "Returns its params unchanged (health checks, benchmarks); null without params.",
        "paramStructure": "either",
        "params": [],
        "result": {"name": "params", "schema": {}},
    },
    {
        "name": "daemon/sleep",
        "summary": "Waits ms milliseconds, honouring $/cancelRequest. A test aid: requests with the same lane run one after another in arrival order.",
        "params": [
            param("ms", integer(0, 600000), "how long to wait", True),
            param("lane", STRING, "requests with the same lane run in arrival order"),
        ],
        "result": {"name": "SleepResult", "schema": {"type": "object", "required": ["slept"], "properties": {"slept": {"type": "integer"}}}},
    },
    {
        "name": "daemon/status",
        "summary": "Uptime, request counters, requests in flight, each method's time inside the daemon, queued output, backends, data dir.",
        "params": [
            param("histograms", {"type": "boolean", "default": False}, "add each method's cumulative histogram (buckets), so that two reads give the percentiles of the interval between them"),
        ],
        "result": {"name": "Status", "schema": {
            "type": "object",
            "required": ["version", "uptimeSeconds", "requests", "inFlight", "timings", "queuedOutputBytes", "backends", "dataDir", "clientId"],
            "properties": {
                "version": STRING,
                "uptimeSeconds": {"type": "number"},
                "requests": {"type": "object", "required": COUNTERS, "properties": {k: {"type": "integer"} for k in COUNTERS}},
                "inFlight": {"type": "integer"},
                "timings": {
                    "type": "object",
                    "description": "per method with requests since start: the time from its bytes arriving to its reply handed to the output (a wait for a slot or a lane included), in log-linear buckets 1/32 of a power of two wide; a percentile is its bucket's upper bound, never above maxMs",
                    "additionalProperties": {
                        "type": "object",
                        "required": ["count", "p50Ms", "p90Ms", "p99Ms", "maxMs"],
                        "properties": {
                            "count": {"type": "integer"},
                            "p50Ms": {"type": "number"},
                            "p90Ms": {"type": "number"},
                            "p99Ms": {"type": "number"},
                            "maxMs": {"type": "number"},
                            "buckets": {
                                "type": "array",
                                "description": "with histograms: [upperBoundMs, count] of each bucket that holds requests, ascending; counts only grow",
                                "items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
                            },
                        },
                    },
                },
                "queuedOutputBytes": {"type": "integer"},
                "backends": {"type": "object", "additionalProperties": {"enum": ["embedded", "remote", "postgres"]}},
                "dataDir": STRING,
                "clientId": {"type": ["string", "null"]},
            },
        }},
    },
    {
        "name": "rpc.discover",
        "summary": "This OpenRPC document.",
        "params": [],
        "result": {"name": "OpenRPC", "schema": {"type": "object"}},
    },
    {
        "name": "quotes/random",
        "summary": "A random quote matching the filters, never the same quote twice in a row; quotes/loading true then false precede the reply. No match: -32001.",
        "params": [
            param("tags", {"type": "array", "items": STRING}, "a quote has all of them"),
            param("author", STRING, "author name or slug, case-insensitive"),
            param("minLength", integer(0, 100000), "shortest content, in characters"),
            param("maxLength", integer(0, 100000), "longest content, in characters"),
        ],
        "result": {"name": "Quote", "schema": ref("Quote")},
    },
    {
        "name": "quotes/list",
        "summary": "Quotes page by page, optionally of one author or tag.",
        "params": [
            param("page", integer(1, 100000, 1), "1-based"),
            param("limit", integer(1, 100, 20), "quotes per page"),
            param("author", STRING, "author name or slug"),
            param("tag", STRING, "a tag the quotes have"),
        ],
        "result": {"name": "QuotePage", "schema": ref("QuotePage")},
    },
    {
        "name": "feeds/open",
        "summary": "Opens an idle, empty feed over a source's list; query holds that list's filters (products: query, supplierId, sort; quotes: author, tag; places: category, x, y, radius, rect, sort; photos: none): the feed sets page, limit, size and cursor itself. A places feed holds at most the first 45 places. At most 64 open feeds (the --max-open-feeds setting): -32602 on source beyond.",
        "params": [
            param("source", {"enum": ["photos", "products", "places", "quotes"]}, "the list to page through", True),
            param("query", {"type": "object"}, "the source's list/search params, without paging params"),
            param("pageSize", integer(1, 100), "items per fetch (places: at most 15); default the source's list default (photos 30, products 20, quotes 20, places 15)"),
            param("changes", {"enum": ["diff", "reset"], "default": "diff"}, "how the feed follows changes of its source (products; a photos folder): diff sends feeds/itemsChanged; reset refreshes (feeds/pageLoaded with reset), keeping the loaded count, for clients that only handle pages"),
        ],
        "result": {"name": "FeedOpened", "schema": {"type": "object", "required": ["feedId", "state"], "properties": {"feedId": STRING, "state": ref("FeedState")}}},
    },
    {
        "name": "feeds/loadMore",
        "summary": "Appends the next page; feeds/stateChanged and feeds/pageLoaded precede the reply. A call while a load of the feed runs joins it (one upstream fetch, the same range or error; during a refresh, the refresh's range). At the end: start == end, endReached, no fetch. A failed load answers the upstream error and leaves the next page where it was. A feed keeps at most 10000 items: the page that reaches the limit is cut to it and the feed ends there. Unknown feed: -32001.",
        "params": [param("feedId", STRING, "from feeds/open", True)],
        "result": {"name": "FeedRange", "schema": ref("FeedRange")},
    },
    {
        "name": "feeds/refresh",
        "summary": "Pull-to-refresh: reloads as many items as are loaded (at least one page) while the loaded items stay; when the reload arrived, feeds/pageLoaded {reset: true} replaces them (a new generation). A running load is abandoned (its callers get this reply's range). A failed refresh leaves items, generation and the next page as they were (feeds/stateChanged failed, with the error), and the feed stays usable; start is 0.",
        "params": [param("feedId", STRING, "from feeds/open", True)],
        "result": {"name": "FeedRange", "schema": ref("FeedRange")},
    },
    {
        "name": "feeds/items",
        "summary": "The loaded items start..<end (an end past the count is cut to it). end below start: -32602.",
        "params": [
            param("feedId", STRING, "from feeds/open", True),
            param("start", integer(0, 2147483647), "first index", True),
            param("end", integer(0, 2147483647), "index after the last", True),
        ],
        "result": {"name": "FeedItems", "schema": {"type": "object", "required": ["items"], "properties": {"items": {"type": "array", "items": {"type": "object"}}}}},
    },
    {
        "name": "feeds/close",
        "summary": "Closes a feed; a load still running on it fails with -32001. Feeds close when the session ends.",
        "params": [param("feedId", STRING, "from feeds/open", True)],
        "result": {"name": "Empty", "schema": {"type": "object"}},
    },
    {
        "name": "photos/list",
        "summary": "Photos page by page: the folder's JPEG, PNG, GIF and WebP files ordered by relative path, or the Lorem Picsum list.",
        "params": [
            param("page", integer(1, 100000, 1), "1-based"),
            param("limit", integer(1, 100, 30), "photos per page"),
        ],
        "result": {"name": "PhotoPage", "schema": ref("PhotoPage")},
    },
    {
        "name": "photos/image",
        "summary": "A local file holding the photo's image (downloaded into the disk cache for remote photos). Unknown id: -32001.",
        "params": [param("id", STRING, "a photo's id", True)],
        "result": {"name": "PhotoImage", "schema": ref("PhotoImage")},
    },
    {
        "name": "places/categories",
        "summary": "The 18 Kakao Local category group codes with their Korean names.",
        "params": [],
        "result": {"name": "PlaceCategories", "schema": {"type": "object", "required": ["items"], "properties": {"items": {"type": "array", "items": {"type": "object", "required": ["code", "name"], "properties": {"code": {"enum": CATEGORY_CODES}, "name": STRING}}}}}},
    },
    {
        "name": "places/search",
        "summary": "Places of a category in the circle around x/y, or in a rect (then x/y, if given, only measure distance). At most 45 results are pageable; meta.isEnd marks the last page.",
        "params": [
            param("category", {"enum": CATEGORY_CODES}, "category group code", True),
            param("x", {"type": "number", "minimum": -180, "maximum": 180}, "longitude of the centre; required without a rect and for sort distance"),
            param("y", {"type": "number", "minimum": -90, "maximum": 90}, "latitude of the centre"),
            param("radius", integer(0, 20000, 20000), "metres"),
            param("rect", {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4}, "[minX, minY, maxX, maxY]; minX > maxX crosses the antimeridian"),
            param("page", integer(1, 45, 1), "1-based"),
            param("size", integer(1, 15, 15), "places per page"),
            param("sort", {"enum": ["accuracy", "distance"], "default": "accuracy"}, "distance: nearest first, ties by id; accuracy: by id"),
        ],
        "result": {"name": "PlaceSearchResult", "schema": ref("PlaceSearchResult")},
    },
    {
        "name": "places/get",
        "summary": "One place. Unknown id: -32001. With the remote backend, places that recent searches returned.",
        "params": [param("id", STRING, "the place's id", True)],
        "result": {"name": "Place", "schema": ref("Place")},
    },
    {
        "name": "places/import",
        "summary": "Imports a CSV (header row of Place field names) or GeoJSON FeatureCollection file; bad rows are rejected with line and reason, the rest imported in one transaction; an existing id is replaced. $/progress every 10,000 rows when workDoneToken is given.",
        "params": [
            param("path", STRING, "a file the daemon can read", True),
            param("workDoneToken", {"type": ["string", "integer"]}, "reports $/progress under this token"),
        ],
        "result": {"name": "PlaceImportResult", "schema": ref("PlaceImportResult")},
    },
    {
        "name": "products/list",
        "summary": "A page of products. Cursors are opaque keyset positions: a deep page costs what the first costs, and paging never repeats or skips a product while others are added or deleted. offset, page or skip get -32602 saying how to page.",
        "params": [
            param("cursor", STRING, "nextCursor of the previous page, with the same query, supplierId and sort"),
            param("limit", integer(1, 100, 20), "products per page"),
            param("query", STRING, "a substring of the Korean or English name"),
            param("supplierId", STRING, "only this supplier's products"),
            param("sort", {"enum": ["newest", "priceAsc", "priceDesc", "name"], "default": "newest"}, "the order"),
        ],
        "result": {"name": "ProductPage", "schema": ref("ProductPage")},
    },
    {
        "name": "products/get",
        "summary": "One product. Unknown id: -32001.",
        "params": [param("id", STRING, "the product's id", True)],
        "result": {"name": "Product", "schema": ref("Product")},
    },
    {
        "name": "products/create",
        "summary": "Creates a product; products/listUpdated {reason: created} precedes the reply. Durable once answered.",
        "params": [
            param("nameKo", STRING, "1–200 characters", True),
            param("nameEn", {"type": ["string", "null"]}, "1–200 characters"),
            param("price", integer(0), "won", True),
            param("supplierId", {"type": ["string", "null"]}, "an existing supplier"),
        ],
        "result": {"name": "Product", "schema": ref("Product")},
    },
    {
        "name": "products/update",
        "summary": "Changes the fields given (null clears nameEn or supplierId); products/listUpdated {reason: updated} and products/changed precede the reply. A stale expectedVersion: -32009 with the current version.",
        "params": [
            param("id", STRING, "the product's id", True),
            param("nameKo", STRING, "1–200 characters"),
            param("nameEn", {"type": ["string", "null"]}, "null clears it"),
            param("price", integer(0), "won"),
            param("supplierId", {"type": ["string", "null"]}, "null removes the supplier"),
            param("expectedVersion", integer(0), "the version the client saw; the update fails if it changed"),
        ],
        "result": {"name": "Product", "schema": ref("Product")},
    },
    {
        "name": "products/delete",
        "summary": "Deletes a product; products/listUpdated {reason: deleted} precedes the reply.",
        "params": [param("id", STRING, "the product's id", True)],
        "result": {"name": "Deleted", "schema": {"type": "object", "required": ["id"], "properties": {"id": STRING}}},
    },
    {
        "name": "suppliers/list",
        "summary": "Every supplier, by name.",
        "params": [],
        "result": {"name": "SupplierList", "schema": {"type": "object", "required": ["items"], "properties": {"items": {"type": "array", "items": ref("Supplier")}}}},
    },
]

NOTIFICATIONS = [
    {"name": "initialized", "direction": "client→server", "summary": "Accepted; nothing to do. No params."},
    {"name": "exit", "direction": "client→server", "summary": "Ends the process: status 0 after shutdown, 1 without. No params."},
    {"name": "$/cancelRequest", "direction": "client→server", "summary": "A request still running ends with -32800; unknown or finished ids are ignored.",
     "params": {"type": "object", "required": ["id"], "properties": {"id": {"type": ["string", "integer"]}}}},
    {"name": "$/progress", "direction": "server→client", "summary": "Progress of long work, for requests that carried params.workDoneToken.",
     "params": {"type": "object", "required": ["token", "value"], "properties": {"token": {"type": ["string", "integer"]}, "value": ref("ProgressValue")}}},
    {"name": "feeds/pageLoaded", "direction": "server→client", "summary": "A page was appended at start..<end; reset is true for the first page after a refresh (the list now starts at 0). generation grows by one at each refresh; a page fetched for an older generation is never delivered. Precedes the reply of the request that caused it.",
     "params": {"type": "object", "required": ["feedId", "generation", "start", "end", "items", "endReached", "reset"], "properties": {"feedId": STRING, "generation": {"type": "integer", "minimum": 0}, "start": {"type": "integer"}, "end": {"type": "integer"}, "items": {"type": "array", "items": {"type": "object"}}, "endReached": {"type": "boolean"}, "reset": {"type": "boolean"}}}},
    {"name": "feeds/itemsChanged", "direction": "server→client", "summary": "The feed's loaded items changed in place (a product created, updated or deleted by any writer of the catalog; a file of a photos folder added, removed or changed; a reload after changes may have been missed): apply changes in order. insert puts items at index; remove takes count items from index; update replaces the items from index on. A move is a remove and an insert. count is the number of items after the changes. Only sent to feeds opened with changes: diff (the default). Precedes the reply of the request that caused it.",
     "params": {"type": "object", "required": ["feedId", "generation", "changes", "count"], "properties": {"feedId": STRING, "generation": {"type": "integer", "minimum": 0}, "changes": {"type": "array", "items": ref("FeedItemChange")}, "count": {"type": "integer", "minimum": 0}}}},
    {"name": "feeds/stateChanged", "direction": "server→client", "summary": "The feed entered a state (every load reports its start and its end), with the number of items it holds; error is the failed load's error object.",
     "params": {"type": "object", "required": ["feedId", "state", "count"], "properties": {"feedId": STRING, "state": ref("FeedState"), "count": {"type": "integer", "minimum": 0}, "error": {"type": "object", "required": ["code", "message"], "properties": {"code": {"type": "integer"}, "message": STRING, "data": {}}}}}},
    {"name": "products/listUpdated", "direction": "server→client", "summary": "The catalog changed: reload the list. Changes made by other daemons on the same catalog are reported: on SQLite from the session's first products request on, on PostgreSQL from initialize on. reason resync (no id): changes were made elsewhere or may have been missed (after a bulk seed, or once the PostgreSQL connection is back after it broke).",
     "params": {"type": "object", "required": ["reason"], "properties": {"reason": {"enum": ["created", "updated", "deleted", "resync"]}, "id": STRING}}},
    {"name": "products/changed", "direction": "server→client", "summary": "A product was updated: refresh its detail.",
     "params": {"type": "object", "required": ["product"], "properties": {"product": ref("Product")}}},
    {"name": "quotes/loading", "direction": "server→client", "summary": "A quotes/random fetch started (true) or all ended (false), failures included; the refresh button is enabled exactly when isLoading is false. quotes/list and quotes feeds do not send it (feeds report their loads through feeds/stateChanged).",
     "params": {"type": "object", "required": ["isLoading"], "properties": {"isLoading": {"type": "boolean"}}}},
]


def document():
    methods = []
    for method in METHODS:
        entry = {"name": method["name"], "summary": method["summary"]}
        if "paramStructure" in method:
            entry["paramStructure"] = method["paramStructure"]
        else:
            entry["paramStructure"] = "by-name"
        entry["params"] = method["params"]
        entry["result"] = method["result"]
        methods.append(entry)
    return {
        "openrpc": "1.3.2",
        "info": {
            "title": "catalogd",
            "version": VERSION,
            "description": "Products, photos, places and quotes over JSON-RPC 2.0 on stdin/stdout. "
            "Framing: LSP Content-Length headers or NDJSON, detected from the first bytes. "
            "Notifications caused by a request are written before its response.",
            "license": {"name": "MIT"},
        },
        "methods": methods,
        "components": {
            "schemas": SCHEMAS,
            "errors": {"".join(word[0].upper() + word[1:] for word in message.split()): {"code": code, "message": message, "data": description} for code, message, description in ERRORS},
        },
        "x-notifications": NOTIFICATIONS,
    }


def swift_source(text):
    return (
        "// swift-format-ignore-file\n"
        "// Generated by scripts/openrpc.py from its method tables; do not edit.\n\n"
        "/// The OpenRPC document, as `openrpc.json` at the repository root holds it.\n"
        "enum OpenRPCDocument {\n"
        '  static let text = #"""\n' + text + '"""#\n'
        "}\n"
    )


def main():
    text = json.dumps(document(), indent=2, ensure_ascii=False) + "\n"
    targets = {
        ROOT / "openrpc.json": text,
        ROOT / "Sources/Daemon/Support/OpenRPCDocument.swift": swift_source(text),
    }
    if "--check" in sys.argv:
        stale = [str(path.relative_to(ROOT)) for path, content in targets.items()
                 if not path.exists() or path.read_text() != content]
        if stale:
            sys.exit("out of date (run python3 scripts/openrpc.py): " + ", ".join(stale))
        return
    for path, content in targets.items():
        path.write_text(content)


if __name__ == "__main__":
    main()
