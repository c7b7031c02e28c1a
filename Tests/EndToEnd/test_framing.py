"""Framing: detection (LSP `Content-Length` headers or NDJSON), replies in the
client's framing with exactly one `Content-Length` header, `--framing`, and
messages split or coalesced arbitrarily by the pipe."""

from __future__ import annotations

import time

import pytest

from catalogd_e2e import (
    assert_parse_error,
    assert_result,
    dumps,
    lsp_frame,
    ndjson_frame,
    recover_echo,
    request_obj,
)

# Session-level behaviour: the same through a forwarder to a shared daemon.
pytestmark = pytest.mark.through_forwarder


def echo_body(id, params=("hi",)) -> bytes:
    return dumps(request_obj("daemon/echo", list(params), id))


def init_body(id=0) -> bytes:
    return dumps(request_obj("initialize", {"clientInfo": {"name": "e2e"}}, id))


def test_lsp_detected_and_replies_carry_exactly_one_content_length_header(spawn):
    d = spawn(framing="lsp")
    d.send_raw(lsp_frame(init_body()))
    frame = d.read_frame()
    assert frame.framing == "lsp"
    assert frame.headers == [("Content-Length", str(len(frame.body)))]
    body = dumps(request_obj("daemon/echo", ["\uc548\ub155 \U0001F600 multi-byte"], 1))
    d.send_raw(lsp_frame(body))
    frame = d.read_frame()
    assert frame.headers == [("Content-Length", str(len(frame.body)))], "Content-Length counts bytes"
    assert_result(frame.obj, 1, ["\uc548\ub155 \U0001F600 multi-byte"])


def test_ndjson_detected_and_replies_are_lines(spawn):
    d = spawn(framing="ndjson")
    d.send_raw(ndjson_frame(init_body()))
    frame = d.read_frame()
    assert frame.framing == "ndjson"
    d.send_raw(ndjson_frame(echo_body(1, ["line\nbreak inside a string"])))
    assert_result(d.read_message(), 1, ["line\nbreak inside a string"])


@pytest.mark.parametrize("framing", ["lsp", "ndjson"])
def test_detection_skips_leading_blank_lines(spawn, framing):
    d = spawn(framing=framing)
    d.send_raw(b"\r\n\n \t\r\n\n")
    d.send_raw(d.frame(init_body()))
    assert d.read_frame().framing == framing
    d.echo_ok()


@pytest.mark.parametrize(
    "headers",
    [
        [("content-length", "{n}")],
        [("CONTENT-LENGTH", "{n}")],
        [("Content-Type", "application/vscode-jsonrpc; charset=utf-8"), ("Content-Length", "{n}")],
        [("Content-Length", "{n}"), ("Content-Type", "application/vscode-jsonrpc; charset=utf-8")],
        [("Content-Length", "{n}"), ("X-Unknown-Header", "whatever"), ("x-another", "")],
    ],
    ids=["lowercase", "uppercase", "content-type-first", "content-type-after", "unknown-headers"],
)
def test_lsp_header_variants_are_accepted(spawn, headers):
    d = spawn(framing="lsp")
    d.initialize()
    body = echo_body("h")
    d.send_raw(lsp_frame(body, [(k, v.format(n=len(body))) for k, v in headers]))
    assert_result(d.read_message(), "h", ["hi"])
    d.echo_ok()


def test_lsp_header_variants_as_first_message_select_lsp(spawn):
    d = spawn(framing="lsp")
    body = init_body()
    d.send_raw(lsp_frame(body, [("content-length", str(len(body)))]))
    assert d.read_frame().framing == "lsp"


def test_lsp_headers_with_bare_newlines_are_accepted(spawn):
    d = spawn(framing="lsp")
    d.initialize()
    body = echo_body("lf")
    d.send_raw(b"Content-Length: %d\n\n" % len(body) + body)
    assert_result(d.read_message(), "lf", ["hi"])
    d.echo_ok()


def test_ndjson_crlf_line_endings_are_accepted(spawn):
    d = spawn(framing="ndjson")
    d.send_raw(init_body() + b"\r\n")
    d.read_message()
    d.send_raw(echo_body("crlf") + b"\r\n")
    assert_result(d.read_message(), "crlf", ["hi"])


def test_ndjson_blank_lines_between_messages_are_ignored(spawn):
    d = spawn(framing="ndjson")
    d.initialize()
    d.send_raw(b"\n" * 5000 + b"   \n\t\n\r\n" + ndjson_frame(echo_body("after-blanks")))
    assert_result(d.read_message(), "after-blanks", ["hi"])
    d.expect_no_message(0.2)


def test_lsp_blank_lines_between_messages_are_ignored(spawn):
    d = spawn(framing="lsp")
    d.initialize()
    d.send_raw(b"\r\n" * 5000 + lsp_frame(echo_body("after-blanks")))
    assert_result(d.read_message(), "after-blanks", ["hi"])
    d.expect_no_message(0.2)


def test_ndjson_last_line_without_newline_is_processed_at_end_of_input(spawn):
    d = spawn(framing="ndjson")
    d.send_raw(ndjson_frame(init_body()))
    d.read_message()
    d.send_raw(echo_body("last"))  # no trailing newline
    d.close_stdin()
    assert_result(d.read_message(), "last", ["hi"])
    assert d.wait() == 0


@pytest.mark.parametrize("framing", ["lsp", "ndjson"])
def test_many_messages_in_one_write(spawn, framing):
    d = spawn(framing=framing)
    d.initialize()
    ids = list(range(100, 150))
    d.send_raw(b"".join(d.frame(echo_body(i, [i])) for i in ids))
    got, others = d.read_responses(ids)
    assert not others, others
    for i in ids:
        assert_result(got[repr(i)], i, [i])


@pytest.mark.parametrize("framing", ["lsp", "ndjson"])
def test_messages_written_one_byte_at_a_time(spawn, framing):
    d = spawn(framing=framing)
    d.initialize()
    data = d.frame(echo_body("byte1", ["\u00e9\U0001F600"])) + d.frame(echo_body("byte2", [{"k": [1, 2]}]))
    for i in range(len(data)):
        d.send_raw(data[i : i + 1])
        if i % 7 == 0:
            time.sleep(0.001)
    assert_result(d.read_message(), "byte1", ["\u00e9\U0001F600"])
    assert_result(d.read_message(), "byte2", [{"k": [1, 2]}])


@pytest.mark.parametrize("framing", ["lsp", "ndjson"])
def test_a_message_split_at_every_byte_boundary(spawn, framing):
    d = spawn(framing=framing)
    d.initialize()
    for split in range(1, len(d.frame(echo_body("s000", ["\u00e9"])))):
        id = f"s{split:03d}"
        data = d.frame(echo_body(id, ["\u00e9"]))
        d.send_raw(data[:split])
        time.sleep(0.002)
        d.send_raw(data[split:])
        assert_result(d.read_message(), id, ["\u00e9"])


@pytest.mark.parametrize("framing", ["lsp", "ndjson"])
def test_message_boundary_inside_a_write(spawn, framing):
    """One write ends a message and starts the next; the rest comes later."""
    d = spawn(framing=framing)
    d.initialize()
    a, b = d.frame(echo_body("a")), d.frame(echo_body("b"))
    d.send_raw(a + b[:5])
    assert_result(d.read_message(), "a", ["hi"])
    time.sleep(0.05)
    d.send_raw(b[5:])
    assert_result(d.read_message(), "b", ["hi"])


def test_forced_ndjson_treats_lsp_headers_as_bad_lines(spawn):
    d = spawn("--framing", "ndjson", framing="ndjson")
    d.send_raw(ndjson_frame(init_body()))
    d.read_message()
    body = echo_body("x")
    d.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body + b"\n")
    assert_parse_error(d.read_message())  # the header line
    assert_result(d.read_message(), "x", ["hi"])  # the blank line is skipped, the body line is a request
    d.echo_ok()


def test_forced_lsp_rejects_ndjson_then_recovers(spawn):
    d = spawn("--framing", "lsp", framing="lsp")
    d.initialize()
    d.send_raw(ndjson_frame(echo_body("nd")) + b"\r\n")
    assert_parse_error(d.read_message())
    recover_echo(d)


def test_forced_lsp_replies_in_lsp_even_when_first_bytes_look_like_json(spawn):
    d = spawn("--framing", "lsp", framing="lsp")
    d.send_raw(b"{}\r\n\r\n")
    assert_parse_error(d.read_message())
    recover_echo(d, initialize=True)


def test_forced_ndjson_replies_in_ndjson_even_when_first_bytes_look_like_headers(spawn):
    d = spawn("--framing", "ndjson", framing="ndjson")
    d.send_raw(b"Content-Length: 2\n")
    assert_parse_error(d.read_message())
    d.initialize()
    d.echo_ok()


@pytest.mark.direct_only  # the shared daemon refuses the option before any forwarder exists
def test_invalid_framing_option_is_bad_usage(spawn):
    d = spawn("--framing", "xml")
    status = d.close()
    assert status == 2, f"--framing xml should be bad usage (exit 2), got {status}" + d.diag()


def test_lsp_body_may_be_pretty_printed_over_many_lines(spawn):
    d = spawn(framing="lsp")
    d.initialize()
    body = b'{\n  "jsonrpc": "2.0",\r\n  "id": "pretty",\n\t"method": "daemon/echo",\n  "params": {"a": [1,\n 2]}\n}\n'
    d.send_raw(lsp_frame(body))
    assert_result(d.read_message(), "pretty", {"a": [1, 2]})
