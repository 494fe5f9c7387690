"""No key column behind horizontal scrolling in a dock as wide as the compact layout gives
(600 px at 1280x720): Conversions' f11 and f10, the Expression steps' GPU and allowed
columns, the GPUs report's second report. Offscreen, each table in a widget of that width."""

from __future__ import annotations

import pytest
from PySide6 import QtWidgets

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
