"""Every Python block of the README runs, as a reader would paste it: each in
a process of its own, against the daemon under test, with an empty home and
data dir. A block with tests (`def test_…`) runs under pytest with the
package's plugin. Where the README shows what a block prints (a ```text block
right after it, with at most one paragraph between), the output must match:
`…` stands for any text within a line, and a line of `…` alone for any lines.
The README's links are absolute, so that they work on PyPI too."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

import pytest
from client_support import PACKAGE_ROOT, isolated_env

README = PACKAGE_ROOT / "README.md"
BASE_URL = "https://github.com/catalogd/catalogd/blob/main/"
SNIPPET_TIMEOUT = 60


@dataclass
class Snippet:
    name: str
    line: int
    code: str
    output: Optional[str]
    """What it prints, as the README shows it (None: it does not say)."""


def fenced_blocks(text: str) -> List[tuple]:
    """(info string, first line number, body, line after the block) of each ``` block."""
    lines = text.splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start = i
        i += 1
        while i < len(lines) and lines[i].rstrip() != "```":
            i += 1
        blocks.append((m.group(1), start + 1, "\n".join(lines[start + 1 : i]) + "\n", i + 1))
        i += 1
    return blocks


def snippets() -> List[Snippet]:
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    blocks = fenced_blocks(text)
    inside = {i for _, line, _, after in blocks for i in range(line - 1, after)}
    headings = [(i, s) for i, s in enumerate(lines) if s.startswith("#") and i not in inside]
    out: List[Snippet] = []
    for n, (info, line, body, after) in enumerate(blocks):
        if info != "python":
            continue
        output = None
        if n + 1 < len(blocks) and blocks[n + 1][0] == "text":
            between = [s for s in lines[after : blocks[n + 1][1] - 1] if s.strip()]
            if len(between) <= 3 and not any(s.startswith("#") for s in between):
                output = blocks[n + 1][2]
        heading = next((s for i, s in reversed(headings) if i < line), "# readme")
        slug = re.sub(r"[^a-z0-9]+", "-", heading.lstrip("#").strip().lower()).strip("-")
        ordinal = sum(1 for o in out if o.name.rsplit("-", 1)[0] == slug) + 1
        out.append(Snippet(f"{slug}-{ordinal}", line, body, output))
    return out


SNIPPETS = snippets()


def pattern(expected: str) -> "re.Pattern[str]":
    parts = []
    for line in expected.splitlines():
        if line.strip() == "…":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*".join(re.escape(piece) for piece in line.split("…")) + r"\n")
    return re.compile("".join(parts))


def test_the_readme_has_its_snippets():
    assert len(SNIPPETS) >= 10
    assert sum(s.output is not None for s in SNIPPETS) >= 8


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s.name for s in SNIPPETS])
@pytest.mark.timeout_s(SNIPPET_TIMEOUT + 30)
def test_the_snippet_runs(snippet: Snippet, catalogd_bin: str, tmp_path: Path):
    env = isolated_env(tmp_path / "env", {"CATALOGD_BIN": catalogd_bin, "PYTHONPATH": str(PACKAGE_ROOT)})
    if re.search(r"^def test_", snippet.code, re.M):
        path = tmp_path / "test_snippet.py"
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   "-p", "no:catalogd", "-p", "catalogd.pytest_plugin", str(path)]
    else:
        path = tmp_path / "snippet.py"
        command = [sys.executable, str(path)]
    path.write_text(snippet.code, encoding="utf-8")
    r = subprocess.run(command, capture_output=True, text=True, timeout=SNIPPET_TIMEOUT, env=env, cwd=str(tmp_path))
    where = f"README.md line {snippet.line}"
    assert r.returncode == 0, f"{where} failed:\n{r.stdout}\n{r.stderr}"
    if snippet.output is not None:
        assert pattern(snippet.output).fullmatch(r.stdout), (
            f"{where} printed:\n{r.stdout}\nand the README says:\n{snippet.output}"
        )


def test_the_output_patterns():
    assert pattern("a … b\n").fullmatch("a xyz b\n")
    assert not pattern("a … b\n").fullmatch("a x\ny b\n")
    assert pattern("first\n…\nlast\n").fullmatch("first\nmiddle\nmore\nlast\n")
    assert pattern("first\n…\nlast\n").fullmatch("first\nlast\n")
    assert not pattern("[200]\n").fullmatch("[2000]\n")


def test_every_link_is_absolute():
    """Relative links break on PyPI, which shows this README too."""
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links
    relative = [link for link in links if not link.startswith("https://")]
    assert not relative, relative
    for link in links:
        if link.startswith("https://github.com/catalogd/catalogd/"):
            assert link.startswith(BASE_URL), link
            path = link[len(BASE_URL):].split("#")[0]
            assert (PACKAGE_ROOT.parents[1] / path).exists(), f"{link}: no {path} in the repository"
