"""The help file is valid (:helptags takes it, every link resolves) and
:help and :checkhealth find what they should."""

import re
import shutil
import subprocess

from conftest import PLUGIN, Editor

TAGS = ["catalogd", ":Catalogd", ":Catalogd-places", "catalogd-setup", "catalogd.setup()",
        "catalogd-highlights", "catalogd-health", "catalogd-form", "catalogd-lists"]


def helptags(doc_dir):
    """:helptags on `doc_dir` in a Neovim of its own; an error fails it."""
    done = subprocess.run(
        ["nvim", "--headless", "--clean", "-c",
         f"try | helptags {doc_dir} | catch | echo v:exception | cquit 1 | endtry", "-c", "qa!"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {line.split("\t")[0] for line in (doc_dir / "tags").read_text().splitlines()}


def test_helptags_accepts_the_doc_and_every_link_resolves(tmp_path):
    copy = tmp_path / "doc"
    shutil.copytree(PLUGIN / "doc", copy)
    tags = helptags(copy)
    assert set(TAGS) <= tags
    runtime = subprocess.run(["nvim", "--headless", "--clean", "-c", "echo $VIMRUNTIME", "-c", "qa!"],
                             capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL).stderr.strip()
    builtin = {line.split("\t")[0] for line in open(f"{runtime}/doc/tags", encoding="utf-8")}
    text = (PLUGIN / "doc" / "catalogd.txt").read_text()
    links = set(re.findall(r"\|([^|\s]+)\|", text))
    assert links and links <= tags | builtin, links - tags - builtin
    assert not (PLUGIN / "doc" / "tags").exists()


def test_help_and_checkhealth(tmp_path):
    plugin = tmp_path / "nvim"
    shutil.copytree(PLUGIN, plugin, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    helptags(plugin / "doc")
    root = tmp_path / "editor"
    root.mkdir()
    editor = Editor(root, plugin=plugin)
    try:
        editor.command("help catalogd-setup")
        assert editor.nvim.api.buf_get_option(0, "filetype") == "help"
        assert editor.nvim.api.buf_get_name(0).endswith("doc/catalogd.txt")
        assert "*catalogd.setup()*" in editor.nvim.current.line
        editor.command("close")

        editor.command("checkhealth catalogd")
        report = "\n".join(editor.lines())
        assert re.search(r"OK:? binary: \S+catalogd", report), report
        assert re.search(r"OK:? version: catalogd \d+\.\d+\.\d+", report), report
        for service in ("quotes", "products", "photos", "places"):
            assert re.search(rf"OK:? {service}: embedded", report), report
        assert "ERROR" not in report
        editor.command("bwipeout")

        # With the daemon running, its own status; with a wrong binary, an error.
        editor.command("Catalogd quotes")
        pid = editor.daemon_pid()
        editor.command("checkhealth catalogd")
        report = "\n".join(editor.lines())
        assert f"the editor's daemon runs (pid {pid})" in report and "products: embedded" in report
        editor.command("bwipeout")
        editor.lua("require('catalogd').setup({ cmd = { 'no-such-catalogd' } })")
        editor.command("checkhealth catalogd")
        report = "\n".join(editor.lines())
        assert re.search(r"ERROR:? the daemon no-such-catalogd was not found", report), report
        editor.quit()
    finally:
        editor.kill()
