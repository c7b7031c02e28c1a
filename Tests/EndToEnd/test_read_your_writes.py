"""Reads answered on the thread that read the request (its own read-only
connection, no hand-off) still see every write acknowledged before they were
sent: by the same client, by another client of the same daemon, and by
another daemon on the same catalog file."""

from __future__ import annotations

import pytest

from catalogd_e2e import assert_product

pytestmark = pytest.mark.both_catalogs


def test_a_get_and_a_page_sent_after_a_write_was_acknowledged_see_it(daemon):
    product = daemon.result("products/create", {"nameKo": "읽기 확인", "price": 1})
    for price in range(2, 152):
        daemon.result("products/update", {"id": product["id"], "price": price})
        assert_product(daemon.result("products/get", {"id": product["id"]}), price=price)
        top = daemon.result("products/list", {"limit": 1, "sort": "newest"})["items"][0]
        assert top["id"] == product["id"] and top["price"] == price
    daemon.result("products/delete", {"id": product["id"]})
    resp = daemon.call("products/get", {"id": product["id"]})
    assert resp["error"]["code"] == -32001


def test_another_daemons_acknowledged_writes_are_seen_by_the_next_read(spawn, tmp_path):
    data = tmp_path / "shared"
    writer, reader = spawn(data_dir=data), spawn(data_dir=data)
    writer.initialize()
    reader.initialize()
    before = reader.result("products/list", {"limit": 1})["totalCount"]
    for n in range(1, 101):
        made = writer.result("products/create", {"nameKo": f"다른 데몬 {n}", "price": n})
        assert reader.result("products/get", {"id": made["id"]})["nameKo"] == f"다른 데몬 {n}"
        page = reader.result("products/list", {"limit": 1, "sort": "newest"})
        assert page["totalCount"] == before + n and page["items"][0]["id"] == made["id"]


def test_pipelined_reads_after_an_acknowledged_write_each_see_it(daemon):
    product = daemon.result("products/create", {"nameKo": "파이프라인", "price": 10})
    daemon.result("products/update", {"id": product["id"], "price": 20})
    ids = [daemon.request("products/get", {"id": product["id"]}) for _ in range(200)]
    replies, _ = daemon.read_responses(ids)
    assert {replies[repr(i)]["result"]["price"] for i in ids} == {20}
