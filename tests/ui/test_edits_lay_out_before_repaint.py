"""An edit is laid out before the window repaints: the layout requests it posts (a label's
holder, its panel, the scroll area's contents) are delivered with the edit, not after the
repaint it asked for, where each level asked for another repaint of what it moved."""

from __future__ import annotations

from PySide6 import QtWidgets


def test_no_layout_request_is_left_behind_by_an_edit(make_compact_window,
                                                     layout_requests) -> None:
    win = make_compact_window()
    win.ctl.paste("0x00000001 3f800000")
    app = QtWidgets.QApplication.instance()
    # a format switch (the inspector's bit editor and every row change), a value, an operand
    edits = [lambda: win.state.update(fmt="f16", bits=0x3C01),
             lambda: win.state.update(fmt="f32", bits=0x3F800001),
             lambda: win.state.update(bits=0x00000079),
             lambda: win.state.set_operand(0, 0x40490FDB)]
    for edit in edits:
        for _ in range(10):
            QtWidgets.QApplication.processEvents()
        edit()
        late = layout_requests(app)  # (the application's filter sees every object's)
        try:
            for _ in range(10):
                QtWidgets.QApplication.processEvents()
        finally:
            app.removeEventFilter(late)
        assert late.count == 0


def test_a_paste_is_laid_out_before_the_window_repaints(make_compact_window,
                                                        layout_requests) -> None:
    """A paste changes the state and then its own message, the note by the operands and
    the reading buttons: those are laid out before the paste returns, and the fired rules'
    list is laid out when it is refilled (Qt's zero-timer did it after the repaint)."""
    win = make_compact_window()
    app = QtWidgets.QApplication.instance()
    rules = win.ops_view.rules_list
    refilled = 0
    for text in ("nan 2.5", "0x00000001 3f800000", "10 20 30 40", "1.5 2.5"):
        for _ in range(10):
            QtWidgets.QApplication.processEvents()
        lines = [rules.item(i).text() for i in range(rules.count())]
        assert win.ctl.paste(text)
        refilled += [rules.item(i).text() for i in range(rules.count())] != lines
        late = layout_requests(app)
        try:
            for _ in range(10):
                QtWidgets.QApplication.processEvents()
        finally:
            app.removeEventFilter(late)
        assert late.count == 0, text
    assert refilled >= 3  # (the rules list was refilled by most of these pastes)
