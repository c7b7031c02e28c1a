"""Products, embedded catalog: a search's match count, once counted, is
brought up to date from `search_changes` (the rows logged after it) instead
of counted again. Checked against SQLite's own count, read with Python's
sqlite3, after changes by this daemon, another daemon on the same file and
another connection. (The shared catalog's counterpart is in
test_products_postgres.py.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

QUERY = "셈하는 물건"


def connect(data: Path) -> sqlite3.Connection:
    con = sqlite3.connect(str(data / "catalog.sqlite"), timeout=10, isolation_level=None)
    con.execute("PRAGMA busy_timeout = 10000")
    return con


def insert_row(con: sqlite3.Connection, name: str) -> int:
    return con.execute(
        "INSERT INTO products (name_ko, price, created_at, updated_at, search_text) VALUES (?, 1, 0, 0, ?)",
        (name, name.lower())).lastrowid


class Counts:
    def __init__(self, daemon, data: Path, suppliers: list[str]):
        self.d, self.data, self.suppliers = daemon, data, suppliers

    def truth(self, supplier=None) -> int:
        con = connect(self.data)
        try:
            where, args = ("search_text LIKE ?", [f"%{QUERY}%"])
            if supplier:
                where, args = where + " AND supplier_id = ?", args + [int(supplier)]
            return con.execute(f"SELECT count(*) FROM products WHERE {where}", args).fetchone()[0]
        finally:
            con.close()

    def counted(self, supplier=None) -> int:
        params = {"query": QUERY, "limit": 1} | ({"supplierId": supplier} if supplier else {})
        return self.d.result("products/list", params)["totalCount"]

    def check(self, what: str) -> None:
        for supplier in [None, *self.suppliers]:
            assert self.counted(supplier) == self.truth(supplier), f"after {what}, supplier {supplier}"


def test_a_search_count_stays_exact_through_every_kind_of_change(spawn, tmp_path):
    data = tmp_path / "shared-data"
    a, b = spawn(data_dir=data), spawn(data_dir=data)
    for d in (a, b):
        d.initialize()
    s1, s2 = (s["id"] for s in a.result("suppliers/list", {})["items"][:2])
    counts = Counts(a, data, [s1, s2])

    counts.check("nothing")
    made = [b.result("products/create", {"nameKo": f"{QUERY} {k}", "price": k, "supplierId": s1})["id"]
            for k in range(3)]
    a.result("products/create", {"nameKo": "다른 물건", "price": 1})
    counts.check("creates by both daemons")
    b.result("products/update", {"id": made[0], "nameKo": "이름이 바뀐 것"})
    counts.check("a rename out of the search")
    b.result("products/update", {"id": "1", "nameKo": f"{QUERY} 새 이름"})
    counts.check("a rename into the search")
    b.result("products/update", {"id": made[1], "supplierId": s2})
    counts.check("a move to another supplier")
    b.result("products/update", {"id": made[1], "nameEn": "Counted Thing", "supplierId": None})
    counts.check("a rename and a move in one update")
    b.result("products/update", {"id": made[2], "price": 999})
    counts.check("a price change")
    a.result("products/delete", {"id": made[2]})
    counts.check("a delete")

    con = connect(tmp_path / "shared-data")
    try:
        # A write transaction that has inserted while the daemon counts, then commits.
        con.execute("BEGIN IMMEDIATE")
        insert_row(con, f"{QUERY} 다른 연결")
        counts.check("an insert not yet committed")
        con.execute("COMMIT")
        counts.check("a commit by another connection")
        con.execute("BEGIN IMMEDIATE")
        insert_row(con, f"{QUERY} 되돌림")
        con.execute("ROLLBACK")
        counts.check("a rollback")

        # The count comes from the log: a row inserted with the log's trigger
        # dropped is not seen after another change; a recount would see it.
        con.execute("BEGIN IMMEDIATE")
        trigger = con.execute("SELECT sql FROM sqlite_master WHERE name = 'search_changes_insert'").fetchone()[0]
        con.execute("DROP TRIGGER search_changes_insert")
        hidden = insert_row(con, f"{QUERY} 몰래")
        con.execute(trigger)
        con.execute("COMMIT")
        b.result("products/create", {"nameKo": "또 다른 물건", "price": 1})
        assert counts.counted() == counts.truth() - 1

        # Past the log's pruning the count is counted again, hidden row and all.
        con.execute("UPDATE sqlite_sequence SET seq = 19995 WHERE name = 'search_changes'")
        for k in range(5):
            b.result("products/create", {"nameKo": f"가지치기 {k}", "price": k})
        log = con.execute("SELECT min(seq), max(seq), count(*) FROM search_changes").fetchone()
        assert log == (19996, 20000, 5), log
        assert con.execute("SELECT through FROM search_changes_pruned").fetchone()[0] == 10000
        counts.check("the log pruned past the kept count")
        a.result("products/delete", {"id": str(hidden)})
        counts.check("a delete after the pruning")
    finally:
        con.close()
