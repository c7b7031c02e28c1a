"""Drives a real headless Neovim with the plug-in on its runtime path, through
its RPC socket (pynvim), against the daemon of $CATALOGD_BIN. Each test has
its own Neovim, data dir and XDG dirs; `editor.quit()` checks that Neovim
exits 0 and leaves no daemon running."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pynvim
import pytest

PLUGIN = Path(__file__).resolve().parent.parent
DEADLINE = 30.0


def catalogd_bin() -> str:
    binary = os.environ.get("CATALOGD_BIN") or shutil.which("catalogd")
    if not binary:
        pytest.fail("set CATALOGD_BIN to the built daemon")
    return binary


def pid_alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_for(predicate: Callable[[], Any], what: str, timeout: float = DEADLINE) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


class Editor:
    """One headless Neovim and what a test asks of it."""

    def __init__(self, root: Path, options: Optional[Dict[str, Any]] = None, plugin: Path = PLUGIN) -> None:
        self.root = root
        self.data_dir = root / "data"
        self.log_path = root / "nvim.log"
        self.daemon_pids: List[int] = []
        sock = root / "nvim.sock"
        env = dict(os.environ)
        env["CATALOGD_BIN"] = catalogd_bin()
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
            env[name] = str(root / name.lower())
        self.proc = subprocess.Popen(
            ["nvim", "--headless", "--clean", "--listen", str(sock), "--cmd", f"set rtp^={plugin}"],
            stdin=subprocess.DEVNULL,
            stdout=self.log_path.open("wb"),
            stderr=subprocess.STDOUT,
            env=env,
            cwd=root,
        )
        try:
            self.nvim = wait_for(lambda: self._attach(sock), "Neovim's socket")
        except BaseException:
            self.proc.kill()
            self.proc.wait()
            raise
        opts = {"data_dir": str(self.data_dir), "locale": "en"}
        opts.update(options or {})
        self.lua('require("catalogd").setup(...)', opts)

    def _attach(self, sock: Path) -> Optional[pynvim.Nvim]:
        # The socket file appears before Neovim listens on it.
        assert self.proc.poll() is None, self.log()
        if not sock.exists():
            return None
        try:
            return pynvim.attach("socket", path=str(sock))
        except ConnectionRefusedError:
            return None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def lua(self, code: str, *args: Any) -> Any:
        return self.nvim.exec_lua(code, *args)

    def command(self, cmd: str) -> None:
        self.nvim.command(cmd)

    def wait(self, code: str, what: str, *args: Any, timeout: float = DEADLINE) -> Any:
        """Waits until the Lua chunk `code` returns a truthy value; returns it."""
        return wait_for(lambda: self.lua(code, *args), what, timeout)

    def lines(self, buf: int = 0) -> List[str]:
        return self.nvim.api.buf_get_lines(buf, 0, -1, False)

    def daemon_pid(self) -> int:
        pid = self.wait('local c = require("catalogd").client(); return c and c.pid', "a daemon")
        if pid not in self.daemon_pids:
            self.daemon_pids.append(pid)
        return pid

    def open_list(self, command: str, filetype: str) -> int:
        """Runs `command`, waits for its list buffer to be current and hold
        its first page; returns the buffer."""
        self.command(command)
        buf = self.wait(
            "local b = vim.api.nvim_get_current_buf(); return vim.bo[b].filetype == ... and b",
            f"the buffer of {command}",
            filetype,
        )
        self.daemon_pid()
        self.wait_footer(buf, lambda f: not f.startswith("Loading"), "the first page")
        self.settle(buf)
        return buf

    def settle(self, buf: int) -> str:
        """Waits until the list loads nothing and will load nothing more by
        itself (no window shows its end), so that its lines hold still;
        returns the footer."""
        self.wait(
            """
            local l = require('catalogd.list').lists[(...)]
            local f = l.feed
            if f:busy() then return false end
            if f.end_reached or f.state == 'failed' then return true end
            local near = #f.items + 1 - require('catalogd.config').options.load_margin
            for _, w in ipairs(vim.api.nvim_list_wins()) do
              if vim.api.nvim_win_get_buf(w) == l.buf then
                local bottom = vim.api.nvim_win_call(w, function() return vim.fn.line('w$') end)
                if math.max(vim.api.nvim_win_get_cursor(w)[1], bottom) >= near then return false end
              end
            end
            return true
            """,
            "the list to hold still",
            buf,
        )
        return self.footer(buf)

    def footer(self, buf: int) -> str:
        return self.lines(buf)[-1]

    def wait_footer(self, buf: int, predicate: Callable[[str], bool], what: str) -> str:
        seen = []

        def check() -> Optional[str]:
            footer = self.footer(buf)
            seen.append(footer)
            return footer if predicate(footer) else None

        try:
            return wait_for(check, f"footer: {what}")
        except AssertionError as e:
            raise AssertionError(f"{e}; the footer read {seen[-1]!r}") from None

    def errmsg(self) -> str:
        return self.nvim.eval("v:errmsg")

    def quit(self) -> None:
        """:qa!, then checks that Neovim exited 0 and its daemons are gone."""
        if self.proc.poll() is None:
            try:
                self.nvim.command("qa!")
            except (EOFError, OSError):
                pass  # Neovim closed the socket as it exited
        assert self.proc.wait(timeout=DEADLINE) == 0, self.log()
        for pid in self.daemon_pids:
            assert not pid_alive(pid), f"catalogd {pid} outlived Neovim"

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for pid in self.daemon_pids:
            if pid_alive(pid):
                os.kill(pid, 9)


@pytest.fixture
def make_editor(tmp_path: Path):
    editors: List[Editor] = []

    def make(options: Optional[Dict[str, Any]] = None, name: str = "editor") -> Editor:
        root = tmp_path / name
        root.mkdir()
        editor = Editor(root, options)
        editors.append(editor)
        return editor

    yield make
    for editor in editors:
        editor.kill()


@pytest.fixture
def editor(make_editor):
    return make_editor()
