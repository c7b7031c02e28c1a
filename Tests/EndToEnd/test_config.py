"""Settings: flags win over the environment, the environment over the JSON
config file (`--config`, else `$XDG_CONFIG_HOME/catalogd/config.json`).
Observed through which fake upstream gets the request, `daemon/status`, and
the limits' behaviour."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from catalogd_e2e import (
    UPSTREAM_UNAVAILABLE,
    assert_error,
    assert_parse_error,
    assert_result,
    dumps,
    lsp_frame,
    request_obj,
)


def write_config(path: Path, **settings) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings), "utf-8")
    return path


def hits(server) -> int:
    return sum(1 for r in server.requests if r.path.endswith("/random"))


def ask_random(d) -> dict:
    d.initialize()
    return d.call("quotes/random", {}, id="r")


def test_quotes_url_precedence_flag_env_config(spawn, tmp_path, quotable_factory):
    a, b, c = quotable_factory(), quotable_factory(), quotable_factory()
    config = write_config(tmp_path / "config.json", quotesUrl=a.url)

    d = spawn("--config", str(config), "--quotes-url", c.url, env={"CATALOGD_QUOTES_URL": b.url})
    assert_result(ask_random(d), "r")
    assert (hits(a), hits(b), hits(c)) == (0, 0, 1), "the flag wins"

    d = spawn("--config", str(config), env={"CATALOGD_QUOTES_URL": b.url})
    assert_result(ask_random(d), "r")
    assert (hits(a), hits(b), hits(c)) == (0, 1, 1), "the environment wins over the config file"

    d = spawn("--config", str(config))
    assert_result(ask_random(d), "r")
    assert (hits(a), hits(b), hits(c)) == (1, 1, 1), "the config file is used when nothing else is set"
    assert d.result("daemon/status")["backends"]["quotes"] != "embedded"

    d = spawn()
    assert_result(ask_random(d), "r")
    assert (hits(a), hits(b), hits(c)) == (1, 1, 1), "no setting: the embedded corpus"
    assert d.result("daemon/status")["backends"]["quotes"] == "embedded"


def test_default_config_file_location(spawn, quotable):
    write_config(Path(spawn.env()["XDG_CONFIG_HOME"]) / "catalogd" / "config.json", quotesUrl=quotable.url)
    d = spawn()
    assert_result(ask_random(d), "r")
    assert hits(quotable) == 1, "$XDG_CONFIG_HOME/catalogd/config.json is read when --config is not given"


def test_explicit_config_replaces_the_default_file(spawn, tmp_path, quotable):
    write_config(Path(spawn.env()["XDG_CONFIG_HOME"]) / "catalogd" / "config.json", quotesUrl=quotable.url)
    other = write_config(tmp_path / "other.json", logLevel="info")
    d = spawn("--config", str(other))
    assert_result(ask_random(d), "r")
    assert hits(quotable) == 0, "--config FILE is used instead of the default file, not merged with it"


def test_data_dir_precedence(spawn, tmp_path):
    from_config, from_env, from_flag = tmp_path / "dd-config", tmp_path / "dd-env", tmp_path / "dd-flag"
    config = write_config(tmp_path / "config.json", dataDir=str(from_config))

    def data_dir_of(d) -> str:
        d.initialize()
        return os.path.realpath(d.result("daemon/status")["dataDir"])

    d = spawn("--config", str(config), "--data-dir", str(from_flag), data_dir=None, env={"CATALOGD_DATA_DIR": str(from_env)})
    assert data_dir_of(d) == os.path.realpath(from_flag)
    d = spawn("--config", str(config), data_dir=None, env={"CATALOGD_DATA_DIR": str(from_env)})
    assert data_dir_of(d) == os.path.realpath(from_env)
    d = spawn("--config", str(config), data_dir=None)
    assert data_dir_of(d) == os.path.realpath(from_config)
    d = spawn(data_dir=None)
    assert data_dir_of(d) == os.path.realpath(Path(spawn.env()["XDG_DATA_HOME"]) / "catalogd")


def test_client_id_lives_in_the_configured_data_dir(spawn, tmp_path):
    data = tmp_path / "dd-env"
    first = spawn(data_dir=None, env={"CATALOGD_DATA_DIR": str(data)})
    id1 = first.initialize()["clientId"]
    assert first.close() == 0
    second = spawn("--data-dir", str(data), data_dir=None)
    assert second.initialize()["clientId"] == id1


def test_max_message_bytes_precedence(spawn, tmp_path):
    config = write_config(tmp_path / "config.json", maxMessageBytes=1000)
    body = dumps(request_obj("daemon/echo", ["m" * 2000], "big"))

    d = spawn("--config", str(config))
    d.initialize()
    d.send_raw(lsp_frame(body))
    assert_parse_error(d.read_message())
    d.echo_ok()

    d = spawn("--config", str(config), "--max-message-bytes", "5000")
    d.initialize()
    d.send_raw(lsp_frame(body))
    assert_result(d.read_message(), "big", ["m" * 2000])

    d = spawn("--config", str(config), env={"CATALOGD_MAX_MESSAGE_BYTES": "5000"})
    d.initialize()
    d.send_raw(lsp_frame(body))
    assert_result(d.read_message(), "big", ["m" * 2000])

    d = spawn("--config", str(config), "--max-message-bytes", "1000", env={"CATALOGD_MAX_MESSAGE_BYTES": "5000"})
    d.initialize()
    d.send_raw(lsp_frame(body))
    assert_parse_error(d.read_message())


def test_max_depth_from_config(spawn, tmp_path):
    config = write_config(tmp_path / "config.json", maxDepth=5)
    d = spawn("--config", str(config))
    d.initialize()
    d.send_raw(lsp_frame(dumps(request_obj("daemon/echo", [[[[[[[[1]]]]]]]], "deep"))))
    assert_parse_error(d.read_message())
    d.echo_ok()


@pytest.mark.parametrize("layer", ["config", "env", "flag"])
def test_upstream_timeout_precedence(spawn, tmp_path, quotable, layer):
    quotable.route("random", json={"_id": "x", "content": "c", "author": "a", "tags": [], "length": 1}, delay=3.0)
    settings = {"quotesUrl": quotable.url, "upstreamTimeoutMs": 60000}
    env: dict[str, str] = {}
    args: list[str] = []
    if layer == "config":
        settings["upstreamTimeoutMs"] = 300
    elif layer == "env":
        env["CATALOGD_UPSTREAM_TIMEOUT_MS"] = "300"
    else:
        env["CATALOGD_UPSTREAM_TIMEOUT_MS"] = "60000"
        args = ["--upstream-timeout-ms", "300"]
    config = write_config(tmp_path / "config.json", **settings)
    d = spawn("--config", str(config), *args, env=env)
    d.initialize()
    started = time.monotonic()
    resp = d.call("quotes/random", {}, id="slow", timeout=10)
    elapsed = time.monotonic() - started
    assert_error(resp, UPSTREAM_UNAVAILABLE, id="slow", data={"service": "quotes", "retryable": True})
    assert elapsed < 2.5, f"upstreamTimeoutMs 300 from the {layer} took {elapsed:.2f}s"


@pytest.mark.parametrize(
    "content",
    ["{not json", '{"maxDepth": "deep"}', "[1,2]"],
    ids=["malformed", "wrong-type", "not-an-object"],
)
def test_bad_config_file_is_reported_and_the_daemon_does_not_start(spawn, tmp_path, content):
    config = tmp_path / "bad-config.json"
    config.write_text(content, "utf-8")
    d = spawn("--config", str(config))
    status = d.wait(5)
    assert status != 0, "a bad config file must stop the start with an error"
    assert "bad-config.json" in d.stderr_text() or "config" in d.stderr_text().lower(), d.stderr_text()


def test_missing_explicit_config_file_is_an_error(spawn, tmp_path):
    d = spawn("--config", str(tmp_path / "does-not-exist.json"))
    status = d.wait(5)
    assert status != 0
    assert "does-not-exist.json" in d.stderr_text(), d.stderr_text()


def test_framing_precedence(spawn, tmp_path):
    """--framing beats CATALOGD_FRAMING beats config "framing": observed by
    sending NDJSON to a daemon forced to LSP (a parse error in LSP framing)."""
    config = write_config(tmp_path / "config.json", framing="lsp")
    line = dumps(request_obj("initialize", {}, 1)) + b"\n"

    d = spawn("--config", str(config), "--framing", "ndjson", env={"CATALOGD_FRAMING": "lsp"}, framing="ndjson")
    d.send_raw(line)
    assert_result(d.read_message(), 1)

    d = spawn("--config", str(config), env={"CATALOGD_FRAMING": "ndjson"}, framing="ndjson")
    d.send_raw(line)
    assert_result(d.read_message(), 1)

    d = spawn("--config", str(config), framing="lsp")
    d.send_raw(line + b"\r\n")
    assert_parse_error(d.read_message())


def test_log_level_precedence(spawn, tmp_path):
    config = write_config(tmp_path / "config.json", logLevel="error")

    def session_logs(d) -> str:
        d.initialize()
        d.echo_ok()
        d.call("quotes/random", {}, id="q")
        assert d.close() == 0
        return d.stderr_text()

    assert session_logs(spawn("--config", str(config))) == "", "logLevel error from the config file: a clean session logs nothing"
    assert session_logs(spawn("--config", str(config), env={"CATALOGD_LOG_LEVEL": "debug"})).strip(), "the environment wins"
    assert session_logs(
        spawn("--config", str(config), "--log-level", "error", env={"CATALOGD_LOG_LEVEL": "debug"})
    ) == "", "the flag wins"
