"""The `catalogd` console command of the wheel (`catalogd._launcher:main`):
it becomes the daemon bundled in the package, or says how to get one. The
bundled daemon is faked in a copy of the package under tmp_path."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict

from client_support import PACKAGE_ROOT, isolated_env

import catalogd

LAUNCH = "import sys; from catalogd._launcher import main; sys.argv[0] = 'catalogd'; main()"


def launch(site: Path, env: Dict[str, str], *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", LAUNCH, *args],
        env={**env, "PYTHONPATH": str(site)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def installed_copy(tmp_path: Path) -> Path:
    """A copy of the package, as if installed in `site`, with `_bin/` to fill."""
    site = tmp_path / "site"
    shutil.copytree(PACKAGE_ROOT / "catalogd", site / "catalogd", ignore=shutil.ignore_patterns("__pycache__"))
    (site / "catalogd" / "_bin").mkdir()
    return site


def test_without_a_bundled_daemon_it_says_where_to_get_one(tmp_path):
    env = isolated_env(tmp_path / "env")
    proc = launch(PACKAGE_ROOT, env, "--version")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1 and out == ""
    assert "carries no daemon" in err
    assert str(catalogd.BUNDLED_BINARY) in err
    assert "scripts/dist" in err and "pip install" in err and "CATALOGD_BIN" in err


def test_it_becomes_the_bundled_daemon_with_its_arguments(tmp_path):
    site = installed_copy(tmp_path)
    fake = site / "catalogd" / "_bin" / "catalogd"
    fake.write_text('#!/bin/sh\necho "pid $$ args $*"\nexit 7\n', encoding="utf-8")
    fake.chmod(0o755)
    proc = launch(site, isolated_env(tmp_path / "env"), "--data-dir", "/some where", "call")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 7, err
    assert out == f"pid {proc.pid} args --data-dir /some where call\n", "exec: the same process, the same arguments"


def test_the_real_daemon_bundled(tmp_path, catalogd_bin):
    site = installed_copy(tmp_path)
    bundled = site / "catalogd" / "_bin" / "catalogd"
    bundled.symlink_to(catalogd_bin)
    env = isolated_env(tmp_path / "env")
    proc = launch(site, env, "--version")
    out, err = proc.communicate(timeout=30)
    assert (proc.returncode, out.strip()) == (0, f"catalogd {catalogd.__version__}"), err
    # The client of that copy runs its bundled daemon when nothing else names one.
    found = subprocess.run(
        [sys.executable, "-c", "import catalogd; print(catalogd.find_binary())"],
        env={**env, "PYTHONPATH": str(site), "PATH": str(tmp_path / "empty")},
        capture_output=True, text=True, timeout=30,
    )
    assert found.stdout.strip() == str((site / "catalogd").resolve() / "_bin" / "catalogd"), found


def test_a_bundled_file_that_cannot_run_is_reported(tmp_path):
    site = installed_copy(tmp_path)
    (site / "catalogd" / "_bin" / "catalogd").write_text("not a program", encoding="utf-8")
    proc = launch(site, isolated_env(tmp_path / "env"))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1 and "cannot run the bundled daemon" in err
