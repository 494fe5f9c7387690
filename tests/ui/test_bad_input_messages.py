"""Every error a user can trigger in a field shows a message naming the cause in the
window (the status bar, and inline where the field is), never a silent no-op or a traceback."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("field", ["operand hex", "word hex", "all formats hex", "inspector value"])
def test_unreadable_field_text_is_named_in_the_status_bar(make_window, field) -> None:
    win = make_window()
    before = win.state.snapshot
    if field == "operand hex":
        edit = win.ops_view.editors[0].hex_edit
    elif field == "word hex":
        edit = win.word_view.hex_edit
    elif field == "all formats hex":
        edit = win.all_formats.rows["f16"].hex_edit
    else:
        edit = win.editor.dec_edit
    edit.setText("0xZZ12")
    edit.editingFinished.emit()
    msg = win.statusBar().currentMessage()
    assert msg and ("ZZ" in msg.upper() or "zz" in msg), msg
    assert win.state.snapshot == before  # nothing half-applied


def test_uncaught_failure_is_a_message_not_a_traceback(make_window, capsys) -> None:
    from fpinspector.ui.shell.app import _report

    win = make_window()
    _report(win, RuntimeError, RuntimeError("boom in a slot"))
    assert "boom in a slot" in win.statusBar().currentMessage()
    assert capsys.readouterr().err == ""


def test_missing_workspace_file_is_named(make_window, tmp_path) -> None:
    from fpinspector.ui.shell import actions

    win = make_window()
    path = tmp_path / "nowhere.json"
    assert not actions.open_workspace(win, str(path))
    assert "nowhere.json" in win.statusBar().currentMessage()
