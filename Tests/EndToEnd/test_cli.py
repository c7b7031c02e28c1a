"""The command line: `catalogd call METHOD [PARAMS_JSON]`, `--help`,
`--version`, bad usage; logs on stderr only; `--trace FILE`."""

from __future__ import annotations

import json
import re
from datetime import datetime

import pytest

from catalogd_e2e import (
    VERSION_RE,
    assert_result,
    load_corpus,
    request_obj,
    run_catalogd,
    strict_loads,
)


@pytest.fixture
def cli(spawn, tmp_path):
    data = tmp_path / "cli-data"

    def run(*args: str, env: dict | None = None, timeout: float = 30):
        e = spawn.env({"CATALOGD_DATA_DIR": str(data), **(env or {})})
        return run_catalogd(list(args), env=e, cwd=tmp_path, timeout=timeout)

    run.data = data
    return run


def error_object_from_stderr(stderr: bytes) -> dict:
    """The error object JSON printed on stderr (logs may surround it)."""
    text = stderr.decode("utf-8", "replace")
    try:
        obj = json.loads(text)
        if isinstance(obj, dict) and "code" in obj:
            return obj
    except ValueError:
        pass
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict) and "code" in obj:
                return obj
    raise AssertionError(f"no error object JSON on stderr: {text!r}")


def test_call_echo_prints_the_result(cli):
    out = cli("call", "daemon/echo", '{"a":1}')
    assert out.returncode == 0, out
    assert strict_loads(out.stdout) == {"a": 1}
    assert out.stdout.strip() == b'{"a":1}', f"expected exactly the result JSON on stdout, got {out.stdout!r}"


def test_call_without_params_prints_null(cli):
    out = cli("call", "daemon/echo")
    assert out.returncode == 0, out
    assert out.stdout.strip() == b"null"


def test_call_keeps_numbers_exact(cli):
    out = cli("call", "daemon/echo", "[9007199254740993,1.5]")
    assert out.returncode == 0, out
    assert out.stdout.strip() == b"[9007199254740993,1.5]"


def test_call_unknown_method_prints_the_error_on_stderr_and_exits_1(cli):
    out = cli("call", "nope")
    assert out.returncode == 1, out
    assert out.stdout == b"", f"stdout must stay empty on error: {out.stdout!r}"
    err = error_object_from_stderr(out.stderr)
    assert err["code"] == -32601 and err["data"]["method"] == "nope", err


def test_call_invalid_params_exits_1(cli):
    out = cli("call", "quotes/list", '{"limit":0}')
    assert out.returncode == 1, out
    err = error_object_from_stderr(out.stderr)
    assert err["code"] == -32602 and err["data"]["field"] == "limit", err


def test_call_quotes_random_prints_a_quote(cli):
    out = cli("call", "quotes/random")
    assert out.returncode == 0, out
    quote = strict_loads(out.stdout)
    assert set(quote) == {"id", "content", "author", "tags", "length"}, quote
    assert (quote["content"], quote["author"]) in {(q["content"], q["author"]) for q in load_corpus()}


def test_call_status_uses_the_data_dir_from_the_environment(cli):
    out = cli("call", "daemon/status")
    assert out.returncode == 0, out
    status = strict_loads(out.stdout)
    import os

    assert os.path.realpath(status["dataDir"]) == os.path.realpath(cli.data)


@pytest.mark.parametrize(
    "args",
    [
        ["call"],
        ["call", "daemon/echo", "{not json"],
        ["call", "daemon/echo", "[1]", "extra"],
        ["--no-such-option"],
        ["--log-level", "loud"],
        ["--max-depth", "abc"],
        ["frobnicate"],
    ],
    ids=["call-without-method", "call-bad-params-json", "call-extra-arg", "unknown-option", "bad-log-level", "bad-number", "unknown-command"],
)
def test_bad_usage_exits_2(cli, args):
    out = cli(*args, timeout=10)
    assert out.returncode == 2, f"catalogd {' '.join(args)}: expected exit 2 (bad usage), got {out.returncode}; stderr {out.stderr!r}"
    assert out.stdout == b"", out.stdout
    assert out.stderr.strip(), "bad usage should say what is wrong on stderr"


def test_call_accepts_options_after_the_method(cli, tmp_path):
    """`catalogd call METHOD [PARAMS_JSON] [OPTIONS]` as --help shows it."""
    other = tmp_path / "other-data"
    out = cli("call", "daemon/status", "{}", "--data-dir", str(other))
    assert out.returncode == 0, out
    import os

    assert os.path.realpath(strict_loads(out.stdout)["dataDir"]) == os.path.realpath(other)


def test_call_with_an_unreachable_upstream_exits_1_with_the_error(cli):
    from quotable_server import closed_port

    out = cli("call", "quotes/random", "{}", "--quotes-url", f"http://127.0.0.1:{closed_port()}", "--upstream-timeout-ms", "500")
    assert out.returncode == 1, out
    assert out.stdout == b""
    err = error_object_from_stderr(out.stderr)
    assert err["code"] == -32020 and err["data"]["retryable"] is True, err


def test_help(cli):
    out = cli("--help")
    assert out.returncode == 0, out
    text = out.stdout.decode()
    for word in ("call", "--framing", "--data-dir", "--config", "--log-level", "--trace", "--quotes-url", "--version"):
        assert word in text, f"--help does not mention {word}: {text}"


def test_version(cli):
    out = cli("--version")
    assert out.returncode == 0, out
    m = re.fullmatch(rb"catalogd (\S+)\n?", out.stdout)
    assert m and VERSION_RE.match(m.group(1).decode()), out.stdout


def test_logs_go_to_stderr_only(spawn):
    d = spawn("--log-level", "debug")
    d.initialize()
    d.echo_ok()
    d.call("nope", {}, id="x")
    d.send_raw(d.frame(b"{bad json"))
    d.read_message()
    d.call("quotes/random", {}, id="q")
    d.call("daemon/status", {}, id="s")
    assert d.close() == 0
    assert not d.violations  # every byte on stdout was a framed protocol message
    assert d.stderr_text().strip(), "--log-level debug should log something on stderr"


def test_log_level_from_environment(spawn):
    d = spawn(env={"CATALOGD_LOG_LEVEL": "trace"})
    d.initialize()
    d.echo_ok()
    assert d.close() == 0
    assert d.stderr_text().strip(), "CATALOGD_LOG_LEVEL=trace should log something on stderr"


def test_log_level_error_is_quiet_in_a_clean_session(spawn):
    d = spawn("--log-level", "error")
    d.initialize()
    d.echo_ok()
    d.call("quotes/random", {}, id="q")
    assert_result(d.call("shutdown", id="s"), "s", None)
    d.notify("exit")
    assert d.wait() == 0
    assert d.stderr_text() == "", f"a clean session logs nothing at level error: {d.stderr_text()!r}"


TRACE_LINE = re.compile(r"^(\S+) (<-|->) (.*)$")


def test_trace_records_every_message_in_and_out(spawn, tmp_path, framing):
    trace = tmp_path / "trace.log"
    d = spawn("--trace", str(trace), framing=framing)
    d.initialize()
    d.send(request_obj("daemon/echo", {"traced": "\u00e9"}, "t1"))
    d.read_message()
    d.send_raw(d.frame(b"{broken"))
    d.read_message()
    if framing == "lsp":  # a body over several lines, and bytes that are not UTF-8: still one line each
        d.send_raw(d.frame(b'{"jsonrpc":"2.0",\n"id":"t2",\r\n"method":"daemon/echo","params":["\\n"]}'))
        d.read_message()
        d.send_raw(d.frame(b'\xff\n\xfe'))
        d.read_message()
    assert d.close() == 0
    lines = trace.read_bytes().decode("utf-8", "replace").split("\n")
    assert lines[-1] == "", "the trace ends with a newline"
    lines = lines[:-1]
    entries = []
    for line in lines:
        m = TRACE_LINE.match(line)
        assert m, f"trace line is not 'TIME <-|-> JSON': {line!r}"
        when = datetime.fromisoformat(m.group(1).replace("Z", "+00:00"))
        assert when.tzinfo is not None, f"trace time must be RFC 3339 with an offset: {m.group(1)}"
        entries.append((m.group(2), m.group(3)))
    inbound = []
    for arrow, body in entries:
        if arrow == "<-":
            try:
                inbound.append(json.loads(body))
            except ValueError:
                inbound.append(body)  # the bad message, recorded as received
    outbound = [json.loads(b) for arrow, b in entries if arrow == "->"]
    assert {"jsonrpc": "2.0", "id": "t1", "method": "daemon/echo", "params": {"traced": "\u00e9"}} in inbound, entries
    assert any(m.get("method") == "initialize" for m in inbound if isinstance(m, dict))
    assert any(m.get("method") == "initialized" for m in inbound if isinstance(m, dict)), "notifications are traced too"
    assert {"jsonrpc": "2.0", "id": "t1", "result": {"traced": "\u00e9"}} in outbound, entries
    assert any(isinstance(m, dict) and m.get("error", {}).get("code") == -32700 for m in outbound), "errors are traced too"
    # The request is recorded before its reply.
    idx_in = next(i for i, (a, b) in enumerate(entries) if a == "<-" and '"t1"' in b)
    idx_out = next(i for i, (a, b) in enumerate(entries) if a == "->" and '"t1"' in b)
    assert idx_in < idx_out
    times = [datetime.fromisoformat(TRACE_LINE.match(line).group(1).replace("Z", "+00:00")) for line in lines]
    assert times == sorted(times), "trace times go forward"


def test_stdout_is_protocol_only_even_at_trace_level(spawn, framing):
    d = spawn("--log-level", "trace", framing=framing)
    d.initialize()
    for _ in range(5):
        d.echo_ok()
    d.result("quotes/random", {})
    assert d.close() == 0
    assert not d.violations


def test_secrets_are_never_logged_or_returned(spawn):
    secret = "kakao-secret-5f1e9c"
    d = spawn("--log-level", "trace", env={"KAKAO_REST_API_KEY": secret})
    d.initialize()
    d.result("daemon/status")
    d.result("rpc.discover")
    d.call("nope", id="n")
    assert d.close() == 0
    assert secret not in d.stderr_text()
    assert all(secret.encode() not in f.body for f in d.recent)
