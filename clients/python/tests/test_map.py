"""The map page (`python -m catalogd.examples.map`): one marker for every
place the search returns, every page of it; nothing fetched from the
network; the names escaped; and, drawn by headless Chromium, each marker in
its category's colour where its coordinates put it, and a click on a marker
that shows the place.

The pixel and click tests use places imported at a spot far from the demo
places (which are all in Seoul), at known distances east and south of the
centre, so that the test knows where each marker must be without reading the
page's projection. They need Debian's `chromium`, and are skipped without it."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from client_support import PACKAGE_ROOT
from headless_chromium import CHROMIUM, DevTools, screenshot

from catalogd import Client
from catalogd.examples.map import CATEGORIES, resolve_categories

# A daemon or two, and a browser, on a machine that may be busy.
pytestmark = pytest.mark.timeout_s(90)
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (.ci/run installs it)")

CENTRE = (10.0, 50.0)
RADIUS = 1000
EARTH_RADIUS = 6_371_008.8
WIDTH, HEIGHT = 1000, 700
SIDE = min(WIDTH, HEIGHT)
"""The map is the largest square at the top left of the window."""

HOSTILE = "</script><script>alert(1)</script> <img src=\"http://evil.example/x.png\"> & 'café' <!--"
PLACE_URL = "https://place.map.kakao.com/770001"
# id, category, name, metres east, metres south, placeUrl
PLACES: List[Tuple[str, str, str, float, float, str]] = [
    ("770001", "CE7", "역 앞 카페", 300, -200, PLACE_URL),
    ("770002", "CE7", "Corner Coffee", -500, 100, ""),
    ("770003", "CE7", HOSTILE, 100, 600, "javascript:alert(1)"),
    ("770004", "FD6", "국밥집", -250, -550, ""),
    ("770005", "FD6", "Noodle Bar", 650, 350, ""),
    ("770006", "PM9", "온누리약국", -700, -100, ""),
    ("770007", "CE7", "Too Far Cafe", 1500, 0, ""),  # outside the radius: not drawn
]
DRAWN = [p for p in PLACES if math.hypot(p[3], p[4]) <= RADIUS]


def lon_lat(east: float, south: float) -> Tuple[float, float]:
    """The position `east` and `south` metres from the centre."""
    lon = CENTRE[0] + math.degrees(east / (EARTH_RADIUS * math.cos(math.radians(CENTRE[1]))))
    lat = CENTRE[1] - math.degrees(south / EARTH_RADIUS)
    return round(lon, 7), round(lat, 7)


def rgb(colour: str) -> Tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


# ---------------------------------------------------------------- running the example


@pytest.fixture
def data_dir(daemons) -> Path:
    """A data dir holding the demo places and the test's places."""
    data = daemons.data_dir()
    features = []
    for pid, code, name, east, south, url in PLACES:
        features.append({
            "type": "Feature", "geometry": {"type": "Point", "coordinates": list(lon_lat(east, south))},
            "properties": {"id": pid, "placeName": name, "categoryGroupCode": code, "categoryName": f"테스트 > {code}",
                           "phone": "02-123-4567", "addressName": f"주소 {pid}", "roadAddressName": f"도로 {pid}",
                           "placeUrl": url},
        })  # fmt: skip
    path = daemons.base / "places.geojson"
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}), encoding="utf-8")
    with Client(daemons.bin, ["--data-dir", str(data)], daemons.client_env()) as c:
        result = c.places_import(path=str(path))
        assert result.imported == len(PLACES), result
    return data


def run_map(daemons, data: Path, *args: str) -> Tuple[str, Path]:
    """Runs the example on `data`; (its output, the page)."""
    page = daemons.base / f"map-{len(list(daemons.base.glob('map-*.html')))}.html"
    r = subprocess.run(
        [sys.executable, "-m", "catalogd.examples.map", "--bin", daemons.bin, *args, "-o", str(page),
         "--", "--data-dir", str(data)],
        capture_output=True, text=True, timeout=60, env=daemons.env({"PYTHONPATH": str(PACKAGE_ROOT)}),
        cwd=str(daemons.base),
    )
    assert r.returncode == 0, r.stderr + r.stdout
    assert r.stdout.splitlines()[-1] == str(page), r.stdout
    return r.stdout, page


def searched(daemons, data: Path, code: str, x: float, y: float, radius: int) -> List[Dict[str, Any]]:
    """Every page of places/search, as an app with a "more" button gets them."""
    found: List[Dict[str, Any]] = []
    with Client(daemons.bin, ["--data-dir", str(data)], daemons.client_env()) as c:
        page = 1
        while True:
            r = c.places_search(category=code, x=x, y=y, radius=radius, page=page)  # type: ignore[arg-type]
            found += [p.to_json() for p in r.items]
            if r.meta.is_end:
                return found
            page += 1


class Page(HTMLParser):
    """The elements of a page (tag, attributes) and the text of its scripts."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: List[Tuple[str, Dict[str, str]]] = []
        self.scripts: List[Tuple[Dict[str, str], str]] = []
        self.texts: List[str] = []
        self._in_script = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Any]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.elements.append((tag, a))
        if tag == "script":
            self.scripts.append((a, ""))
            self._in_script = True

    def handle_startendtag(self, tag: str, attrs: List[Tuple[str, Any]]) -> None:
        self.elements.append((tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            a, text = self.scripts[-1]
            self.scripts[-1] = (a, text + data)
        else:
            self.texts.append(data)

    @property
    def markers(self) -> List[Dict[str, str]]:
        return [a for tag, a in self.elements if tag == "circle" and a.get("class") == "marker"]

    @property
    def places(self) -> List[Dict[str, Any]]:
        (data,) = [text for a, text in self.scripts if a.get("id") == "places"]
        return json.loads(data)  # type: ignore[no-any-return]

    @property
    def half(self) -> float:
        """Half the side of the square the map shows, in metres."""
        (box,) = [a["viewbox"] for tag, a in self.elements if tag == "svg"]
        min_x, min_y, width, height = map(float, box.split())
        assert min_x == min_y == -width / 2 and width == height, box
        return width / 2


def read_page(path: Path) -> Tuple[str, Page]:
    text = path.read_text(encoding="utf-8")
    return text, Page(text)


# ---------------------------------------------------------------- the page


def test_the_map_draws_every_page_of_the_search(daemons, data_dir):
    x, y = 126.9784, 37.5667
    out, path = run_map(daemons, data_dir, "FD6,convenience-store", str(x), str(y), "1000")
    _, page = read_page(path)
    expected = {code: searched(daemons, data_dir, code, x, y, 1000) for code in ("FD6", "CS2")}
    assert len(expected["FD6"]) == 45, "Seoul has more restaurants than a search pages: three pages of 15"
    drawn = page.markers
    assert [m["data-id"] for m in drawn] == [p["id"] for code in ("FD6", "CS2") for p in expected[code]]
    assert [m["fill"] for m in drawn] == [CATEGORIES[c].colour for c in ("FD6", "CS2") for _ in expected[c]]
    assert page.places == expected["FD6"] + expected["CS2"], "the detail of each marker, in the markers' order"
    assert out.startswith(f"{len(drawn)} places drawn (FD6 음식점 45 of "), out


def test_the_page_fetches_nothing_and_escapes_the_names(daemons, data_dir):
    out, path = run_map(daemons, data_dir, "cafe,FD6,약국", str(CENTRE[0]), str(CENTRE[1]), str(RADIUS))
    text, page = read_page(path)
    assert [m["data-id"] for m in page.markers] == [p[0] for p in DRAWN], "by category, then as the search orders"
    for code in ("CE7", "FD6", "PM9"):
        assert [p["id"] for p in page.places if p["categoryGroupCode"] == code] == [
            p["id"] for p in searched(daemons, data_dir, code, CENTRE[0], CENTRE[1], RADIUS)]
    assert out.startswith("6 places drawn (CE7 카페 3, FD6 음식점 2, PM9 약국 1) within 1000 m of 50.0, 10.0\n"), out

    # No script, style sheet, font, image or frame from elsewhere: the only URLs are the places' links, in the data.
    for tag, attrs in page.elements:
        for name, value in attrs.items():
            if name in ("src", "href", "xlink:href", "action", "poster", "data", "srcset", "background"):
                assert not re.match(r"\s*(https?:|//|[a-z]+:)", value, re.I), (tag, name, value)
    assert not re.search(r"url\(|@import", text, re.I)
    urls = re.findall(r"https?://[^\s\"'<>&\\]*", text)
    assert urls.count(PLACE_URL) == 1, "placeUrl, once, in the places' JSON"
    assert set(urls) == {PLACE_URL, "http://evil.example/x.png"}, "and the text of the hostile name"
    assert [(a.get("type"), a.get("src")) for a, _ in page.scripts] == [("application/json", None), (None, None)]
    assert [tag for tag, _ in page.elements if tag in ("img", "iframe", "link", "object", "embed")] == []

    # The hostile name is text wherever it appears: in the labels, the tooltips and the data.
    assert HOSTILE in page.texts, "a label shows the name as it is"
    assert "<script>alert" not in text and "<img" not in text and "<!--" not in text
    assert any(m["aria-label"] == HOSTILE for m in page.markers)
    assert next(p for p in page.places if p["id"] == "770003")["placeName"] == HOSTILE


def test_categories_by_code_english_or_korean_name():
    korean = {"CE7": "카페", "PS3": "어린이집·유치원"}
    assert resolve_categories("ce7", korean) == ["CE7"]
    assert resolve_categories("Cafe, CONVENIENCE_STORE,convenience store,카페", korean) == ["CE7", "CS2"]
    assert resolve_categories("유치원,어린이집·유치원,largeMart", korean) == ["PS3", "MT1"]
    with pytest.raises(ValueError, match=r"unknown category 'coffee'; one of: MT1 large-mart, .* CE7 cafe 카페"):
        resolve_categories("cafe,coffee", korean)


def test_the_command_line(daemons):
    env = daemons.env({"PYTHONPATH": str(PACKAGE_ROOT)})
    base = [sys.executable, "-m", "catalogd.examples.map", "--bin", daemons.bin]
    r = subprocess.run([*base, "--help"], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 0 and "CATEGORY [X] [Y] [RADIUS]" in r.stdout and "-o OUTPUT" in r.stdout, r.stdout
    for args, message in (
        (["coffee"], "unknown category 'coffee'"),
        (["CE7", "127"], "give both X and Y"),
        (["CE7", "127", "37", "30000"], "RADIUS is 0 to 20000 metres"),
        (["CE7", "-o", "no/such/dir/map.html"], "no directory"),
    ):
        r = subprocess.run([*base, *args, "--", "--data-dir", str(daemons.data_dir())], capture_output=True, text=True,
                           timeout=60, env=env, cwd=str(daemons.base))
        assert r.returncode == 2 and message in r.stderr, (args, r.stderr)
    assert not (daemons.base / "map.html").exists()


# ---------------------------------------------------------------- drawn by Chromium


def expected_pixels(half: float) -> List[Tuple[str, int, int]]:
    """(category, x, y) of each drawn place's marker in the window."""
    scale = SIDE / (2 * half)
    return [(code, round((east + half) * scale), round((south + half) * scale)) for _, code, _, east, south, _ in DRAWN]


@needs_chromium
def test_the_screenshot_shows_each_marker_in_its_colour_where_it_belongs(daemons, data_dir):
    _, path = run_map(daemons, data_dir, "CE7,FD6,PM9", str(CENTRE[0]), str(CENTRE[1]), str(RADIUS))
    _, page = read_page(path)
    shot = screenshot(path.as_uri(), daemons.base / "map.png", daemons.base / "chromium", WIDTH, HEIGHT)
    assert (shot.width, shot.height) == (WIDTH, HEIGHT)
    assert shot.pixel(SIDE // 2 + 60, SIDE // 2 + 60) == rgb("#e4ebf2"), "the inside of the radius circle"
    marker = SIDE / 140  # the markers' radius in pixels: a 70th of half the map
    where = expected_pixels(page.half)
    for code, category in CATEGORIES.items():
        pixels = shot.count(rgb(category.colour), SIDE, SIDE)
        mine = [(x, y) for c, x, y in where if c == code]
        for x, y in mine:
            near = [p for p in pixels if math.hypot(p[0] - x, p[1] - y) < marker]
            assert len(near) >= 12, f"{code} marker at ({x}, {y}): {len(near)} pixels of its colour"
        stray = [p for p in pixels if all(math.hypot(p[0] - x, p[1] - y) > marker + 1 for x, y in mine)]
        assert stray == [], f"{code} colour where no {code} place is: {stray[:10]}"


@needs_chromium
def test_a_page_without_places_shows_no_markers(daemons, data_dir):
    out, path = run_map(daemons, data_dir, "HP8", str(CENTRE[0]), str(CENTRE[1]), str(RADIUS))
    text, page = read_page(path)
    assert out.startswith("0 places drawn (HP8 병원 0)"), out
    assert page.markers == [] and page.places == [] and "0 places drawn" in text
    shot = screenshot(path.as_uri(), daemons.base / "empty.png", daemons.base / "chromium", WIDTH, HEIGHT)
    assert shot.pixel(SIDE // 2 + 60, SIDE // 2 + 60) == rgb("#e4ebf2"), "the radius circle is drawn"
    for code, category in CATEGORIES.items():
        assert shot.count(rgb(category.colour), SIDE, SIDE) == [], code


DETAIL = """JSON.stringify({
  hint: document.querySelector("#detail .hint").hidden,
  fields: [...document.querySelectorAll("#detail dd")].map((dd) => dd.textContent),
  link: document.querySelector("#detail .url").getAttribute("href"),
  hash: location.hash,
  selected: [...document.querySelectorAll(".marker.selected")].map((m) => m.dataset.id),
})"""


@needs_chromium
def test_a_click_on_a_marker_shows_the_place(daemons, data_dir):
    _, path = run_map(daemons, data_dir, "CE7,FD6", str(CENTRE[0]), str(CENTRE[1]), str(RADIUS))
    _, page = read_page(path)
    distance = {p["id"]: p["distance"] for p in page.places}
    assert distance["770001"] == round(math.hypot(300, 200)), "the daemon's great-circle distance, whole metres"
    at = {pid: (x, y) for pid, (_, x, y) in zip((p[0] for p in DRAWN), expected_pixels(page.half))}
    with DevTools(daemons.base / "chromium", WIDTH, HEIGHT) as browser:
        browser.page(path.as_uri())
        before = json.loads(browser.evaluate(DETAIL))
        assert before["hint"] is False and before["selected"] == [] and before["hash"] == ""

        browser.click(*at["770001"])
        shown = json.loads(browser.evaluate(DETAIL))
        assert shown["fields"] == ["역 앞 카페", "카페 (CE7) · 테스트 > CE7", "주소 770001", "도로 770001", "02-123-4567",
                                   f"{distance['770001']} m", PLACE_URL]
        assert shown["link"] == PLACE_URL and shown["hint"] is True
        assert shown["selected"] == ["770001"] and shown["hash"] == "#770001"

        browser.click(SIDE - 5, 5)  # the map outside every marker: nothing changes
        assert json.loads(browser.evaluate(DETAIL)) == shown

        browser.click(*at["770003"])
        hostile = json.loads(browser.evaluate(DETAIL))
        assert hostile["fields"][0] == HOSTILE and hostile["fields"][-1] == "—"
        assert hostile["link"] is None, "a javascript: URL does not become a link"

        # A link to map.html#ID selects that place as a click does.
        browser.evaluate("""new Promise((done) => {
          window.addEventListener("hashchange", () => setTimeout(done), { once: true });
          location.hash = "#770005";
        })""")
        linked = json.loads(browser.evaluate(DETAIL))
        assert linked["fields"][0] == "Noodle Bar" and linked["selected"] == ["770005"]
