"""One daemon per editor: started on first use, shut down (shutdown, exit)
when Neovim exits, reported once when it dies and started again by the next
command; nothing global but :Catalogd."""

import os
import signal

from conftest import catalogd_bin, pid_alive, wait_for


def test_no_daemon_before_the_first_command_and_a_clean_shutdown(make_editor, tmp_path):
    trace = tmp_path / "trace.log"
    editor = make_editor({"cmd": [catalogd_bin(), "--trace", str(trace)]})
    assert editor.lua("return require('catalogd').client() == nil")
    editor.open_list("Catalogd products", "catalogd_products")
    editor.command("Catalogd quotes")
    pid = editor.daemon_pid()
    assert editor.lua("return require('catalogd').client().pid") == pid  # one daemon for both
    editor.quit()
    assert not pid_alive(pid)
    received = [line for line in trace.read_text().splitlines() if " <- " in line]
    assert '"method":"shutdown"' in received[-2] and '"method":"exit"' in received[-1]


def test_a_daemon_that_dies_is_reported_once_and_started_again(editor):
    buf = editor.open_list("Catalogd products", "catalogd_products")
    pid = editor.daemon_pid()
    os.kill(pid, signal.SIGKILL)
    msg = editor.wait("return vim.v.errmsg ~= '' and vim.v.errmsg", "the report")
    assert msg.startswith("catalogd: the daemon exited (signal 9)")
    assert msg.endswith("the next command starts it again")
    editor.wait_footer(buf, lambda f: f.startswith("Failed: the daemon exited"), "the lost feed")
    assert not pid_alive(pid)

    editor.command("Catalogd quotes")
    new_pid = editor.daemon_pid()
    assert new_pid != pid
    editor.command("close")  # the quote window
    editor.nvim.input("R")  # the list opens its feed again, in the new daemon
    editor.wait_footer(buf, lambda f: f.endswith("more below"), "the list again")
    messages = editor.nvim.api.exec("messages", True)
    assert messages.count("the daemon exited") == 1
    editor.quit()


def test_a_daemon_that_cannot_start_is_an_error(make_editor, tmp_path):
    editor = make_editor({"cmd": [str(tmp_path / "no-such-catalogd")]})
    editor.nvim.input(":Catalogd quotes<CR>")
    msg = editor.wait("return vim.v.errmsg ~= '' and vim.v.errmsg", "the error")
    assert msg.startswith(f"catalogd: cannot start {tmp_path / 'no-such-catalogd'}")
    assert "CATALOGD_BIN" in msg
    editor.quit()


def test_only_the_command_is_global(editor):
    api = editor.nvim.api
    before = {mode: api.get_keymap(mode) for mode in "nvxoict"}
    commands = set(api.get_commands({}))
    assert [name for name in api.get_commands({}) if "atalogd" in name] == ["Catalogd"]
    buf = editor.open_list("Catalogd products", "catalogd_products")
    editor.command("Catalogd quotes")
    editor.wait("return require('catalogd.quotes').state().quote", "a quote")
    assert {mode: api.get_keymap(mode) for mode in "nvxoict"} == before
    local = {m["lhs"] for m in api.buf_get_keymap(buf, "n")}
    assert {"q", "R", "<CR>", "a", "e", "dd"} <= local
    assert set(api.get_commands({})) == commands

    complete = editor.nvim.funcs.getcompletion
    assert complete("Catalogd ", "cmdline") == ["photos", "places", "products", "quotes"]
    assert complete("Catalogd places C", "cmdline") == ["CS2", "CT1", "CE7"]
    editor.quit()


def test_the_highlight_groups_are_default_links_a_user_can_override(editor):
    editor.command("highlight CatalogdPrice ctermfg=1 guifg=#ff0000")
    buf = editor.open_list("Catalogd products", "catalogd_products")
    marks = editor.lua(
        "return vim.api.nvim_buf_get_extmarks(..., vim.api.nvim_get_namespaces().catalogd_list, 0, 0, {details = true})",
        buf,
    )
    assert "CatalogdPrice" in {m[3]["hl_group"] for m in marks}
    assert editor.nvim.api.get_hl_by_name("CatalogdPrice", True)["foreground"] == 0xFF0000
    assert editor.lua("return vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('CatalogdFooter')), 'name')") == "Comment"
    editor.quit()


def test_setup_validates_its_options(editor):
    def error_of(options):
        return editor.lua("local ok, e = pcall(require('catalogd').setup, ...); return not ok and e", options)

    assert error_of({"cmd": "catalogd"}).endswith("catalogd: option cmd: expected table, got string")
    assert error_of({"data_dir": 3}).endswith("catalogd: option data_dir: expected string, got number")
    assert error_of({"datadir": "x"}).endswith("catalogd: unknown option datadir")
    assert error_of({"cmd": []}).endswith("catalogd: cmd must name the program, as in { '/path/to/catalogd' }")
    wait_for(lambda: editor.proc.poll() is None, "Neovim")
    editor.quit()


def processes_mentioning(text):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if text.encode() in f.read() and pid_alive(int(entry)):
                        found.append(int(entry))
            except OSError:
                pass
    return found


def test_two_editors_share_one_daemon_with_remote_auto(make_editor, tmp_path):
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    options = {
        "remote": "auto",
        "data_dir": str(tmp_path / "shared-data"),
        "cmd": [catalogd_bin(), "--idle-timeout", "1"],
        "cmd_env": {"XDG_RUNTIME_DIR": str(run)},
    }
    a, b = make_editor(options, "a"), make_editor(options, "b")
    buf = a.open_list("Catalogd products", "catalogd_products")
    b.command("Catalogd quotes")
    b.daemon_pid()
    sessions = b.lua("return require('catalogd').request_sync('daemon/sessions')")["sessions"]
    assert [s["clientName"] for s in sessions] == ["catalogd.nvim", "catalogd.nvim"]

    b.lua("return require('catalogd').request_sync('products/create', { nameKo = '공유 상품', price = 1000 })")
    a.wait("return vim.api.nvim_buf_get_lines((...), 0, 1, false)[1]:find('공유 상품', 1, true)",
           "the other editor's product", buf)
    assert processes_mentioning(str(run))  # the shared daemon (serve --listen)
    a.quit()
    b.quit()
    # The shared daemon goes once its last session has been gone --idle-timeout.
    wait_for(lambda: not processes_mentioning(str(run)), "the shared daemon to exit")
