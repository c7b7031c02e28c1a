"""Places through the daemon against a brute-force scan computed here: 4,000
random places imported over RPC (clusters across the antimeridian, around
both poles, at 0°/0° and scattered worldwide, away from the Seoul demo), then
hundreds of random circle and rect searches whose every page, count,
distance and order must equal what a haversine scan of the imported rows
gives. The import is acknowledged, the daemon is killed with SIGKILL, and a
new daemon on the same data dir gives the same answers."""

from __future__ import annotations

import math
import random

import pytest

from catalogd_e2e import assert_result, short

EARTH_RADIUS = 6_371_008.8
RADIANS = math.pi / 180
CATEGORIES = ("CS2", "FD6", "PM9")


def distance(x1: float, y1: float, x2: float, y2: float) -> float:
    """PlaceGeometry.distance, operation for operation (same libm, same bits)."""
    half_lat = math.sin((y2 - y1) * RADIANS * 0.5)
    half_lon = math.sin((x2 - x1) * RADIANS * 0.5)
    a = half_lat * half_lat + math.cos(y1 * RADIANS) * math.cos(y2 * RADIANS) * (half_lon * half_lon)
    return 2 * EARTH_RADIUS * math.asin(min(1.0, math.sqrt(a)))


def whole_metres(metres: float) -> int:
    return int(math.floor(metres + 0.5))  # distances are never negative: halves round up


def id_order(place_id: str) -> tuple[int, str]:
    """The API's id order: shorter first, then by code point."""
    return len(place_id), place_id


def wrap(x: float) -> float:
    return x - 360 if x > 180 else x + 360 if x < -180 else x


# (centre x, centre y, spread in degrees of longitude, of latitude)
CLUSTERS = [(180.0, 0.0, 0.25, 0.25), (-179.9, 65.5, 0.5, 0.2), (0.0, 89.9, 180.0, 0.1),
            (0.0, -89.85, 180.0, 0.15), (0.0, 0.0, 0.3, 0.3)]


def generate(rng: random.Random, count: int) -> list[dict]:
    places = []
    for i in range(count):
        if i % 10 == 9:  # scattered worldwide, outside Korea
            x, y = rng.uniform(-180, 180), rng.uniform(-90, 90)
            if 120 < x < 135 and 30 < y < 45:
                x = -x
        else:
            cx, cy, sx, sy = CLUSTERS[i % len(CLUSTERS)]
            x, y = wrap(cx + rng.uniform(-sx, sx)), max(-90.0, min(90.0, cy + rng.uniform(-sy, sy)))
        places.append({"id": f"bf{i}", "placeName": f"장소 {i}", "categoryGroupCode": CATEGORIES[i % 3],
                       "x": round(x, 7), "y": round(y, 7)})
    return places


def in_rect(p: dict, rect: list[float]) -> bool:
    min_x, min_y, max_x, max_y = rect
    if not min_y <= p["y"] <= max_y:
        return False
    return min_x <= p["x"] <= max_x if min_x <= max_x else p["x"] >= min_x or p["x"] <= max_x


def expected(places: list[dict], query: dict) -> dict:
    """The page a brute-force scan gives for `query`."""
    origin = (query["x"], query["y"]) if "x" in query else None
    hits = []
    for p in places:
        if p["categoryGroupCode"] != query["category"]:
            continue
        metres = distance(origin[0], origin[1], p["x"], p["y"]) if origin else None
        if "rect" in query:
            if not in_rect(p, query["rect"]):
                continue
        elif not metres <= query["radius"]:
            continue
        hits.append((p["id"], None if metres is None else whole_metres(metres)))
    if query["sort"] == "distance" and origin:
        hits.sort(key=lambda h: (h[1], id_order(h[0])))
    else:
        hits.sort(key=lambda h: id_order(h[0]))
    page, size = query["page"], query["size"]
    pageable = min(len(hits), 45)
    window = hits[min((page - 1) * size, 45):min(page * size, 45)]
    return {"items": window, "meta": {"totalCount": len(hits), "pageableCount": pageable, "isEnd": page * size >= pageable}}


def random_query(rng: random.Random) -> dict:
    cx, cy, sx, sy = rng.choice(CLUSTERS)
    x, y = wrap(cx + rng.uniform(-sx, sx) * 1.2), max(-90.0, min(90.0, cy + rng.uniform(-sy, sy) * 1.2))
    query = {"category": rng.choice(CATEGORIES), "x": round(x, 6), "y": round(y, 6),
             "page": rng.choice([1, 1, 2, 3]), "size": rng.randint(1, 15), "sort": rng.choice(["distance", "accuracy"])}
    if rng.random() < 0.25:
        half_w, half_h = rng.uniform(0.01, 0.4), rng.uniform(0.01, 0.2)
        rect = [wrap(x - half_w), max(-90.0, y - half_h), wrap(x + half_w), min(90.0, y + half_h)]
        query["rect"] = [round(v, 6) for v in rect]
        if rng.random() < 0.5:  # without a centre: no distances, and only the accuracy order
            del query["x"], query["y"]
            query["sort"] = "accuracy"
    else:
        query["radius"] = rng.choice([0, rng.randint(1, 1000), rng.randint(1000, 20000), 20000])
    return query


def answers(d, queries: list[dict]) -> list[dict]:
    return [assert_result(d.call("places/search", q, id=f"q{n}"), f"q{n}") for n, q in enumerate(queries)]


def compare(places: list[dict], queries: list[dict], results: list[dict]) -> int:
    """Asserts every result equals the brute force; returns how many pages had items."""
    non_empty = 0
    for query, result in zip(queries, results):
        want = expected(places, query)
        got = {"items": [(p["id"], p.get("distance")) for p in result["items"]], "meta": result["meta"]}
        assert got == want, f"query {short(query)}:\n got  {short(got)}\n want {short(want)}"
        non_empty += bool(got["items"])
    return non_empty


@pytest.mark.timeout_s(300)
def test_searches_equal_a_brute_force_scan_and_survive_kill_9(spawn, tmp_path):
    rng = random.Random(20261122)
    places = generate(rng, 4000)
    path = tmp_path / "random.csv"
    path.write_text("id,placeName,categoryGroupCode,x,y\n"
                    + "".join(f"{p['id']},{p['placeName']},{p['categoryGroupCode']},{p['x']!r},{p['y']!r}\n" for p in places))
    data = tmp_path / "data"
    d = spawn(data_dir=data, framing="ndjson")
    d.initialize()
    result = assert_result(d.call("places/import", {"path": str(path)}, id="i", timeout=120), "i")
    assert result["imported"] == len(places) and result["rejected"] == [], short(result)

    queries = [random_query(rng) for _ in range(400)]
    non_empty = compare(places, queries, answers(d, queries))
    assert non_empty >= 150, f"only {non_empty} of 400 pages had places: the queries miss the data"
    assert any("rect" in q and q["rect"][0] > q["rect"][2] for q in queries), "a rect across the antimeridian"

    d.kill()  # SIGKILL right after the acknowledged import and the reads
    again = spawn(data_dir=data, framing="ndjson")
    again.initialize()
    compare(places, queries[:100], answers(again, queries[:100]))
