"""Products from the list: live inserts keep the cursor on its item; the form
creates, edits and deletes; the daemon's errors are shown as errors."""

import json
import subprocess

from conftest import catalogd_bin, wait_for


def cursor_row(editor):
    return editor.nvim.api.win_get_cursor(0)[0]


def test_a_product_created_by_another_daemon_appears_in_place(editor):
    buf = editor.open_list("Catalogd products", "catalogd_products")
    editor.nvim.input("5G")
    wait_for(lambda: cursor_row(editor) == 5, "the cursor on row 5")
    watched = editor.lines(buf)[4]
    top = editor.lua("return vim.fn.line('w0')")

    # Another process on the same catalog (a daemon of its own): the change
    # reaches this daemon through its poll of the SQLite file.
    created = json.loads(subprocess.run(
        [catalogd_bin(), "call", "products/create",
         json.dumps({"nameKo": "제주 감귤 3kg", "nameEn": "Jeju Tangerines 3kg", "price": 18900}),
         "--data-dir", str(editor.data_dir)],
        check=True, capture_output=True, text=True, timeout=60,
    ).stdout)

    editor.wait("local b, id = ...; return vim.api.nvim_buf_get_lines(b, 0, 1, false)[1]:find('#' .. id, 1, true)",
                "the new product at the top", buf, created["id"])
    lines = editor.lines(buf)
    assert "₩18,900" in lines[0] and "제주 감귤 3kg" in lines[0]
    assert cursor_row(editor) == 6
    assert lines[5] == watched
    assert editor.lua("return vim.fn.line('w0')") == top + 1  # the view moved with its item
    editor.quit()


def form_buffer(editor):
    return editor.wait("return vim.bo.filetype == 'catalogd_form' and vim.api.nvim_get_current_buf()", "the form")


def set_form(editor, values):
    buf = form_buffer(editor)
    for n, line in enumerate(editor.lines(buf)):
        key = line.split(":")[0]
        if key in values:
            editor.nvim.api.buf_set_lines(buf, n, n + 1, False, [f"{key}: {values[key]}"])
    return buf


def test_create_edit_and_delete_from_the_list(editor):
    buf = editor.open_list("Catalogd products", "catalogd_products")

    editor.nvim.input("a")
    form = form_buffer(editor)
    assert editor.lines(form)[2:] == ["nameKo: ", "nameEn: ", "price: ", "supplierId: "]
    assert editor.nvim.api.buf_get_option(form, "buftype") == "acwrite"
    set_form(editor, {"nameKo": "한라봉 2kg", "price": "25000"})
    editor.command("write")
    assert editor.nvim.api.buf_get_option(form, "modified") is False
    product_id = editor.lines(form)[0].split()[2].rstrip(",")
    assert editor.nvim.api.buf_get_name(form) == f"catalogd://products/{product_id}/edit"
    assert editor.errmsg() == ""
    # The list follows the catalog: the new product is first (newest).
    editor.wait("return vim.api.nvim_buf_get_lines((...), 0, 1, false)[1]:find('한라봉 2kg', 1, true)",
                "the created product in the list", buf)

    # Edit it: a new price moves nothing in a newest-first list, in place.
    set_form(editor, {"price": "27000"})
    editor.command("write")
    editor.wait("return vim.api.nvim_buf_get_lines((...), 0, 1, false)[1]:find('₩27,000', 1, true)",
                "the new price in the list", buf)
    assert editor.lines(form)[0].startswith(f"# Product {product_id}, version 2")
    editor.command("quit")

    # e on the row opens a form with its values.
    editor.nvim.api.set_current_win(editor.nvim.api.list_wins()[0])
    editor.command("1")
    assert editor.nvim.api.get_current_buf().number == buf
    editor.nvim.input("e")
    form = form_buffer(editor)
    assert editor.lines(form)[2:4] == ["nameKo: 한라봉 2kg", "nameEn: "]
    editor.command("quit")

    # dd asks first (confirm(), which waits for a key only when a UI is
    # attached, as a user's is); yes deletes it and the list drops it.
    editor.nvim.ui_attach(100, 30, rgb=True)
    editor.settle(buf)
    count = len(editor.lines(buf))
    editor.nvim.input("dd")
    wait_for(lambda: editor.nvim.api.get_mode()["mode"] == "r?", "the question")
    editor.nvim.input("y")
    editor.wait("local b, n = ...; return vim.api.nvim_buf_line_count(b) == n", "the row to go", buf, count - 1)
    assert all("한라봉" not in line for line in editor.lines(buf))
    editor.quit()


def test_the_daemons_validation_error_is_shown_as_an_error(editor):
    editor.open_list("Catalogd products", "catalogd_products")
    editor.nvim.input("a")
    form = set_form(editor, {"nameKo": "", "price": "100"})
    # Typed, as a user does (nvim_command would raise the error it shows).
    editor.nvim.input(":write<CR>")
    msg = editor.wait("return vim.v.errmsg ~= '' and vim.v.errmsg", "the error")
    assert msg.startswith("catalogd: ") and "nameKo" in msg
    assert editor.nvim.api.buf_get_option(form, "modified") is True
    assert "catalogd: " + msg.split("catalogd: ", 1)[1] in editor.nvim.api.exec("messages", True)

    editor.command("let v:errmsg = ''")
    set_form(editor, {"nameKo": "사과", "price": "12.5"})
    editor.nvim.input(":write<CR>")
    assert "price" in editor.wait("return vim.v.errmsg ~= '' and vim.v.errmsg", "the error")
    editor.quit()
