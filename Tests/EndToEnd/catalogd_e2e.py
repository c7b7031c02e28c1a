"""Helpers for the end-to-end tests: spawn `catalogd`, frame messages, read replies.

The `Daemon` class owns one `catalogd` process. A reader thread splits its
stdout into messages (LSP `Content-Length` frames or NDJSON lines, detected per
message) and checks that stdout carries protocol bytes only: anything else, a
reply header other than exactly `Content-Length: N`, a body that is not one
strict JSON text, or a reply in the wrong framing is recorded as a violation,
which makes the next read fail and fails the test at teardown.

The reader also holds the daemon to its declared contract, `openrpc.json` at
the repository root: every successful `result` is validated against the
`result.schema` of the method of the request it answers (requests are
remembered as `send`, `request`, `call`, `result` and `send_raw` write them;
bytes written with `_write_all` directly are not looked at), and every
server→client notification's `params` against its `x-notifications` entry.
A mismatch is recorded the same way, as a contract violation.

Every wait has a timeout; nothing here blocks forever.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import re
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable

import jsonschema

REPO_ROOT = Path(__file__).resolve().parents[2]
JSON_TEST_SUITE_DIR = REPO_ROOT / "Tests" / "ProtocolTests" / "JSONTestSuite" / "test_parsing"
QUOTES_CORPUS_PATH = REPO_ROOT / "Sources" / "Services" / "Quotes" / "Corpus" / "quotes.json"
OPENRPC_PATH = REPO_ROOT / "openrpc.json"

DEFAULT_TIMEOUT = 10.0

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002
REQUEST_CANCELLED = -32800
NOT_FOUND = -32001
UPSTREAM_UNAVAILABLE = -32020
UPSTREAM_ERROR = -32021


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()
"""Marks an omitted member (`params` left out, as opposed to `"params": null`)."""

# Every live Daemon, so the per-test watchdog can kill them all.
LIVE_DAEMONS: "set[Daemon]" = set()
_LIVE_LOCK = threading.Lock()


def binary_path() -> Path:
    """`$CATALOGD_BIN` (relative paths are taken from the repo root), else the debug build."""
    env = os.environ.get("CATALOGD_BIN")
    if env:
        path = Path(env)
        return path if path.is_absolute() else REPO_ROOT / path
    return REPO_ROOT / ".build" / "debug" / "catalogd"


def accepts_connections(socket_path: Path) -> bool:
    """Whether a daemon listens on the Unix socket (its file exists a moment before it does)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        try:
            s.connect(str(socket_path))
            return True
        except OSError:
            return False


def isolated_env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The test process's environment without catalogd settings, proxies or the
    user's XDG directories: every daemon sees an empty home of its own."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("CATALOGD_")
        and k.lower() not in ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy")
        and k not in ("KAKAO_REST_API_KEY", "LC_ALL", "LC_MESSAGES")
    }
    for sub in ("home", "xdg-config", "xdg-data", "xdg-cache", "xdg-state"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    env.update(
        HOME=str(home / "home"),
        XDG_CONFIG_HOME=str(home / "xdg-config"),
        XDG_DATA_HOME=str(home / "xdg-data"),
        XDG_CACHE_HOME=str(home / "xdg-cache"),
        XDG_STATE_HOME=str(home / "xdg-state"),
        NO_PROXY="*",
        no_proxy="*",
        # Error messages in English whatever the machine's language (test_messages.py sets its own).
        LANG="C.UTF-8",
    )
    if extra:
        env.update(extra)
    return env


# ---------------------------------------------------------------- encoding


def dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def lsp_frame(body: bytes | str, headers: Iterable[tuple[str, str]] | None = None) -> bytes:
    if isinstance(body, str):
        body = body.encode("utf-8")
    if headers is None:
        headers = [("Content-Length", str(len(body)))]
    head = "".join(f"{k}: {v}\r\n" for k, v in headers).encode("ascii")
    return head + b"\r\n" + body


def ndjson_frame(body: bytes | str) -> bytes:
    if isinstance(body, str):
        body = body.encode("utf-8")
    assert b"\n" not in body, "an NDJSON body cannot contain a newline"
    return body + b"\n"


def request_obj(method: Any, params: Any = ABSENT, id: Any = ABSENT) -> dict:
    msg: dict[str, Any] = {"jsonrpc": "2.0"}
    if id is not ABSENT:
        msg["id"] = id
    msg["method"] = method
    if params is not ABSENT:
        msg["params"] = params
    return msg


# ---------------------------------------------------------------- comparing


def same_id(a: Any, b: Any) -> bool:
    """Ids compare by type and value: 1, 1.0, True and "1" are all different."""
    if type(a) is not type(b):
        return False
    return a == b


def strict_equal(a: Any, b: Any) -> bool:
    """Deep equality that tells bool from int and int from float."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b))
    return a == b


def is_response(msg: Any) -> bool:
    return isinstance(msg, dict) and "id" in msg and ("result" in msg or "error" in msg) and "method" not in msg


def is_notification(msg: Any, method: str | None = None) -> bool:
    ok = isinstance(msg, dict) and "method" in msg and "id" not in msg
    return ok and (method is None or msg["method"] == method)


def short(obj: Any, limit: int = 600) -> str:
    text = obj if isinstance(obj, str) else repr(obj)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def assert_result(resp: Any, id: Any, result: Any = ABSENT) -> Any:
    """`resp` is a success response to `id` (and carries `result`, compared strictly, when given)."""
    assert isinstance(resp, dict), f"expected a response object, got {short(resp)}"
    assert set(resp) == {"jsonrpc", "id", "result"}, f"expected a success response to id {id!r}, got {short(resp)}"
    assert resp["jsonrpc"] == "2.0", short(resp)
    assert same_id(resp["id"], id), f"expected id {id!r}, got {resp['id']!r} in {short(resp)}"
    if result is not ABSENT:
        assert strict_equal(resp["result"], result), f"expected result {short(result)}, got {short(resp['result'])}"
    return resp["result"]


def assert_error(resp: Any, code: int, id: Any = ABSENT, data: dict | None = None) -> dict:
    """`resp` is an error response with `code` (to `id` when given; `id=None`
    means `"id": null`) whose `data` includes the members of `data`."""
    assert isinstance(resp, dict), f"expected an error response object, got {short(resp)}"
    assert set(resp) == {"jsonrpc", "id", "error"}, f"expected an error response ({code}), got {short(resp)}"
    assert resp["jsonrpc"] == "2.0", short(resp)
    err = resp["error"]
    assert isinstance(err, dict), short(resp)
    assert {"code", "message"} <= set(err) <= {"code", "message", "data"}, f"bad error object {short(err)}"
    assert type(err["code"]) is int, short(err)
    assert err["code"] == code, f"expected error code {code}, got {short(resp)}"
    assert isinstance(err["message"], str) and err["message"].strip(), f"error message must be a sentence: {short(err)}"
    if id is not ABSENT:
        assert same_id(resp["id"], id), f"expected id {id!r}, got {resp['id']!r} in {short(resp)}"
    if data:
        got = err.get("data")
        assert isinstance(got, dict), f"expected error data with {data}, got {short(err)}"
        for k, v in data.items():
            assert k in got, f"error data lacks {k!r}: {short(err)}"
            if v is not ABSENT:
                assert strict_equal(got[k], v), f"error data {k!r}: expected {v!r}, got {got[k]!r} in {short(err)}"
    return err


def assert_parse_error(resp: Any) -> dict:
    err = assert_error(resp, PARSE_ERROR, id=None, data={"reason": ABSENT})
    assert isinstance(err["data"]["reason"], str) and err["data"]["reason"], short(err)
    return err


def assert_invalid_request(resp: Any, id: Any = None) -> dict:
    err = assert_error(resp, INVALID_REQUEST, id=id, data={"reason": ABSENT})
    assert isinstance(err["data"]["reason"], str) and err["data"]["reason"], short(err)
    return err


# ---------------------------------------------------------------- the declared contract

_IDENTIFIER_RE = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def json_path(root: str, path: Iterable[Any]) -> str:
    """`result.items[0].price` for the path `["items", 0, "price"]` under `result`."""
    out = root
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and _IDENTIFIER_RE.match(part):
            out += f".{part}"
        else:
            out += f"[{json.dumps(part, ensure_ascii=False)}]"
    return out


class _Unsupported(Exception):
    pass


# Keywords that only annotate: they never fail an instance.
_ANNOTATIONS = {"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment",
                "format", "$schema", "$id", "components"}


def _json_equal(a: Any, b: Any) -> bool:
    """JSON Schema equality: numbers by value (1 == 1.0), booleans apart from numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class _FastSchema:
    """A schema compiled to nested closures that only say valid or not: the
    cheap check of every result. The keywords it knows are the ones the
    document uses; a schema with any other assertion is left to `jsonschema`
    alone (`_Unsupported`). `jsonschema` still explains every failure."""

    def __init__(self, doc: dict):
        self.doc = doc
        self.refs: dict[str, Callable[[Any], bool]] = {}

    def compile(self, schema: Any) -> Callable[[Any], bool]:
        if schema is True or schema == {}:
            return lambda v: True
        if schema is False:
            return lambda v: False
        if not isinstance(schema, dict):
            raise _Unsupported(repr(schema))
        checks: list[Callable[[Any], bool]] = []
        for key, arg in schema.items():
            if key in _ANNOTATIONS or key.startswith("x-"):
                continue
            checks.append(self._keyword(key, arg, schema))
        if len(checks) == 1:
            return checks[0]
        return lambda v: all(check(v) for check in checks)

    def _ref(self, ref: str) -> Callable[[Any], bool]:
        if not ref.startswith("#/"):
            raise _Unsupported(ref)
        if ref not in self.refs:
            self.refs[ref] = lambda v: self.refs[ref](v)  # a placeholder while compiling a recursive schema
            target: Any = self.doc
            for part in ref[2:].split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            try:
                self.refs[ref] = self.compile(target)
            except _Unsupported:
                del self.refs[ref]
                raise
        return lambda v: self.refs[ref](v)

    def _keyword(self, key: str, arg: Any, schema: dict) -> Callable[[Any], bool]:
        if key == "$ref":
            return self._ref(arg)
        if key == "type":
            types = [_TYPE_CHECKS[t] for t in (arg if isinstance(arg, list) else [arg])]
            return lambda v: any(t(v) for t in types)
        if key == "enum":
            return lambda v: any(_json_equal(v, e) for e in arg)
        if key == "const":
            return lambda v: _json_equal(v, arg)
        if key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            op = {"minimum": lambda v: v >= arg, "maximum": lambda v: v <= arg,
                  "exclusiveMinimum": lambda v: v > arg, "exclusiveMaximum": lambda v: v < arg}[key]
            return lambda v: not _is_number(v) or op(v)
        if key == "minLength":
            return lambda v: not isinstance(v, str) or len(v) >= arg
        if key == "maxLength":
            return lambda v: not isinstance(v, str) or len(v) <= arg
        if key == "minItems":
            return lambda v: not isinstance(v, list) or len(v) >= arg
        if key == "maxItems":
            return lambda v: not isinstance(v, list) or len(v) <= arg
        if key == "items":
            item = self.compile(arg)
            return lambda v: not isinstance(v, list) or all(item(x) for x in v)
        if key == "required":
            return lambda v: not isinstance(v, dict) or all(k in v for k in arg)
        if key == "properties":
            props = {k: self.compile(sub) for k, sub in arg.items()}
            return lambda v: not isinstance(v, dict) or all(props[k](x) for k, x in v.items() if k in props)
        if key == "additionalProperties":
            known = set(schema.get("properties", {}))
            if "patternProperties" in schema:
                raise _Unsupported(key)
            extra = self.compile(arg)
            return lambda v: not isinstance(v, dict) or all(extra(x) for k, x in v.items() if k not in known)
        if key in ("oneOf", "anyOf", "allOf"):
            branches = [self.compile(b) for b in arg]
            if key == "anyOf":
                return lambda v: any(b(v) for b in branches)
            if key == "allOf":
                return lambda v: all(b(v) for b in branches)
            return lambda v: sum(1 for b in branches if b(v)) == 1
        raise _Unsupported(key)


class Contract:
    """What `openrpc.json` declares about the daemon's output: the schema of
    each method's result and of each server→client notification's params,
    compiled once into one validator each. Its `$ref`s
    (`#/components/schemas/X`) resolve against the document's components.
    Methods and notifications the document does not declare (and the schema
    `{}`) accept anything. A cheap compiled check passes valid values; a value
    it rejects is explained by `jsonschema` (Draft 2020-12)."""

    def __init__(self, doc: dict, source: str = "openrpc.json"):
        self.doc = doc
        self.source = source
        self._fast = _FastSchema(doc)
        components = doc.get("components", {})
        self.results: dict[str, Any] = {}
        for m in doc.get("methods", []):
            schema = m.get("result", {}).get("schema", {})
            self.results[m["name"]] = self._compile(schema, components, f"the result of {m['name']}")
        self.notifications: dict[str, Any] = {}
        for n in doc.get("x-notifications", []):
            if "params" in n and str(n.get("direction", "")).startswith("server"):
                self.notifications[n["name"]] = self._compile(n["params"], components, f"the params of {n['name']}")

    def _compile(self, schema: Any, components: dict, what: str) -> tuple[Callable[[Any], bool] | None, Any] | None:
        if schema is True or schema == {}:
            return None
        root = {**schema, "components": components} if isinstance(schema, dict) else schema
        try:
            jsonschema.Draft202012Validator.check_schema(root)
        except jsonschema.SchemaError as e:
            raise AssertionError(f"{self.source}: the schema of {what} is not a valid JSON Schema: {e.message}") from None
        try:
            fast: Callable[[Any], bool] | None = self._fast.compile(schema)
        except _Unsupported:
            fast = None
        return fast, jsonschema.Draft202012Validator(root)

    @staticmethod
    def _problems(compiled: Any, instance: Any, root: str) -> list[str]:
        if compiled is None:
            return []
        fast, validator = compiled
        if fast is not None and fast(instance):
            return []
        errors = list(validator.iter_errors(instance))
        if not errors:
            return []
        out = []
        for e in errors[:3]:  # in document order
            best = jsonschema.exceptions.best_match([e])  # descends into oneOf/anyOf to the branch that came closest
            schema_path = "/".join(str(p) for p in best.absolute_schema_path)
            out.append(f"{json_path(root, best.absolute_path)}: {short(best.message, 300)} (schema path {schema_path})")
        if len(errors) > 3:
            out.append(f"... and {len(errors) - 3} more")
        return out

    def result_problems(self, method: str, result: Any) -> list[str]:
        """How `result` breaks `method`'s declared result schema (nothing when it does not)."""
        return self._problems(self.results.get(method), result, "result")

    def notification_problems(self, method: str, msg: dict) -> list[str]:
        """How the notification `msg` breaks its declared params schema."""
        compiled = self.notifications.get(method)
        if compiled is None:
            return []
        if "params" not in msg:
            return ["params: missing, but the notification declares params"]
        return self._problems(compiled, msg["params"], "params")


_CONTRACT: Contract | None = None
_CONTRACT_LOCK = threading.Lock()


def contract() -> Contract:
    """The contract of the repository's `openrpc.json`, loaded once per process."""
    global _CONTRACT
    with _CONTRACT_LOCK:
        if _CONTRACT is None:
            with open(OPENRPC_PATH, encoding="utf-8") as f:
                _CONTRACT = Contract(json.load(f), str(OPENRPC_PATH.relative_to(REPO_ROOT)))
        return _CONTRACT


class _Requests:
    """The requests written to the daemon, by id, so the reader knows which
    method a response answers. Message objects sent whole are noted as they
    are; bytes written raw are split into messages the way the daemon splits
    them (LSP header blocks or NDJSON lines, told apart per message) and
    parsed, best effort: bytes that do not frame or parse are skipped, and the
    responses to them go unchecked. An id still awaiting responses to two
    different methods is ambiguous: its next response goes unchecked too."""

    MAX_PARSED_BODY = 8 << 20
    """Larger bodies (the size-limit tests' echoes) are framed past but not parsed."""
    MAX_BUFFERED = 64 << 20
    """A body or line longer than this is taken as garbage: the buffer is dropped."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buf = bytearray()
        self._pending: dict[tuple[str, Any], collections.deque[str]] = {}

    @staticmethod
    def _key(id: Any) -> tuple[str, Any] | None:
        if id is None or isinstance(id, (str, int, float)):
            return (type(id).__name__, id)
        return None

    def written(self, data: bytes, obj: Any = ABSENT) -> None:
        """`data` is about to be written; `obj` is the one message it frames, when known."""
        with self._lock:
            if obj is not ABSENT and not self._buf:
                self._note(obj)
            else:
                self._feed(data)

    def answered(self, id: Any) -> str | None:
        """The method of the request a response with `id` answers, when known for sure."""
        key = self._key(id)
        if key is None:
            return None
        with self._lock:
            waiting = self._pending.get(key)
            if not waiting:
                return None
            method = waiting.popleft()
            ambiguous = any(m != method for m in waiting)
            if not waiting:
                del self._pending[key]
        return None if ambiguous else method

    def _note(self, obj: Any) -> None:
        for msg in obj if isinstance(obj, list) else [obj]:
            if isinstance(msg, dict) and "id" in msg and isinstance(msg.get("method"), str):
                key = self._key(msg["id"])
                if key is not None:
                    self._pending.setdefault(key, collections.deque()).append(msg["method"])

    def _note_body(self, body: bytes) -> None:
        if len(body) > self.MAX_PARSED_BODY or b'"method"' not in body:
            return
        try:
            obj = json.loads(body.decode("utf-8"))
        except (ValueError, RecursionError):
            return
        self._note(obj)

    def _feed(self, data: bytes) -> None:
        buf = self._buf
        buf += data
        n = len(buf)
        pos = 0
        while pos < n:
            if buf[pos] in b" \t\r\n":
                pos += 1
                continue
            if buf[pos] in b"Cc":  # a header block; a JSON text starts otherwise
                end = buf.find(b"\r\n\r\n", pos)
                if end < 0:
                    if n - pos > 65536:  # not a header block the daemon would wait for
                        pos = n
                    break
                length = None
                for line in bytes(buf[pos:end]).split(b"\r\n"):
                    name, sep, value = line.partition(b":")
                    if sep and name.strip().lower() == b"content-length" and value.strip().isdigit():
                        length = int(value.strip())
                if length is None or length > self.MAX_BUFFERED:
                    pos = end + 4
                    continue
                if n < end + 4 + length:
                    break
                self._note_body(bytes(buf[end + 4 : end + 4 + length]))
                pos = end + 4 + length
            else:
                nl = buf.find(b"\n", pos)
                if nl < 0:
                    if n - pos > self.MAX_BUFFERED:
                        pos = n
                    break
                self._note_body(bytes(buf[pos:nl]))
                pos = nl + 1
        del buf[:pos]


# ---------------------------------------------------------------- reading


class Frame:
    """One message as it came off the daemon's stdout."""

    __slots__ = ("framing", "headers", "body", "obj", "at")

    def __init__(self, framing: str, headers: list[tuple[str, str]], body: bytes, obj: Any, at: float):
        self.framing = framing
        self.headers = headers
        self.body = body
        self.obj = obj
        self.at = at

    def __repr__(self) -> str:
        return f"Frame({self.framing}, {short(self.body.decode('utf-8', 'replace'), 300)})"


class Violation:
    """Something wrong on stdout: bytes that are not the protocol ("stdout"),
    or a message that breaks the declared contract ("contract")."""

    def __init__(self, what: str, kind: str = "stdout"):
        self.what = what
        self.kind = kind

    @property
    def headline(self) -> str:
        if self.kind == "contract":
            return f"catalogd broke its declared contract ({contract().source})"
        return "catalogd wrote non-protocol output on stdout"

    def __repr__(self) -> str:
        return f"Violation({self.what})"


class _EOF:
    pass


EOF = _EOF()


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-JSON constant {name}")


def strict_loads(body: bytes) -> Any:
    """RFC 8259 only: UTF-8, no NaN/Infinity, no duplicate keys, no control characters in strings."""
    return json.loads(body.decode("utf-8"), object_pairs_hook=_no_duplicate_keys, parse_constant=_reject_constant)


class Daemon:
    """One `catalogd` process driven over pipes."""

    def __init__(
        self,
        argv: list[str],
        *,
        env: dict[str, str],
        cwd: Path,
        stderr_path: Path,
        framing: str = "lsp",
        reply_framing: str | None | Any = ABSENT,
        start_reader: bool = True,
    ):
        self.argv = argv
        self.framing = framing
        """How the helpers frame outgoing messages: "lsp" or "ndjson"."""
        self.reply_framing = framing if reply_framing is ABSENT else reply_framing
        """The framing replies must use (None: either)."""
        self.stderr_path = stderr_path
        self._stderr_file = open(stderr_path, "wb")
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr_file,
            env=env,
            cwd=str(cwd),
            bufsize=0,
        )
        self.pid = self.proc.pid
        self._q: "queue.Queue[Any]" = queue.Queue()
        self._stash: "collections.deque[Frame]" = collections.deque()
        self._eof = False
        self.violations: list[str] = []
        """What was wrong on stdout; contract violations start with `contract: `."""
        self.contract = contract()
        """The declared schemas every result and notification is checked against."""
        self._requests = _Requests()
        self.recent: "collections.deque[Frame]" = collections.deque(maxlen=20)
        self.received = 0
        self.unclaimed: list[Any] = []
        """Messages that `call` read past while waiting for its response."""
        self._gate = threading.Event()
        self._gate.set()
        self._next_id = 1
        self._write_lock = threading.Lock()
        with _LIVE_LOCK:
            LIVE_DAEMONS.add(self)
        self._reader: threading.Thread | None = None
        if start_reader:
            self._reader = threading.Thread(target=self._read_loop, name=f"catalogd-{self.pid}-reader", daemon=True)
            self._reader.start()

    # ------------------------------------------------------------ reader

    def _read_loop(self) -> None:
        fd = self.proc.stdout.fileno()
        buf = bytearray()
        while True:
            self._gate.wait()
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buf += chunk
            try:
                consumed = self._parse(buf)
            except Exception as e:  # a bug in the parser must not hang the test
                self._violate(f"reader crashed: {e!r}")
                return
            if consumed:
                del buf[:consumed]
        if buf:
            self._violate(f"stdout ended inside a message: {short(bytes(buf[:300]))}")
        self._q.put(EOF)

    def _violate(self, what: str, kind: str = "stdout") -> None:
        self.violations.append(f"contract: {what}" if kind == "contract" else what)
        self._q.put(Violation(what, kind))

    def _check_contract(self, obj: Any) -> None:
        """A contract violation for each result or notification in `obj` that
        breaks its declared schema; queued before the message itself, so the
        read that would return it fails instead."""
        for msg in obj if isinstance(obj, list) else [obj]:
            if not isinstance(msg, dict):
                continue
            if "id" in msg and "result" in msg and "method" not in msg:
                method = self._requests.answered(msg["id"])
                if method is None:
                    continue
                problems = self.contract.result_problems(method, msg["result"])
                if problems:
                    self._violate(
                        f"the result of {method} (id {msg['id']!r}) does not match its declared result schema: "
                        + "; ".join(problems) + f"\n  result: {short(msg['result'], 1000)}", "contract")
            elif "id" in msg and "error" in msg and "method" not in msg:
                self._requests.answered(msg["id"])
            elif "method" in msg and "id" not in msg and isinstance(msg["method"], str):
                problems = self.contract.notification_problems(msg["method"], msg)
                if problems:
                    self._violate(
                        f"the notification {msg['method']} does not match its declared params schema: "
                        + "; ".join(problems) + f"\n  params: {short(msg.get('params'), 1000)}", "contract")

    def _parse(self, buf: bytearray) -> int:
        pos = 0
        n = len(buf)
        while pos < n:
            if buf[pos : pos + 1] in (b"C", b"c"):  # a header block; JSON texts start otherwise
                end = buf.find(b"\r\n\r\n", pos)
                if end < 0:
                    if n - pos > 4096:
                        self._violate(f"unterminated header block on stdout: {short(bytes(buf[pos:pos+200]))}")
                        return n
                    return pos
                block = bytes(buf[pos:end]).decode("latin-1")
                headers = []
                for line in block.split("\r\n"):
                    name, sep, value = line.partition(":")
                    if not sep:
                        self._violate(f"malformed header line on stdout: {line!r}")
                        return n
                    headers.append((name, value.strip()))
                lengths = [v for k, v in headers if k.lower() == "content-length"]
                if len(lengths) != 1 or not lengths[0].isdigit():
                    self._violate(f"reply headers without one valid Content-Length: {headers!r}")
                    return n
                length = int(lengths[0])
                if n < end + 4 + length:
                    return pos
                body = bytes(buf[end + 4 : end + 4 + length])
                pos = end + 4 + length
                if headers != [("Content-Length", str(length))] or block != f"Content-Length: {length}":
                    self._violate(f"reply must carry exactly one header 'Content-Length: N', got {block!r}")
                self._deliver("lsp", headers, body)
            else:
                nl = buf.find(b"\n", pos)
                if nl < 0:
                    return pos
                line = bytes(buf[pos:nl])
                pos = nl + 1
                if line.endswith(b"\r"):
                    self._violate(f"NDJSON reply line ends with \\r: {short(line)}")
                    line = line[:-1]
                if not line.strip():
                    self._violate("blank line on stdout")
                    continue
                self._deliver("ndjson", [], line)
        return pos

    def _deliver(self, framing: str, headers: list, body: bytes) -> None:
        if self.reply_framing is not None and framing != self.reply_framing:
            self._violate(f"reply in {framing} framing, expected {self.reply_framing}: {short(body)}")
        try:
            obj = strict_loads(body)
        except Exception as e:
            self._violate(f"stdout carried a body that is not strict JSON ({e}): {short(body)}")
            return
        frame = Frame(framing, headers, body, obj, time.monotonic())
        self._check_contract(obj)
        self.received += 1
        self.recent.append(frame)
        self._q.put(frame)

    def pause_reading(self) -> None:
        """Stop reading stdout (after at most one more chunk): the daemon sees a client that does not read."""
        self._gate.clear()

    def resume_reading(self) -> None:
        self._gate.set()

    # ------------------------------------------------------------ diagnostics

    def stderr_text(self) -> str:
        try:
            self._stderr_file.flush()
        except ValueError:
            pass
        try:
            return self.stderr_path.read_text("utf-8", "replace")
        except OSError:
            return ""

    def diag(self) -> str:
        err = self.stderr_text()
        if len(err) > 3000:
            err = "..." + err[-3000:]
        status = self.proc.poll()
        return (
            f"\n  catalogd {' '.join(self.argv[1:])} (pid {self.pid}, "
            f"{'running' if status is None else f'exit status {status}'})"
            f"\n  last replies: {list(self.recent)[-5:]!r}"
            f"\n  stdout violations: {self.violations!r}"
            f"\n  stderr ({self.stderr_path}):\n{err}"
        )

    # ------------------------------------------------------------ reading

    def read_frame(self, timeout: float = DEFAULT_TIMEOUT) -> Frame:
        if self._stash:
            return self._stash.popleft()
        if self._eof:
            raise AssertionError("catalogd closed its stdout" + self.diag())
        try:
            item = self._q.get(timeout=max(timeout, 0.001))
        except queue.Empty:
            raise AssertionError(f"no message from catalogd within {timeout:.1f}s" + self.diag()) from None
        if item is EOF:
            self._eof = True
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
            raise AssertionError("catalogd closed its stdout" + self.diag())
        if isinstance(item, Violation):
            raise AssertionError(f"{item.headline}: {item.what}" + self.diag())
        return item

    def read_message(self, timeout: float = DEFAULT_TIMEOUT) -> Any:
        return self.read_frame(timeout).obj

    def unread(self, frame: Frame) -> None:
        self._stash.appendleft(frame)

    def read_until(self, pred: Callable[[Any], bool], timeout: float = DEFAULT_TIMEOUT) -> tuple[Frame, list[Any]]:
        """Read until a message satisfies `pred`; returns it and the messages read before it."""
        deadline = time.monotonic() + timeout
        others: list[Any] = []
        while True:
            remaining = deadline - time.monotonic()
            try:
                frame = self.read_frame(remaining)
            except AssertionError as e:
                raise AssertionError(f"{e}\n  messages read while waiting: {short(others, 2000)}") from None
            if pred(frame.obj):
                return frame, others
            others.append(frame.obj)

    def read_until_response(self, id: Any, timeout: float = DEFAULT_TIMEOUT) -> tuple[Any, list[Any]]:
        frame, others = self.read_until(lambda m: is_response(m) and same_id(m["id"], id), timeout)
        return frame.obj, others

    def read_responses(self, ids: Iterable[Any], timeout: float = DEFAULT_TIMEOUT) -> tuple[dict, list[Any]]:
        """Read until every id in `ids` has a response; returns {repr(id): response} and the other messages."""
        wanted = {repr(i): i for i in ids}
        got: dict[str, Any] = {}
        others: list[Any] = []
        deadline = time.monotonic() + timeout
        while len(got) < len(wanted):
            remaining = deadline - time.monotonic()
            try:
                msg = self.read_message(remaining)
            except AssertionError as e:
                missing = [k for k in wanted if k not in got]
                raise AssertionError(f"{e}\n  still waiting for ids {short(missing, 500)}") from None
            key = repr(msg.get("id")) if isinstance(msg, dict) else None
            if is_response(msg) and key in wanted and same_id(msg["id"], wanted[key]):
                assert key not in got, f"two responses to id {key}: {short(got[key])} and {short(msg)}"
                got[key] = msg
            else:
                others.append(msg)
        return got, others

    def expect_no_message(self, seconds: float = 0.3) -> None:
        if self._stash:
            raise AssertionError(f"unexpected message from catalogd: {short(self._stash[0].obj)}")
        try:
            item = self._q.get(timeout=seconds)
        except queue.Empty:
            return
        if isinstance(item, Frame):
            raise AssertionError(f"unexpected message from catalogd: {short(item.obj)}" + self.diag())
        if item is EOF:
            self._eof = True
            raise AssertionError("catalogd closed its stdout" + self.diag())
        raise AssertionError(f"{item.headline}: {item.what}" + self.diag())

    # ------------------------------------------------------------ writing

    def frame(self, body: bytes | str) -> bytes:
        return lsp_frame(body) if self.framing == "lsp" else ndjson_frame(body)

    def send_raw(self, data: bytes, timeout: float = 60.0) -> None:
        """Write `data` to stdin in full. Large writes run in a thread so a daemon that stops reading fails the test instead of hanging it."""
        self._requests.written(data)
        self._write(data, timeout)

    def _write(self, data: bytes, timeout: float = 60.0) -> None:
        if len(data) <= 1 << 20:
            self._write_all(data)
            return
        error: list[BaseException] = []

        def run() -> None:
            try:
                self._write_all(data)
            except BaseException as e:  # reported below
                error.append(e)

        t = threading.Thread(target=run, daemon=True)
        t.start()
        t.join(timeout)
        if t.is_alive():
            raise AssertionError(f"catalogd did not read {len(data)} bytes from stdin within {timeout}s" + self.diag())
        if error:
            raise error[0]

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        fd = self.proc.stdin.fileno()
        with self._write_lock:
            while view:
                written = os.write(fd, view[: 1 << 20])
                view = view[written:]

    def send(self, obj: Any) -> None:
        data = self.frame(dumps(obj))
        self._requests.written(data, obj)
        self._write(data)

    def new_id(self) -> int:
        i = self._next_id
        self._next_id += 1
        return i

    def request(self, method: Any, params: Any = ABSENT, id: Any = ABSENT) -> Any:
        """Send a request; returns its id (a fresh integer unless given)."""
        if id is ABSENT:
            id = self.new_id()
        self.send(request_obj(method, params, id))
        return id

    def notify(self, method: str, params: Any = ABSENT) -> None:
        self.send(request_obj(method, params))

    def call(self, method: str, params: Any = ABSENT, id: Any = ABSENT, timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Send a request and return its response; messages read past are kept in `unclaimed`."""
        id = self.request(method, params, id)
        resp, others = self.read_until_response(id, timeout)
        self.unclaimed.extend(others)
        return resp

    def result(self, method: str, params: Any = ABSENT, timeout: float = DEFAULT_TIMEOUT) -> Any:
        id = self.new_id()
        resp = self.call(method, params, id=id, timeout=timeout)
        return assert_result(resp, id)

    def echo_ok(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        """The daemon still answers `daemon/echo` correctly."""
        probe = {"probe": self._next_id, "text": "still alive \u00e9"}
        id = self.new_id()
        self.send(request_obj("daemon/echo", probe, id))
        resp, others = self.read_until_response(id, timeout)
        assert not others, f"unexpected messages before the echo reply: {short(others, 2000)}"
        assert_result(resp, id, probe)

    def initialize(self, params: Any = ABSENT, initialized: bool = True) -> dict:
        if params is ABSENT:
            params = {"clientInfo": {"name": "e2e", "version": "1"}}
        id = self.new_id()
        resp = self.call("initialize", params, id=id)
        result = assert_result(resp, id)
        assert isinstance(result, dict), short(result)
        if initialized:
            self.notify("initialized", {})
        return result

    # ------------------------------------------------------------ process

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close_stdin(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def wait(self, timeout: float = DEFAULT_TIMEOUT) -> int:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"catalogd did not exit within {timeout}s" + self.diag()) from None

    def close(self, timeout: float = DEFAULT_TIMEOUT) -> int:
        """Close stdin (end of input) and return the exit status."""
        self.close_stdin()
        return self.wait(timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.send_signal(signal.SIGKILL)
            except OSError:
                pass

    def finish(self) -> None:
        """Teardown: end the process (politely, then by force) and release files."""
        if self.proc.poll() is None:
            self.close_stdin()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()
                self.proc.wait(timeout=5)
        self._gate.set()
        if self._reader is not None:
            self._reader.join(timeout=5)
        for f in (self.proc.stdout, self.proc.stdin):
            try:
                if f:
                    f.close()
            except OSError:
                pass
        try:
            self._stderr_file.close()
        except OSError:
            pass
        with _LIVE_LOCK:
            LIVE_DAEMONS.discard(self)

    def rss_kb(self) -> int:
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise AssertionError("VmRSS not found")


def kill_all_live_daemons() -> None:
    with _LIVE_LOCK:
        daemons = list(LIVE_DAEMONS)
    for d in daemons:
        d.kill()


def recover_echo(d: Daemon, initialize: bool = False, attempts: int = 3) -> int:
    """Resynchronise after bytes the daemon cannot frame: a few blank lines,
    then a request; -32700 errors with id null may come first, nothing else
    may. Returns how many parse errors came before the answer."""
    parse_errors = 0
    for attempt in range(attempts):
        d.send_raw(b"\r\n\r\n")
        if initialize:
            id = f"init-{attempt}"
            d.send(request_obj("initialize", {}, id))
        else:
            id = f"recover-{attempt}"
            d.send(request_obj("daemon/echo", ["ok"], id))
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                msg = d.read_message(timeout=max(deadline - time.monotonic(), 0.01))
            except AssertionError:
                if not d.alive:
                    raise
                break
            if isinstance(msg, dict) and msg.get("id") == id:
                if not initialize:
                    assert_result(msg, id, ["ok"])
                return parse_errors
            if isinstance(msg, dict) and str(msg.get("id", "")).startswith(("init-", "recover-")):
                continue  # an earlier attempt's reply that arrived late is fine
            assert_parse_error(msg)
            parse_errors += 1
    raise AssertionError(f"catalogd did not resynchronise after {attempts} attempts" + d.diag())


# ---------------------------------------------------------------- one-shot runs


def run_catalogd(args: list[str], *, env: dict[str, str], cwd: Path, timeout: float = 30.0, stdin: bytes = b"") -> subprocess.CompletedProcess:
    try:
        return subprocess.run(
            [str(binary_path()), *args], input=stdin, capture_output=True, env=env, cwd=str(cwd), timeout=timeout
        )
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"catalogd {' '.join(args)} did not finish within {timeout}s; stderr: {e.stderr!r}") from None


# ---------------------------------------------------------------- corpus


def load_corpus() -> list[dict]:
    with open(QUOTES_CORPUS_PATH, encoding="utf-8") as f:
        return json.load(f)


UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
VERSION_RE = re.compile(r"^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$")


# ---------------------------------------------------------------- products

CONFLICT = -32009

PRODUCT_KEYS = {"id", "nameKo", "nameEn", "price", "supplier", "createdAt", "updatedAt", "version", "imageUrl"}
PRODUCT_SORTS = ("newest", "priceAsc", "priceDesc", "name")
RFC3339_UTC_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")


def rfc3339_micros(text: str) -> int:
    """Microseconds since the epoch of an RFC 3339 UTC time (`...Z`, any fraction)."""
    import datetime

    assert isinstance(text, str) and RFC3339_UTC_RE.match(text), f"not an RFC 3339 UTC time: {text!r}"
    head, _, frac = text[:-1].partition(".")
    moment = datetime.datetime.strptime(head, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
    micros = int((frac + "000000")[:6]) if frac else 0
    return int(moment.timestamp()) * 1_000_000 + micros


def assert_product(p: Any, **expected: Any) -> dict:
    """`p` has exactly the Product members with the right types (and the
    `expected` values, compared strictly)."""
    assert isinstance(p, dict), f"expected a Product, got {short(p)}"
    assert set(p) == PRODUCT_KEYS, f"Product members: expected {sorted(PRODUCT_KEYS)}, got {sorted(p)} in {short(p)}"
    assert isinstance(p["id"], str) and p["id"], short(p)
    assert isinstance(p["nameKo"], str) and p["nameKo"], short(p)
    assert p["nameEn"] is None or isinstance(p["nameEn"], str), short(p)
    assert type(p["price"]) is int and p["price"] >= 0, short(p)
    s = p["supplier"]
    assert s is None or (isinstance(s, dict) and set(s) == {"id", "name"} and isinstance(s["id"], str)
                         and isinstance(s["name"], str)), short(p)
    for k in ("createdAt", "updatedAt"):
        assert p[k] is None or RFC3339_UTC_RE.match(p[k]), f"{k} is not an RFC 3339 UTC time: {short(p)}"
    assert type(p["version"]) is int and p["version"] >= 1, short(p)
    assert p["imageUrl"] is None or re.match(r"(?i)(https?|file)://", p["imageUrl"]), short(p)
    for k, v in expected.items():
        assert strict_equal(p[k], v), f"product {k}: expected {v!r}, got {p[k]!r} in {short(p)}"
    return p


def assert_page(page: Any) -> dict:
    """`page` is a ProductPage `{items, nextCursor, totalCount}` of valid products."""
    assert isinstance(page, dict) and set(page) == {"items", "nextCursor", "totalCount"}, short(page)
    assert isinstance(page["items"], list), short(page)
    assert page["nextCursor"] is None or (isinstance(page["nextCursor"], str) and page["nextCursor"]), short(page)
    assert type(page["totalCount"]) is int and page["totalCount"] >= 0, short(page)
    for p in page["items"]:
        assert_product(p)
    return page


def send_pipelined(d: "Daemon", calls: list[tuple[str, Any]]) -> list[int]:
    """Send every `(method, params)` in one write; returns their ids, in order."""
    ids = [d.new_id() for _ in calls]
    d.send_raw(b"".join(d.frame(dumps(request_obj(m, p, i))) for i, (m, p) in zip(ids, calls)))
    return ids


def read_stream(d: "Daemon", ids: Iterable[int], timeout: float = 30.0) -> list[Any]:
    """Every message, in arrival order, until each of `ids` has its response."""
    pending = set(ids)
    out: list[Any] = []
    deadline = time.monotonic() + timeout
    while pending:
        try:
            msg = d.read_message(deadline - time.monotonic())
        except AssertionError as e:
            raise AssertionError(f"{e}\n  still waiting for {len(pending)} responses, e.g. {sorted(pending)[:5]}") from None
        if is_response(msg) and type(msg["id"]) is int:
            assert msg["id"] in pending, f"unexpected or second response: {short(msg)}"
            pending.discard(msg["id"])
        out.append(msg)
    return out


def pipeline(d: "Daemon", calls: list[tuple[str, Any]], timeout: float = 30.0) -> tuple[list[Any], list[Any]]:
    """Send every `(method, params)` in one write, then read all the responses.
    Returns the responses in request order and the other messages, in arrival order."""
    ids = send_pipelined(d, calls)
    stream = read_stream(d, ids, timeout)
    by_id = {m["id"]: m for m in stream if is_response(m)}
    return [by_id[i] for i in ids], [m for m in stream if not is_response(m)]


def walk_products(d: "Daemon", params: dict, max_pages: int = 1000, between: Callable[[int, dict], None] | None = None) -> list[dict]:
    """Every page of `products/list` with `params`, following `nextCursor` to the end.
    `between(n, page)` runs after page n (for changes between page requests)."""
    pages = []
    cursor = None
    for n in range(max_pages):
        p = dict(params)
        if cursor is not None:
            p["cursor"] = cursor
        page = assert_page(d.result("products/list", p))
        pages.append(page)
        cursor = page["nextCursor"]
        if cursor is None:
            return pages
        assert page["items"], f"a page with a nextCursor has no items: {short(page)}"
        if between is not None:
            between(n, page)
    raise AssertionError(f"products/list {params} did not end within {max_pages} pages")
