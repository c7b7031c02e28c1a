"""Products on PostgreSQL, what only the shared catalog does: many daemons on
one database told of each other's changes at once, migrations by whichever
daemon comes first, and a database that is unreachable, stops, times out and
comes back while the daemons keep serving.

The product suite itself (test_products*.py) runs on both catalogs."""

from __future__ import annotations

import contextlib
import socket
import statistics
import subprocess
import time

import pytest

from catalogd_e2e import (
    PRODUCT_SORTS,
    UPSTREAM_UNAVAILABLE,
    assert_error,
    assert_result,
    is_notification,
    pipeline,
    rfc3339_micros,
    run_catalogd,
    short,
    walk_products,
)
from postgres_cluster import PostgresCluster, free_port

DEMO_PRODUCTS = 300


def postgres(spawn, url: str, *args: str):
    d = spawn(*args, env={"CATALOGD_DATABASE_URL": url})
    d.initialize()
    return d


def next_notification(d, timeout: float) -> dict:
    msg = d.read_message(timeout)
    assert is_notification(msg), short(msg)
    return msg


@contextlib.contextmanager
def holding(catalog, sql: str, relation: str, mode: str):
    """Another session runs `sql` in a transaction; the block starts once it
    holds `mode` on `relation`, and ends after that session did. Yields the
    session's psql process."""
    holder = subprocess.Popen(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", catalog.url,
                               "-c", f"BEGIN; {sql}; COMMIT;"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: catalog.cluster.psql(
            "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
            f"WHERE c.relname = '{relation}' AND l.mode = '{mode}' AND l.granted", catalog.database)[0][0] != "0",
            5, "the lock holder")
        yield holder
    finally:
        holder.wait(30)


def wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what}: not within {timeout}s"
        time.sleep(0.1)


@pytest.mark.parametrize("catalog_backend", ["postgres"], indirect=True)
def test_three_daemons_each_mutation_reaches_the_other_two_at_once(spawn, catalog_backend):
    a, b, c = (spawn() for _ in range(3))
    for d in (a, b, c):
        d.initialize()
        assert d.result("daemon/status")["backends"]["products"] == "postgres"
        d.result("products/list", {"limit": 1})
    delays = {"b": [], "c": []}
    for k in range(20):
        sent = time.monotonic()
        p = a.result("products/create", {"nameKo": f"공유 {k}", "price": k})
        for name, d in (("b", b), ("c", c)):
            msg = next_notification(d, 2)
            delays[name].append(time.monotonic() - sent)
            assert msg["method"] == "products/listUpdated" and msg["params"] == {"reason": "created", "id": p["id"]}
    updated = b.result("products/update", {"id": p["id"], "price": 99})
    for d in (a, c):
        got = [next_notification(d, 2), next_notification(d, 2)]
        assert {m["method"] for m in got} == {"products/listUpdated", "products/changed"}, short(got)
        assert any(m["params"] == {"product": updated} for m in got), short(got)
    c.result("products/delete", {"id": p["id"]})
    for d in (a, b):
        assert next_notification(d, 2)["params"] == {"reason": "deleted", "id": p["id"]}
    everyone = delays["b"] + delays["c"]
    # From the request's send to the other daemons' notification: the commit,
    # the reply and the notification all fit in 200 ms, as a median and nearly always.
    assert statistics.median(everyone) < 0.2, delays
    assert max(everyone) < 1.0, delays
    for d in (a, b, c):
        assert d.result("products/list", {"limit": 1})["totalCount"] == DEMO_PRODUCTS + 19


@pytest.mark.timeout_s(120)
@pytest.mark.parametrize("catalog_backend", ["postgres"], indirect=True)
def test_a_rare_search_in_a_large_catalog_pages_like_any_other(spawn, catalog_backend, tmp_path):
    """With few matches among many products the page comes from the trigram
    index, its matches sorted (the plan is picked from the match count): the
    pages are the same as a walk's, in every sort, with ties, before and after
    a change makes the cached count stale."""
    seeded = run_catalogd(["seed", "products", "20000", "--database-url", catalog_backend.url,
                           "--data-dir", str(tmp_path / "seed")], env={"HOME": str(tmp_path)}, cwd=tmp_path, timeout=90)
    assert seeded.returncode == 0, seeded.stderr
    d = spawn()
    d.initialize()
    sup = d.result("suppliers/list", {})["items"][:2]
    prices = [5, 5, 5, 3, 3, 8, 8, 8, 1]
    responses, _ = pipeline(d, [("products/create", {"nameKo": f"드문 물건 {i % 3}", "nameEn": "Rare Thing",
                                                     "price": price, "supplierId": sup[i % 2]["id"]})
                                for i, price in enumerate(prices)])
    rare = [assert_result(r, r["id"]) for r in responses]
    keys = {
        "newest": lambda p: (-rfc3339_micros(p["createdAt"]), -int(p["id"])),
        "priceAsc": lambda p: (p["price"], int(p["id"])),
        "priceDesc": lambda p: (-p["price"], -int(p["id"])),
        "name": lambda p: (p["nameKo"], int(p["id"])),
    }

    def check(items, params, limit):
        expected = [p["id"] for p in sorted(items, key=keys[params.get("sort", "newest")])]
        pages = walk_products(d, dict(params, limit=limit))
        got = [p["id"] for page in pages for p in page["items"]]
        assert got == expected, f"{params}: {got} != {expected}"
        assert {page["totalCount"] for page in pages} == {len(items)}, short(pages)

    for sort in PRODUCT_SORTS:
        check(rare, {"query": "드문 물건", "sort": sort}, 2)
        check(rare, {"query": "rare thing", "sort": sort}, 3)
    check([p for p in rare if p["supplier"]["id"] == sup[0]["id"]],
          {"query": "드문", "supplierId": sup[0]["id"], "sort": "priceAsc"}, 2)
    changed = d.result("products/update", {"id": rare[0]["id"], "nameKo": "흔한 물건"})
    d.result("products/delete", {"id": rare[1]["id"]})
    rare = [p for p in rare[2:]]
    for sort in PRODUCT_SORTS:
        check(rare, {"query": "드문 물건", "sort": sort}, 2)
    assert changed["id"] not in [p["id"] for p in d.result("products/list", {"query": "드문", "limit": 100})["items"]]


def test_daemons_on_an_empty_database_migrate_and_seed_it_once(spawn, postgres_cluster):
    url = postgres_cluster.url(postgres_cluster.new_database())
    daemons = [postgres(spawn, url) for _ in range(4)]
    ids = [d.request("products/list", {"limit": 100}) for d in daemons]
    for d, id in zip(daemons, ids):
        resp, _ = d.read_until_response(id, timeout=30)
        assert assert_result(resp, id)["totalCount"] == DEMO_PRODUCTS
    assert len(daemons[0].result("suppliers/list")["items"]) == 10
    versions = postgres_cluster.psql("SELECT version FROM catalogd_migrations ORDER BY version", url.rsplit("/", 1)[1])
    assert versions == [["1"], ["2"], ["3"], ["4"], ["5"], ["6"]]


def test_unreachable_database_is_retryable_and_other_services_keep_serving(spawn):
    d = postgres(spawn, f"postgres://nobody:s3cret-pass@127.0.0.1:{free_port()}/nothing")
    resp = d.call("products/list", {"limit": 1})
    error = assert_error(resp, UPSTREAM_UNAVAILABLE)
    assert error["data"]["service"] == "products" and error["data"]["retryable"] is True, short(error)
    assert "s3cret-pass" not in str(resp) and "s3cret-pass" not in d.stderr_text()
    assert d.result("quotes/random")["content"]
    assert d.result("daemon/status")["backends"]["products"] == "postgres"
    # And again: every call tries to connect anew.
    assert_error(d.call("products/create", {"nameKo": "나중에", "price": 1}), UPSTREAM_UNAVAILABLE)


def test_a_database_that_never_answers_holds_up_initialize_a_second_at_most(spawn):
    """initialize waits for the listener's first attempt, but not for the connect
    timeout (5 s) of a server that accepts and then says nothing."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel completes the handshake; nobody ever answers
        port = silent.getsockname()[1]
        d = spawn(env={"CATALOGD_DATABASE_URL": f"postgres://nobody@127.0.0.1:{port}/nothing"})
        started = time.monotonic()
        d.initialize()
        waited = time.monotonic() - started
        assert 0.9 <= waited < 4, f"initialize took {waited:.2f}s"
        assert d.result("quotes/random")["content"]
        assert "initialize replied before the products database listened" in d.stderr_text()


@pytest.mark.timeout_s(120)
def test_server_stopped_and_started_mid_run(spawn, tmp_path):
    """The daemons answer -32020 while the server is down, serve other services,
    and recover by themselves; the listener tells each client to resync."""
    cluster = PostgresCluster().init().start()
    try:
        url = cluster.url(cluster.new_database())
        a, b = postgres(spawn, url), postgres(spawn, url)
        assert a.result("products/list", {"limit": 1})["totalCount"] == DEMO_PRODUCTS
        b.result("products/list", {"limit": 1})
        made = a.result("products/create", {"nameKo": "중단 전", "price": 1})
        assert next_notification(b, 2)["params"] == {"reason": "created", "id": made["id"]}

        cluster.stop("immediate")
        error = assert_error(a.call("products/list", {"limit": 1}), UPSTREAM_UNAVAILABLE)
        assert error["data"]["retryable"] is True
        assert a.result("quotes/random")["content"]

        cluster.start()
        seen = {a: [], b: []}

        def list_again():
            id = a.request("products/list", {"limit": 1})
            resp, before = a.read_until_response(id)
            seen[a].extend(before)
            return resp.get("result")

        page = wait_for(list_again, 30, "products/list again")
        assert page["totalCount"] == DEMO_PRODUCTS + 1
        for d in (a, b):
            # The listener's resync may come before, during or after the polling above.
            deadline = time.monotonic() + 15
            while not any(m["method"] == "products/listUpdated" for m in seen[d]):
                assert time.monotonic() < deadline, f"no resync within 15 s: {short(seen[d])}"
                seen[d].append(next_notification(d, max(0.1, deadline - time.monotonic())))
            assert [m["params"] for m in seen[d] if m["method"] == "products/listUpdated"] == [{"reason": "resync"}], short(seen[d])
        after = b.result("products/create", {"nameKo": "복구 후", "price": 2})
        assert next_notification(a, 2)["params"] == {"reason": "created", "id": after["id"]}
        assert a.result("products/get", {"id": made["id"]}) == made
    finally:
        cluster.destroy()


@pytest.mark.parametrize("catalog_backend", ["postgres"], indirect=True)
def test_a_statement_past_the_timeout_is_retryable_and_the_row_stays_intact(spawn, catalog_backend):
    d = spawn("--upstream-timeout-ms", "300")
    d.initialize()
    before = d.result("products/get", {"id": "1"})
    # Another session holds the row's lock for 3 s: the update waits, then times out.
    with holding(catalog_backend, "SELECT id FROM products WHERE id = 1 FOR UPDATE; SELECT pg_sleep(3)",
                 "products", "RowShareLock"):
        started = time.monotonic()
        error = assert_error(d.call("products/update", {"id": "1", "price": 5}), UPSTREAM_UNAVAILABLE)
        assert error["data"]["retryable"] is True
        assert time.monotonic() - started < 2.5, "the statement timeout did not end the wait"
    assert d.result("products/get", {"id": "1"}) == before
    assert d.result("products/update", {"id": "1", "price": 5})["version"] == before["version"] + 1


@pytest.mark.parametrize("catalog_backend", ["postgres"], indirect=True)
def test_a_deadlock_the_daemon_loses_is_run_again_and_answered_once(spawn, catalog_backend):
    """PostgreSQL ends one transaction of a deadlock (40P01); when it is the
    daemon's, the daemon runs it again from its start, and the client gets one
    success, applied after the other session's change."""
    def psql(sql):
        return catalog_backend.cluster.psql(sql, catalog_backend.database)

    # In this test's own database: an update of product 1 also locks product 2,
    # two seconds after it locked product 1.
    psql("CREATE FUNCTION lock_product_2() RETURNS trigger LANGUAGE plpgsql AS "
         "$$ BEGIN PERFORM pg_sleep(2); PERFORM 1 FROM products WHERE id = 2 FOR UPDATE; RETURN NEW; END $$; "
         "CREATE TRIGGER lock_product_2 BEFORE UPDATE ON products FOR EACH ROW WHEN (NEW.id = 1) "
         "EXECUTE FUNCTION lock_product_2()")
    d = spawn("--upstream-timeout-ms", "10000")
    d.initialize()
    before = d.result("products/get", {"id": "1"})

    def deadlocks():
        return int(psql("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")[0][0])

    deadlocks_before = deadlocks()
    # The other session holds product 2 and, a second later, waits for product 1,
    # which the daemon's update holds; a second after that the update waits for
    # product 2 and closes the cycle. PostgreSQL checks a waiting session once,
    # deadlock_timeout after it began to wait: the daemon's at 1 s finds the
    # cycle, the other's (30 s) never comes, so the daemon's transaction is ended.
    with holding(catalog_backend, "SET LOCAL deadlock_timeout = '30s'; "
                 "UPDATE products SET price = 777 WHERE id = 2; SELECT pg_sleep(1); "
                 "UPDATE products SET price = 777 WHERE id = 1", "products", "RowExclusiveLock") as other:
        updated = d.result("products/update", {"id": "1", "price": 4321}, timeout=30)
    assert other.returncode == 0, other.stderr.read()
    wait_for(lambda: deadlocks() == deadlocks_before + 1, 5, "the deadlock in pg_stat_database")
    assert updated["price"] == 4321 and updated["version"] == before["version"] + 1, updated
    assert d.result("products/get", {"id": "1"}) == updated
    assert d.result("products/get", {"id": "2"})["price"] == 777


@pytest.mark.parametrize("catalog_backend", ["postgres"], indirect=True)
def test_a_transaction_that_loses_every_retry_is_retryable_and_changes_nothing(spawn, catalog_backend):
    def psql(sql):
        return catalog_backend.cluster.psql(sql, catalog_backend.database)

    # In this test's own database: every update of product 3 loses a deadlock,
    # and a sequence (which no rollback undoes) counts the attempts.
    psql("CREATE SEQUENCE attempts; "
         "CREATE FUNCTION always_deadlocked() RETURNS trigger LANGUAGE plpgsql AS "
         "$$ BEGIN PERFORM nextval('attempts'); "
         "RAISE EXCEPTION 'deadlock detected (by the test)' USING ERRCODE = '40P01'; END $$; "
         "CREATE TRIGGER always_deadlocked BEFORE UPDATE ON products FOR EACH ROW WHEN (NEW.id = 3) "
         "EXECUTE FUNCTION always_deadlocked()")
    d = spawn()
    d.initialize()
    before = d.result("products/get", {"id": "3"})
    error = assert_error(d.call("products/update", {"id": "3", "price": 5}), UPSTREAM_UNAVAILABLE)
    assert error["data"]["retryable"] is True, error
    assert "deadlock" in error["data"]["reason"], error
    assert psql("SELECT last_value FROM attempts")[0][0] == "6", "one attempt and five retries"
    assert d.result("products/get", {"id": "3"}) == before
    assert d.result("products/update", {"id": "4", "price": 5})["price"] == 5, "other rows still update"


@pytest.mark.parametrize("catalog_backend", ["postgres"], indirect=True)
def test_a_search_that_waits_holds_up_neither_a_get_nor_a_page(spawn, catalog_backend):
    """Searches have a connection of their own: while one waits (here on a lock
    another session holds on catalog_changes, which it reads), gets and pages
    without a query are answered at once."""
    d = spawn("--upstream-timeout-ms", "5000")
    d.initialize()
    d.result("products/get", {"id": "1"})
    with holding(catalog_backend, "LOCK TABLE catalog_changes IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(2)",
                 "catalog_changes", "AccessExclusiveLock"):
        started = time.monotonic()
        search = d.request("products/list", {"query": "우유"})
        for k in range(1, 6):
            assert d.result("products/get", {"id": str(k)})["id"] == str(k)
            assert d.result("products/list", {"limit": 5})["totalCount"] == DEMO_PRODUCTS
        assert time.monotonic() - started < 1.0, "the reads waited behind the search"
        resp, _ = d.read_until_response(search, timeout=10)
        assert assert_result(resp, search)["totalCount"] > 0
        assert time.monotonic() - started > 1.0, "the search did not wait for the lock"


@pytest.mark.timeout_s(120)
@pytest.mark.parametrize("catalog_backend", ["postgres"], indirect=True)
def test_a_search_count_stays_exact_through_every_kind_of_change(spawn, catalog_backend, tmp_path):
    """A search's count, once counted, is brought up to date from the change
    log (the rows its snapshot did not see) instead of counted again. Checked
    against the database's own count after changes by this daemon, another
    daemon and psql: creates, renames in and out, supplier moves, deletes, a
    transaction running while the count was taken, a rollback, a bulk seed
    and a TRUNCATE (neither logged: counted again)."""
    def psql(sql):
        return catalog_backend.cluster.psql(sql, catalog_backend.database)

    a, b = spawn(), spawn()
    for d in (a, b):
        d.initialize()
    s1, s2 = (s["id"] for s in a.result("suppliers/list", {})["items"][:2])
    query = "셈하는 물건"

    def truth(supplier=None):
        where = f" AND supplier_id = {int(supplier)}" if supplier else ""
        return int(psql(f"SELECT count(*) FROM products WHERE search_text LIKE '%{query}%'{where}")[0][0])

    def counted(supplier=None):
        params = {"query": query, "limit": 1} | ({"supplierId": supplier} if supplier else {})
        return a.result("products/list", params)["totalCount"]

    def check(what):
        for supplier in (None, s1, s2):
            assert counted(supplier) == truth(supplier), f"after {what}, supplier {supplier}"

    check("nothing")
    made = [b.result("products/create", {"nameKo": f"{query} {k}", "price": k, "supplierId": s1})["id"]
            for k in range(3)]
    a.result("products/create", {"nameKo": "다른 물건", "price": 1})
    check("creates by both daemons")
    b.result("products/update", {"id": made[0], "nameKo": "이름이 바뀐 것"})
    check("a rename out of the search")
    b.result("products/update", {"id": "1", "nameKo": f"{query} 새 이름"})
    check("a rename into the search")
    b.result("products/update", {"id": made[1], "supplierId": s2})
    check("a move to another supplier")
    b.result("products/update", {"id": made[2], "price": 999})
    check("a price change")
    a.result("products/delete", {"id": made[2]})
    check("a delete")
    # A transaction that has inserted when the count is taken and commits after.
    with holding(catalog_backend, f"INSERT INTO products (name_ko, price, created_at, updated_at, search_text) "
                 f"VALUES ('{query} psql', 1, 0, 0, '{query} psql'); SELECT pg_sleep(3)",
                 "products", "RowExclusiveLock"):
        check("an insert not yet committed")
    check("the commit of a transaction running at the count")
    psql(f"BEGIN; INSERT INTO products (name_ko, price, created_at, updated_at, search_text) "
         f"VALUES ('{query}', 1, 0, 0, '{query}'); ROLLBACK")
    check("a rollback")
    assert int(psql("SELECT count(*) FROM catalog_change_log")[0][0]) > 0

    # The count comes from the log: a row inserted with triggers off (so not
    # logged) is not seen after another change; a recount would see it.
    hidden = int(psql("SET session_replication_role = replica; "
                      "INSERT INTO products (name_ko, price, created_at, updated_at, search_text) "
                      f"VALUES ('{query} 몰래', 1, 0, 0, '{query} 몰래') RETURNING id")[0][0])
    b.result("products/create", {"nameKo": "또 다른 물건", "price": 1})
    assert counted() == truth() - 1

    # A bulk seed is not logged: counts are counted again, so the hidden row counts.
    seeded = run_catalogd(["seed", "products", "40", "--database-url", catalog_backend.url,
                           "--data-dir", str(tmp_path / "seed")], env={"HOME": str(tmp_path)}, cwd=tmp_path, timeout=60)
    assert seeded.returncode == 0, seeded.stderr
    check("a bulk seed")
    b.result("products/delete", {"id": str(hidden)})
    check("the delete of a row that was never logged as created")
    psql("TRUNCATE products")
    check("a TRUNCATE")
    assert counted() == 0


@pytest.mark.parametrize("catalog_backend", ["postgres"], indirect=True)
def test_the_change_log_is_pruned_but_never_of_a_running_transaction(spawn, catalog_backend):
    """catalog_log_prune(keep, most) removes the log rows that every snapshot
    taken `keep` ago saw, at most `most`; a daemon prunes after its first
    write (leaving its first mark) and every 30 s of writes after."""
    def psql(sql):
        return catalog_backend.cluster.psql(sql, catalog_backend.database)

    def log_rows():
        return int(psql("SELECT count(*) FROM catalog_change_log")[0][0])

    d = spawn()
    d.initialize()
    for k in range(5):
        d.result("products/create", {"nameKo": f"가지치기 {k}", "price": k})
    wait_for(lambda: psql("SELECT count(*) FROM catalog_log_marks")[0][0] != "0", 5, "the daemon's first prune")
    assert log_rows() >= 5
    # Marks younger than `keep` remove nothing.
    assert psql("SELECT catalog_log_prune('1 hour', 1000)")[0][0] == "0"
    assert log_rows() >= 5
    # A transaction that logged a row and has not committed keeps it (and every later row).
    # It runs 10 s: the prunes below must run while it does, on a loaded machine too.
    with holding(catalog_backend, "UPDATE products SET name_ko = 'x', search_text = 'x' WHERE id = 1; "
                 "SELECT pg_sleep(10)", "products", "RowExclusiveLock"):
        d.result("products/create", {"nameKo": "가지치기 뒤", "price": 1})
        before = log_rows()
        assert psql("SELECT catalog_log_prune('0 seconds', 2)")[0][0] == "2", "at most `most` rows"
        removed = int(psql("SELECT catalog_log_prune('0 seconds', 100000)")[0][0])
        assert removed == before - 2 - 1, "all but the create after the running transaction began"
    assert log_rows() == 1 + 2, "the create and the running transaction's two rows"
    psql("SELECT catalog_log_prune('0 seconds', 100000)")
    assert log_rows() == 0


def test_a_database_url_must_be_postgres(spawn, tmp_path):
    proc = run_catalogd(["--database-url", "mysql://localhost/x", "call", "daemon/status"], env=spawn.env(), cwd=tmp_path)
    assert proc.returncode == 2, proc
    assert b"--database-url" in proc.stderr and b"postgres://" in proc.stderr, proc.stderr
