"""The pytest plugin the package ships (`catalogd.pytest_plugin`), run by
pytester in test sessions of their own."""

from __future__ import annotations

import subprocess
import sys

import pytest
from client_support import PACKAGE_ROOT

# `-p no:catalogd` keeps an installed copy's entry point from loading it a second time.
PLUGIN = ("-p", "no:catalogd", "-p", "catalogd.pytest_plugin", "-p", "no:cacheprovider")


@pytest.fixture(autouse=True)
def _daemon(monkeypatch, catalogd_bin):
    monkeypatch.setenv("CATALOGD_BIN", catalogd_bin)  # pytester's sessions run elsewhere: no relative path


def test_a_failing_test_reports_the_daemons_stderr(pytester):
    pytester.makepyfile(
        """
        def test_fails(catalogd_client):
            catalogd_client.daemon_echo(["hello"])
            assert catalogd_client.quotes_random().content == "not this"

        def test_passes(catalogd_client):
            assert catalogd_client.daemon_echo([1]) == [1]
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*_ test_fails _*", "*- catalogd stderr -*", "*catalogd started*"])
    assert result.stdout.str().count("catalogd stderr") == 1, "only the failed test has the section"


def test_the_section_names_each_client_when_there_are_two(pytester):
    pytester.makepyfile(
        """
        import asyncio

        def test_fails(catalogd_client, catalogd_async_client):
            async def main():
                async with catalogd_async_client as c:
                    await c.daemon_echo()
            asyncio.run(main())
            assert False
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*- catalogd stderr (client 1, pid *) -*", "*- catalogd stderr (client 2, pid *) -*"])


def test_a_daemon_that_cannot_start_fails_the_setup_with_its_stderr(pytester):
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.catalogd("--max-depth", "nope")
        def test_never_runs(catalogd_client):
            pass
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*DaemonExited*", "*- catalogd stderr -*", "*--max-depth*"])


def test_the_fixture_is_a_started_client_on_a_fresh_data_dir(pytester):
    pytester.makepyfile(
        """
        import os
        import catalogd

        def test_one(catalogd_client, catalogd_data_dir, tmp_path):
            assert isinstance(catalogd_client, catalogd.Client)
            assert catalogd_client.initialize_result is not None
            status = catalogd_client.daemon_status()
            assert status.data_dir == str(catalogd_data_dir) and str(tmp_path) in status.data_dir
            assert catalogd_client.env["HOME"].startswith(str(tmp_path))
            assert catalogd_client.env["LANG"] == "C.UTF-8"
            assert not [k for k in catalogd_client.env if k.startswith("CATALOGD_")]
            assert catalogd_client.products_list().items == [] or True
            catalogd_client.products_create(name_ko="하나", price=1)

        def test_two(catalogd_client):
            names = [p.name_ko for p in catalogd_client.products_list(query="하나").items]
            assert names == [], "a fresh data dir per test"
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(passed=2)


def test_the_marker_and_fixture_overrides_pass_arguments_and_options(pytester):
    pytester.makeconftest(
        """
        import pytest

        @pytest.fixture
        def catalogd_args():
            return ["--max-open-feeds", "1"]

        @pytest.fixture
        def catalogd_options():
            return {"timeout": 9.0, "client_id": "from-conftest"}
        """
    )
    pytester.makepyfile(
        """
        import asyncio
        import pytest
        import catalogd

        @pytest.mark.catalogd("--log-level", "debug", timeout=5.0, locale="ko")
        def test_marker(catalogd_client):
            assert catalogd_client.args[-4:] == ["--max-open-feeds", "1", "--log-level", "debug"]
            assert catalogd_client.timeout == 5.0, "the marker's options win"
            assert catalogd_client.initialize_result.client_id == "from-conftest"
            with pytest.raises(catalogd.InvalidParams) as e:
                catalogd_client.quotes_list(limit=1000)
            assert "limit" in e.value.message and e.value.message.isascii() is False

        def test_conftest_override(catalogd_client):
            assert catalogd_client.args[-2:] == ["--max-open-feeds", "1"]
            assert catalogd_client.timeout == 9.0
            with catalogd_client.open_feed("photos"):
                with pytest.raises(catalogd.RpcError):
                    catalogd_client.open_feed("photos")

        def test_async(catalogd_async_client):
            async def main():
                async with catalogd_async_client as c:
                    return await c.daemon_echo(["async"])
            assert catalogd_async_client.pid is None, "not started: the test starts it in its loop"
            assert asyncio.run(main()) == ["async"]
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(passed=3)


def test_an_async_client_left_running_is_killed(pytester):
    pytester.makepyfile(
        """
        import asyncio

        left = {}

        def test_leaves_it_running(catalogd_async_client):
            loop = asyncio.new_event_loop()  # not run again by this test: only the fixture can end the daemon
            loop.run_until_complete(catalogd_async_client.start())
            left.update(loop=loop, client=catalogd_async_client)

        def test_it_was_killed():
            loop, client = left["loop"], left["client"]
            try:
                status = loop.run_until_complete(asyncio.wait_for(client.close(), 10))
            finally:
                loop.close()
            assert status.signal == "SIGKILL", status
        """
    )
    result = pytester.runpytest(*PLUGIN)
    result.assert_outcomes(passed=2)


def test_importing_catalogd_does_not_import_pytest():
    code = "import sys, catalogd; print('pytest' in sys.modules, '_pytest' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30,
        env={"PYTHONPATH": str(PACKAGE_ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert out.stdout.split() == ["False", "False"], out.stderr
