"""The products service through the typed methods (skipped while the daemon
under test does not serve it)."""

from __future__ import annotations

from typing import Any, List

import pytest
from client_support import run

from catalogd import (
    AsyncClient,
    Conflict,
    Deleted,
    InvalidParams,
    NotFound,
    Product,
    ProductPage,
    ProductsChanged,
    ProductsListUpdated,
    SupplierList,
)


@pytest.fixture
def products(client):
    served = {m["name"] for m in client.rpc_discover()["methods"]}
    if "products/create" not in served:
        pytest.skip("the daemon under test does not serve products yet")
    return client


def test_create_get_update_delete(products):
    c = products
    events: List[Any] = []
    c.on_products_list_updated(events.append)
    c.on_products_changed(events.append)

    created = c.products_create(name_ko="테스트 사과", price=1200)
    assert isinstance(created, Product)
    assert created.name_ko == "테스트 사과" and created.name_en is None and created.price == 1200
    assert created.supplier is None and created.version >= 1
    assert events == [ProductsListUpdated(reason="created", id=created.id)]
    assert c.products_get(id=created.id) == created

    supplier = c.suppliers_list().items[0]
    updated = c.products_update(
        id=created.id, name_en="Test apple", supplier_id=supplier.id, expected_version=created.version
    )
    assert updated.name_en == "Test apple" and updated.supplier == supplier
    assert updated.version == created.version + 1
    assert events[1:] == [ProductsListUpdated(reason="updated", id=created.id), ProductsChanged(product=updated)]

    cleared = c.products_update(id=created.id, name_en=None, supplier_id=None)  # None sends null: clear
    assert cleared.name_en is None and cleared.supplier is None
    kept = c.products_update(id=created.id, price=1300)  # fields left out stay as they are
    assert kept.name_ko == "테스트 사과" and kept.price == 1300

    with pytest.raises(Conflict) as e:
        c.products_update(id=created.id, price=1, expected_version=created.version)
    assert e.value.data["currentVersion"] == kept.version

    assert c.products_delete(id=created.id) == Deleted(id=created.id)
    assert events[-1] == ProductsListUpdated(reason="deleted", id=created.id)
    with pytest.raises(NotFound) as nf:
        c.products_get(id=created.id)
    assert nf.value.data == {"resource": "product", "id": created.id}


def test_list_pages_with_cursors(products):
    c = products
    first = c.products_list(limit=5, sort="priceAsc")
    assert isinstance(first, ProductPage) and len(first.items) == 5
    assert first.next_cursor and first.total_count >= 5
    prices = [p.price for p in first.items]
    assert prices == sorted(prices)
    second = c.products_list(limit=5, sort="priceAsc", cursor=first.next_cursor)
    assert not {p.id for p in first.items} & {p.id for p in second.items}
    assert second.items[0].price >= prices[-1]
    with pytest.raises(InvalidParams) as e:
        c.products_list(limit=0)
    assert e.value.field == "limit"


def test_suppliers(products):
    suppliers = products.suppliers_list()
    assert isinstance(suppliers, SupplierList) and suppliers.items
    assert all(s.id and s.name for s in suppliers.items)


def test_async_products(daemons):
    async def main() -> None:
        async with daemons(cls=AsyncClient) as c:
            served = {m["name"] for m in (await c.rpc_discover())["methods"]}
            if "products/create" not in served:
                pytest.skip("the daemon under test does not serve products yet")
            stream = c.notifications("products/listUpdated")
            p = await c.products_create(name_ko="비동기", price=1)
            assert (await stream.get(timeout=5)).params == {"reason": "created", "id": p.id}
            await c.products_delete(id=p.id)
            assert (await stream.get(timeout=5)).params == {"reason": "deleted", "id": p.id}

    run(main())
