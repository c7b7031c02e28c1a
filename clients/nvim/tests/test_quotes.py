"""`:Catalogd quotes`: a quote in a floating window, `r` for another, never
a second fetch while one runs."""


def quote_window(editor):
    return editor.wait(
        "local s = require('catalogd.quotes').state(); "
        "return s.quote and not s.loading and s.win and vim.api.nvim_win_is_valid(s.win) and s.win",
        "a quote",
    )


def quote_status(editor):
    return editor.lua("return require('catalogd.quotes').state().quote")


def random_requests(editor):
    status = editor.lua("return require('catalogd').request_sync('daemon/status')")
    return status["timings"].get("quotes/random", {}).get("count", 0)


def test_a_quote_in_a_floating_window_and_r_for_another(editor):
    editor.command("Catalogd quotes")
    win = quote_window(editor)
    assert editor.nvim.api.win_get_config(win)["relative"] == "editor"
    assert editor.nvim.api.get_current_win().handle == win
    buf = editor.nvim.api.win_get_buf(win)
    assert editor.nvim.api.buf_get_option(buf, "filetype") == "catalogd_quote"
    first = quote_status(editor)
    lines = editor.lines(buf)
    assert first["content"].split()[0] in lines[0]
    assert "— " + first["author"] in lines
    assert lines[-1] == "r another · q close"

    editor.nvim.input("r")
    second = editor.wait(
        "local s = require('catalogd.quotes').state(); return not s.loading and s.quote and s.quote.id ~= ... and s.quote",
        "another quote",
        first["id"],
    )
    assert "— " + second["author"] in editor.lines(buf)

    editor.nvim.input("q")
    editor.wait("return not require('catalogd.quotes').state().win", "the window to close")
    assert not editor.nvim.api.win_is_valid(win)
    editor.quit()


def test_no_second_fetch_while_one_runs(editor):
    editor.command("Catalogd quotes")
    quote_window(editor)
    assert random_requests(editor) == 1
    # Three presses before Neovim reads the daemon's answer: one fetch.
    asked = editor.lua("""
        vim.api.nvim_feedkeys("rrr", "x", false)
        return require('catalogd').client().sent['quotes/random']
    """)
    assert asked == 2
    quote_window(editor)
    assert random_requests(editor) == 2
    editor.quit()


def test_a_list_opened_from_the_quote_window_opens_beside_it(editor):
    editor.command("Catalogd quotes")
    win = quote_window(editor)
    buf = editor.open_list("Catalogd products", "catalogd_products")
    current = editor.nvim.api.get_current_win()
    assert current.handle != win and editor.nvim.api.win_get_config(current)["relative"] == ""
    assert editor.nvim.api.win_get_buf(current).number == buf
    editor.quit()
