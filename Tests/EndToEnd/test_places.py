"""Places through the daemon: categories, search with Kakao Local's paging,
get, import over RPC (with $/progress) and on the command line, and another
process's import reaching a running daemon's searches."""
from __future__ import annotations

import json
import math
import subprocess
import time

import pytest

from catalogd_e2e import INVALID_PARAMS, assert_error, binary_path

NOT_FOUND = -32001
CITY_HALL = {"x": 126.9779692, "y": 37.566535}


def metres(a: dict, b: dict) -> float:
    """Great-circle distance (haversine, mean Earth radius) between two {x, y} points."""
    lat1, lat2 = math.radians(a["y"]), math.radians(b["y"])
    dlat, dlon = lat2 - lat1, math.radians(b["x"] - a["x"])
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * 6_371_008.8 * math.asin(math.sqrt(h))


@pytest.fixture(scope="module")
def places(shared_daemon_factory):
    """One daemon for the read-only tests: its demo dataset is built once, by
    this first search (generating and indexing 50,000 places is slow on a loaded
    machine, so it gets a longer deadline than the tests' requests)."""
    daemon = shared_daemon_factory("ndjson").get()
    daemon.result("places/search", {"category": "SW8", **CITY_HALL, "radius": 1}, timeout=180)
    return daemon


def test_categories_are_kakaos_eighteen(places):
    items = places.result("places/categories")["items"]
    assert [i["code"] for i in items] == ["MT1", "CS2", "PS3", "SC4", "AC5", "PK6", "OL7", "SW8", "BK9",
                                          "CT1", "AG2", "PO3", "AT4", "AD5", "FD6", "CE7", "HP8", "PM9"]
    assert {i["code"]: i["name"] for i in items}["CS2"] == "편의점"


def test_convenience_stores_within_a_kilometre_nearest_first(places):
    result = places.result("places/search", {"category": "CS2", **CITY_HALL, "radius": 1000, "sort": "distance"})
    items, meta = result["items"], result["meta"]
    assert 0 < len(items) <= 15
    assert meta["pageableCount"] == min(meta["totalCount"], 45)
    distances = [p["distance"] for p in items]
    assert distances == sorted(distances) and all(d <= 1000 for d in distances)
    for place in items:
        assert place["categoryGroupCode"] == "CS2"
        assert abs(place["distance"] - metres(CITY_HALL, place)) <= 1


def test_pages_end_at_45_results_with_is_end(places):
    query = {"category": "FD6", **CITY_HALL, "radius": 2000, "sort": "distance"}
    seen, page = [], 1
    while True:
        result = places.result("places/search", {**query, "page": page})
        seen += [p["id"] for p in result["items"]]
        if result["meta"]["isEnd"]:
            break
        page += 1
    assert result["meta"]["totalCount"] > 45, "the demo is dense around City Hall"
    assert len(seen) == 45 and len(set(seen)) == 45 and page == 3


def test_an_empty_result(places):
    result = places.result("places/search", {"category": "PM9", "x": 0.0, "y": 0.0, "radius": 500})
    assert result == {"items": [], "meta": {"totalCount": 0, "pageableCount": 0, "isEnd": True}}


def test_get_and_unknown_id(places):
    place = places.result("places/search", {"category": "CE7", **CITY_HALL, "radius": 500, "size": 1})["items"][0]
    got = places.result("places/get", {"id": place["id"]})
    assert {k: v for k, v in got.items() if k != "distance"} == {k: v for k, v in place.items() if k != "distance"}
    error = assert_error(places.call("places/get", {"id": "0"}, id="g"), NOT_FOUND, id="g")
    assert error["data"]["resource"] == "place"


@pytest.mark.parametrize("params,field", [
    ({}, "category"),
    ({"category": "CS2", "x": 127.0, "y": 37.5, "radius": 20001}, "radius"),
    ({"category": "CS2", "x": 127.0, "y": 37.5, "page": 46}, "page"),
    ({"category": "CS2", "x": 127.0, "y": 37.5, "size": 16}, "size"),
    ({"category": "CS2", "x": 181.0, "y": 37.5}, "x"),
    ({"category": "CS2"}, "x"),
    ({"category": "CS2", "rect": [1, 2, 3]}, "rect"),
    ({"category": "CS2", "rect": [1, 2, None, 4]}, "rect[2]"),
])
def test_bad_search_params_name_the_field(places, params, field):
    error = assert_error(places.call("places/search", params, id="s"), INVALID_PARAMS, id="s")
    assert error["data"]["field"] == field


CSV = """id,placeName,categoryGroupCode,x,y,phone
t1,테스트 약국,PM9,126.9780,37.5666,02-111-2222
t2,bad category,ZZ9,126.9780,37.5666,
t3,no coordinates,PM9,,37.5,
t4,테스트 약국 2,PM9,126.9781,37.5667,
"""


def test_import_over_rpc_rejects_bad_rows_and_reports_progress(spawn, tmp_path):
    path = tmp_path / "pharmacies.csv"
    path.write_text(CSV)
    d = spawn(framing="ndjson")
    d.initialize()
    d.request("places/import", {"path": str(path), "workDoneToken": "imp"}, id="i")
    reply, others = d.read_until_response("i", timeout=60)
    result = reply["result"]
    assert result["imported"] == 2
    assert [r["line"] for r in result["rejected"]] == [3, 4]
    progress = [m["params"]["value"]["kind"] for m in others if m.get("method") == "$/progress"]
    assert progress[0] == "begin" and progress[-1] == "end"
    found = d.result("places/search", {"category": "PM9", "x": 126.9780, "y": 37.5666, "radius": 50, "sort": "distance"})
    assert [p["id"] for p in found["items"]][:2] == ["t1", "t4"]


def test_import_on_the_command_line(tmp_path):
    path = tmp_path / "p.geojson"
    path.write_text(json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [126.98, 37.57]},
         "properties": {"id": "g1", "placeName": "지오 카페", "categoryGroupCode": "CE7"}}]}))
    done = subprocess.run([str(binary_path()), "import", "places", str(path), "--data-dir", str(tmp_path / "data")],
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["imported"] == 1


def test_another_process_s_import_shows_in_a_running_daemon_s_searches(spawn, tmp_path):
    """A place renamed by another process's import (the same id replaces the
    row) shows in the running daemon's search once it rechecks the file (about
    a second): the index and the places it keeps ready are both made anew."""
    data = tmp_path / "shared-data"
    def import_places(name: str) -> None:
        path = tmp_path / "one.csv"
        path.write_text(f"id,placeName,categoryGroupCode,x,y\nr1,{name},PM9,126.9780,37.5666\n")
        done = subprocess.run([str(binary_path()), "import", "places", str(path), "--data-dir", str(data)],
                              capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr
    import_places("처음 약국")
    d = spawn(framing="ndjson", data_dir=data)
    d.initialize()
    search = {"category": "PM9", "x": 126.9780, "y": 37.5666, "radius": 5, "sort": "distance"}
    def names(timeout: float = 30) -> list[str]:
        items = d.result("places/search", search, timeout=timeout)["items"]
        return [p["placeName"] for p in items if p["id"] == "r1"]
    assert names(timeout=120) == ["처음 약국"]
    import_places("새 약국")
    deadline = time.monotonic() + 30
    while True:
        found = names()
        if found == ["새 약국"] or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert found == ["새 약국"]
