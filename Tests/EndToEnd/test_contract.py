"""The params, tried from their declaration: a table of bad requests generated
from `openrpc.json` (and checked against the daemon's own `rpc.discover`).

For every method with by-name params, every declared param gets the values its
schema rules out: the wrong type (and a fraction for an integer), below
`minimum` or above `maximum`, longer than `maxLength` or shorter than
`minLength`, outside the `enum`, fewer than `minItems` or more than `maxItems`,
array items that break the item schema (`rect[0]`) and, in objects with
declared properties, the same for each property
(`query.sort`), an unknown member where the object declares
`additionalProperties: false` (`query.noSuchParam`), and into the branches of a
`oneOf` (an array's items where the other branch is a string; an object
branch titled `ProductsFeedQuery` with the sibling `source: "products"`, the
enum value its title starts with). Each bad member goes with valid values for
the method's other required params and must get -32602 naming its path in
`data.field`.

Every method also gets an unknown member (`noSuchParam`: -32602 with `data.reason`
"unknown parameter" and the declared names in `data.expected`) and, for each
param name of four letters or more, the name with one letter dropped (`limt`:
-32602 whose message asks "did you mean limit?").

The table is generated at collection time from the committed document; each
case is regenerated from the document the daemon serves, and must still be
there: the table follows the daemon.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from catalogd_e2e import INVALID_PARAMS, OPENRPC_PATH, assert_error, short

SKIPPED_METHODS = {"initialize", "shutdown", "rpc.discover", "daemon/echo"}
UNKNOWN_MEMBER = "noSuchParam"


# ---------------------------------------------------------------- schemas


def resolve(schema: Any, doc: dict) -> Any:
    """`schema` with its `$ref` (`#/components/schemas/X`) replaced by the schema it names."""
    for _ in range(32):
        if not (isinstance(schema, dict) and "$ref" in schema):
            return schema
        ref = schema["$ref"]
        assert isinstance(ref, str) and ref.startswith("#/"), f"only local $refs are supported, got {ref!r}"
        target: Any = doc
        for part in ref[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    raise AssertionError(f"$ref chain too long at {schema!r}")


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def allowed_types(schema: Any, doc: dict) -> set[str] | None:
    """The JSON types `schema` admits (an integer is a number), or None for any."""
    s = resolve(schema, doc)
    if not isinstance(s, dict):
        return None
    if "const" in s:
        types = {json_type(s["const"])}
    elif "enum" in s:
        types = {json_type(v) for v in s["enum"]}
    elif "type" in s:
        types = set(s["type"]) if isinstance(s["type"], list) else {s["type"]}
    elif "oneOf" in s or "anyOf" in s:
        types = set()
        for branch in s.get("oneOf", []) + s.get("anyOf", []):
            sub = allowed_types(branch, doc)
            if sub is None:
                return None
            types |= sub
    else:
        return None
    if "number" in types:
        types.add("integer")
    return types


WRONG_TYPE_CANDIDATES: list[tuple[Any, str]] = [
    ("x", "string"),
    (1, "integer"),
    (True, "boolean"),
    ({"x": 1}, "object"),
    (["x"], "array"),
]


def wrong_type_value(types: set[str]) -> Any:
    for value, kind in WRONG_TYPE_CANDIDATES:
        if kind not in types:
            return value
    raise AssertionError(f"no wrong type for a schema that admits {sorted(types)}")


def valid_value(schema: Any, doc: dict) -> Any:
    """A value `schema` accepts: the first enum value, `minimum` (else 0) for
    numbers, "x" for strings, the fewest items an array may have, an object with
    its required properties."""
    s = resolve(schema, doc)
    if not isinstance(s, dict):
        return "x"
    if "const" in s:
        return s["const"]
    if "enum" in s:
        return s["enum"][0]
    if "oneOf" in s or "anyOf" in s:
        return valid_value((s.get("oneOf") or s.get("anyOf"))[0], doc)
    t = s.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "null")
    if t in ("integer", "number"):
        low = s.get("minimum", s["exclusiveMinimum"] + 1 if "exclusiveMinimum" in s else 0)
        if "maximum" in s and low > s["maximum"]:
            low = s["maximum"]
        return int(low) if t == "integer" and float(low).is_integer() else low
    if t == "string":
        return "x" * max(1, s.get("minLength", 1))
    if t == "boolean":
        return False
    if t == "null":
        return None
    if t == "array":
        return [valid_value(s.get("items", {"type": "string"}), doc) for _ in range(s.get("minItems", 0))]
    if t == "object":
        props = s.get("properties", {})
        return {k: valid_value(props.get(k, {}), doc) for k in s.get("required", [])}
    return "x"


@dataclass
class Bad:
    """One way to break a schema: `value` is the whole member, `path` names its bad part."""

    kind: str
    path: str
    value: Any
    branch: str | None = None
    """The title of the `oneOf` branch the value is meant for, when branches share a type."""


def bad_values(schema: Any, path: str, doc: dict, wrong_type: bool = True) -> list[Bad]:
    """Every way to break `schema`, for the member at `path`."""
    s = resolve(schema, doc)
    if not isinstance(s, dict):
        return []
    out: list[Bad] = []
    types = allowed_types(s, doc)
    if wrong_type and types is not None:
        out.append(Bad("wrong-type", path, wrong_type_value(types)))
    branches = s.get("oneOf") or s.get("anyOf")
    if branches:
        for i, branch in enumerate(branches):
            b = resolve(branch, doc)
            mine = allowed_types(b, doc)
            others: set[str] | None = set()
            for j, other in enumerate(branches):
                theirs = allowed_types(other, doc) if j != i else set()
                others = None if theirs is None or others is None else others | theirs
            if mine is not None and others is not None and not mine & others:
                # Only this branch admits the value's type: its own bad values are unambiguous.
                out += bad_values(b, path, doc, wrong_type=False)
            elif isinstance(b, dict) and b.get("title"):
                out += [Bad(x.kind, x.path, x.value, x.branch or b["title"])
                        for x in bad_values(b, path, doc, wrong_type=False)]
        return out
    declared = set(s["type"]) if isinstance(s.get("type"), list) else {s.get("type")}
    numeric = bool(declared & {"integer", "number"}) and "enum" not in s
    if "integer" in declared and "number" not in declared and "enum" not in s:
        fraction = valid_value({**s, "type": "integer"}, doc) + 0.5
        if "maximum" in s and fraction > s["maximum"]:
            fraction -= 1
        out.append(Bad("not-an-integer", path, fraction))
    if numeric and "minimum" in s:
        out.append(Bad("below-minimum", path, s["minimum"] - 1))
    if numeric and "exclusiveMinimum" in s:
        out.append(Bad("at-exclusive-minimum", path, s["exclusiveMinimum"]))
    if numeric and "maximum" in s:
        out.append(Bad("above-maximum", path, s["maximum"] + 1))
    if numeric and "exclusiveMaximum" in s:
        out.append(Bad("at-exclusive-maximum", path, s["exclusiveMaximum"]))
    if "string" in declared and "maxLength" in s:
        out.append(Bad("longer-than-maxLength", path, "x" * (s["maxLength"] + 1)))
    if "string" in declared and s.get("minLength", 0) > 0:
        out.append(Bad("shorter-than-minLength", path, "x" * (s["minLength"] - 1)))
    if "enum" in s:
        values = s["enum"]
        if all(isinstance(v, str) for v in values):
            bad = "noSuchValue"
            while bad in values:
                bad += "X"
            out.append(Bad("not-in-enum", path, bad))
        elif all(json_type(v) == "integer" for v in values):
            out.append(Bad("not-in-enum", path, max(values) + 1))
    if "array" in declared:
        base = valid_value({**s, "type": "array"}, doc)
        if "items" in s:
            sample = base or [valid_value(s["items"], doc)]
            for x in bad_values(s["items"], f"{path}[0]", doc):
                out.append(Bad(x.kind, x.path, [x.value, *sample[1:]], x.branch))
        item = valid_value(s.get("items", {"type": "string"}), doc)
        if s.get("minItems", 0) > 0:
            out.append(Bad("too-few-items", path, [item] * (s["minItems"] - 1)))
        if "maxItems" in s:
            out.append(Bad("too-many-items", path, [item] * (s["maxItems"] + 1)))
    if "object" in declared:
        base = valid_value({**s, "type": "object"}, doc)
        for name, sub in s.get("properties", {}).items():
            for x in bad_values(sub, f"{path}.{name}", doc):
                out.append(Bad(x.kind, x.path, {**base, name: x.value}, x.branch))
        if s.get("additionalProperties") is False:
            out.append(Bad("unknown-member", f"{path}.{UNKNOWN_MEMBER}", {**base, UNKNOWN_MEMBER: 1}))
    return out


def branch_selector(title: str, params: list[dict], doc: dict) -> tuple[str, str] | None:
    """The sibling param and value that pick the `oneOf` branch titled `title`:
    a param whose enum holds a value the title starts with (source "products"
    for "ProductsFeedQuery"); None when no param does."""
    best: tuple[str, str] | None = None
    for p in params:
        schema = resolve(p["schema"], doc)
        for v in schema.get("enum", []) if isinstance(schema, dict) else []:
            if isinstance(v, str) and v and title.lower().startswith(v.lower()):
                if best is None or len(v) > len(best[1]):
                    best = (p["name"], v)
    return best


def distance(a: str, b: str) -> int:
    """Levenshtein distance."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def near_miss(name: str, names: list[str]) -> str | None:
    """`name` with its second-to-last letter dropped (`limit` → `limt`), when
    that is nearer to `name` than to every other declared name."""
    miss = name[:-2] + name[-1]
    if miss in names or any(distance(miss, other) <= 1 for other in names if other != name):
        return None
    return miss


# ---------------------------------------------------------------- the table


@dataclass
class Case:
    id: str
    method: str
    params: dict
    field: str
    kind: str
    declared: list[str] | None = field(default_factory=list)
    """For unknown members: the names `data.expected` must list (None: not checked)."""
    suggestion: str | None = None


def contract_cases(doc: dict) -> dict[str, Case]:
    """Every case the document `doc` calls for, by id."""
    cases: dict[str, Case] = {}

    def add(case: Case) -> None:
        assert case.id not in cases, f"two cases with the id {case.id}"
        cases[case.id] = case

    for m in doc["methods"]:
        method = m["name"]
        if method in SKIPPED_METHODS or m.get("paramStructure") != "by-name":
            continue
        params = m.get("params", [])
        names = [p["name"] for p in params]

        def required_except(skip: str | None, params: list = params) -> dict:
            return {p["name"]: valid_value(p["schema"], doc) for p in params if p.get("required") and p["name"] != skip}

        for p in params:
            name = p["name"]
            for bad in bad_values(p["schema"], name, doc):
                base = required_except(name)
                case_id = f"{method}:{bad.path}:{bad.kind}"
                if bad.branch is not None:
                    selector = branch_selector(bad.branch, [q for q in params if q is not p], doc)
                    if selector is None:
                        continue  # no param picks that branch: the value's meaning is ambiguous
                    base[selector[0]] = selector[1]
                    case_id += f":{selector[0]}={selector[1]}"
                add(Case(case_id, method, {**base, name: bad.value}, bad.path, bad.kind,
                         declared=None if "." in bad.path else names))
            miss = near_miss(name, names) if len(name) >= 4 else None
            if miss is not None:
                add(Case(f"{method}:{miss}:near-miss-of-{name}", method,
                         {**required_except(name), miss: valid_value(p["schema"], doc)}, miss, "near-miss",
                         suggestion=name))
        add(Case(f"{method}:{UNKNOWN_MEMBER}:unknown-member", method, {**required_except(None), UNKNOWN_MEMBER: 1},
                 UNKNOWN_MEMBER, "unknown-member", declared=names))
    return cases


with open(OPENRPC_PATH, encoding="utf-8") as _f:
    COMMITTED_CASES = contract_cases(json.load(_f))


# ---------------------------------------------------------------- the test


@pytest.fixture(scope="module")
def contract_daemon(shared_daemon_factory):
    return shared_daemon_factory("lsp")


_SERVED: dict[int, dict[str, Case]] = {}


def served_cases(d) -> dict[str, Case]:
    """The table generated from the document `d` serves (once per daemon process)."""
    if d.pid not in _SERVED:
        _SERVED[d.pid] = contract_cases(d.result("rpc.discover", {}))
    return _SERVED[d.pid]


@pytest.mark.parametrize("case_id", list(COMMITTED_CASES))
def test_a_param_the_declaration_rules_out_is_refused(contract_daemon, case_id):
    d = contract_daemon.get()
    served = served_cases(d)
    assert case_id in served, (
        f"{case_id} comes from the committed openrpc.json but not from the document the daemon serves "
        f"(rpc.discover): the two disagree")
    case = served[case_id]
    resp = d.call(case.method, case.params)
    assert "error" in resp, f"{case.method} {short(case.params)} should be refused with -32602, got {short(resp)}"
    err = assert_error(resp, INVALID_PARAMS, data={"field": case.field})
    data = err["data"]
    if case.kind == "unknown-member":
        assert data.get("reason") == "unknown parameter", f"data.reason: {short(err)}"
        if case.declared is not None:
            expected = data.get("expected")
            assert isinstance(expected, list), f"data.expected should list the declared params: {short(err)}"
            missing = [n for n in case.declared if n not in expected]
            assert not missing, f"data.expected lacks the declared params {missing}: {short(err)}"
    elif case.kind == "near-miss":
        assert f"did you mean {case.suggestion}?" in err["message"], (
            f"the message should suggest {case.suggestion}: {short(err)}")


def test_the_table_covers_every_method_and_kind():
    """The generator does what the table promises, on the committed document."""
    methods = {c.method for c in COMMITTED_CASES.values()}
    assert {"products/list", "places/search", "feeds/open", "quotes/random", "daemon/sleep"} <= methods
    assert not methods & SKIPPED_METHODS
    kinds = {c.kind for c in COMMITTED_CASES.values()}
    assert {"wrong-type", "below-minimum", "above-maximum", "not-in-enum", "unknown-member", "near-miss"} <= kinds
    limit = COMMITTED_CASES["products/list:limit:above-maximum"]
    assert limit.params == {"limit": 101} and limit.field == "limit"
    assert COMMITTED_CASES["products/list:limt:near-miss-of-limit"].suggestion == "limit"
    rect = COMMITTED_CASES["places/search:rect[0]:wrong-type"]
    assert rect.field == "rect[0]" and rect.params["category"] == "MT1" and len(rect.params["rect"]) == 4
    items = COMMITTED_CASES["feeds/items:start:below-minimum"]
    assert items.params == {"feedId": "x", "start": -1, "end": 0}
    sort = COMMITTED_CASES["feeds/open:query.sort:not-in-enum:source=products"]
    assert sort.params == {"source": "products", "query": {"sort": "noSuchValue"}} and sort.field == "query.sort"
    unknown = COMMITTED_CASES["products/list:noSuchParam:unknown-member"]
    assert unknown.params == {"noSuchParam": 1} and set(unknown.declared or []) == {
        "cursor", "limit", "query", "supplierId", "sort"}
