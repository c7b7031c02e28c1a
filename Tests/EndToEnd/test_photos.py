"""Photos through the daemon: the folder backend (generated samples, a folder
of our own with broken files) and the Lorem Picsum backend against a local server."""
from __future__ import annotations

import http.server
import json
import os
import struct
import threading
import zlib
from urllib.parse import parse_qs, unquote, urlparse

import pytest

from catalogd_e2e import INVALID_PARAMS, assert_error

NOT_FOUND = -32001


def png(width: int, height: int) -> bytes:
    """A valid PNG of one grey colour."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def walk(d, limit: int = 30) -> list[dict]:
    pages, page = [], 1
    while page is not None:
        result = d.result("photos/list", {"page": page, "limit": limit})
        assert result["page"] == page
        pages.append(result)
        page = result["nextPage"]
        assert len(pages) < 100
    return pages


def test_a_fresh_data_dir_has_several_pages_of_samples(daemon):
    pages = walk(daemon)
    assert len(pages) == 4
    photos = [p for page in pages for p in page["items"]]
    assert len(photos) == 120 and len({p["id"] for p in photos}) == 120
    paths = [urlparse(p["url"]).path for p in photos]
    assert paths == sorted(paths, key=lambda p: p.encode()), "ordered by relative path"
    for photo in photos:
        assert set(photo) == {"id", "author", "width", "height", "url", "source", "bytes", "pageUrl"}
        assert photo["source"] == "folder" and photo["url"].startswith("file://")
        assert photo["bytes"] == os.path.getsize(unquote(urlparse(photo["url"]).path)) and photo["pageUrl"] is None
        assert photo["width"] > 0 and photo["height"] > 0
        assert isinstance(photo["author"], str) and photo["author"], f"every sample names its author (GIFs in XMP): {photo}"
    assert {os.path.splitext(p)[1] for p in paths} == {".png", ".gif", ".jpg", ".webp"}
    past_the_end = daemon.result("photos/list", {"page": 5})
    assert past_the_end == {"items": [], "page": 5, "nextPage": None}


def test_ids_are_stable_across_restarts(spawn, tmp_path):
    data = tmp_path / "data"
    first = spawn(data_dir=data)
    first.initialize()
    ids = [p["id"] for p in first.result("photos/list", {"limit": 50})["items"]]
    assert first.close(5) == 0
    second = spawn(data_dir=data)
    second.initialize()
    assert [p["id"] for p in second.result("photos/list", {"limit": 50})["items"]] == ids


def test_image_is_a_local_file(daemon):
    photo = daemon.result("photos/list", {"limit": 5})["items"][4]
    image = daemon.result("photos/image", {"id": photo["id"]})
    assert image["path"] == urlparse(photo["url"]).path
    assert os.path.getsize(image["path"]) == image["bytes"]
    kind = {".png": "image/png", ".gif": "image/gif", ".jpg": "image/jpeg", ".webp": "image/webp"}
    assert image["contentType"] == kind[os.path.splitext(image["path"])[1]]
    assert image["cached"] is True


@pytest.mark.parametrize("method,params,field", [
    ("photos/list", {"page": 0}, "page"),
    ("photos/list", {"limit": 101}, "limit"),
    ("photos/list", {"limit": "3"}, "limit"),
    ("photos/image", {}, "id"),
    ("photos/image", {"id": 7}, "id"),
])
def test_bad_params_name_the_field(daemon, method, params, field):
    error = assert_error(daemon.call(method, params, id="bad"), INVALID_PARAMS, id="bad")
    assert error["data"]["field"] == field


def test_unknown_photo_is_not_found(daemon):
    error = assert_error(daemon.call("photos/image", {"id": "0000000000000000"}, id="x"), NOT_FOUND, id="x")
    assert error["data"]["resource"] == "photo"


def test_a_folder_of_our_own_lists_images_and_skips_the_rest(spawn, tmp_path):
    folder = tmp_path / "pictures"
    (folder / "b" / "deep").mkdir(parents=True)
    (folder / "a.png").write_bytes(png(3, 2))
    (folder / "b" / "deep" / "c.png").write_bytes(png(5, 7))
    (folder / "b" / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really")
    (folder / "notes.txt").write_text("not an image")
    (folder / ".hidden.png").write_bytes(png(1, 1))
    d = spawn("--photos-dir", str(folder), "--log-level", "info")
    d.initialize()
    page = d.result("photos/list", {})
    assert [(urlparse(p["url"]).path.removeprefix(str(folder)), p["width"], p["height"]) for p in page["items"]] == [
        ("/a.png", 3, 2), ("/b/deep/c.png", 5, 7)]
    assert page["nextPage"] is None
    assert d.result("daemon/status")["backends"]["photos"] == "embedded"


class Picsum(http.server.BaseHTTPRequestHandler):
    """A Lorem Picsum stand-in: /v2/list pages and /download/ID images."""
    photos = [{"id": str(n), "author": f"Author {n}", "width": 400 + n, "height": 300,
               "url": f"https://unsplash.com/photos/{n}", "download_url": ""} for n in range(7)]
    downloads: list[str] = []

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlparse(self.path)
        if url.path == "/v2/list":
            query = parse_qs(url.query)
            page, limit = int(query["page"][0]), int(query["limit"][0])
            base = f"http://127.0.0.1:{self.server.server_address[1]}"
            items = [dict(p, download_url=f"{base}/download/{p['id']}") for p in self.photos]
            self._send(200, "application/json", json.dumps(items[(page - 1) * limit:page * limit]).encode())
        elif url.path.startswith("/download/"):
            Picsum.downloads.append(url.path)
            self._send(200, "image/png", png(4, 4))
        else:
            self._send(404, "application/json", b'{"error":"no"}')

    def _send(self, status, kind, body):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def picsum():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Picsum)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Picsum.downloads = []
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_remote_photos_page_and_cache_their_images(spawn, picsum):
    d = spawn("--photos-url", picsum)
    d.initialize()
    first = d.result("photos/list", {"limit": 3})
    assert [p["id"] for p in first["items"]] == ["0", "1", "2"] and first["nextPage"] == 2
    assert first["items"][1] == {"id": "1", "author": "Author 1", "width": 401, "height": 300,
                                 "url": first["items"][1]["url"], "source": "picsum", "bytes": None,
                                 "pageUrl": "https://unsplash.com/photos/1"}
    assert first["items"][1]["url"].endswith("/download/1")
    last = d.result("photos/list", {"page": 3, "limit": 3})
    assert [p["id"] for p in last["items"]] == ["6"] and last["nextPage"] is None
    image = d.result("photos/image", {"id": "2"})
    assert image["contentType"] == "image/png" and image["cached"] is False
    assert os.path.getsize(image["path"]) == image["bytes"]
    again = d.result("photos/image", {"id": "2"})
    assert again["cached"] is True and again["path"] == image["path"]
    assert Picsum.downloads == ["/download/2"], "one download for two requests"
