"""The list buffers: a page at a time as the cursor nears the end, the footer's
states, R, <CR>, q."""

import http.server
import json
import threading

import pytest
from conftest import catalogd_bin


def test_products_list_pages_as_the_cursor_nears_the_end(editor):
    buf = editor.open_list("Catalogd products", "catalogd_products")
    api = editor.nvim.api
    assert api.buf_get_option(buf, "modifiable") is False
    assert api.buf_get_option(buf, "buftype") == "nofile"
    assert api.buf_get_name(buf) == "catalogd://products"
    lines = editor.lines(buf)
    count = len(lines) - 1
    assert count in (20, 40)  # a page, or two when the window shows the end of the first
    assert lines[-1] == f"{count} loaded, more below"
    assert all(line.rstrip().split("#")[-1].isdigit() and "₩" in line for line in lines[:-1])

    editor.nvim.input("G")
    editor.wait_footer(buf, lambda f: f == f"{count + 20} loaded, more below", "the next page")
    # The cursor, on the old footer, is now on the first item of that page.
    assert editor.nvim.api.win_get_cursor(0)[0] == count + 1
    assert editor.settle(buf) == f"{count + 20} loaded, more below"
    assert len(editor.lines(buf)) == count + 21
    editor.quit()


def test_a_search_ends_with_the_end_footer_and_opens_details(editor):
    buf = editor.open_list("Catalogd products 우유", "catalogd_products")
    footer = editor.wait_footer(buf, lambda f: f.startswith("End"), "the end")
    lines = editor.lines(buf)
    assert footer == f"End: {len(lines) - 1} items"
    assert len(lines) > 2 and all("우유" in line or "Milk" in line or "milk" in line for line in lines[:-1])
    assert editor.nvim.api.buf_get_name(buf) == "catalogd://products?query=우유"

    product_id = lines[0].rstrip().split("#")[-1]
    editor.nvim.input("<CR>")
    detail = editor.wait(
        "for _, w in ipairs(vim.api.nvim_list_wins()) do local b = vim.api.nvim_win_get_buf(w); "
        "if vim.bo[b].filetype == 'catalogd_detail' then return b end end",
        "the detail split",
    )
    detail_lines = editor.lines(detail)
    assert detail_lines[0] == f"Product {product_id}"
    assert f"id: {product_id}" in detail_lines
    assert any(line.startswith("price: ") and line.endswith(" won") for line in detail_lines)
    assert editor.nvim.api.get_current_buf().number == buf  # the cursor stays in the list
    assert len(editor.nvim.api.list_wins()) == 2
    editor.quit()


def test_q_closes_the_buffer_and_the_feed(editor):
    buf = editor.open_list("Catalogd products", "catalogd_products")
    feed_id = editor.lua("return require('catalogd.list').lists[...].feed.id", buf)
    editor.nvim.input("q")
    editor.wait("return not vim.api.nvim_buf_is_valid(...)", "the buffer to go", buf)
    err = editor.wait(
        "local r, e = require('catalogd').request_sync('feeds/items', {feedId = ..., start = 0, ['end'] = 1}); return e",
        "feeds/items to fail",
        feed_id,
    )
    assert err["code"] == -32001
    editor.quit()


def test_photos_list_loads_to_its_end(editor):
    buf = editor.open_list("Catalogd photos", "catalogd_photos")
    assert "×" in editor.lines(buf)[0]
    while not editor.footer(buf).startswith("End"):
        editor.nvim.input("G")
        editor.wait_footer(buf, lambda f: not f.startswith("Loading"), "a page")
    lines = editor.lines(buf)
    assert lines[-1] == "End: 120 items"  # the generated sample photos
    editor.nvim.input("gg<CR>")
    detail = editor.wait(
        "for _, w in ipairs(vim.api.nvim_list_wins()) do local b = vim.api.nvim_win_get_buf(w); "
        "if vim.bo[b].filetype == 'catalogd_detail' then return b end end",
        "the detail split",
    )
    path = next(line for line in editor.lines(detail) if line.startswith("path: "))[6:]
    assert path.startswith(str(editor.data_dir / "photos"))
    editor.quit()


def test_places_list_nearest_first(editor):
    buf = editor.open_list("Catalogd places CE7 126.9779692 37.566535", "catalogd_places")
    lines = editor.lines(buf)
    distances = [int(line.split(" m")[0].replace(",", "")) for line in lines[:-1]]
    assert len(distances) >= 15 and distances == sorted(distances)
    assert editor.nvim.api.buf_get_name(buf) == "catalogd://places/CE7?x=126.9779692&y=37.566535"
    editor.quit()


def test_places_with_a_bad_category_shows_the_daemons_error(editor):
    editor.command("Catalogd places XX9")
    msg = editor.wait("local m = vim.v.errmsg; return m ~= '' and m", "an error")
    assert msg.startswith("catalogd: ") and "category" in msg
    assert editor.nvim.api.buf_get_option(0, "filetype") == ""
    editor.quit()


class SlowPicsum(http.server.BaseHTTPRequestHandler):
    """A Lorem Picsum stand-in whose answers wait for the test: `release`
    lets one through, `fail` makes it a 500."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        server = self.server
        server.asked.set()
        if server.hold:
            server.go.wait(30)
            server.go.clear()
        if server.failing:
            body, status = b'{"error":"down"}', 500
        else:
            body, status = json.dumps([
                {"id": str(n), "author": f"Author {n}", "width": 400, "height": 300,
                 "url": f"https://unsplash.com/photos/{n}",
                 "download_url": f"http://127.0.0.1:{server.server_address[1]}/download/{n}"}
                for n in range(3)
            ]).encode(), 200
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def picsum():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SlowPicsum)
    server.asked, server.go, server.failing, server.hold = threading.Event(), threading.Event(), True, True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.go.set()
    server.shutdown()


def test_footer_shows_loading_then_failed_and_R_retries(make_editor, picsum):
    url = f"http://127.0.0.1:{picsum.server_address[1]}"
    editor = make_editor({"cmd": [catalogd_bin(), "--photos-url", url]})
    editor.command("Catalogd photos")
    buf = editor.wait("local b = vim.api.nvim_get_current_buf(); return vim.bo[b].filetype == 'catalogd_photos' and b",
                      "the photos buffer")
    assert picsum.asked.wait(30)
    assert editor.lines(buf) == ["Loading…"]
    picsum.hold = False  # the daemon may try again: every try fails at once
    picsum.go.set()
    footer = editor.wait_footer(buf, lambda f: f.startswith("Failed"), "failed")
    assert footer.endswith("(R refreshes, <CR> here retries)")
    assert editor.lines(buf) == [footer]
    assert editor.lua("return vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('CatalogdFooterFailed')), 'name')") == "ErrorMsg"

    picsum.failing, picsum.hold = False, True
    picsum.asked.clear()
    picsum.go.clear()
    editor.nvim.input("R")
    assert picsum.asked.wait(30)
    editor.wait_footer(buf, lambda f: f == "Loading…", "loading again")
    picsum.hold = False
    picsum.go.set()
    editor.wait_footer(buf, lambda f: f.startswith("End") or "more" in f, "the page")
    assert editor.lines(buf)[0].startswith("Author 0")
    editor.quit()
