"""Draw the places of a category around a position as a self-contained HTML page.

    python3 -m catalogd.examples.map CATEGORY[,CATEGORY...] [X Y [RADIUS]]
                                     [-o map.html] [--bin PATH] [-- DAEMON ARGS...]

The whole screen of a map app, without tiles or network: an SVG of the area
with the centre, the radius circle and one marker per place, coloured by its
category (a legend names the colours), labelled with its name (all of them
when there are few; on hover otherwise). A click on a marker shows the
place's detail beside the map. The places come from one `places` feed per
category (`feeds/open`, then `feeds/loadMore` until the feed says it ended:
Kakao's searches, and the daemon's, page at most 45 places, in pages of 15).

A category is a code (`CE7`), an English name (`cafe`, `convenience-store`)
or the daemon's Korean name (`카페`); several are separated by commas. X and Y
are the longitude and latitude of the centre (default: Seoul City Hall),
RADIUS in metres (default 1000). The page goes to `-o` (default `map.html`),
whose path is printed. Unless the daemon's arguments name a `--data-dir`, the
daemon runs on a temporary one.

In the SVG, one unit is one metre: x east and y south of the centre, from an
equirectangular projection around it (fine at the scale of a city). The map is
the largest square that fits at the top left of the window; opening the page
as `map.html#ID` selects the place with that id, as a click does.
"""

from __future__ import annotations

import argparse
import html
import json
import math
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from .. import Client, Place, RpcError
from ._common import daemon_binary, parser, split_daemon_args

SEOUL_CITY_HALL = (126.9784, 37.5667)
DEFAULT_RADIUS = 1000
EARTH_RADIUS = 6_371_008.8
"""The mean radius of the Earth, in metres."""
LABEL_LIMIT = 25
"""Above this many places, names show on hover, focus and selection only."""


class Category(NamedTuple):
    """A category's code, its English name for the command line, its colour on the map."""

    code: str
    english: str
    colour: str


CATEGORIES: Dict[str, Category] = {
    c.code: c
    for c in (
        # Kakao's order. The colours are far from each other and from the map's
        # own greys, so that a screenshot tells the categories apart.
        Category("MT1", "large-mart", "#911eb4"),
        Category("CS2", "convenience-store", "#3cb44b"),
        Category("PS3", "kindergarten", "#ffe119"),
        Category("SC4", "school", "#4363d8"),
        Category("AC5", "academy", "#42d4f4"),
        Category("PK6", "parking", "#000075"),
        Category("OL7", "gas-station", "#808000"),
        Category("SW8", "subway-station", "#aaffc3"),
        Category("BK9", "bank", "#469990"),
        Category("CT1", "culture", "#dcbeff"),
        Category("AG2", "real-estate-agency", "#fabed4"),
        Category("PO3", "public-institution", "#800000"),
        Category("AT4", "attraction", "#bfef45"),
        Category("AD5", "lodging", "#ffd8b1"),
        Category("FD6", "restaurant", "#f58231"),
        Category("CE7", "cafe", "#9a6324"),
        Category("HP8", "hospital", "#e6194b"),
        Category("PM9", "pharmacy", "#f032e6"),
    )
}


def _key(name: str) -> str:
    """A name as compared: case, spaces, hyphens and underscores ignored."""
    return re.sub(r"[\s_-]+", "", name).casefold()


def resolve_categories(text: str, korean: Dict[str, str]) -> List[str]:
    """The codes `text` names, in its order without repeats: codes, English
    names, the daemon's Korean names (`korean`: code → name; a name such as
    `어린이집·유치원` also by either half). ValueError names what is unknown."""
    names: Dict[str, str] = {}
    for c in CATEGORIES.values():
        names[_key(c.code)] = c.code
        names[_key(c.english)] = c.code
    for code, name in korean.items():
        names[_key(name)] = code
        for part in name.split("·"):
            names.setdefault(_key(part), code)
    codes: List[str] = []
    for word in text.split(","):
        found = names.get(_key(word))
        if found is None:
            known = ", ".join(f"{c.code} {c.english}" + (f" {korean[c.code]}" if c.code in korean else "")
                              for c in CATEGORIES.values())
            raise ValueError(f"unknown category {word.strip()!r}; one of: {known}")
        if found not in codes:
            codes.append(found)
    return codes


# ---------------------------------------------------------------- the places


@dataclass
class Layer:
    """The places of one category, as its feed gave them."""

    code: str
    name: str
    places: List[Place]
    total: int
    """How many places the search found (the feed holds at most the first 45)."""


def fetch_layer(client: Client, code: str, name: str, x: float, y: float, radius: int) -> Layer:
    """Every page of the category's places feed, until the feed says it ended."""
    query = {"category": code, "x": x, "y": y, "radius": radius}
    with client.open_feed("places", query) as feed:
        while not feed.end_reached:
            added = feed.load_more()
            if added.start == added.end and not added.end_reached:
                break  # nothing came and the feed does not say it ended: do not ask forever
        places = [Place.from_json(item) for item in feed.items]
    found = client.request("places/search", {**query, "size": 1})
    total = int(found["meta"]["totalCount"])
    return Layer(code, name, places, max(total, len(places)))


# ---------------------------------------------------------------- the page


def project(lon: float, lat: float, centre: Sequence[float]) -> Tuple[float, float]:
    """Metres east and south of the centre (equirectangular around it)."""
    east = math.radians((lon - centre[0] + 180.0) % 360.0 - 180.0) * math.cos(math.radians(centre[1]))
    north = math.radians(lat - centre[1])
    return EARTH_RADIUS * east, -EARTH_RADIUS * north


def script_json(value: Any) -> str:
    """JSON that cannot end the <script> element it sits in, nor open a comment."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for ch, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                       ("\u2029", "\\u2029")):
        text = text.replace(ch, escape)
    return text


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _metres(value: float) -> str:
    return f"{value / 1000:.1f} km" if value >= 10_000 else f"{value:,.0f} m"


STYLE = """
html, body { margin: 0; height: 100%; font: 14px/1.4 system-ui, sans-serif; color: #222; background: #fff; }
#map { position: fixed; left: 0; top: 0; width: 100vmin; height: 100vmin; background: #f3f1ec; display: block; }
#side { position: fixed; left: 100vmin; top: 0; right: 0; bottom: 0; overflow: auto; padding: 12px 16px;
        box-sizing: border-box; border-left: 1px solid #ccc; }
@media (orientation: portrait) { #side { left: 0; top: 100vmin; border-left: 0; border-top: 1px solid #ccc; } }
h1 { font-size: 16px; margin: 0 0 8px; }
h2 { font-size: 15px; margin: 0 0 6px; }
.legend { list-style: none; padding: 0; margin: 0 0 12px; }
.legend li { margin: 2px 0; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 50%; vertical-align: -1px;
          margin-right: 6px; border: 1px solid #fff; outline: 1px solid #999; }
.empty { color: #666; }
#detail dl:not([hidden]) { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; }
#detail dt { color: #666; }
#detail dd { margin: 0; overflow-wrap: anywhere; }
#detail .hint { color: #666; }
.area { fill: #e4ebf2; stroke: #5b6b7c; stroke-dasharray: 8 6; }
.centre { stroke: #222; }
.marker { stroke: #333; cursor: pointer; }
.marker:focus { outline: none; }
.label { fill: #222; stroke: #fff; paint-order: stroke; stroke-linejoin: round; pointer-events: none; }
.label.hover { display: none; }
.label.hover.shown { display: inline; }
"""

SCRIPT = """
(() => {
  "use strict";
  const places = JSON.parse(document.getElementById("places").textContent);
  const markers = document.querySelectorAll("#markers .marker");
  const labels = document.querySelectorAll("#labels .label");
  const detail = document.getElementById("detail");
  const say = (selector, text) => { detail.querySelector(selector).textContent = text; };
  let selected = -1;

  function select(i) {
    const p = places[i];
    if (!p) return;
    if (selected >= 0) {
      markers[selected].classList.remove("selected");
      labels[selected].classList.remove("shown");
    }
    selected = i;
    markers[i].classList.add("selected");
    labels[i].classList.add("shown");
    say(".name", p.placeName);
    say(".category", `${p.categoryGroupName} (${p.categoryGroupCode}) · ${p.categoryName}`);
    say(".address", p.addressName || "—");
    say(".road", p.roadAddressName || "—");
    say(".phone", p.phone || "—");
    say(".distance", p.distance == null ? "—" : `${p.distance.toLocaleString("en")} m`);
    const link = detail.querySelector(".url");
    // Only web links: a javascript: URL from the data must not become clickable.
    if (/^https?:\\/\\//i.test(p.placeUrl)) {
      link.href = p.placeUrl;
      link.textContent = p.placeUrl;
    } else {
      link.removeAttribute("href");
      link.textContent = "—";
    }
    detail.querySelector(".hint").hidden = true;
    detail.querySelector("dl").hidden = false;
    history.replaceState(null, "", "#" + encodeURIComponent(p.id));
  }

  const index = (target) => {
    const marker = target.closest && target.closest(".marker");
    return marker ? Number(marker.dataset.index) : -1;
  };
  const map = document.getElementById("markers");
  map.addEventListener("click", (e) => select(index(e.target)));
  map.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); select(index(e.target)); }
  });
  for (const [type, shown] of [["mouseover", true], ["mouseout", false], ["focusin", true], ["focusout", false]]) {
    map.addEventListener(type, (e) => {
      const i = index(e.target);
      if (i >= 0 && i !== selected) labels[i].classList.toggle("shown", shown);
    });
  }

  // map.html#ID: the place with that id, as if its marker had been clicked.
  function fromHash() {
    const id = decodeURIComponent(location.hash.slice(1));
    const i = places.findIndex((p) => p.id === id);
    if (i >= 0) markers[i].dispatchEvent(new MouseEvent("click", { bubbles: true }));
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
"""


def render_page(layers: Sequence[Layer], centre: Sequence[float], radius: int) -> str:
    """The page: everything inline, every text from the data escaped."""
    e = html.escape
    half = max(radius, 50) * 1.1  # the circle, and a tenth of the radius around it
    marker_r, font, stroke = half / 70, half / 35, half / 400
    places = [(layer, p) for layer in layers for p in layer.places]
    hover = len(places) > LABEL_LIMIT

    marks: List[str] = []
    labels: List[str] = []
    for i, (layer, p) in enumerate(places):
        cx, cy = project(p.x, p.y, centre)
        colour = CATEGORIES[layer.code].colour
        name = e(p.place_name)
        marks.append(
            f'<circle class="marker" data-index="{i}" data-id="{e(p.id)}" cx="{_n(cx)}" cy="{_n(cy)}" '
            f'r="{_n(marker_r)}" fill="{colour}" stroke-width="{_n(stroke * 1.5)}" tabindex="0" role="button" '
            f'aria-label="{name}"><title>{name}</title></circle>'
        )
        labels.append(
            f'<text class="label{" hover" if hover else ""}" x="{_n(cx + marker_r * 1.4)}" '
            f'y="{_n(cy + font * 0.35)}" font-size="{_n(font)}" stroke-width="{_n(stroke * 4)}">{name}</text>'
        )

    names = ", ".join(f"{layer.name} ({layer.code})" for layer in layers)
    where = f"{centre[1]:.5f}, {centre[0]:.5f}"
    title = f"{names} within {_metres(radius)} of {where}"
    legend = "".join(
        f'<li><span class="swatch" style="background:{CATEGORIES[layer.code].colour}"></span>'
        f"{e(layer.name)} ({e(layer.code)}): {len(layer.places)}"
        + (f" of {layer.total} found (a search pages at most {len(layer.places)})" if layer.total > len(layer.places)
           else "")
        + "</li>"
        for layer in layers
    )
    drawn = f"{len(places)} place{'' if len(places) == 1 else 's'} drawn"
    if not places:
        drawn += '. <span class="empty">None of these categories within the radius.</span>'
    data = [p.to_json() for _, p in places]
    cross = half / 30
    return f"""<!DOCTYPE html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)}</title>
<style>{STYLE}.marker.selected, .marker:focus-visible {{ stroke: #000; stroke-width: {_n(stroke * 3.5)}; }}
</style>
</head>
<body>
<svg id="map" viewBox="{_n(-half)} {_n(-half)} {_n(2 * half)} {_n(2 * half)}" role="img"
     aria-label="{e(title)}">
<circle class="area" cx="0" cy="0" r="{_n(radius)}" stroke-width="{_n(stroke * 2)}"/>
<g class="centre" stroke-width="{_n(stroke * 3)}"><title>the centre: {e(where)}</title>
<line x1="{_n(-cross)}" y1="0" x2="{_n(cross)}" y2="0"/><line x1="0" y1="{_n(-cross)}" x2="0" y2="{_n(cross)}"/>
</g>
<g id="labels">{"".join(labels)}</g>
<g id="markers">{"".join(marks)}</g>
</svg>
<div id="side">
<h1>{e(title)}</h1>
<p>{drawn}; radius {_metres(radius)}.</p>
<ul class="legend">{legend}</ul>
<div id="detail">
<p class="hint">Click a marker to see the place.</p>
<dl hidden>
<dt>name</dt><dd class="name"></dd>
<dt>category</dt><dd class="category"></dd>
<dt>address</dt><dd class="address"></dd>
<dt>road address</dt><dd class="road"></dd>
<dt>phone</dt><dd class="phone"></dd>
<dt>distance</dt><dd class="distance"></dd>
<dt>link</dt><dd><a class="url" target="_blank" rel="noopener noreferrer"></a></dd>
</dl>
</div>
</div>
<script type="application/json" id="places">{script_json(data)}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""


# ---------------------------------------------------------------- the command


def _arguments() -> argparse.ArgumentParser:
    doc = __doc__ or ""
    p = parser(doc.splitlines()[0])
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    first, _usage, rest = doc.split("\n\n", 2)
    p.description = f"{first}\n\n{rest}"
    p.prog = "python3 -m catalogd.examples.map"
    p.add_argument("category", metavar="CATEGORY",
                   help="a code (CE7), an English name (cafe) or the daemon's Korean name (카페); several with commas")
    p.add_argument("x", metavar="X", type=float, nargs="?", help=f"longitude of the centre (default {SEOUL_CITY_HALL[0]})")
    p.add_argument("y", metavar="Y", type=float, nargs="?", help=f"latitude of the centre (default {SEOUL_CITY_HALL[1]})")
    p.add_argument("radius", metavar="RADIUS", type=int, nargs="?", default=DEFAULT_RADIUS,
                   help=f"metres, 0 to 20000 (default {DEFAULT_RADIUS})")
    p.add_argument("-o", "--output", default="map.html", help="the page to write (default map.html)")
    return p


def main(argv: Optional[List[str]] = None) -> int:
    own, daemon_args = split_daemon_args(argv)
    p = _arguments()
    args = p.parse_args(own)
    if (args.x is None) != (args.y is None):
        p.error("give both X and Y, or neither")
    x: float = SEOUL_CITY_HALL[0] if args.x is None else args.x
    y: float = SEOUL_CITY_HALL[1] if args.y is None else args.y
    radius: int = args.radius
    if not (-180 <= x <= 180 and -90 <= y <= 90):
        p.error(f"X is a longitude (-180 to 180) and Y a latitude (-90 to 90), not {x} {y}")
    if not 0 <= radius <= 20_000:
        p.error(f"RADIUS is 0 to 20000 metres, not {radius}")
    output = Path(args.output).resolve()
    if not output.parent.is_dir():
        p.error(f"no directory {output.parent} for the page")
    binary = daemon_binary(args.bin)
    with tempfile.TemporaryDirectory(prefix="catalogd-map-") as tmp:
        if "--data-dir" not in daemon_args:
            daemon_args = ["--data-dir", tmp, *daemon_args]
        with Client(binary, daemon_args, framing=args.framing) as client:
            korean: Dict[str, str] = {c.code: c.name for c in client.places_categories().items}
            try:
                codes = resolve_categories(args.category, korean)
            except ValueError as e:
                p.error(str(e))
            try:
                layers = [fetch_layer(client, code, korean.get(code, code), x, y, radius) for code in codes]
            except RpcError as e:
                raise SystemExit(f"catalogd: {e.message}") from None
    output.write_text(render_page(layers, (x, y), radius), encoding="utf-8")
    counts = ", ".join(f"{layer.code} {layer.name} {len(layer.places)}"
                       + (f" of {layer.total}" if layer.total > len(layer.places) else "") for layer in layers)
    print(f"{sum(len(layer.places) for layer in layers)} places drawn ({counts}) within {radius} m of {y}, {x}")
    print(output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
