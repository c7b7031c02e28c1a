"""A tour of catalogd from Python: one section per service.

    python3 -m catalogd.examples.tour [--bin PATH] [--framing lsp] [-- DAEMON ARGS...]

Each section names the methods it needs; the tour asks the daemon what it
serves (`rpc.discover`) and skips the sections it cannot run, so it works
against every version of the daemon. Unless the daemon's arguments name a
`--data-dir`, the tour runs on a temporary one and leaves your data alone.

To add a service once the daemon serves it: write `tour_<service>(client)`
and point its `Section` in `SECTIONS` at it.
"""

from __future__ import annotations

import tempfile
import textwrap
from dataclasses import dataclass
from typing import Callable, List, Optional, Sequence, Set

from .. import (
    Client,
    Conflict,
    InvalidParams,
    MethodNotFound,
    NotFound,
    Product,
    Quote,
    RequestTimeout,
)
from ._common import daemon_binary, parser, split_daemon_args


def say(text: str = "", indent: int = 2) -> None:
    print(textwrap.indent(text, " " * indent) if text else "", flush=True)


def show_quote(q: Quote, indent: int = 4) -> None:
    body = textwrap.fill(f"“{q.content}”", width=76)
    say(f"{body}\n    — {q.author}  [{', '.join(q.tags)}]", indent)


# ---------------------------------------------------------------- daemon


def tour_daemon(client: Client) -> None:
    info = client.initialize_result
    assert info is not None
    say(f"{info.server_info.name} {info.server_info.version}, client id {info.client_id}")
    for name, service in sorted(info.capabilities.services.items()):
        say(f"service {name}: {service.backend} backend, {len(service.methods)} methods")
    status = client.daemon_status()
    say(f"data dir {status.data_dir}; up {status.uptime_seconds:.3f} s; {status.requests.received} requests so far")

    big = {"big": 9007199254740993, "text": "한국어 ✓"}
    say(f"daemon/echo keeps big integers and text intact: {client.daemon_echo(big) == big}")

    try:
        client.daemon_sleep(ms=10_000, timeout=0.2)
    except RequestTimeout as e:
        say(f"a 10 s daemon/sleep with a 0.2 s timeout: {e}")

    try:
        client.request("nope/nothing")
    except MethodNotFound as e:
        say(f"an unknown method: MethodNotFound {e.code}, {e.message!r}, data {e.data}")


# ---------------------------------------------------------------- quotes


def tour_quotes(client: Client) -> None:
    states: List[bool] = []
    dispose = client.on_quotes_loading(lambda n: states.append(n.is_loading))

    say("quotes/random, tags wisdom:")
    show_quote(client.quotes_random(tags=["wisdom"]))
    say(f"quotes/loading while it ran (the refresh button's state): {states}")
    dispose()

    say("quotes/random by author, at most 80 characters:")
    show_quote(client.quotes_random(author="albert-einstein", max_length=80))

    page = client.quotes_list(tags=["technology"], limit=3)
    say(f"quotes/list tag technology, page {page.page} (next page: {page.next_page}):")
    for q in page.items:
        show_quote(q)

    try:
        client.quotes_random(author="nobody-at-all")
    except NotFound as e:
        say(f"no match: NotFound, data {e.data}")
    try:
        client.quotes_list(limit=1000)
    except InvalidParams as e:
        say(f"a bad limit: InvalidParams on field {e.field!r}: {e.data.get('reason')}")


# ---------------------------------------------------------------- products


def show_product(p: Product) -> str:
    name = p.name_ko + (f" ({p.name_en})" if p.name_en else "")
    supplier = p.supplier.name if p.supplier else "no supplier"
    return f"#{p.id} {name}: {p.price:,} won, {supplier}, version {p.version}"


def tour_products(client: Client) -> None:
    page = client.products_list(limit=3, sort="priceDesc")
    say(f"products/list, the dearest 3 of {page.total_count}:")
    for p in page.items:
        say(show_product(p), 4)
    if page.next_cursor:
        more = client.products_list(limit=3, sort="priceDesc", cursor=page.next_cursor)
        say(f"the next page, by cursor: {', '.join('#' + p.id for p in more.items)}")
    suppliers = client.suppliers_list().items
    say(f"suppliers/list: {len(suppliers)} suppliers, e.g. {', '.join(s.name for s in suppliers[:3])}")

    assert client.initialize_result is not None
    backend = client.initialize_result.capabilities.services["products"].backend
    if backend != "embedded":
        say(f"the {backend} backend is in use: the tour does not change its catalog")
        return

    events: List[str] = []
    client.on_products_list_updated(lambda n: events.append(f"listUpdated {n.reason} #{n.id}"))
    client.on_products_changed(lambda n: events.append(f"changed → version {n.product.version}"))

    made = client.products_create(name_ko="여행용 보온병", name_en="Travel flask", price=18_900)
    say(f"products/create: {show_product(made)}")
    changed = client.products_update(
        id=made.id, price=15_900, supplier_id=suppliers[0].id if suppliers else None, expected_version=made.version
    )
    say(f"products/update: {show_product(changed)}")
    try:
        client.products_update(id=made.id, price=1, expected_version=made.version)
    except Conflict as e:
        say(f"an update from a stale version: Conflict, current version {e.data['currentVersion']}")
    client.products_delete(id=made.id)
    say(f"products/delete #{made.id}; notifications, in order: {'; '.join(events)}")


# ---------------------------------------------------------------- photos, feeds, places


def tour_photos(client: Client) -> None:
    page = client.photos_list(limit=3)
    for photo in page.items:
        say(f"{photo.id} {photo.width}×{photo.height} by {photo.author or 'unknown'} ({photo.source})", 4)
    image = client.photos_image(id=page.items[0].id)
    say(f"photos/image: {image.content_type}, {image.bytes:,} bytes at {image.path}")


def tour_feeds(client: Client) -> None:
    """A photo feed scrolled to its end, as an infinitely scrolling list does."""
    states: List[str] = []
    pages: List[str] = []
    off_state = client.on_feeds_state_changed(lambda n: states.append(f"{n.state} {n.count}"))
    off_page = client.on_feeds_page_loaded(lambda n: pages.append(f"{n.start}..<{n.end}"))
    feed = client.feeds_open(source="photos", page_size=30)
    while True:
        added = client.feeds_load_more(feed_id=feed.feed_id)
        if added.end_reached:
            break
    first = client.feeds_items(feed_id=feed.feed_id, start=0, end=2)
    client.feeds_close(feed_id=feed.feed_id)
    off_state()
    off_page()
    say(f"feeds/open photos, scrolled to its end: pages {', '.join(pages)}; {added.end} photos")
    say(f"feeds/stateChanged: {', '.join(states)}")
    say(f"feeds/items 0..<2: {', '.join(str(item['id']) for item in first.items)}")


def tour_places(client: Client) -> None:
    categories = client.places_categories().items
    say(f"places/categories: {len(categories)}, e.g. {categories[1].code} {categories[1].name}")
    found = client.places_search(
        category="CS2", x=126.9779692, y=37.566535, radius=1000, sort="distance", size=5
    )
    say(f"convenience stores within 1 km of Seoul City Hall: {found.meta.total_count}, nearest first:")
    for place in found.items:
        say(f"{place.place_name}, {place.distance} m, {place.road_address_name or place.address_name}", 4)
    if found.items:
        again = client.places_get(id=found.items[0].id)
        say(f"places/get {again.id}: {again.place_name}, {again.phone or 'no phone'}")


# ---------------------------------------------------------------- sections


@dataclass
class Section:
    title: str
    requires: Sequence[str]
    """The methods the section calls: it runs only when the daemon serves them all."""
    run: Optional[Callable[[Client], None]]
    """None: the service is announced but this tour has no section for it yet."""


SECTIONS: List[Section] = [
    Section("daemon", ("daemon/status", "daemon/echo", "daemon/sleep"), tour_daemon),
    Section("quotes", ("quotes/random", "quotes/list"), tour_quotes),
    Section("products", ("products/list", "products/create", "products/update", "products/delete",
                         "suppliers/list"), tour_products),
    Section("feeds", ("feeds/open", "feeds/loadMore", "feeds/items", "feeds/close"), tour_feeds),
    Section("photos", ("photos/list", "photos/image"), tour_photos),
    Section("places", ("places/categories", "places/search", "places/get"), tour_places),
]


def run_tour(client: Client, sections: Sequence[Section] = SECTIONS) -> List[str]:
    """Runs the sections the daemon can serve; returns the titles of those that ran."""
    served: Set[str] = {m["name"] for m in client.rpc_discover()["methods"]}
    ran = []
    for section in sections:
        missing = [m for m in section.requires if m not in served]
        print(f"\n== {section.title}", flush=True)
        if missing:
            say(f"skipped: the daemon does not serve {', '.join(missing)} yet")
        elif section.run is None:
            say("served by the daemon; this tour has no section for it yet")
        else:
            section.run(client)
            ran.append(section.title)
    return ran


def main(argv: Optional[List[str]] = None) -> int:
    own, daemon_args = split_daemon_args(argv)
    args = parser(__doc__.splitlines()[0]).parse_args(own)
    binary = daemon_binary(args.bin)
    with tempfile.TemporaryDirectory(prefix="catalogd-tour-") as tmp:
        if "--data-dir" not in daemon_args:
            daemon_args = ["--data-dir", tmp, *daemon_args]
        print(f"catalogd: {binary} {' '.join(daemon_args)}")
        with Client(binary, daemon_args, framing=args.framing) as client:
            ran = run_tour(client)
        print(f"\n{len(ran)} sections ran ({', '.join(ran)}); the daemon exited with status {client.returncode}.")
    return 0 if client.returncode == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
