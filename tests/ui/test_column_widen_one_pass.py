"""A value that widens a table column is shown in the edit's one paint pass, all of it.

Issue 36's latency must-hold: when a new value's text widened a column (Decode's "In the
other formats", the Conversions table under the anatomy), the table laid itself out on
Qt's zero-timer after the edit's paint and repainted in a second pass. These tests prove
one pass per edit, and that this pass left on screen exactly what a full repaint draws.
"""

from __future__ import annotations

import pytest
from _qt_probes import on_screen
from PySide6 import QtCore, QtWidgets

from fpinspector.model.state import InspectorState

#: 1.5, then values whose other-format texts are longer (a denormal's f64 and bf16
#: decimals, 0x0DCCCCCD's, FLT_MAX's): each widens a column at these widths.
_VALUES = (0x3FC00000, 0x00800001, 0x0DCCCCCD, 0x7F7FFFFF)


class _Passes(QtCore.QObject):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QtCore.QEvent.Type.UpdateRequest:
            self.count += 1
        return False


def _settle() -> None:
    for _ in range(8):
        QtWidgets.QApplication.processEvents()


def _repainted(widget: QtWidgets.QWidget):
    """Oracle: the window with every widget of it painted again in full."""
    widget.repaint()
    for child in widget.findChildren(QtWidgets.QWidget):
        child.repaint()
    _settle()
    return on_screen(widget)


@pytest.mark.parametrize("view, width", [("decode", 700), ("conversions", 600)])
def test_a_widening_value_is_shown_in_one_full_paint_pass(qtbot, view, width) -> None:
    """Decode (700 px) and Conversions (600 px: the anatomy under the table): each edit
    repaints the window once (on main, twice where a column widened), each column holds
    its cells' text (widen_column's rule: the widest line + 14 px), and the screen after
    the pass equals a full repaint (nothing left stale right of a widened column)."""
    from fpinspector.ui.inspector.conversions_view import ConversionsView
    from fpinspector.ui.inspector.value_panel import ValuePanel

    state = InspectorState()
    w = ValuePanel(state) if view == "decode" else ConversionsView(state)
    table = w.others if view == "decode" else w.table
    qtbot.addWidget(w)
    w.resize(width, 600)
    w.show()
    _settle()
    widened = 0
    fm = table.fontMetrics()
    for bits in _VALUES:
        before = [table.columnWidth(c) for c in range(table.columnCount())]
        passes = _Passes()
        w.installEventFilter(passes)
        state.update(fmt="f32", bits=bits)
        _settle()
        w.removeEventFilter(passes)
        after = [table.columnWidth(c) for c in range(table.columnCount())]
        widened += any(a > b for a, b in zip(after, before))
        assert passes.count == 1, (hex(bits), before, after)
        last = table.columnCount() - 1 if view == "decode" else table.columnCount()
        for c in range(last):  # (Decode's last column stretches: no floor of its own)
            for r in range(table.rowCount()):
                item = table.item(r, c)
                if item is not None and item.text():
                    need = max(fm.horizontalAdvance(s) for s in item.text().split("\n")) + 14
                    assert table.columnWidth(c) >= need, (hex(bits), r, c, item.text())
        shown = on_screen(w)
        assert shown == _repainted(w), hex(bits)
    assert widened >= 2  # (the values did widen columns: the case under test happened)
