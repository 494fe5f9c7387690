"""The operation's pickers show their whole text for every op and format: the format
picker took its width from the first op's formats, and from_unorm8's "unorm8" read
"unorm" (seen in the README's screenshot)."""

from __future__ import annotations

from PySide6 import QtWidgets


def _text_room(combo: QtWidgets.QComboBox) -> int:
    opt = QtWidgets.QStyleOptionComboBox()
    combo.initStyleOption(opt)
    text_room = combo.style().subControlRect(
        QtWidgets.QStyle.ComplexControl.CC_ComboBox, opt,
        QtWidgets.QStyle.SubControl.SC_ComboBoxEditField, combo).width()
    return text_room


def test_the_op_and_format_pickers_show_every_name_whole(make_window, qtbot) -> None:
    win = make_window()
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    view = win.ops_view
    combo = view.fmt_combo
    text_room = _text_room(combo)
    fm = combo.fontMetrics()
    names = {f for info in view.ops.values() for f in info.formats}
    assert "unorm16" in names
    for name in sorted(names):
        assert fm.horizontalAdvance(name) <= text_room, (name, text_room)
    for name in view.ops:
        assert fm.horizontalAdvance(name) <= _text_room(view.op_combo), name
