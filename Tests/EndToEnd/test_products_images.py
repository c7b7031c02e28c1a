"""Products' images through the daemon: `imageUrl` on create, update, get,
list, notifications and feeds, on both catalogs and the GraphQL upstream (also
one whose schema predates the field); the rules a URL must follow; the demo
products' generated pictures; and upstream replies that leave nullable fields out."""

from __future__ import annotations

import json
import struct
import time
import urllib.parse
from pathlib import Path

import pytest
from test_images import REFUSED, ImageHost, serve
from test_products_remote import Upstream, remote

from catalogd_e2e import (
    INVALID_PARAMS,
    REPO_ROOT,
    UPSTREAM_ERROR,
    assert_error,
    assert_product,
    is_notification,
    short,
)
from feed_mirror import FeedMirror
from test_photos import Picsum

SCHEMA = REPO_ROOT / "Sources" / "Services" / "Products" / "Upstream" / "products.graphql"
PICTURE = "https://cdn.example.com/products/apple.jpg"


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        assert time.monotonic() < deadline, f"{what}: not within {timeout}s"
        time.sleep(0.05)
    return value


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


@pytest.mark.both_catalogs
def test_an_image_url_round_trips_through_create_update_get_and_list(daemon):
    created = assert_product(daemon.result("products/create", {"nameKo": "사과", "price": 1200, "imageUrl": PICTURE}),
                             imageUrl=PICTURE)
    assert daemon.result("products/get", {"id": created["id"]})["imageUrl"] == PICTURE
    page = daemon.result("products/list", {"query": "사과", "limit": 100})
    assert [p["imageUrl"] for p in page["items"] if p["id"] == created["id"]] == [PICTURE], short(page)

    renamed = daemon.result("products/update", {"id": created["id"], "nameKo": "풋사과"})
    assert renamed["imageUrl"] == PICTURE, "an update without imageUrl keeps it"
    local = "file:///srv/catalog/images/apple%201.png"
    assert daemon.result("products/update", {"id": created["id"], "imageUrl": local})["imageUrl"] == local
    cleared = daemon.result("products/update", {"id": created["id"], "imageUrl": None})
    assert_product(cleared, imageUrl=None)
    assert daemon.result("products/get", {"id": created["id"]})["imageUrl"] is None
    plain = daemon.result("products/create", {"nameKo": "배", "price": 900})
    assert_product(plain, imageUrl=None)


@pytest.mark.parametrize(("url", "reason"), [
    ("ftp://example.com/a.png", "must be an http, https or file URL"),
    ("javascript:alert(1)", "must be an http, https or file URL"),
    ("http:///a.png", "has no host"),
    ("https://user:secret@example.com/a.png", "must not carry a user name or password"),
    ("http://example.com:70000/a.png", "has an invalid port"),
    ("https://example.com/a b.png", "must not contain spaces"),
    ("file:images/a.png", "must be a local absolute file URL"),
    ("https://example.com/" + "a" * 2100, "2048"),
    ("", "must not be empty"),
])
def test_a_bad_image_url_is_refused_naming_the_field_and_the_rule(daemon, url, reason):
    resp = daemon.call("products/create", {"nameKo": "사과", "price": 1, "imageUrl": url})
    assert_error(resp, INVALID_PARAMS)
    text = str(resp["error"])
    assert "imageUrl" in text and reason in text, short(resp)
    some = daemon.result("products/list", {"limit": 1})["items"][0]
    resp = daemon.call("products/update", {"id": some["id"], "imageUrl": url})
    assert_error(resp, INVALID_PARAMS)
    assert reason in str(resp["error"]), short(resp)
    assert daemon.result("products/get", {"id": some["id"]}) == some, "nothing changed"


@pytest.mark.both_catalogs
def test_the_demo_products_show_pictures_the_daemon_drew_for_their_kind(daemon):
    items = daemon.result("products/list", {"limit": 100, "sort": "name"})["items"]
    urls = [p["imageUrl"] for p in items]
    assert all(u and u.startswith("file:///") for u in urls), short(urls)
    paths = {Path(urllib.parse.unquote(urllib.parse.urlparse(u).path)) for u in urls}
    # Drawn in the background when the catalog opened: wait for them.
    wait_for(lambda: all(p.is_file() for p in paths), 60, "the demo pictures")
    for path in paths:
        assert path.parent.name == "product-images", path
        assert png_size(path) == (192, 192), path
    by_kind = {}
    for p in items:
        by_kind.setdefault(p["imageUrl"], set()).add(p["nameEn"] or p["nameKo"])
    assert len(by_kind) > 10, "one picture per kind, many kinds"
    milk = [p for p in items if (p["nameEn"] or "").endswith("Milk") or " Milk " in (p["nameEn"] or "")]
    assert len({p["imageUrl"] for p in milk if "Low-Fat" not in p["nameEn"]}) <= 1, short(milk)


@pytest.mark.both_catalogs
def test_an_image_change_reaches_the_notifications_and_a_live_feed(daemon):
    mirror = FeedMirror(daemon)
    product = daemon.result("products/create", {"nameKo": "그림 상품", "price": 10})
    feed = mirror.open("products", query={"query": "그림 상품"}, pageSize=10)
    mirror.result("feeds/loadMore", {"feedId": feed})
    assert [i["imageUrl"] for i in mirror.items[feed]] == [None]
    id = daemon.request("products/update", {"id": product["id"], "imageUrl": PICTURE})
    response, seen = daemon.read_until_response(id)
    for message in seen:
        mirror.observe(message)
    assert response["result"]["imageUrl"] == PICTURE
    changed = [m for m in seen if is_notification(m, "products/changed")]
    assert changed and PICTURE in json.dumps(changed), short(seen)
    assert [i["imageUrl"] for i in mirror.items[feed]] == [PICTURE], short(seen)
    items = daemon.result("feeds/items", {"feedId": feed, "start": 0, "end": 1})["items"]
    assert [i["imageUrl"] for i in items] == [PICTURE]


# --- the GraphQL upstream ---


@pytest.fixture(scope="module")
def old_upstream(tmp_path_factory):
    """An upstream of the schema before `imageUrl`: the same without its lines."""
    old = tmp_path_factory.mktemp("schema") / "products.graphql"
    old.write_text("".join(line for line in SCHEMA.read_text().splitlines(keepends=True)
                           if "imageUrl" not in line))
    u = Upstream("--schema", str(old))
    yield u
    u.stop()


@pytest.fixture(scope="module")
def new_upstream():
    u = Upstream()
    yield u
    u.stop()


def test_a_remote_product_with_an_image_round_trips(spawn, new_upstream):
    new_upstream.reset()
    d, _ = remote(spawn, new_upstream.url)
    created = assert_product(d.result("products/create", {"nameKo": "사과", "price": 1200, "imageUrl": PICTURE}),
                             imageUrl=PICTURE)
    assert d.result("products/get", {"id": created["id"]})["imageUrl"] == PICTURE
    assert d.result("products/update", {"id": created["id"], "imageUrl": None})["imageUrl"] is None
    sent = [r["variables"]["input"] for r in new_upstream.requests()
            if r["operationName"] in ("CreateProduct", "UpdateProduct")]
    assert sent[0]["imageUrl"] == PICTURE and "imageUrl" in sent[1] and sent[1]["imageUrl"] is None, short(sent)
    plain = d.result("products/create", {"nameKo": "배", "price": 1})
    assert "imageUrl" not in [r for r in new_upstream.requests()
                              if r["operationName"] == "CreateProduct"][-1]["variables"]["input"]
    assert plain["imageUrl"] is None


def test_an_upstream_without_the_image_field_still_serves_products(spawn, old_upstream):
    old_upstream.reset()
    d, _ = remote(spawn, old_upstream.url)
    page = d.result("products/list", {"limit": 10})
    assert len(page["items"]) == 5 and all(p["imageUrl"] is None for p in page["items"]), short(page)
    assert d.result("products/get", {"id": "p1"})["imageUrl"] is None
    created = d.result("products/create", {"nameKo": "배", "price": 900})
    assert created["imageUrl"] is None
    resp = d.call("products/create", {"nameKo": "사과", "price": 1, "imageUrl": PICTURE})
    assert_error(resp, INVALID_PARAMS)
    assert "no imageUrl field" in str(resp["error"]), short(resp)
    resp = d.call("products/update", {"id": "p1", "imageUrl": PICTURE})
    assert_error(resp, INVALID_PARAMS)
    # After the first refusal the daemon stops asking for the field.
    queries = [r["query"] for r in old_upstream.requests()]
    assert "imageUrl" in queries[0] and all("imageUrl" not in q for q in queries[2:]), short(queries)
    assert d.result("products/get", {"id": "p1"})["nameKo"] == "사과"


def test_nullable_fields_left_out_of_an_upstream_reply_read_as_null(spawn, new_upstream):
    new_upstream.reset()
    d, _ = remote(spawn, new_upstream.url)
    new_upstream.faults({"body": {"data": {"product": {"id": "p1", "nameKo": "사과", "price": 1200}}}})
    assert d.result("products/get", {"id": "p1"}) == {
        "id": "p1", "nameKo": "사과", "nameEn": None, "price": 1200, "supplier": None,
        "createdAt": None, "updatedAt": None, "version": 1, "imageUrl": None}
    new_upstream.faults({"body": {"data": {"product": {"id": "p1", "nameKo": "사과", "price": 1200,
                                                       "imageUrl": "file:///etc/passwd"}}}})
    assert d.result("products/get", {"id": "p1"})["imageUrl"] is None, "an upstream cannot hand out our files"
    new_upstream.faults({"body": {"data": {"product": {"id": "p1", "nameKo": "사과"}}}})
    resp = d.call("products/get", {"id": "p1"})
    assert_error(resp, UPSTREAM_ERROR)
    assert "product.price is missing" in str(resp["error"]), short(resp)
    new_upstream.faults({})


# --- images/get of products' pictures ---


@pytest.fixture
def image_host():
    server, url = serve(ImageHost)
    Picsum.downloads = []
    yield url
    ImageHost.release.set()
    server.shutdown()
    server.server_close()


@pytest.mark.both_catalogs
def test_images_get_serves_a_products_picture_while_the_catalog_has_it(daemon, image_host):
    demo = daemon.result("products/list", {"limit": 1})["items"][0]
    path = Path(urllib.parse.unquote(urllib.parse.urlparse(demo["imageUrl"]).path))
    wait_for(path.is_file, 60, "the demo pictures")
    drawn = daemon.result("images/get", {"url": demo["imageUrl"]})
    assert drawn["path"] == str(path) and drawn["contentType"] == "image/png", short(drawn)
    assert (drawn["width"], drawn["height"]) == (192, 192)

    url = f"{image_host}/big/7/5000"
    refused = daemon.call("images/get", {"url": url})
    assert_error(refused, INVALID_PARAMS)
    assert REFUSED in str(refused["error"]), "not a product's picture yet"
    product = daemon.result("products/create", {"nameKo": "사진 있는 상품", "price": 1, "imageUrl": url})
    image = daemon.result("images/get", {"url": url})
    assert image["bytes"] == 5000 and image["cached"] is False and Path(image["path"]).is_file()
    assert daemon.result("images/get", {"url": url})["cached"] is True
    assert Picsum.downloads == ["/big/7/5000"], "one download, then the cache"
    daemon.result("products/update", {"id": product["id"], "imageUrl": None})
    assert_error(daemon.call("images/get", {"url": url}), INVALID_PARAMS)


def test_images_get_serves_what_a_remote_upstream_handed_out(spawn, new_upstream, image_host):
    new_upstream.reset()
    d, _ = remote(spawn, new_upstream.url)
    url = f"{image_host}/big/8/3000"
    assert_error(d.call("images/get", {"url": url}), INVALID_PARAMS)
    made = d.result("products/create", {"nameKo": "원격 사진", "price": 1, "imageUrl": url})
    assert d.result("images/get", {"url": made["imageUrl"]})["bytes"] == 3000
