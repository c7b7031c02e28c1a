"""The typed surface is in step with the OpenRPC document: the generated files
are up to date, every method has its typed method with the right params, and
the daemon under test serves nothing the client lacks."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import json
import shutil
import subprocess
import sys
from typing import Any, Dict

import pytest
from client_support import PACKAGE_ROOT, REPO_ROOT

import catalogd
from catalogd import AsyncClient, Client
from catalogd._methods import AsyncClientMethods, ClientMethods

GENERATOR = PACKAGE_ROOT / "scripts" / "generate.py"


def openrpc() -> Dict[str, Any]:
    return json.loads((REPO_ROOT / "openrpc.json").read_text(encoding="utf-8"))


def generate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(GENERATOR), *args], capture_output=True, text=True, timeout=60)


def test_generated_files_are_up_to_date():
    r = generate("--check")
    assert r.returncode == 0, f"run `python3 clients/python/scripts/generate.py`:\n{r.stderr}"


def test_the_check_fails_when_the_document_changes(tmp_path):
    doc = openrpc()
    doc["methods"].append(
        {
            "name": "things/doStuff",
            "summary": "A method the client does not have yet.",
            "paramStructure": "by-name",
            "params": [{"name": "howMuch", "schema": {"type": "integer"}, "required": True}],
            "result": {"name": "StuffDone", "schema": {"type": "object", "properties": {"done": {"type": "boolean"}}}},
        }
    )
    changed = tmp_path / "openrpc.json"
    changed.write_text(json.dumps(doc), encoding="utf-8")
    r = generate("--check", "--openrpc", str(changed))
    assert r.returncode == 1 and "out of date" in r.stderr

    out = tmp_path / "pkg"
    shutil.copytree(PACKAGE_ROOT / "catalogd", out)
    assert generate("--openrpc", str(changed), "--out", str(out)).returncode == 0
    text = (out / "_methods.py").read_text(encoding="utf-8")
    assert "def things_do_stuff(" in text and "how_much: int" in text and '"howMuch"' in text
    assert "class StuffDone:" in (out / "_types.py").read_text(encoding="utf-8")
    assert generate("--check", "--openrpc", str(changed), "--out", str(out)).returncode == 0


def flat(code: str) -> str:
    """Code on one line, as if no line were wrapped: `f(\n    a, b\n)` → `f(a, b)`."""
    import re

    return " ".join(re.sub(r"\s+\)", ")", re.sub(r"\(\s+", "(", code)).split())


def snake(name: str) -> str:
    import re

    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


@pytest.mark.parametrize("cls", [Client, AsyncClient], ids=["Client", "AsyncClient"])
def test_every_openrpc_method_has_a_typed_method(cls):
    for m in openrpc()["methods"]:
        py = m["name"].replace("/", "_").replace(".", "_")
        py = "_".join(snake(part) for part in py.split("_"))
        fn = getattr(cls, py, None)
        assert fn is not None, f"{cls.__name__} has no method {py} for {m['name']}"
        assert inspect.iscoroutinefunction(fn) == (cls is AsyncClient), py
        sig = inspect.signature(fn)
        keywords = {
            n: p for n, p in sig.parameters.items() if p.kind is inspect.Parameter.KEYWORD_ONLY and n != "timeout"
        }
        assert set(keywords) == {snake(p["name"]) for p in m["params"]}, f"params of {py}"
        for p in m["params"]:
            param = keywords[snake(p["name"])]
            assert (param.default is inspect.Parameter.empty) == bool(p.get("required")), f"{py}({param.name})"
        assert "timeout" in sig.parameters
        assert (fn.__doc__ or "").startswith(m["summary"].split(";")[0][:40]), f"the docstring of {py}"
        assert catalogd.METHODS[m["name"]] == py


def test_every_server_notification_has_a_dataclass_and_a_handler():
    for n in openrpc().get("x-notifications", []):
        if not n.get("direction", "").startswith("server"):
            continue
        handler = catalogd.NOTIFICATION_HANDLERS[n["name"]]
        assert callable(getattr(Client, handler)) and callable(getattr(AsyncClient, handler))
        if n["params"].get("properties"):
            cls = catalogd.NOTIFICATION_PARAMS[n["name"]]
            assert cls.METHOD == n["name"]
            assert {f.name for f in dataclasses.fields(cls)} == {snake(p) for p in n["params"]["properties"]}


def test_the_daemon_serves_nothing_the_client_lacks(client):
    """Fails when the binary has a method openrpc.json (and so the client) does not."""
    served = client.rpc_discover()
    missing = {m["name"] for m in served["methods"]} - set(catalogd.METHODS)
    assert not missing, f"the daemon serves {sorted(missing)}: update openrpc.json and regenerate"
    notes = {n["name"] for n in served.get("x-notifications", []) if n.get("direction", "").startswith("server")}
    assert notes <= set(catalogd.NOTIFICATION_HANDLERS)


def test_the_package_is_python_3_9_syntax():
    for path in sorted((PACKAGE_ROOT / "catalogd").rglob("*.py")) + [GENERATOR]:
        ast.parse(path.read_text(encoding="utf-8"), str(path), feature_version=(3, 9))


def test_the_typed_mixins_only_hold_generated_methods():
    """Nothing hand-written hides among the generated methods."""
    own = {n for n in vars(ClientMethods) if not n.startswith("_")} - {"request", "on"}
    generated = {"notifications"}  # with an overload per notification
    assert own == set(catalogd.METHODS.values()) | set(catalogd.NOTIFICATION_HANDLERS.values()) | generated
    assert {n for n in vars(AsyncClientMethods) if not n.startswith("_")} - {"request", "on"} == own


def test_a_oneof_of_objects_told_apart_by_a_const_is_a_union_of_dataclasses(tmp_path):
    doc = openrpc()
    doc["components"]["schemas"]["ThingShape"] = {
        "description": "a shape",
        "oneOf": [
            {"type": "object", "title": "ThingCircle", "required": ["kind", "r"],
             "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}},
            {"type": "object", "required": ["kind", "side"],
             "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}},
        ],
    }
    doc["components"]["schemas"]["ThingBlob"] = {  # nothing tells these apart: plain JSON
        "oneOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}},
            {"type": "object", "properties": {"b": {"type": "string"}}},
        ],
    }
    doc["x-notifications"].append({
        "name": "things/drawn", "direction": "server→client", "summary": "Shapes were drawn.",
        "params": {"type": "object", "required": ["shapes"], "properties": {
            "shapes": {"type": "array", "items": {"$ref": "#/components/schemas/ThingShape"}},
            "blob": {"$ref": "#/components/schemas/ThingBlob"},
        }},
    })
    changed = tmp_path / "openrpc.json"
    changed.write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "pkg"
    shutil.copytree(PACKAGE_ROOT / "catalogd", out)
    r = generate("--openrpc", str(changed), "--out", str(out))
    assert r.returncode == 0, r.stderr
    text = (out / "_types.py").read_text(encoding="utf-8")
    assert "ThingShape = Union[ThingCircle, ThingShapeSquare]" in text
    assert "shapes: List[ThingShape]" in text and "_w.list_of(thing_shape_from_json)" in text
    assert "blob: Any = None" in text
    json_text = (out / "_json_types.py").read_text(encoding="utf-8")
    assert "ThingShapeJson = Union[ThingCircleJson, ThingShapeSquareJson]" in json_text
    assert "    shapes: List[ThingShapeJson]\n" in json_text and "    kind: Literal[\"square\"]\n" in json_text
    assert "ThingBlobJson = Dict[str, Any]" in json_text, "objects nothing tells apart stay dicts"
    assert '"things/drawn": "ThingsDrawnJson"' in json_text
    overload = 'def notifications(self, method: Literal["things/drawn"], /) -> NotificationStream[ThingsDrawnJson]'
    assert overload in flat((out / "_methods.py").read_text(encoding="utf-8"))
    sys.path.insert(0, str(tmp_path))
    try:
        types = importlib.import_module("pkg._types")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == "pkg" or n.startswith("pkg.")]:
            del sys.modules[name]
    drawn = types.ThingsDrawn.from_json(
        {"shapes": [{"kind": "square", "side": 2}, {"kind": "circle", "r": 1.5}], "blob": {"a": "x"}}
    )
    assert [type(s).__name__ for s in drawn.shapes] == ["ThingShapeSquare", "ThingCircle"]
    assert drawn.shapes[1].r == 1.5 and drawn.blob == {"a": "x"}
    assert drawn.to_json()["shapes"][0] == {"kind": "square", "side": 2}
    with pytest.raises(ValueError, match="kind is 'triangle'") as e:  # that copy's ProtocolError
        types.thing_shape_from_json({"kind": "triangle"})
    assert type(e.value).__name__ == "ProtocolError"


def test_every_server_notification_has_the_type_of_its_json():
    """`notifications(name)` streams have the params type of that notification: a
    TypedDict whose keys, and required keys, are those of the document."""
    from catalogd._json_types import NOTIFICATION_JSON

    methods_source = flat((PACKAGE_ROOT / "catalogd" / "_methods.py").read_text(encoding="utf-8"))
    for n in openrpc().get("x-notifications", []):
        if not n.get("direction", "").startswith("server") or not n["params"].get("properties"):
            continue
        typed = getattr(catalogd, NOTIFICATION_JSON[n["name"]])
        assert set(typed.__required_keys__) == set(n["params"].get("required", [])), n["name"]
        assert set(typed.__required_keys__) | set(typed.__optional_keys__) == set(n["params"]["properties"])
        overload = f'(self, method: Literal["{n["name"]}"], /) -> NotificationStream[{typed.__name__}]: ...'
        assert overload in methods_source, n["name"]


def test_feed_item_changes_decode_by_op():
    assert catalogd.feed_item_change_from_json({"op": "remove", "index": 3, "count": 2}) == catalogd.FeedRemove(
        "remove", 3, 2
    )
    changed = catalogd.FeedsItemsChanged.from_json(
        {"feedId": "feed-1", "generation": 0, "count": 1, "changes": [{"op": "insert", "index": 0, "items": [{}]}]}
    )
    assert changed.changes == [catalogd.FeedInsert("insert", 0, [{}])]
