"""Every JSONTestSuite parsing case (the repo's copy under
Tests/ProtocolTests/JSONTestSuite/test_parsing) as one LSP message body
through one daemon:

- y_ (valid JSON): never -32700. None of them is a JSON-RPC request, so the
  reply is exactly what JSON-RPC prescribes for valid JSON that is not a
  request: one -32600 (id null unless the object has a readable "id"), or
  for a non-empty array an array of one -32600 per element (an empty array
  is one -32600 object).
- n_ (must be rejected): exactly one -32700 with id null.
- i_ (either): one of the above.

After every case the same daemon still answers `daemon/echo`.
"""

from __future__ import annotations

import json

import pytest

from catalogd_e2e import (
    JSON_TEST_SUITE_DIR,
    assert_invalid_request,
    assert_parse_error,
    lsp_frame,
    short,
)

FILES = sorted(p.name for p in JSON_TEST_SUITE_DIR.glob("*.json"))


def test_the_suite_is_present():
    assert len(FILES) == 318, f"expected the 318 JSONTestSuite files in {JSON_TEST_SUITE_DIR}, found {len(FILES)}"


def readable_id(value):
    """The id a -32600 reply carries: the member "id" when it is a valid id
    (string or number), else null."""
    if isinstance(value, dict) and "id" in value:
        id = value["id"]
        if isinstance(id, (str, int, float)) and not isinstance(id, bool):
            return id
    return None


def expected_for_valid(data: bytes):
    """("one", id): one -32600 object; ("batch", [ids]): an array of -32600 objects."""
    value = json.loads(data.decode("utf-8"))
    if isinstance(value, list) and value:
        return ("batch", [readable_id(v) for v in value])
    return ("one", readable_id(value))


def check_valid_reply(reply, expected, name: str) -> None:
    kind, ids = expected
    if kind == "one":
        assert isinstance(reply, dict), f"{name}: expected one -32600 object, got {short(reply)}"
        assert_invalid_request(reply, id=ids)
    else:
        assert isinstance(reply, list), f"{name}: a non-empty batch gets an array, got {short(reply)}"
        assert len(reply) == len(ids), f"{name}: expected {len(ids)} errors, got {short(reply)}"
        for r, id in zip(reply, ids):
            assert_invalid_request(r, id=id)


@pytest.fixture(scope="module")
def suite_daemon(shared_daemon_factory):
    return shared_daemon_factory("lsp")


@pytest.mark.timeout_s(30)
@pytest.mark.parametrize("name", FILES)
def test_json_test_suite_case(suite_daemon, name):
    d = suite_daemon.get()
    data = (JSON_TEST_SUITE_DIR / name).read_bytes()
    d.send_raw(lsp_frame(data))
    reply = d.read_message()
    if name.startswith("y_"):
        check_valid_reply(reply, expected_for_valid(data), name)
    elif name.startswith("n_"):
        assert isinstance(reply, dict), f"{name} must be rejected with one -32700 object, got {short(reply)}"
        assert_parse_error(reply)
    else:
        assert name.startswith("i_"), name
        if isinstance(reply, dict) and reply.get("error", {}).get("code") == -32700:
            assert_parse_error(reply)
        else:
            try:
                expected = expected_for_valid(data)
            except (UnicodeDecodeError, ValueError):
                # Python rejects it but the daemon accepted it: the reply must still be the not-a-request shape.
                expected = ("batch", [None] * len(reply)) if isinstance(reply, list) else ("one", None)
            check_valid_reply(reply, expected, name)
    d.echo_ok()
