"""A click updates and repaints only what changed, and every view still shows the new value.

Issue 36's latency must-hold: each edit rewrote the Conversions view's whole rounding
anatomy (its scroll bar repainted on every edit, a second paint pass when a line wrapped
anew). These tests prove the partial updates leave exactly the new value on screen, and
that what did not change is not rewritten or repainted.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from _decode_tips import decode_counting_tips
from _qt_probes import hover_cell
from PySide6 import QtCore, QtGui, QtWidgets

from fpinspector.model.state import InspectorState
from fpinspector.ui.inspector.conversions_view import ConversionsView, replace_lines


def _f32_fraction(bits: int) -> Fraction:
    """The exact value of a positive normal f32 pattern, by hand (oracle)."""
    e, m = bits >> 23 & 0xFF, bits & 0x7FFFFF
    return Fraction(0x800000 + m, 0x800000) * Fraction(2) ** (e - 127)


def _doc(text: str) -> tuple[QtGui.QTextDocument, list[tuple[int, int, int]]]:
    doc = QtGui.QTextDocument()
    doc.setDocumentLayout(QtWidgets.QPlainTextDocumentLayout(doc))
    doc.setPlainText(text)
    changes: list[tuple[int, int, int]] = []
    doc.contentsChange.connect(lambda pos, removed, added: changes.append((pos, removed, added)))
    return doc, changes


def test_replace_lines_rewrites_only_the_lines_that_differ(qapp) -> None:
    """Same number of lines: the document ends as the new text, and its only changes lie
    inside the lines that differ (the second and the fourth, one of them emptied)."""
    old = "f32 → f16 by d3d\nexact 1\nkept\nguard 0\nend"
    new = "f32 → f16 by d3d\nexact 8392703/8388608\nkept\n\nend"
    doc, changes = _doc(old)
    replace_lines(doc, new)
    assert doc.toPlainText() == new
    line2 = (old.index("exact"), old.index("exact") + len("exact 1"))
    assert changes and all(line2[0] <= pos <= line2[1] + 64 for pos, _, _ in changes)
    kept = doc.findBlockByNumber(2)
    assert kept.text() == "kept"
    touched = [pos for pos, removed, added in changes if removed or added]
    assert not any(kept.position() <= pos < kept.position() + kept.length() for pos in touched)


def test_replace_lines_same_text_changes_nothing_and_other_counts_are_set_whole(qapp) -> None:
    doc, changes = _doc("a\nb\nc")
    replace_lines(doc, "a\nb\nc")
    assert changes == [] and doc.toPlainText() == "a\nb\nc"
    replace_lines(doc, "a\nb")  # fewer lines
    assert doc.toPlainText() == "a\nb"
    replace_lines(doc, "x\ny\nz\nw")  # more
    assert doc.toPlainText() == "x\ny\nz\nw"
    empty, _ = _doc("")
    replace_lines(empty, "one")
    assert empty.toPlainText() == "one"


class _Paints(QtCore.QObject):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QtCore.QEvent.Type.Paint:
            self.count += 1
        return False


def test_a_new_values_anatomy_shows_it_without_repainting_the_scroll_bar(qtbot) -> None:
    """1.0000001 then 1.0004882 (f32 -> f16 by d3d): the anatomy names the new value's
    exact fraction, is read from its top, and its scroll bar (same number of lines, same
    range) is not repainted: on main it was, on every edit."""
    state = InspectorState()
    view = ConversionsView(state)
    qtbot.addWidget(view)
    view.resize(600, 420)
    view.show()
    qtbot.waitExposed(view)
    state.update(fmt="f32", bits=0x3F800001)
    view.select("d3d", "f16")
    for _ in range(5):
        QtWidgets.QApplication.processEvents()
    bar = view.anatomy.verticalScrollBar()
    view.anatomy.setFixedHeight(60)  # (a few lines: the anatomy scrolls)
    for _ in range(5):
        QtWidgets.QApplication.processEvents()
    assert bar.maximum() > 0
    lines_before = view.anatomy.document().blockCount()
    spy = _Paints()
    bar.installEventFilter(spy)
    state.update(bits=0x3F800FFF)
    for _ in range(5):
        QtWidgets.QApplication.processEvents()
    text = view.anatomy.toPlainText()
    frac = _f32_fraction(0x3F800FFF)
    assert f"{frac.numerator}/{frac.denominator}" in text  # 8392703/8388608
    assert text.startswith("f32 → f16 by d3d")
    assert view.anatomy.document().blockCount() == lines_before
    assert bar.value() == 0
    assert spy.count == 0


def test_a_changed_conversions_cell_shows_the_new_value_and_the_others_are_left_alone(
        qtbot) -> None:
    """1.0000001 -> 1.0000002 (f32): the f64 cells change (the exact value carries over),
    the f16 cells do not (both round to 0x3C00, by the same rules). Oracle: numpy's own
    conversions. Only the changed cells are rewritten: the table's model announces no
    other cell (each announced cell is repainted)."""
    state = InspectorState()
    view = ConversionsView(state)
    qtbot.addWidget(view)
    view.show()
    state.update(fmt="f32", bits=0x3F800001)
    QtWidgets.QApplication.processEvents()
    t = view.table
    rewritten: set[tuple[int, int]] = set()

    def note(top, bottom, roles=()) -> None:  # noqa: ANN001
        for r in range(top.row(), bottom.row() + 1):
            for c in range(top.column(), bottom.column() + 1):
                rewritten.add((r, c))

    t.model().dataChanged.connect(note)
    bits = 0x3F800002
    state.update(bits=bits)
    x = np.array([bits], dtype=np.uint32).view(np.float32)[0]
    f64 = int(np.float64(x).view(np.uint64))
    f16 = int(np.float16(x).view(np.uint16))
    assert view.cell_text("ieee", "f64").startswith(f"0x{f64:016X}\n")
    assert view.cell_text("ieee", "f16").startswith(f"0x{f16:04X}\n")
    rows, cols = view._rows, view._targets
    assert (rows.index("ieee"), cols.index("f64")) in rewritten
    assert not any(c != cols.index("f64") for _, c in rewritten)


class _PaintPasses(QtCore.QObject):
    """Counts the window's paint passes that paint something: an UpdateRequest to the
    window starts a pass, and a pass counts once a widget gets a Paint event in it. A
    request that paints nothing (Qt posts one where a widget asks for an update of a
    region the pass already covered) is no second pass for a user: nothing is drawn."""

    def __init__(self, window: QtWidgets.QWidget) -> None:
        super().__init__()
        self.window, self.count, self._painted = window, 0, True

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if kind == QtCore.QEvent.Type.UpdateRequest and obj is self.window:
            self._painted = False
        elif kind == QtCore.QEvent.Type.Paint and not self._painted:
            self._painted = True
            self.count += 1
        return False


def test_a_seen_history_list_shows_the_new_entry_in_the_edits_one_paint_pass(
        make_compact_window) -> None:
    """The History tab raised (1280x720): each edit's entry is on top of the list, with
    its pattern and shortest decimal (1.5 = 0x3FC00000, 2.75 = 0x40300000: exact binary
    fractions, the oracle), and the window repaints once per edit. Before, the list was
    laid out on Qt's zero-timer after the edit's paint: a second paint pass of the window
    on every edit, for the list alone."""
    win = make_compact_window()
    win.docks["history"].raise_()
    for _ in range(10):
        QtWidgets.QApplication.processEvents()
    h = win.history
    assert h.isVisible()
    for value, bits in ((1.5, 0x3FC00000), (2.75, 0x40300000)):
        passes = _PaintPasses(win)
        app = QtWidgets.QApplication.instance()
        app.installEventFilter(passes)
        win.state.update(fmt="f32", bits=bits)
        for _ in range(8):
            QtWidgets.QApplication.processEvents()
        app.removeEventFilter(passes)
        top = h.item(0).text()
        assert top.startswith(f"f32  0x{bits:08X}  ") and top.endswith(str(value))
        assert h.visualItemRect(h.item(0)).top() <= 2  # shown at the top, laid out
        assert passes.count == 1


def test_decode_other_formats_value_tips_follow_each_new_pattern(qtbot) -> None:
    """Decode's "In the other formats" value cells: the tooltip is the exact value of the
    pattern shown (worked out again only for a new pattern), after 1.5 then 0.1 then 1.5.
    Oracle: 1.5 and 0.1f's exact binary values written out by hand (Fraction)."""
    from fpinspector.ui.inspector.value_panel import ValuePanel

    state = InspectorState()
    panel = ValuePanel(state)
    qtbot.addWidget(panel)
    panel.show()
    t = panel.others
    row = next(r for r in range(t.rowCount()) if t.item(r, 0).text() == "f64")
    tenth = Fraction(0xCCCCCD, 0x800000) / 16  # f32 0x3DCCCCCD = 0.1f: 1.6 x 2^-4
    for bits, exact in ((0x3FC00000, Fraction(3, 2)), (0x3DCCCCCD, tenth),
                        (0x3FC00000, Fraction(3, 2))):
        state.update(fmt="f32", bits=bits)
        assert t.item(row, 2).toolTip() == ""  # (worked out when hovered: never the last one)
        hover_cell(t, row, 2)
        tip = t.item(row, 2).toolTip()
        digits = tip.split("is exactly\n")[1].split("\n=")[0].replace("\n", "")
        assert Fraction(digits) == exact, tip


def test_decode_works_out_no_value_tip_for_a_pattern_it_already_shows(qtbot, monkeypatch) -> None:
    """1.5 -> 1.5000001 (f32): an edit works out no expansion of the other formats' values
    (they are made when hovered); the f16 row still shows 0x3E00 (1.5; RNE and D3D agree,
    the f32 step is below half an f16 ulp), so its tooltip hovered before is kept, not
    worked out again; the f64 row's pattern is new, so a hover works its out."""
    state, panel, asked = decode_counting_tips(qtbot, monkeypatch)
    t = panel.others
    f16_row = next(r for r in range(t.rowCount()) if t.item(r, 0).text() == "f16")
    f64_row = next(r for r in range(t.rowCount()) if t.item(r, 0).text() == "f64")
    hover_cell(t, f16_row, 2)
    assert asked == [("f16", 0x3E00)]
    state.update(bits=0x3FC00001)
    assert asked == [("f16", 0x3E00)]  # (the edit asked for none)
    assert t.item(f16_row, 1).text() == "0x3E00"
    hover_cell(t, f16_row, 2)
    hover_cell(t, f64_row, 2)
    assert asked == [("f16", 0x3E00), ("f64", 0x3FF8000020000000)]


def test_a_history_list_scrolled_down_keeps_the_entries_in_view_still(
        make_compact_window) -> None:
    """Scrolled down to older entries, an edit adds its entry on top (out of view) and
    the entries in view stay where they were; back at the top, the next edit's entry is
    the first row in view."""
    win = make_compact_window()
    win.history.set_entries([("f32", 0x40000000 + k) for k in range(100)])
    win.docks["history"].raise_()
    for _ in range(10):
        QtWidgets.QApplication.processEvents()
    h = win.history
    h.scrollToItem(h.item(40), QtWidgets.QAbstractItemView.ScrollHint.PositionAtTop)
    QtWidgets.QApplication.processEvents()
    top = h.itemAt(QtCore.QPoint(2, 2)).text()
    win.state.update(fmt="f32", bits=0x3FC00000)
    for _ in range(8):
        QtWidgets.QApplication.processEvents()
    assert h.item(0).text().startswith("f32  0x3FC00000")
    assert h.itemAt(QtCore.QPoint(2, 2)).text() == top
    h.scrollToTop()
    win.state.update(fmt="f32", bits=0x40300000)
    for _ in range(8):
        QtWidgets.QApplication.processEvents()
    assert h.itemAt(QtCore.QPoint(2, 2)).text().startswith("f32  0x40300000")
