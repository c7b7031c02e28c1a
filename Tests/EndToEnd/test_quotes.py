"""Quotes, embedded backend: the built-in corpus
(Sources/Services/Quotes/Corpus/quotes.json), filters, paging, no repeats,
and `quotes/loading` notifications written before the response."""

from __future__ import annotations

import collections

import pytest

from catalogd_e2e import (
    ABSENT,
    INVALID_PARAMS,
    NOT_FOUND,
    assert_error,
    assert_result,
    is_notification,
    load_corpus,
    short,
)

CORPUS = load_corpus()
BY_CONTENT = {q["content"]: q for q in CORPUS}
QUOTE_KEYS = {"id", "content", "author", "tags", "length"}


def check_quote(q: dict) -> dict:
    assert isinstance(q, dict) and set(q) == QUOTE_KEYS, f"a Quote is {{id, content, author, tags, length}}: {short(q)}"
    assert isinstance(q["id"], str) and q["id"], q
    assert isinstance(q["tags"], list) and all(isinstance(t, str) for t in q["tags"]), q
    assert type(q["length"]) is int and q["length"] == len(q["content"]), q
    source = BY_CONTENT.get(q["content"])
    assert source is not None, f"not a corpus quote: {short(q)}"
    assert q["author"] == source["author"] and q["tags"] == source["tags"], (q, source)
    return q


def random_quote(d, params=None, id="r"):
    """quotes/random: (quote, notifications written before the response)."""
    d.request("quotes/random", {} if params is None else params, id=id)
    resp, before = d.read_until_response(id)
    return resp, before


def loading_sequence(messages) -> list:
    return [m["params"] for m in messages if is_notification(m, "quotes/loading")]


def test_random_returns_a_corpus_quote(daemon):
    resp, _ = random_quote(daemon)
    check_quote(assert_result(resp, "r"))


def test_random_with_params_absent_or_null(daemon):
    daemon.send_raw(daemon.frame(b'{"jsonrpc":"2.0","id":1,"method":"quotes/random"}'))
    resp, _ = daemon.read_until_response(1)
    check_quote(assert_result(resp, 1))
    daemon.send_raw(daemon.frame(b'{"jsonrpc":"2.0","id":2,"method":"quotes/random","params":null}'))
    resp, _ = daemon.read_until_response(2)
    check_quote(assert_result(resp, 2))


def test_ids_are_stable(daemon):
    ids = collections.defaultdict(set)
    for i in range(40):
        resp, _ = random_quote(daemon, {"author": "Confucius"}, id=i)
        q = check_quote(assert_result(resp, i))
        ids[q["content"]].add(q["id"])
    assert all(len(v) == 1 for v in ids.values()), "one quote, one id"


def test_loading_true_then_false_both_before_the_response(daemon):
    for i in range(10):
        resp, before = random_quote(daemon, id=f"l{i}")
        assert_result(resp, f"l{i}")
        assert loading_sequence(before) == [{"isLoading": True}, {"isLoading": False}], (
            f"expected quotes/loading true then false before the response, got {short(before)}"
        )
        assert all(is_notification(m, "quotes/loading") for m in before), short(before)


def test_loading_is_the_refresh_buttons_a_list_page_sends_none(daemon):
    daemon.request("quotes/list", {"limit": 5}, id="list")
    resp, before = daemon.read_until_response("list")
    assert_result(resp, "list")
    assert loading_sequence(before) == [], "quotes/list must not disable the refresh button"
    resp, before = random_quote(daemon, id="after")
    assert_result(resp, "after")
    assert loading_sequence(before) == [{"isLoading": True}, {"isLoading": False}]


def test_never_the_same_quote_twice_in_a_row(daemon):
    author = "Laozi"
    assert sum(q["author"] == author for q in CORPUS) >= 2
    previous = None
    seen = set()
    for i in range(200):
        resp, _ = random_quote(daemon, {"author": author}, id=i)
        q = check_quote(assert_result(resp, i))
        assert q["author"] == author
        assert q["id"] != previous, f"call {i} repeated the previous quote {q['id']}"
        previous = q["id"]
        seen.add(q["id"])
    assert len(seen) >= 5, f"200 random picks among {sum(q['author'] == author for q in CORPUS)} quotes gave only {len(seen)} distinct"


def test_two_matches_alternate(daemon):
    tag = "happiness"
    matching = [q for q in CORPUS if tag in q["tags"]]
    assert len(matching) == 2
    got = []
    for i in range(20):
        resp, _ = random_quote(daemon, {"tags": [tag]}, id=i)
        got.append(check_quote(assert_result(resp, i))["content"])
    assert set(got) == {q["content"] for q in matching}
    assert all(a != b for a, b in zip(got, got[1:])), got


def test_a_single_match_is_returned_every_time(daemon):
    tag = "science"
    matching = [q for q in CORPUS if tag in q["tags"]]
    assert len(matching) == 1
    for i in range(3):
        resp, _ = random_quote(daemon, {"tags": [tag]}, id=i)
        assert check_quote(assert_result(resp, i))["content"] == matching[0]["content"]


def test_tags_filter_requires_all_tags(daemon):
    tags = ["famous-quotes", "wisdom"]
    expected = {q["content"] for q in CORPUS if all(t in q["tags"] for t in tags)}
    if not expected:
        tags = ["famous-quotes", "inspirational"]
        expected = {q["content"] for q in CORPUS if all(t in q["tags"] for t in tags)}
    assert expected
    for i in range(20):
        resp, _ = random_quote(daemon, {"tags": tags}, id=i)
        q = check_quote(assert_result(resp, i))
        assert q["content"] in expected, f"{q} lacks one of {tags}"


def test_author_filter(daemon):
    for i in range(10):
        resp, _ = random_quote(daemon, {"author": "Albert Einstein"}, id=i)
        assert check_quote(assert_result(resp, i))["author"] == "Albert Einstein"


@pytest.mark.parametrize("author", ["albert einstein", "ALBERT EINSTEIN", "albert-einstein"])
def test_author_filter_accepts_slug_and_any_case(daemon, author):
    """openrpc.json: author is a name or slug, case-insensitive."""
    for i in range(3):
        resp, _ = random_quote(daemon, {"author": author}, id=i)
        assert check_quote(assert_result(resp, i))["author"] == "Albert Einstein"
    result = list_page(daemon, {"author": author, "limit": 100})
    assert len(result["items"]) == sum(q["author"] == "Albert Einstein" for q in CORPUS)


def test_length_filters_are_inclusive(daemon):
    for i in range(10):
        resp, _ = random_quote(daemon, {"minLength": 250}, id=f"min{i}")
        assert check_quote(assert_result(resp, f"min{i}"))["length"] >= 250
        resp, _ = random_quote(daemon, {"maxLength": 30}, id=f"max{i}")
        assert check_quote(assert_result(resp, f"max{i}"))["length"] <= 30
    exact = collections.Counter(q["length"] for q in CORPUS).most_common(1)[0][0]
    for i in range(5):
        resp, _ = random_quote(daemon, {"minLength": exact, "maxLength": exact}, id=f"eq{i}")
        assert check_quote(assert_result(resp, f"eq{i}"))["length"] == exact
    longest = max(q["length"] for q in CORPUS)
    resp, _ = random_quote(daemon, {"minLength": longest}, id="longest")
    assert check_quote(assert_result(resp, "longest"))["length"] == longest


def test_combined_filters(daemon):
    params = {"author": "Confucius", "tags": ["famous-quotes"], "maxLength": 80}
    expected = {
        q["content"]
        for q in CORPUS
        if q["author"] == "Confucius" and "famous-quotes" in q["tags"] and q["length"] <= 80
    }
    assert expected
    for i in range(10):
        resp, _ = random_quote(daemon, params, id=i)
        assert check_quote(assert_result(resp, i))["content"] in expected


@pytest.mark.parametrize(
    "params",
    [
        {"author": "Nobody In The Corpus"},
        {"tags": ["no-such-tag"]},
        {"minLength": 100000},
        {"tags": ["happiness", "technology"]},
    ],
    ids=["author", "tag", "length", "tag-combination"],
)
def test_no_match_is_not_found(daemon, params):
    resp, before = random_quote(daemon, params, id="none")
    assert_error(resp, NOT_FOUND, id="none")
    loading = loading_sequence(before)
    assert loading in ([], [{"isLoading": True}, {"isLoading": False}]), (
        f"if loading started it must end before the error response: {short(before)}"
    )


@pytest.mark.parametrize(
    "method,params,field",
    [
        ("quotes/random", {"tags": "x"}, "tags"),
        ("quotes/random", {"tags": ["ok", 1]}, "tags[1]"),
        ("quotes/random", {"minLength": -1}, "minLength"),
        ("quotes/random", {"maxLength": "a"}, "maxLength"),
        ("quotes/random", {"author": 5}, "author"),
        ("quotes/random", {"minLength": 100001}, "minLength"),
        ("quotes/random", {"minLength": 1.5}, "minLength"),
        ("quotes/list", {"limit": 0}, "limit"),
        ("quotes/list", {"limit": 101}, "limit"),
        ("quotes/list", {"limit": "10"}, "limit"),
        ("quotes/list", {"page": 0}, "page"),
        ("quotes/list", {"page": -3}, "page"),
        ("quotes/list", {"tags": "a"}, "tags"),
        ("quotes/list", {"tags": ["a", 1]}, "tags[1]"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_invalid_params(daemon, method, params, field):
    resp = daemon.call(method, params, id="bad")
    err = assert_error(resp, INVALID_PARAMS, id="bad", data={"field": field, "reason": ABSENT})
    assert isinstance(err["data"]["reason"], str) and err["data"]["reason"]
    assert not any(is_notification(m, "quotes/loading") for m in daemon.unclaimed), "no fetch for invalid params"


def list_page(d, params, id="p"):
    return assert_result(d.call("quotes/list", params, id=id), id)


def test_list_pages_through_the_whole_corpus(daemon):
    seen = []
    page = 1
    while True:
        result = list_page(daemon, {"page": page, "limit": 37}, id=f"page{page}")
        assert set(result) == {"items", "page", "nextPage"}, short(result)
        assert result["page"] == page
        for q in result["items"]:
            check_quote(q)
        seen.extend(q["id"] for q in result["items"])
        if result["nextPage"] is None:
            break
        assert result["nextPage"] == page + 1
        assert len(result["items"]) == 37
        page += 1
        assert page < 100
    assert len(seen) == len(CORPUS) == len(set(seen)), "every quote exactly once"
    assert page == -(-len(CORPUS) // 37)


def test_list_page_boundaries(daemon):
    assert len(CORPUS) == 500
    first = list_page(daemon, {"page": 1, "limit": 100})
    assert len(first["items"]) == 100 and first["nextPage"] == 2 and first["page"] == 1
    last = list_page(daemon, {"page": 5, "limit": 100})
    assert len(last["items"]) == 100 and last["nextPage"] is None
    beyond = list_page(daemon, {"page": 6, "limit": 100})
    assert beyond["items"] == [] and beyond["nextPage"] is None and beyond["page"] == 6
    again = list_page(daemon, {"page": 1, "limit": 100})
    assert [q["id"] for q in again["items"]] == [q["id"] for q in first["items"]], "paging order is stable"


def test_list_defaults(daemon):
    result = list_page(daemon, {})
    # openrpc.json: limit defaults to 20.
    assert result["page"] == 1 and len(result["items"]) == 20 and result["nextPage"] == 2
    daemon.send_raw(daemon.frame(b'{"jsonrpc":"2.0","id":"np","method":"quotes/list"}'))
    resp, _ = daemon.read_until_response("np")
    assert assert_result(resp, "np")["page"] == 1


def test_a_misspelt_filter_is_refused_with_the_name_meant(daemon):
    # quotes/random has always taken tags; quotes/list took tag, and ignored tags.
    resp = daemon.call("quotes/list", {"tag": "wisdom"}, id="t")
    err = assert_error(resp, INVALID_PARAMS, id="t", data={"field": "tag", "reason": "unknown parameter", "expected": ["page", "limit", "author", "tags"], "suggestion": "tags"})
    assert err["message"] == "Unknown parameter tag; did you mean tags?"


def test_list_filters(daemon):
    result = list_page(daemon, {"author": "Confucius", "limit": 100})
    assert sorted(q["content"] for q in result["items"]) == sorted(q["content"] for q in CORPUS if q["author"] == "Confucius")
    assert result["nextPage"] is None
    result = list_page(daemon, {"tags": ["happiness"], "limit": 100})
    assert sorted(q["content"] for q in result["items"]) == sorted(q["content"] for q in CORPUS if "happiness" in q["tags"])
    result = list_page(daemon, {"tags": ["famous-quotes", "wisdom"], "limit": 100})
    both = sorted(q["content"] for q in CORPUS if {"famous-quotes", "wisdom"} <= set(q["tags"]))
    assert both and sorted(q["content"] for q in result["items"]) == both
    result = list_page(daemon, {"author": "Nobody In The Corpus"})
    assert result["items"] == [] and result["nextPage"] is None


def test_list_with_limit_equal_to_matches_has_no_next_page(daemon):
    count = sum(q["author"] == "Confucius" for q in CORPUS)
    result = list_page(daemon, {"author": "Confucius", "limit": count})
    assert len(result["items"]) == count and result["nextPage"] is None


def test_empty_tags_filter_is_no_filter(daemon):
    resp, _ = random_quote(daemon, {"tags": []}, id="t")
    check_quote(assert_result(resp, "t"))
