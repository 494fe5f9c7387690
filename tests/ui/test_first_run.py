"""The first run (ui/first_run.py): two lines saying what the screen shows and three
example cases, each loading its op and operands with the inspector on A (one undo step);
they go with the first edit, and a window that finds saved settings shows none."""

from __future__ import annotations

from fpinspector.ui.shell.first_run import EXAMPLES, INTRO


def test_first_run_explains_and_offers_three_examples(make_window) -> None:
    from PySide6 import QtWidgets

    win = make_window(restore=True)
    assert win.messages.text() == INTRO
    buttons = {b.text(): b for b in win.paste_box.findChildren(QtWidgets.QToolButton)}
    assert [t for t, *_ in EXAMPLES] == [t for t in buttons if t in {e[0] for e in EXAMPLES}]
    buttons["f11 clamp"].click()
    st = win.state
    assert st.op == "to_f11" and st.operands[0] == 0xC0200000
    assert st.selection == 0 and st.bits == 0xC0200000  # the inspector on A
    assert win.ops_view.model_box.value.text().endswith("= 0.0")  # F11-CLAMP: -2.5 -> 0
    assert win.messages.text() == ""  # the intro went with the change
    st.undo()
    assert st.op != "to_f11"


def test_no_intro_once_settings_were_saved(make_window) -> None:
    win = make_window(restore=True)
    win.save_settings()
    again = make_window(restore=True)
    assert again.messages.text() != INTRO
