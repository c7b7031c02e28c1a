"""Products on both catalogs (the SQLite file, a PostgreSQL database): "a write
that was acknowledged survives kill -9", the catalog stays intact, and daemons
writing to one catalog at the same time lose nothing."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from catalogd_e2e import (
    assert_product,
    assert_result,
    dumps,
    is_notification,
    is_response,
    pipeline,
    read_stream,
    request_obj,
    run_catalogd,
    send_pipelined,
    short,
)

DEMO_PRODUCTS = 300

pytestmark = pytest.mark.both_catalogs


def integrity(catalog, data: Path) -> None:
    """The trigger-kept counts agree with the rows; for SQLite also PRAGMA
    integrity_check and the FTS index, read with Python's sqlite3 (call only
    when no daemon has the file open)."""
    if catalog.kind == "postgres":
        rows = catalog.cluster.psql(
            "SELECT (SELECT count(*) FROM products), (SELECT coalesce(sum(n), 0) FROM product_counts WHERE supplier_id = -1)",
            catalog.database)
        assert rows[0][0] == rows[0][1], f"product_counts says {rows[0][1]} products, the table has {rows[0][0]}"
        return
    con = sqlite3.connect(str(data / "catalog.sqlite"), timeout=5)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        n = con.execute("SELECT count(*) FROM products").fetchone()[0]
        counted = dict(con.execute("SELECT supplier_id, n FROM product_counts").fetchall())
        assert counted.get(-1) == n, f"product_counts says {counted.get(-1)} products, the table has {n}"
        fts = con.execute("SELECT count(*) FROM products_fts").fetchone()[0]
        assert fts == n, f"products_fts has {fts} rows for {n} products"
    finally:
        con.close()


def product_ids(catalog, data: Path) -> set[str]:
    if catalog.kind == "postgres":
        return catalog.product_ids()
    con = sqlite3.connect(str(data / "catalog.sqlite"), timeout=5)
    try:
        return {str(r[0]) for r in con.execute("SELECT id FROM products")}
    finally:
        con.close()


def get_all(d, wanted: dict[str, str]) -> None:
    """Every id in `wanted` answers products/get with that nameKo."""
    items = list(wanted.items())
    for start in range(0, len(items), 500):
        chunk = items[start:start + 500]
        responses, others = pipeline(d, [("products/get", {"id": i}) for i, _ in chunk])
        assert all(is_notification(m, "products/listUpdated") for m in others), short(others)  # other daemons' changes
        for (pid, name), resp in zip(chunk, responses):
            assert "result" in resp, f"acknowledged product {pid} ({name}) is gone after kill -9: {short(resp)}"
            assert_product(resp["result"], id=pid, nameKo=name)


def test_acknowledged_creates_survive_kill_9(spawn, tmp_path, catalog_backend):
    data = tmp_path / "durable"
    d = spawn(data_dir=data)
    d.initialize()
    d.result("products/list", {"limit": 1})  # the catalog exists and is seeded

    n = 2000
    ids = [d.new_id() for _ in range(n)]
    names = {i: f"내구성 {k:04d}" for k, i in enumerate(ids)}
    data_bytes = b"".join(
        d.frame(dumps(request_obj("products/create", {"nameKo": names[i], "price": k}, i))) for k, i in enumerate(ids))
    write_error: list[BaseException] = []

    def writer():
        try:
            # In slices, so the daemon is still receiving when it is killed.
            step = len(data_bytes) // 40 + 1
            for off in range(0, len(data_bytes), step):
                d.send_raw(data_bytes[off:off + step])
                time.sleep(0.005)
        except (BrokenPipeError, OSError) as e:
            write_error.append(e)

    t = threading.Thread(target=writer, daemon=True)
    t.start()
    acked: dict[str, str] = {}  # product id -> nameKo
    pending = set(ids)
    deadline = time.monotonic() + 20
    while len(acked) < n // 3:
        msg = d.read_message(max(0.01, deadline - time.monotonic()))
        if is_notification(msg, "products/listUpdated"):
            continue
        assert is_response(msg) and msg["id"] in pending, short(msg)
        p = assert_product(assert_result(msg, msg["id"]), nameKo=names[msg["id"]])
        pending.discard(msg["id"])
        acked[p["id"]] = p["nameKo"]
    d.kill()
    # Whatever the daemon wrote before it died is acknowledged too.
    while True:
        try:
            msg = d.read_message(2)
        except AssertionError as e:
            # The first line says what happened (the diagnostics after it list every violation so far).
            what = str(e).split("\n", 1)[0]
            if "stdout ended inside a message" in what:
                continue  # killed in the middle of a write: that reply was not acknowledged
            assert "closed its stdout" in what, str(e)
            break
        if is_response(msg) and "result" in msg:
            acked[msg["result"]["id"]] = msg["result"]["nameKo"]
    d.violations[:] = [v for v in d.violations if not v.startswith("stdout ended inside a message")]
    d.wait(5)
    t.join(10)
    assert len(acked) < n, "the daemon finished everything before it was killed: the test killed too late"

    catalog_backend.wait_for_dead_sessions()
    on_disk = product_ids(catalog_backend, data)
    lost = set(acked) - on_disk
    assert not lost, f"{len(lost)} acknowledged products are not in the file after kill -9: {sorted(lost, key=int)[:20]}"
    integrity(catalog_backend, data)

    d2 = spawn(data_dir=data)
    d2.initialize()
    get_all(d2, acked)
    total = d2.result("products/list", {"limit": 1})["totalCount"]
    assert total == len(on_disk) >= DEMO_PRODUCTS + len(acked)
    d2.close()
    integrity(catalog_backend, data)


def test_acknowledged_updates_and_deletes_survive_kill_9(spawn, tmp_path, catalog_backend):
    data = tmp_path / "durable-updates"
    d = spawn(data_dir=data)
    d.initialize()
    items = d.result("products/list", {"limit": 100, "sort": "priceAsc"})["items"]
    calls = [("products/update", {"id": p["id"], "price": 777_000 + k}) for k, p in enumerate(items[:60])]
    calls += [("products/delete", {"id": p["id"]}) for p in items[60:100]]
    responses, _ = pipeline(d, calls)
    for r in responses:
        assert_result(r, r["id"])
    d.kill()
    d.wait(5)
    catalog_backend.wait_for_dead_sessions()
    integrity(catalog_backend, data)
    d2 = spawn(data_dir=data)
    d2.initialize()
    for k, p in enumerate(items[:60]):
        assert_product(d2.result("products/get", {"id": p["id"]}), price=777_000 + k, version=2)
    gone, _ = pipeline(d2, [("products/get", {"id": p["id"]}) for p in items[60:100]])
    for r in gone:
        assert "error" in r and r["error"]["code"] == -32001, short(r)
    assert d2.result("products/list", {"limit": 1})["totalCount"] == DEMO_PRODUCTS - 40


def test_two_daemons_writing_at_once_lose_nothing(spawn, tmp_path, catalog_backend):
    data = tmp_path / "two-writers"
    a = spawn(data_dir=data)
    a.initialize()
    b = spawn(data_dir=data)
    b.initialize()
    a.result("products/list", {"limit": 1})
    b.result("products/list", {"limit": 1})

    n = 500
    ids_a = send_pipelined(a, [("products/create", {"nameKo": f"A {k}", "price": k}) for k in range(n)])
    ids_b = send_pipelined(b, [("products/create", {"nameKo": f"B {k}", "price": k}) for k in range(n)])
    stream_a = read_stream(a, ids_a, 30)
    stream_b = read_stream(b, ids_b, 30)

    made: dict[str, str] = {}
    for who, stream in (("A", stream_a), ("B", stream_b)):
        responses = [m for m in stream if is_response(m)]
        errors = [m for m in responses if "error" in m]
        assert not errors, f"daemon {who}: {len(errors)} creates failed, e.g. {short(errors[:3])}"
        for r in responses:
            p = assert_product(r["result"])
            assert p["id"] not in made, f"id {p['id']} given to two products ({made[p['id']]!r} and {p['nameKo']!r})"
            made[p["id"]] = p["nameKo"]
        own = [m["params"]["id"] for m in stream if is_notification(m, "products/listUpdated") and "id" in m["params"]]
        mine = {r["result"]["id"] for r in responses}
        assert mine <= set(own), f"daemon {who}: a create without its listUpdated"
    assert len(made) == 2 * n

    # Each daemon tells its client of the other's 500 creates (or to resync).
    for who, d, stream, other in (("A", a, stream_a, "B "), ("B", b, stream_b, "A ")):
        want = {i for i, name in made.items() if name.startswith(other)}
        heard = {m["params"].get("id") for m in stream if is_notification(m, "products/listUpdated")}
        deadline = time.monotonic() + 5
        while not want <= heard and None not in heard and time.monotonic() < deadline:
            msg = d.read_message(max(0.01, deadline - time.monotonic()))
            assert is_notification(msg, "products/listUpdated"), short(msg)
            heard.add(msg["params"].get("id"))
        missing = want - heard
        assert not missing or None in heard, f"daemon {who} never told of {len(missing)} of the other's creates"
    assert sorted(v for v in made.values() if v.startswith("A ")) == sorted(f"A {k}" for k in range(n))

    for d in (a, b):
        assert d.result("products/list", {"limit": 1})["totalCount"] == DEMO_PRODUCTS + 2 * n
    get_all(b, {i: name for i, name in made.items() if name.startswith("A ")})
    get_all(a, {i: name for i, name in made.items() if name.startswith("B ")})
    a.close()
    b.close()
    integrity(catalog_backend, data)


def test_two_daemons_opening_a_new_catalog_at_once_seed_it_once(spawn, tmp_path, catalog_backend):
    data = tmp_path / "fresh-race"
    data.mkdir()
    daemons = [spawn(data_dir=data) for _ in range(3)]
    for d in daemons:
        d.initialize({"clientId": "5f0c9d6e-1111-4222-8333-944455556666"})
    for d in daemons:
        d.request("products/list", {"limit": 1}, id="first")
    for d in daemons:
        resp, _ = d.read_until_response("first", 15)
        assert_result(resp, "first")
        assert resp["result"]["totalCount"] == DEMO_PRODUCTS, short(resp)
    assert [len(d.result("suppliers/list", {})["items"]) for d in daemons] == [10, 10, 10]
    for d in daemons:
        d.close()
    integrity(catalog_backend, data)


def test_end_of_input_answers_and_keeps_every_pipelined_create(spawn, tmp_path):
    data = tmp_path / "eof"
    d = spawn(data_dir=data)
    d.initialize()
    d.result("products/list", {"limit": 1})
    ids = send_pipelined(d, [("products/create", {"nameKo": f"마감 {k}", "price": k}) for k in range(300)])
    d.close_stdin()
    stream = read_stream(d, ids, 20)
    made = {m["result"]["id"]: m["result"]["nameKo"] for m in stream if is_response(m) and "result" in m}
    assert len(made) == 300, [m for m in stream if is_response(m) and "error" in m][:3]
    assert d.wait(10) == 0
    d2 = spawn(data_dir=data)
    d2.initialize()
    get_all(d2, made)


def test_two_daemons_updating_one_product_serialize(spawn, tmp_path):
    """100 updates through each of two daemons to one product: all succeed, and
    the 200 versions answered are exactly 2..201."""
    data = tmp_path / "one-product"
    a = spawn(data_dir=data)
    a.initialize()
    b = spawn(data_dir=data)
    b.initialize()
    p = a.result("products/create", {"nameKo": "경합", "price": 0})
    b.result("products/get", {"id": p["id"]})
    ids_a = send_pipelined(a, [("products/update", {"id": p["id"], "price": k}) for k in range(100)])
    ids_b = send_pipelined(b, [("products/update", {"id": p["id"], "price": 1000 + k}) for k in range(100)])
    versions = []
    for who, d, ids in (("A", a, ids_a), ("B", b, ids_b)):
        responses = [m for m in read_stream(d, ids, 30) if is_response(m)]
        errors = [r for r in responses if "error" in r]
        assert not errors, f"daemon {who}: {len(errors)} updates failed, e.g. {short(errors[:3])}"
        own = [r["result"]["version"] for r in sorted(responses, key=lambda r: r["id"])]
        assert own == sorted(own), f"daemon {who}: its own updates applied out of order: {own}"
        versions += own
    assert sorted(versions) == list(range(2, 202))
    final = a.result("products/get", {"id": p["id"]})
    assert final["version"] == 201


def test_two_daemons_racing_with_the_same_expected_version(spawn, tmp_path):
    """For each of 30 products, A and B both update with expectedVersion 1: exactly
    one wins, the other gets -32009 with currentVersion 2."""
    data = tmp_path / "race"
    a = spawn(data_dir=data)
    a.initialize()
    b = spawn(data_dir=data)
    b.initialize()
    targets = [p["id"] for p in a.result("products/list", {"limit": 30, "sort": "priceAsc"})["items"]]
    b.result("products/list", {"limit": 1})
    ids_a = send_pipelined(a, [("products/update", {"id": t, "price": 1, "expectedVersion": 1}) for t in targets])
    ids_b = send_pipelined(b, [("products/update", {"id": t, "price": 2, "expectedVersion": 1}) for t in targets])
    ra = {m["id"]: m for m in read_stream(a, ids_a, 30) if is_response(m)}
    rb = {m["id"]: m for m in read_stream(b, ids_b, 30) if is_response(m)}
    for t, ia, ib in zip(targets, ids_a, ids_b):
        outcomes = [ra[ia], rb[ib]]
        wins = [r for r in outcomes if "result" in r]
        losses = [r for r in outcomes if "error" in r]
        assert len(wins) == 1 and len(losses) == 1, f"product {t}: {short(outcomes)}"
        assert wins[0]["result"]["version"] == 2
        assert losses[0]["error"]["code"] == -32009 and losses[0]["error"]["data"]["currentVersion"] == 2, short(losses)
        final = a.result("products/get", {"id": t})
        assert final["price"] == wins[0]["result"]["price"] and final["version"] == 2


@pytest.mark.sqlite_only
def test_seeding_leaves_no_write_ahead_log_to_walk(spawn, tmp_path):
    """`catalogd seed products N` folds its write-ahead log into the catalog
    when it is done: the next daemon reads the pages from the file, not from
    a log as large as everything the seed wrote."""
    data = tmp_path / "data"
    seeded = run_catalogd(["seed", "products", "30000", "--data-dir", str(data)],
                          env={"HOME": str(tmp_path)}, cwd=tmp_path, timeout=120)
    assert seeded.returncode == 0, seeded.stderr
    assert b"added 30000 products" in seeded.stderr
    wal = data / "catalog.sqlite-wal"
    assert not wal.exists() or wal.stat().st_size == 0, f"{wal.stat().st_size} bytes left in the WAL"
    d = spawn(data_dir=data)
    d.initialize()
    newest = d.result("products/list", {"limit": 100})
    assert newest["totalCount"] == DEMO_PRODUCTS + 30000
    # The seeded products were created one after another, as through creates:
    # newest first is highest id first (the demo products' times are their own).
    seeded = [int(p["id"]) for p in newest["items"] if int(p["id"]) > DEMO_PRODUCTS]
    assert len(seeded) > 50 and seeded == sorted(seeded, reverse=True), seeded
    assert seeded[0] == DEMO_PRODUCTS + 30000
