"""The Conversions dock shares its width by what each part needs (issue 36, "empty areas",
no key column behind side scrolling): side by side (the wide layout, 1800x1000) the table
was given 3/5 of the dock and showed ~160 px of nothing right of f10 while the rounding
anatomy beside it wrapped every line; in a narrow dock (960x1050: ~470 px) every column
kept Qt's 100 px default and f10 sat behind side scrolling. Now the columns are as wide as
their text, the table as wide as its columns, the anatomy the rest."""

from __future__ import annotations

import pytest
from PySide6 import QtWidgets

from fpinspector.model.state import InspectorState


def _settle(qtbot) -> None:
    qtbot.wait(60)
    for _ in range(5):
        QtWidgets.QApplication.processEvents()


def _slack(t: QtWidgets.QTableWidget) -> int:
    """Pixels of the table's viewport right of its last column."""
    last = t.columnCount() - 1
    return t.viewport().width() - (t.horizontalHeader().sectionViewportPosition(last)
                                   + t.columnWidth(last))


@pytest.fixture
def view(qtbot):
    from fpinspector.ui.inspector.conversions_view import ConversionsView

    state = InspectorState()
    v = ConversionsView(state)
    qtbot.addWidget(v)
    v.state_ = state
    return v


def test_side_by_side_the_table_leaves_no_empty_room(view, qtbot) -> None:
    view.resize(1120, 330)  # the Conversions dock of the wide layout at 1800x1000
    view.show()
    _settle(qtbot)
    view.state_.update(fmt="f32", bits=0x00000001)  # f64's longest value: 1.4e-45's digits
    _settle(qtbot)
    t = view.table
    assert t.horizontalScrollBar().maximum() == 0  # every column seen
    assert _slack(t) <= 24, _slack(t)  # (was ~160 px of nothing)
    # the anatomy got the rest: its longest line ("upper : 0x36A… = 1.401298464324817e-45")
    # is not wrapped
    lines = view.anatomy.toPlainText().split("\n")
    fm = view.anatomy.fontMetrics()
    longest = max(fm.horizontalAdvance(line) for line in lines[:6])
    assert longest <= view.anatomy.viewport().width(), (longest, view.anatomy.width())


def test_a_narrow_dock_shows_every_column(view, qtbot) -> None:
    view.resize(470, 300)  # the Conversions dock at 960x1050 (the docks under the window)
    view.show()
    _settle(qtbot)
    view.state_.update(fmt="f32", bits=0x3F803000)
    _settle(qtbot)
    t = view.table
    assert view.cell_text("d3d", "f10").startswith("0x")
    assert t.horizontalScrollBar().maximum() == 0
