"""Error messages in the session's language: initialize's locale (as in the
Language Server Protocol), else the daemon's LC_ALL, LC_MESSAGES or LANG, else
English; data stays English for programs."""

from __future__ import annotations

import pytest

from catalogd_e2e import INVALID_PARAMS, assert_error
from quotable_server import closed_port

HANGUL = range(0xAC00, 0xD7A4)


def korean(text: str) -> bool:
    return any(ord(c) in HANGUL for c in text)


def error_of(d, method, params):
    resp = d.call(method, params, id="e")
    return resp["error"]


@pytest.mark.parametrize("locale", ["ko", "ko-KR", "ko_KR.UTF-8"])
def test_initialize_locale_picks_korean(spawn, locale):
    d = spawn()
    d.initialize({"locale": locale})
    err = assert_error(d.call("products/list", {"limit": 0}, id="e"), INVALID_PARAMS, id="e",
                       data={"field": "limit", "reason": "must be between 1 and 100, got 0"})
    assert err["message"] == "매개변수 limit이(가) 올바르지 않습니다: 1에서 100 사이여야 합니다. 받은 값: 0.", err
    unknown = error_of(d, "quotes/list", {"tag": "wisdom"})
    assert unknown["message"] == "알 수 없는 매개변수 tag입니다. tags을(를) 쓰려던 것인가요?", unknown
    assert unknown["data"]["reason"] == "unknown parameter"
    missing = error_of(d, "no/such", {})
    assert korean(missing["message"]) and "no/such" in missing["message"], missing
    absent = error_of(d, "products/get", {"id": "999999"})
    assert absent["message"] == "ID가 999999인 상품이(가) 없습니다. 삭제되었을 수 있습니다.", absent


@pytest.mark.parametrize("locale", ["en", "en-US", "fr", "zz"])
def test_other_locales_get_english(spawn, locale):
    d = spawn(env={"LANG": "ko_KR.UTF-8"} if locale == "en" else None)
    d.initialize({"locale": locale})
    err = error_of(d, "products/list", {"limit": 0})
    assert err["message"] == "Invalid parameter limit: must be between 1 and 100, got 0.", err


def test_the_environment_sets_the_default(spawn):
    d = spawn(env={"LANG": "ko_KR.UTF-8"})
    # Before initialize, and after an initialize without a locale.
    early = error_of(d, "products/list", {})
    assert early["code"] == -32002 and korean(early["message"]), early
    d.initialize()
    err = error_of(d, "photos/list", {"page": "2"})
    assert err["message"] == "매개변수 page이(가) 올바르지 않습니다: 정수이어야 합니다. 받은 값: 문자열.", err
    assert err["data"]["reason"] == "expected an integer, got string"


def test_lc_all_wins_over_lang(spawn):
    d = spawn(env={"LANG": "ko_KR.UTF-8", "LC_ALL": "C"})
    d.initialize()
    assert not korean(error_of(d, "products/list", {"limit": 0})["message"])


def test_a_failed_feed_load_reports_its_error_in_the_sessions_language(spawn):
    d = spawn("--quotes-url", f"http://127.0.0.1:{closed_port()}", "--upstream-timeout-ms", "2000")
    d.initialize({"locale": "ko"})
    feed = d.result("feeds/open", {"source": "quotes"})["feedId"]
    resp, before = d.read_until_response(d.request("feeds/loadMore", {"feedId": feed}), 20)
    assert resp["error"]["code"] == -32020, resp
    assert resp["error"]["message"] == "명언 서버에 연결할 수 없습니다. 잠시 후 다시 시도하세요.", resp
    failed = [n for n in before if n.get("method") == "feeds/stateChanged" and n["params"]["state"] == "failed"]
    assert failed and failed[-1]["params"]["error"]["message"] == resp["error"]["message"], failed


def test_a_misspelt_choice_is_named_in_korean_with_the_value_meant(spawn):
    d = spawn()
    d.initialize({"locale": "ko"})
    err = error_of(d, "feeds/open", {"source": "products", "query": {"sort": "nwest"}})
    assert err["data"]["field"] == "query.sort", err
    assert korean(err["message"]) and '"newest"을(를) 쓰려던 것인가요?' in err["message"], err
