"""No key column behind horizontal scrolling in a dock as wide as the compact layout gives
(600 px at 1280x720): Conversions' f11 and f10, the Expression steps' GPU and allowed
columns, the GPUs report's second report. Offscreen, each table in a widget of that width."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from fpinspector.model.state import InspectorState

DOCK_WIDTH = 590  # the Conversions/GPUs/Expression dock's content at 1280x720


def _last_column_right(t: QtWidgets.QTableWidget) -> int:
    last = t.columnCount() - 1
    return t.horizontalHeader().sectionViewportPosition(last) + t.columnWidth(last)


def _settle(qtbot) -> None:
    qtbot.wait(50)
    QtWidgets.QApplication.processEvents()


def test_every_conversion_column_shows_in_a_compact_dock(qtbot) -> None:
    """f64's 16 hex digits and value on one line took half the dock; f10 was past the edge."""
    from fpinspector.ui.inspector.conversions_view import ConversionsView

    state = InspectorState()
    view = ConversionsView(state)
    qtbot.addWidget(view)
    view.resize(DOCK_WIDTH, 600)
    view.show()
    state.update(fmt="f32", bits=0x00800001)  # f64 value of 17 digits
    _settle(qtbot)
    t = view.table
    assert view.cell_text("d3d", "f10").startswith("0x")
    assert _last_column_right(t) <= t.viewport().width()
    assert t.horizontalScrollBar().maximum() == 0


def test_the_expression_steps_gpu_and_allowed_columns_show(qtbot) -> None:
    """A report with GPU columns (long allowed sets) fits the dock, text wrapped."""
    from fpinspector.ui.expression.expr_steps import StepTable

    def value(h: str, t: str) -> dict:
        return {"hex": h, "text": t}

    step = {"index": 0, "instruction": "mad", "operands": ["a", "b", "c"],
            "inputs": [value("0x00800000", "1.17549435e-38"), value("0x3F000000", "0.5"),
                       value("0x00000000", "0.0")],
            "model": value("0x00000000", "0.0"), "gpu": value("0x00400000", "5.8774718e-39"),
            "gpu_allowed": False, "allowed": {"text": "{0x00000000 (+0), 0x00400000 "
                                                      "(5.8774718e-39) if denormals kept}"},
            "rules": ["F32-FTZ", "F32-MAD-FUSED", "F32-PREC"], "label": "r0", "note": "",
            "exact": "5.877471754111438e-39", "gpu_fed_model": value("0x00000000", "0.0"),
            "explain": ["the product is denormal"]}
    rep = {"steps": [step, dict(step, index=1)], "gpu": {"first_divergence": 0}}
    table = StepTable()
    qtbot.addWidget(table)
    table.resize(DOCK_WIDTH, 300)
    table.show()
    table.show_report(rep)
    _settle(qtbot)
    assert _last_column_right(table) <= table.viewport().width() + 1
    for c in (4, 5):  # GPU, allowed: on screen, whole text in the tooltip
        assert table.columnViewportPosition(c) + table.columnWidth(c) <= \
            table.viewport().width() + 1
        assert table.item(0, c).text() in table.item(0, c).toolTip()


def test_the_gpus_report_second_report_shows(qtbot) -> None:
    from fpinspector.gpu.report_io import example_reports, load_report
    from fpinspector.ui.gpu.gpus_view import GpusView

    examples = example_reports()
    if len(examples) < 2:
        pytest.skip("needs two example reports")
    view = GpusView(sorted(examples))
    qtbot.addWidget(view)
    view.resize(DOCK_WIDTH, 600)
    view.show()
    for name in sorted(examples)[:2]:
        view.add_report(load_report(examples[name]), name)
    _settle(qtbot)
    t = view.rules
    assert t.columnCount() == 6
    assert _last_column_right(t) <= t.viewport().width() + 1


@pytest.mark.parametrize(("widths", "room", "cap"), [
    ([100, 100, 100], 600, 100),  # fits: the widest column is the cap
    ([50, 300, 400], 450, 200),  # 50 + 200 + 200
    ([50, 60, 700], 300, 190),
    ([500, 500], 60, 56),  # never under the floor
])
def test_fit_cap(widths, room, cap) -> None:
    from fpinspector.ui.qt_utils import fit_cap

    assert fit_cap(widths, room, 56) == cap
    if cap > 56:
        assert sum(min(w, cap) for w in widths) <= room


def _all_formats_in(qtbot, width: int):
    """All formats in a scroll area of ``width`` px, as its dock holds it."""
    from fpinspector.ui.inspector.all_formats import AllFormatsPanel

    state = InspectorState()
    area = QtWidgets.QScrollArea()
    area.setWidgetResizable(True)
    panel = AllFormatsPanel(state)
    area.setWidget(panel)
    qtbot.addWidget(area)
    area.resize(width, 500)
    area.show()
    state.update(fmt="f64", bits=0xC0F1170800000000)  # -70000.5: bits set in both halves
    _settle(qtbot)
    return state, area, panel


@pytest.mark.parametrize("width", [477, 440, 380])  # the dock at 960x1050; narrower ones
def test_all_formats_fits_the_dock_of_a_960_px_screen(qtbot, width) -> None:
    """Issue 36: nothing a user needs behind horizontal scrolling. At 960x1050 All formats'
    dock is ~477 px and the f64 row's 64 cells (9 px each at the least) and its hex and
    value beside its rules scrolled it sideways by 123 px. Now the cells wrap onto two
    lines of 32 (63-32 above 31-0, each numbered) and the rules take a line of their own;
    every field shows its whole text and nothing overlaps. Narrower still (a larger font,
    a dock dragged narrower), each value takes a line of its own too."""
    state, area, panel = _all_formats_in(qtbot, width)
    assert area.horizontalScrollBar().maximum() == 0, area.horizontalScrollBar().maximum()
    assert panel.width() <= area.viewport().width()
    cells = panel.rows["f64"].cells
    hi, lo = cells.parts()
    assert cells.is_wrapped() and hi.y() > lo.y() - hi.height() - 1 and lo.y() > hi.y()
    assert (hi.bits(), lo.bits()) == (0xC0F11708, 0)
    for key, row in panel.rows.items():
        for w in (row.hex_edit, row.value_edit):
            assert w.fontMetrics().horizontalAdvance(w.text()) + 8 <= w.width(), (key, w.text())
        parts = [w for w in row.widgets() if w.isVisible()]
        for i, a in enumerate(parts):
            for b in parts[i + 1:]:
                assert not a.geometry().intersects(b.geometry()), (key, a, b)
    fm = QtGui.QFontMetrics(hi.number_font())
    assert [b for b, _, _ in hi.number_spans(fm)][:1] == [31]  # drawn as 63 (NUMBER_BASE 32)
    # a click on the upper line edits bits 63-32 of the f64 pattern, the lower line 31-0
    qtbot.mouseClick(lo, QtCore.Qt.MouseButton.LeftButton, pos=lo.cell_rect(0).center().toPoint())
    assert (state.fmt, state.bits) == ("f64", 0xC0F1170800000001)
    qtbot.mouseClick(hi, QtCore.Qt.MouseButton.LeftButton, pos=hi.cell_rect(31).center().toPoint())
    assert (state.fmt, state.bits) == ("f64", 0x40F1170800000001)  # the sign: +70000.5...


def test_all_formats_keeps_64_cells_in_a_line_where_they_fit(qtbot) -> None:
    """In a dock about as wide as 1280x720 gives it the f64 cells stay one line of 64, and
    the rules stay beside the value, as before."""
    _state, area, panel = _all_formats_in(qtbot, DOCK_WIDTH + 20)
    assert area.horizontalScrollBar().maximum() == 0
    cells = panel.rows["f64"].cells
    hi, lo = cells.parts()
    assert not cells.is_wrapped() and hi.y() == lo.y() and lo.x() >= hi.x() + hi.width()
    row = panel.rows["f32"]
    assert row.rules_box.y() == row.value_box.y() or \
        abs(row.rules_box.geometry().center().y() - row.value_box.geometry().center().y()) < 12
