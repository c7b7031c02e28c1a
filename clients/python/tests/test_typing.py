"""The typed surface, as type checkers see it: mypy --strict and basedpyright
(strict, Python 3.9) reject wrong calls and accept right ones, the package
passes mypy --strict, and `basedpyright --verifytypes` finds every public
symbol fully typed.

Needs mypy and basedpyright (Tests/requirements.txt); skipped without them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, List, Set

import pytest
from client_support import PACKAGE_ROOT

pytest.importorskip("mypy", reason="mypy is not installed (Tests/requirements.txt)")
pytest.importorskip("basedpyright", reason="basedpyright is not installed (Tests/requirements.txt)")

GOOD = """\
from __future__ import annotations

from concurrent.futures import Future
from typing import Any, Optional

from catalogd import (
    AsyncClient, Client, ExitStatus, Notification, ProductsListUpdatedJson, QuotesLoadingJson, RpcError,
)


def use(binary: str) -> None:
    client = Client(
        binary, ["--data-dir", "/tmp/d"], {"CATALOGD_LOG_LEVEL": "debug", "LC_ALL": None},
        framing="lsp", timeout=None, locale="ko", handshake_timeout=5.0,
    )
    n = client.notifications("quotes/loading").get(timeout=1)
    if n is not None:
        loading: bool = n.params["isLoading"]
        whole: QuotesLoadingJson = n.params
        print(loading, whole)
    for method, params in client.notifications("products/listUpdated"):
        listed: ProductsListUpdatedJson = params
        print(method, params["reason"], params.get("id"), listed)
    for note in client.notifications("quotes/loading", "products/changed"):
        anything: Any = note.params["any key"]  # several names: Any
        print(anything)
    future: Future[Any] = client.submit("daemon/echo", [1], timeout=2.5)
    print(future.result())
    try:
        client.quotes_random(tags=["wisdom"])
    except RpcError as e:
        print(e.code, e.message, e.data)
    status: ExitStatus = client.close()
    code: Optional[int] = status.exit_code
    print(code, status.signal)
    AsyncClient(framing="ndjson", timeout=1.5)


def annotate(n: Notification[QuotesLoadingJson]) -> bool:
    return n.params["isLoading"]
"""

BAD = """\
from __future__ import annotations

from catalogd import Client

Client(timeout="soon", framing="xml", no_such_option=1)  # error: the call of issue 15
Client(timeout="soon")  # error: not a number
Client(framing="xml")  # error: not a framing
Client(no_such_option=1)  # error: no such argument
client = Client(env={"A": 1})  # error: env values are str or None
n = client.notifications("quotes/loading").get()
if n is not None:
    flag: str = n.params["isLoading"]  # error: a bool
    print(n.params["nope"])  # error: no such key
client.submit("daemon/echo", timeout="soon")  # error: not a number
status: int = client.close()  # error: an ExitStatus
"""


def marked_lines(source: str) -> Set[int]:
    """The 1-based lines that say `# error`."""
    return {i for i, line in enumerate(source.splitlines(), 1) if "# error" in line}


def write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return path


def mypy(tmp_path: Path, path: Path) -> Dict[int, List[str]]:
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "mypy"),
         str(path)],
        capture_output=True, text=True, timeout=300, cwd=str(tmp_path),
        env={**os.environ, "MYPYPATH": str(PACKAGE_ROOT)},
    )
    errors: Dict[int, List[str]] = {}
    for line in r.stdout.splitlines():
        m = re.match(rf"{re.escape(path.name)}:(\d+): error: (.*)", line)
        if m:
            errors.setdefault(int(m.group(1)), []).append(m.group(2))
    assert r.returncode in (0, 1), r.stdout + r.stderr
    return errors


def basedpyright(tmp_path: Path, *args: str) -> Dict[str, object]:
    (tmp_path / "pyrightconfig.json").write_text(
        json.dumps({"typeCheckingMode": "strict", "pythonVersion": "3.9"}), encoding="utf-8"
    )
    r = subprocess.run(
        [sys.executable, "-m", "basedpyright", "--outputjson", *args],
        capture_output=True, text=True, timeout=300, cwd=str(tmp_path),
        env={**os.environ, "PYTHONPATH": str(PACKAGE_ROOT)},
    )
    return json.loads(r.stdout)  # type: ignore[no-any-return]


def pyright_errors(tmp_path: Path, path: Path) -> Dict[int, List[str]]:
    report = basedpyright(tmp_path, str(path))
    errors: Dict[int, List[str]] = {}
    for d in report["generalDiagnostics"]:  # type: ignore[attr-defined]
        if d["severity"] == "error":
            errors.setdefault(d["range"]["start"]["line"] + 1, []).append(d["message"])
    return errors


def test_mypy_strict_accepts_right_calls_and_rejects_wrong_ones(tmp_path):
    assert mypy(tmp_path, write(tmp_path, "good.py", GOOD)) == {}
    errors = mypy(tmp_path, write(tmp_path, "bad.py", BAD))
    assert set(errors) == marked_lines(BAD), errors
    the_call = " ".join(errors[5])
    assert '"no_such_option"' in the_call and '"timeout"' in the_call and '"framing"' in the_call, the_call


def test_the_package_passes_mypy_strict(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"), "catalogd"],
        capture_output=True, text=True, timeout=300, cwd=str(PACKAGE_ROOT),
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_basedpyright_accepts_right_calls_and_rejects_wrong_ones(tmp_path):
    assert pyright_errors(tmp_path, write(tmp_path, "good.py", GOOD)) == {}
    errors = pyright_errors(tmp_path, write(tmp_path, "bad.py", BAD))
    assert set(errors) == marked_lines(BAD), errors


def test_every_public_symbol_is_fully_typed(tmp_path):
    report = basedpyright(tmp_path, "--verifytypes", "catalogd", "--ignoreexternal")
    completeness = report["typeCompleteness"]
    unknown = [
        (s["name"], [d["message"] for d in s["diagnostics"]][:1])  # type: ignore[index]
        for s in completeness["symbols"]  # type: ignore[index]
        if not s["isTypeKnown"]
    ]
    assert completeness["completenessScore"] == 1.0, textwrap.shorten(repr(unknown), 2000)  # type: ignore[index]
    assert completeness["exportedSymbolCounts"]["withKnownType"] > 150  # type: ignore[index]
    modules = {m["name"] for m in completeness["modules"]}  # type: ignore[index]
    assert {"catalogd", "catalogd.pytest_plugin"} <= modules, modules
