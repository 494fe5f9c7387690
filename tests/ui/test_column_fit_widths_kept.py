"""The tables' column fit measures a cell text once per font (qt_utils.text_width).

Issue 36's latency: Decode's "In the other formats" table and the Conversions table (one
above the other) measured every new cell text with the font metrics, 17-37 texts an
inspector or all-formats row click, most of them measured before (a value one bit away
and back, the rule names, the format names of a source switch). These tests prove a text
is measured once per font, and that the columns still hold every cell's text, after a
new font too.
"""

from __future__ import annotations

from _qt_probes import measured_texts
from PySide6 import QtGui, QtWidgets

from fpinspector.model.state import InspectorState

#: 1.5, 0.1f, 1.5 again: the third value's texts were all shown (and measured) before.
_THERE_AND_BACK = (0x3FC00000, 0x3DCCCCCD, 0x3FC00000)


def _holds_every_cell(table: QtWidgets.QTableWidget) -> None:
    """widen_column's rule, measured here afresh: each column (the stretched last one
    aside) at least as wide as its cells' widest line + 14 px."""
    fm = QtGui.QFontMetrics(table.font())
    for c in range(table.columnCount() - 1):
        for r in range(table.rowCount()):
            item = table.item(r, c)
            if item is not None and item.text():
                need = max(fm.horizontalAdvance(s) for s in item.text().split("\n")) + 14
                assert table.columnWidth(c) >= need, (r, c, item.text())


def _decode(qtbot):  # type: ignore[no-untyped-def]
    from fpinspector.ui.inspector.value_panel import ValuePanel

    state = InspectorState()
    panel = ValuePanel(state)
    qtbot.addWidget(panel)
    panel.resize(700, 600)
    panel.show()
    return state, panel


def test_decode_measures_no_other_format_text_it_measured_before(qtbot, monkeypatch) -> None:
    """1.5, 0.1f, then 1.5 again (f32): the other-format cells change back to texts the
    table measured for the first 1.5, so the update measures none (on main: every cell
    text that changed, 0.1f's -> 1.5's); the columns still hold every cell."""
    state, panel = _decode(qtbot)
    texts = measured_texts(monkeypatch)
    counts = []
    for bits in _THERE_AND_BACK:
        texts.clear()
        state.update(fmt="f32", bits=bits)  # (the update runs here; the labels' own
        counts.append(len(texts))            # measuring waits for their layout events)
        _holds_every_cell(panel.others)
    assert counts[1] > 0  # 0.1f's texts were new: measured (the case under test ran)
    assert counts[2] == 0, (counts, texts)
    f64 = next(r for r in range(panel.others.rowCount())
               if panel.others.item(r, 0).text() == "f64")
    assert panel.others.item(f64, 1).text() == "0x3FF8000000000000"  # 1.5 shown again


def test_decode_measures_again_in_a_new_font(qtbot, monkeypatch) -> None:
    """The table's font doubles in size: the texts measured before are measured again in
    it, and the columns widen to hold them (kept widths of the old font would leave the
    cells cut off)."""
    state, panel = _decode(qtbot)
    state.update(fmt="f32", bits=0x3DCCCCCD)
    state.update(fmt="f32", bits=0x3FC00000)
    before = [panel.others.columnWidth(c) for c in range(3)]
    font = QtGui.QFont(panel.others.font())
    font.setPointSizeF(font.pointSizeF() * 2)
    panel.others.setFont(font)
    texts = measured_texts(monkeypatch)
    state.update(fmt="f32", bits=0x3DCCCCCD)
    assert texts  # measured afresh in the new font
    after = [panel.others.columnWidth(c) for c in range(3)]
    assert all(a > b for a, b in zip(after[1:], before[1:])), (before, after)
    _holds_every_cell(panel.others)
