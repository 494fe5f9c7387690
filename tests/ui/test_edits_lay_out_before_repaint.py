"""An edit is laid out before the window repaints: the layout requests it posts (a label's
holder, its panel, the scroll area's contents) are delivered with the edit, not after the
repaint it asked for, where each level asked for another repaint of what it moved."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from fpinspector.ui import window_layout


def _compact_window(make_window, qtbot):
    win = make_window()
    size = QtCore.QSize(1280, 720)
    win.resize(size)
    win.layout_mode = window_layout.arrange_docks(win, size)
    win.show()
    qtbot.waitExposed(win)
    for _ in range(10):
        QtWidgets.QApplication.processEvents()
    return win


def test_no_layout_request_is_left_behind_by_an_edit(make_window, qtbot,
                                                     layout_requests) -> None:
    win = _compact_window(make_window, qtbot)
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
