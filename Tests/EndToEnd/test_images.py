"""images/get through the daemon: the one image cache shared with photos/image
(picsum photos from the Lorem Picsum stand-in of test_photos), folder photos
as their own files, URLs the daemon never handed out refused, a cache that
stays within --image-cache-mb, and failed downloads that name their host."""
from __future__ import annotations

import http.server
import os
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from catalogd_e2e import (
    INVALID_PARAMS,
    NOT_FOUND,
    UPSTREAM_ERROR,
    UPSTREAM_UNAVAILABLE,
    accepts_connections,
    assert_error,
    isolated_env,
)
from test_photos import Picsum, png

MIB = 1 << 20
REFUSED = "was not handed out by this daemon"


def big_png(n: int, size: int) -> bytes:
    """A PNG of `size` bytes (image readers stop at IEND), different for each n."""
    image = png(8 + n, 8)
    return image + bytes([n % 256]) * (size - len(image))


class ImageHost(Picsum):
    """The Picsum stand-in, with more images on the same server: /big/N/SIZE
    (SIZE bytes), /status/CODE, /page (HTML), /slow (answers when released)."""
    release = threading.Event()

    def do_GET(self):
        try:
            self._answer()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the daemon gave up (a timeout) or stopped reading (too large), as it should

    def _answer(self):
        path = urlparse(self.path).path
        parts = path.strip("/").split("/")
        if parts[0] == "big":
            Picsum.downloads.append(path)
            self._send(200, "image/png", big_png(int(parts[1]), int(parts[2])))
        elif parts[0] == "status":
            self._send(int(parts[1]), "text/plain", b"no")
        elif parts[0] == "page":
            self._send(200, "image/png", b"<html>not an image</html>")
        elif parts[0] == "slow":
            Picsum.downloads.append(path)
            ImageHost.release.wait(30)
            self._send(200, "image/png", png(2, 2))
        else:
            super().do_GET()


class Counting(http.server.BaseHTTPRequestHandler):
    """A server the daemon never names: it counts what reaches it."""
    hits: list[str] = []

    def log_message(self, *args):
        pass

    def do_GET(self):
        Counting.hits.append(self.path)
        body = png(3, 3)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve(handler) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture
def host():
    server, url = serve(ImageHost)
    Picsum.downloads = []
    ImageHost.release.clear()
    yield url
    ImageHost.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def foreign():
    server, url = serve(Counting)
    Counting.hits = []
    yield url
    server.shutdown()
    server.server_close()


def cache_files(data: Path) -> dict[str, int]:
    """The image cache's files (temporary ones too) and their sizes."""
    folder = data / "image-cache"
    return {f.name: f.stat().st_size for f in folder.iterdir()} if folder.exists() else {}


@pytest.mark.through_forwarder
def test_a_picsum_photo_comes_from_the_cache_photos_image_shares(spawn, host, tmp_path):
    data = tmp_path / "picsum-data"
    d = spawn("--photos-url", host, data_dir=data)
    d.initialize()
    assert d.result("daemon/status")["backends"]["photos"] == "remote"
    photo = d.result("photos/list", {"limit": 3})["items"][1]
    image = d.result("images/get", {"url": photo["url"]})
    assert image == {"url": photo["url"], "path": image["path"], "contentType": "image/png",
                     "bytes": len(png(4, 4)), "cached": False, "width": 4, "height": 4}
    assert Path(image["path"]).parent == data / "image-cache"
    assert Path(image["path"]).read_bytes() == png(4, 4)
    again = d.result("images/get", {"url": photo["url"]})
    assert again == dict(image, cached=True)
    # photos/image of the same photo finds the same file: one cache.
    same = d.result("photos/image", {"id": photo["id"]})
    assert same == {"path": image["path"], "contentType": "image/png", "bytes": image["bytes"], "cached": True}
    assert Picsum.downloads == ["/download/1"]


def test_the_sessions_of_a_shared_daemon_share_one_cache(spawn, catalogd_bin, host, tmp_path):
    socket_path = tmp_path / "run" / "catalogd.sock"
    socket_path.parent.mkdir(mode=0o700)
    data = tmp_path / "shared-data"
    with open(tmp_path / "shared.log", "wb") as log:
        shared = subprocess.Popen([str(catalogd_bin), "serve", "--listen", str(socket_path), "--data-dir", str(data),
                                   "--photos-url", host], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=log, env=isolated_env(tmp_path), cwd=str(tmp_path))
    try:
        deadline = time.monotonic() + 30
        while not accepts_connections(socket_path):
            assert shared.poll() is None and time.monotonic() < deadline, (tmp_path / "shared.log").read_text()
            time.sleep(0.02)
        a, b = (spawn("--remote", str(socket_path), data_dir=False) for _ in range(2))
        a.initialize()
        b.initialize()
        url = a.result("photos/list", {"limit": 2})["items"][1]["url"]
        first = a.result("images/get", {"url": url})
        second = b.result("images/get", {"url": url})
        assert first["cached"] is False and second == dict(first, cached=True)
        assert Path(first["path"]).parent == data / "image-cache"
        assert Picsum.downloads == ["/download/1"]
    finally:
        shared.kill()
        shared.wait(timeout=10)


def test_concurrent_requests_for_one_image_share_one_download(spawn, host):
    d = spawn("--photos-url", host)
    d.initialize()
    url = f"{host}/slow"
    ids = [d.request("images/get", {"url": url}) for _ in range(6)]
    # The daemon has read every request before the image is released: each
    # waits for the one download, or finds its file once it is stored.
    d.result("daemon/echo", {})
    ImageHost.release.set()
    responses, _ = d.read_responses(ids)
    assert len({r["result"]["path"] for r in responses.values()}) == 1, responses
    assert Picsum.downloads == ["/slow"], "one download for six requests"


def test_a_folder_photo_is_its_own_file(daemon):
    photos = daemon.result("photos/list", {"limit": 8})["items"]
    for photo in photos:
        image = daemon.result("images/get", {"url": photo["url"]})
        path = unquote(urlparse(photo["url"]).path)
        assert image["path"] == path and image["cached"] is True and image["url"] == photo["url"]
        assert image["bytes"] == os.path.getsize(path) == photo["bytes"]
        assert (image["width"], image["height"]) == (photo["width"], photo["height"])


def test_urls_never_handed_out_are_refused(spawn, host, foreign, tmp_path):
    data = tmp_path / "refusing-data"
    d = spawn("--photos-url", host, data_dir=data)
    d.initialize()
    d.result("photos/list", {"limit": 3})
    outside = tmp_path / "outside.png"
    outside.write_bytes(png(2, 2))
    for url in [f"{foreign}/download/1", f"{foreign}/a.png", f"file://{outside}", "file:///etc/passwd",
                "ftp://127.0.0.1/a.png", "data:image/png;base64,AAAA", "not a url"]:
        error = assert_error(d.call("images/get", {"url": url}, id="r"), INVALID_PARAMS, id="r",
                             data={"field": "url"})
        assert REFUSED in error["message"] and "images/get serves only photo and product image URLs" in error["message"], error
    assert Counting.hits == [], "the daemon is no proxy"
    assert cache_files(data) == {}


def test_a_folder_daemon_refuses_files_outside_its_folder(daemon, tmp_path):
    photo = daemon.result("photos/list", {"limit": 1})["items"][0]
    folder = os.path.dirname(unquote(urlparse(photo["url"]).path))
    (tmp_path / "mine.png").write_bytes(png(2, 2))
    for url in [f"file://{tmp_path}/mine.png", f"file://{folder}/../mine.png", f"file://{folder}/travel/../sample-001.png",
                f"file://{folder}/nothing-here.png"]:
        assert_error(daemon.call("images/get", {"url": url}, id="f"), INVALID_PARAMS, id="f", data={"field": "url"})


@pytest.mark.parametrize("params,field", [({}, "url"), ({"url": 7}, "url"), ({"url": "x" * 8193}, "url"),
                                          ({"url": "file:///a.png", "id": "1"}, "id")])
def test_bad_params_name_the_field(daemon, params, field):
    error = assert_error(daemon.call("images/get", params, id="p"), INVALID_PARAMS, id="p")
    assert error["data"]["field"] == field


@pytest.mark.parametrize("how", ["flag", "env"])
def test_the_cache_stays_within_its_bound(spawn, host, tmp_path, how):
    data = tmp_path / f"bounded-{how}"
    d = (spawn("--photos-url", host, "--image-cache-mb", "1", data_dir=data) if how == "flag"
         else spawn("--photos-url", host, data_dir=data, env={"CATALOGD_IMAGE_CACHE_MB": "1"}))
    d.initialize()
    size = 300_000
    for n in range(8):
        image = d.result("images/get", {"url": f"{host}/big/{n}/{size}"})
        assert image["bytes"] == size and image["cached"] is False
        files = cache_files(data)
        assert sum(files.values()) <= MIB, files
        assert os.path.basename(image["path"]) in files, "the newest stays"
    assert len(cache_files(data)) == MIB // size
    newest = d.result("images/get", {"url": f"{host}/big/7/{size}"})
    assert newest["cached"] is True
    oldest = d.result("images/get", {"url": f"{host}/big/0/{size}"})
    assert oldest["cached"] is False, "the least recently used went first"
    # Over the limit: refused, naming the host, nothing kept.
    before = cache_files(data)
    error = assert_error(d.call("images/get", {"url": f"{host}/big/9/{2 * MIB}"}, id="huge"), UPSTREAM_ERROR, id="huge",
                         data={"service": "images", "host": "127.0.0.1"})
    assert "127.0.0.1" in error["message"] and str(MIB) in error["message"], error
    assert cache_files(data) == before


def test_photos_image_keeps_working_on_the_bounded_cache(spawn, host, tmp_path):
    data = tmp_path / "photos-bounded"
    d = spawn("--photos-url", host, "--image-cache-mb", "1", data_dir=data)
    d.initialize()
    ids = [p["id"] for p in d.result("photos/list", {"limit": 7})["items"]]
    for photo_id in ids:
        image = d.result("photos/image", {"id": photo_id})
        assert image["cached"] is False and os.path.getsize(image["path"]) == image["bytes"]
    assert Picsum.downloads == [f"/download/{i}" for i in ids]
    assert sum(cache_files(data).values()) <= MIB


def test_failed_downloads_name_the_host_and_leave_nothing(spawn, host, tmp_path):
    data = tmp_path / "failing-data"
    d = spawn("--photos-url", host, "--upstream-timeout-ms", "500", data_dir=data)
    d.initialize()
    error = assert_error(d.call("images/get", {"url": f"{host}/status/500"}, id=1), UPSTREAM_ERROR, id=1,
                         data={"service": "images", "host": "127.0.0.1", "status": 500})
    assert "127.0.0.1" in error["message"] and "500" in error["message"], error
    error = assert_error(d.call("images/get", {"url": f"{host}/page"}, id=2), UPSTREAM_ERROR, id=2,
                         data={"service": "images", "host": "127.0.0.1"})
    assert "127.0.0.1" in error["message"] and "not a JPEG, PNG, GIF or WebP image" in error["message"], error
    started = time.monotonic()
    error = assert_error(d.call("images/get", {"url": f"{host}/slow"}, id=3), UPSTREAM_UNAVAILABLE, id=3,
                         data={"service": "images", "host": "127.0.0.1", "retryable": True})
    assert time.monotonic() - started < 5, "--upstream-timeout-ms 500"
    assert "127.0.0.1" in error["message"], error
    assert cache_files(data) == {}, "nothing half-written is left"


def test_a_folder_photo_that_went_is_not_found(spawn, tmp_path):
    folder = tmp_path / "pictures"
    folder.mkdir()
    (folder / "a.png").write_bytes(png(3, 2))
    d = spawn("--photos-dir", str(folder))
    d.initialize()
    url = d.result("photos/list", {})["items"][0]["url"]
    assert d.result("images/get", {"url": url})["width"] == 3
    (folder / "a.png").write_bytes(b"no longer an image")
    error = assert_error(d.call("images/get", {"url": url}, id="gone"), NOT_FOUND, id="gone",
                         data={"resource": "image", "id": url})
    assert error["message"]
