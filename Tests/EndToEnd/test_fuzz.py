"""Seeded fuzzing through one daemon per framing: mutated requests always get
a well-formed reply (or none, for what became a notification) and never
desynchronise the stream; random JSON values round-trip through `daemon/echo`."""

from __future__ import annotations

import collections
import json
import math
import os
import random
import re

import pytest

from catalogd_e2e import assert_result, dumps, request_obj, same_id, short, strict_equal

SEEDS = [
    request_obj("daemon/echo", {"a": [1, 2.5, "x\u00e9", None, True], "b": {"c": -3e-7}}, "s1"),
    request_obj("daemon/echo", ["plain", 9007199254740993], 42),
    request_obj("daemon/status", {}, "s3"),
    request_obj("quotes/list", {"page": 2, "limit": 5, "author": "Confucius"}, "s4"),
    request_obj("quotes/random", {"tags": ["wisdom"], "maxLength": 120}, "s5"),
    [request_obj("daemon/echo", [1], "b1"), request_obj("daemon/echo", [2]), request_obj("nope", {}, "b3")],
]

CASES_PER_CHUNK = int(os.environ.get("CATALOGD_FUZZ_CASES", "150"))
"""Mutated messages per chunk (4 chunks per framing); raise it for a longer hunt."""

ALPHABET = b'{}[]":,0123456789.-+eEtrufalsn \\/u\x00\x7f\xff\xc3\xa9'


def mutate(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        i = rng.randrange(len(b) + 1) if b else 0
        if op == 0 and b:  # flip a byte
            b[min(i, len(b) - 1)] = rng.randrange(256)
        elif op == 1:  # insert a byte that matters to JSON
            b[i:i] = bytes([rng.choice(ALPHABET)])
        elif op == 2 and b:  # delete a run
            del b[i : i + rng.randint(1, 8)]
        elif op == 3:  # truncate
            del b[i:]
        else:  # duplicate a run
            j = rng.randrange(len(b) + 1) if b else 0
            b[i:i] = b[j : j + rng.randint(1, 12)]
    return bytes(b)


def well_formed_reply(msg) -> bool:
    if isinstance(msg, list):
        return bool(msg) and all(well_formed_reply(m) for m in msg)
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or "id" not in msg:
        return False
    if set(msg) == {"jsonrpc", "id", "result"}:
        return True
    if set(msg) != {"jsonrpc", "id", "error"}:
        return False
    err = msg["error"]
    return isinstance(err, dict) and type(err.get("code")) is int and isinstance(err.get("message"), str)


@pytest.fixture(scope="module")
def fuzz_daemons(shared_daemon_factory):
    return {"lsp": shared_daemon_factory("lsp"), "ndjson": shared_daemon_factory("ndjson")}


def with_case_ids(seed, n: int):
    """The seed with ids unique to case n, so every reply can be attributed."""
    if isinstance(seed, list):
        return [with_case_ids(m, 5_000_000 + n * 10 + k) for k, m in enumerate(seed)]
    seed = dict(seed)
    if "id" in seed:
        seed["id"] = f"case-{n:07d}-id"
    return seed


@pytest.mark.timeout_s(120)
@pytest.mark.parametrize("framing_", ["lsp", "ndjson"])
@pytest.mark.parametrize("chunk", range(4))
def test_mutated_requests(fuzz_daemons, framing_, chunk):
    d = fuzz_daemons[framing_].get()
    rng = random.Random(f"{framing_}-{chunk}")
    replies_per_id: dict[str, list] = {}
    sent_ids: collections.Counter = collections.Counter()
    for n in range(CASES_PER_CHUNK):
        case = chunk * 100000 + n
        body = mutate(rng, dumps(with_case_ids(rng.choice(SEEDS), case)))
        if framing_ == "ndjson":
            body = body.replace(b"\n", b" ").replace(b"\r", b" ")
            if not body.strip():
                continue
        sent_ids.update(repr(m.decode()) for m in re.findall(rb"case-[0-9]{7}-id", body))
        probe = f"probe-{case}"
        d.send_raw(d.frame(body) + d.frame(dumps(request_obj("daemon/echo", [n], probe))))
        frame, others = d.read_until(lambda m, probe=probe: isinstance(m, dict) and m.get("id") == probe, timeout=10)
        context = f"case {case}: sent {body!r}"
        assert_result(frame.obj, probe, [n])
        null_id_errors = 0
        for m in others:
            if isinstance(m, dict) and "method" in m and "id" not in m:
                continue  # a notification (quotes/loading)
            assert well_formed_reply(m), f"{context}: malformed reply {short(m)}"
            for r in m if isinstance(m, list) else [m]:
                if r["id"] is None:
                    assert r["error"]["code"] in (-32700, -32600), f"{context}: {short(r)}"
                    null_id_errors += isinstance(m, dict)
                else:
                    replies_per_id.setdefault(repr(r["id"]), []).append((context, r))
        # The parse error or invalid request of this very message comes before the probe's reply.
        assert null_id_errors <= 1, f"{context}: {null_id_errors} errors with id null: {short(others)}"
    # Drain: whatever is still running finishes, then every id has had at most one reply.
    last = d.call("daemon/sleep", {"ms": 200}, id="drain")
    assert_result(last, "drain", {"slept": 200})
    for m in d.unclaimed:
        for r in m if isinstance(m, list) else [m]:
            if isinstance(r, dict) and "id" in r and r["id"] is not None and "method" not in r:
                replies_per_id.setdefault(repr(r["id"]), []).append(("drained", r))
    d.unclaimed.clear()
    # An id may be answered as often as it was sent (mutations can duplicate or forge ids).
    twice = {
        k: v
        for k, v in replies_per_id.items()
        if re.fullmatch(r"'case-[0-9]{7}-id'", k) and len(v) > max(sent_ids[k], 1)
    }
    assert not twice, f"ids answered more often than sent: {short(twice, 3000)}"
    d.echo_ok()


def random_value(rng: random.Random, depth: int = 0):
    kinds = ["str", "int", "float", "bool", "null"] + (["list", "dict"] * 2 if depth < 6 else [])
    kind = rng.choice(kinds)
    if kind == "str":
        pool = "ab\u00e9\u4e2d\U0001F600\"\\/\b\f\n\r\t\u0000\u001f\u007f\u2028\u2029\ufeff\uffff "
        return "".join(rng.choice(pool) for _ in range(rng.randint(0, 12)))
    if kind == "int":
        return rng.choice([0, -1, 1, 2**31, -(2**53) - 1, 2**63 - 1, 2**64, rng.randint(-10**6, 10**6)])
    if kind == "float":
        return rng.choice([0.5, -0.0, 1e-300, 1.7976931348623157e308, 5e-324, 0.1, rng.uniform(-1e6, 1e6)])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    return {f"k{i}{rng.choice(KEY_SUFFIXES)}": random_value(rng, depth + 1) for i in range(rng.randint(0, 5))}


KEY_SUFFIXES = ["", "\u00e9", " ", '"', "\\", "\n"]


def same_json(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return strict_equal(a, b)


@pytest.mark.parametrize("framing_", ["lsp", "ndjson"])
def test_random_values_round_trip_through_echo(fuzz_daemons, framing_):
    d = fuzz_daemons[framing_].get()
    rng = random.Random(f"values-{framing_}")
    for n in range(300):
        value = random_value(rng)
        params = [value]
        resp = d.call("daemon/echo", params, id=f"v{n}")
        sent = json.loads(dumps(params))
        assert same_id(resp.get("id"), f"v{n}"), short(resp)
        assert "result" in resp and same_json(resp["result"], sent), f"sent {short(sent)}\ngot {short(resp)}"
