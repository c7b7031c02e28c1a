"""The packages of scripts/dist, installed as a user with no Swift would:
into a fresh virtual environment and a fresh Node project, in an environment
emptied by `env -i` (PATH=/usr/bin:/bin, no CATALOGD_BIN, the toolchain out
of sight), then both tours and a products session on the bundled daemon.

    scripts/dist && python3 -m pytest Tests/Packaging

The packages are read from $CATALOGD_DIST, else <repo>/dist.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile
import textwrap
from pathlib import Path
from typing import Dict, List

import pytest

REPO = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("CATALOGD_DIST", REPO / "dist"))
VERSION = json.loads((REPO / "clients" / "node" / "package.json").read_text())["version"]
TIMEOUT = 180

# What the daemon may link: the C and C++ runtimes and SQLite, which every
# Linux with Python or Node has. Anything else is a library a user would lack.
SYSTEM_LIBRARIES = {
    "linux-vdso.so.1", "ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6", "libdl.so.2",
    "libpthread.so.0", "librt.so.1", "libstdc++.so.6", "libgcc_s.so.1", "libsqlite3.so.0",
}


def package(pattern: str) -> Path:
    found = sorted(DIST.glob(pattern))
    if len(found) != 1:
        pytest.fail(f"expected one {pattern} in {DIST}, found {[p.name for p in found]}: run scripts/dist", False)
    return found[0]


def clean_run(command: List[str], home: Path, cwd: Path, extra: Dict[str, str] | None = None) -> str:
    """`command` under `env -i`: the PATH of a system without Swift, a home of
    its own, nothing else of this machine's environment."""
    variables = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", **(extra or {})}
    result = subprocess.run(
        ["env", "-i", *(f"{k}={v}" for k, v in variables.items()), *command],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT,
    )
    assert result.returncode == 0, f"{' '.join(command)} exited {result.returncode}:\n{result.stdout}"
    return result.stdout


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The daemon from the tarball, which also holds the README and LICENSE."""
    archive = package(f"catalogd-{VERSION}-linux-x86_64.tar.gz")
    into = tmp_path_factory.mktemp("tarball")
    with tarfile.open(archive) as tar:
        names = sorted(tar.getnames())
        tar.extractall(into, filter="data")
    top = f"catalogd-{VERSION}-linux-x86_64"
    assert names == [f"{top}/{name}" for name in ("LICENSE", "README.md", "catalogd")]
    return into / top / "catalogd"


def toolchain_dirs() -> List[str]:
    """Where this machine's Swift toolchain lives (none on a user's machine)."""
    swift = shutil.which("swift")
    dirs = ["/opt/swift"]
    if swift:
        dirs.append(str(Path(os.path.realpath(swift)).parent.parent))
    return dirs


def test_the_daemon_needs_no_library_of_the_toolchain(daemon: Path) -> None:
    ldd = subprocess.run(["ldd", str(daemon)], stdout=subprocess.PIPE, text=True, check=True).stdout
    linked = {line.split()[0]: line for line in ldd.strip().splitlines()}
    assert not [line for line in linked.values() if "not found" in line], ldd
    for line in linked.values():
        assert not any(d in line for d in toolchain_dirs()), f"linked from the toolchain: {line}"
    assert {Path(name).name for name in linked} <= SYSTEM_LIBRARIES, ldd
    dynamic = subprocess.run(["readelf", "-d", str(daemon)], stdout=subprocess.PIPE, text=True, check=True).stdout
    for path in re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[(.*)\]", dynamic):
        for entry in path.split(":"):
            assert entry.startswith("$ORIGIN"), f"search path outside the package: {entry}"


def test_the_daemon_is_the_clients_version_and_stripped(daemon: Path, tmp_path: Path) -> None:
    assert clean_run([str(daemon), "--version"], tmp_path, tmp_path).strip() == f"catalogd {VERSION}"
    symbols = subprocess.run(["nm", str(daemon)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert "no symbols" in symbols.stdout


def assert_every_section(tour: str, marker: str) -> None:
    """Each service's section ran: none was skipped for a method the daemon lacks."""
    headings = {line.split()[1] for line in tour.splitlines() if line.startswith(marker + " ")}
    assert {"daemon", "quotes", "products", "photos", "places"} <= headings, tour
    assert "skipped" not in tour, tour


PYTHON_PRODUCTS = textwrap.dedent(
    """
    import sys
    import catalogd

    data = sys.argv[1]
    with catalogd.Client(args=["--data-dir", data]) as client:
        assert client.binary.endswith("catalogd/_bin/catalogd"), client.binary
        made = client.products_create(name_ko="청바지", name_en="Jeans", price=39000)
        client.products_update(id=made.id, price=35000)
        page = client.products_list(query="청바지")
        assert [p.price for p in page.items] == [35000], page
    with catalogd.Client(args=["--data-dir", data]) as client:
        assert client.products_get(id=made.id).name_en == "Jeans"
        client.products_delete(id=made.id)
    print("products session ok", catalogd.__version__)
    """
)


def test_the_wheel_installs_and_runs_without_swift(tmp_path: Path) -> None:
    wheel = package(f"catalogd-{VERSION}-py3-none-manylinux_*_x86_64.whl")
    venv = tmp_path / "venv"
    clean_run(["python3", "-m", "venv", str(venv)], tmp_path, tmp_path)
    clean_run([str(venv / "bin" / "pip"), "install", "-q", "--no-index", "--disable-pip-version-check", str(wheel)],
              tmp_path, tmp_path)

    assert clean_run([str(venv / "bin" / "catalogd"), "--version"], tmp_path, tmp_path).strip() == f"catalogd {VERSION}"
    tour = clean_run([str(venv / "bin" / "python"), "-m", "catalogd.examples.tour"], tmp_path, tmp_path)
    assert f"catalogd: {venv}/lib/" in tour and "/catalogd/_bin/catalogd" in tour, tour
    assert_every_section(tour, "==")
    script = tmp_path / "products.py"
    script.write_text(PYTHON_PRODUCTS)
    session = clean_run([str(venv / "bin" / "python"), str(script), str(tmp_path / "data")], tmp_path, tmp_path)
    assert session.strip() == f"products session ok {VERSION}"


NODE_PRODUCTS = textwrap.dedent(
    """
    import { Client, VERSION } from 'catalogd';

    const data = process.argv[2];
    let client = await Client.start({ args: ['--data-dir', data] });
    if (!client.binary.endsWith('node_modules/catalogd/bin/catalogd')) throw new Error(client.binary);
    const made = await client.productsCreate({ nameKo: '청바지', nameEn: 'Jeans', price: 39000 });
    await client.productsUpdate({ id: made.id, price: 35000 });
    const page = await client.productsList({ query: '청바지' });
    if (page.items.map((p) => p.price).join() !== '35000') throw new Error(JSON.stringify(page));
    await client.close();
    client = await Client.start({ args: ['--data-dir', data] });
    if ((await client.productsGet({ id: made.id })).nameEn !== 'Jeans') throw new Error('not durable');
    await client.productsDelete({ id: made.id });
    await client.close();
    console.log('products session ok', VERSION);
    """
)


def test_the_npm_package_installs_and_runs_without_swift(tmp_path: Path) -> None:
    tarball = package(f"catalogd-{VERSION}.tgz")
    project = tmp_path / "project"
    project.mkdir()
    (project / "package.json").write_text('{"name": "catalogd-user", "private": true, "type": "module"}\n')
    # A local tarball with no dependencies installs without a registry.
    clean_run(["npm", "install", "--offline", "--no-audit", "--no-fund", str(tarball)], tmp_path, project)

    bin = project / "node_modules" / ".bin" / "catalogd"
    assert clean_run([str(bin), "--version"], tmp_path, project).strip() == f"catalogd {VERSION}"
    tour = clean_run(["node", "node_modules/catalogd/examples/tour.mjs"], tmp_path, project)
    assert_every_section(tour, "##")
    (project / "products.mjs").write_text(NODE_PRODUCTS)
    session = clean_run(["node", "products.mjs", str(tmp_path / "data")], tmp_path, project)
    assert session.strip() == f"products session ok {VERSION}"
