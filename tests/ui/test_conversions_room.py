"""The Conversions dock shares its width by what each part needs (issue 36, "empty areas",
no key column behind side scrolling): side by side (the wide layout, 1800x1000) the table
was given 3/5 of the dock and showed ~160 px of nothing right of f10 while the rounding
anatomy beside it wrapped every line; in a narrow dock (960x1050: ~470 px) every column
kept Qt's 100 px default and f10 sat behind side scrolling. Now the columns are as wide as
their text, the table as wide as its columns, the anatomy the rest. Side by side each
column is from the start as wide as any value of its format needs, so no value moves the
table or the anatomy (a column widened once, the first time a value needed it)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtWidgets

from fpinspector.model.formats import FORMATS
from fpinspector.model.state import InspectorState
from fpinspector.ui import bridge


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
    # the anatomy got the rest: the lines of an ordinary value's anatomy ("upper :
    # 0x3FB99999A0000000 = 0.10000000149011612") are not wrapped
    view.state_.update(fmt="f32", bits=0x3DCCCCCD)
    _settle(qtbot)
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


def test_side_by_side_no_value_moves_the_table(view, qtbot) -> None:
    """From an ordinary first value (1.0) on, the widest values of every column (f64's
    "-1.7976931348623157e+308", denormals, f16's "-0.00012195") and 300 random patterns
    leave the table, its columns and the anatomy where they were."""
    view.resize(1120, 330)
    view.show()
    _settle(qtbot)
    view.state_.update(fmt="f32", bits=0x3F800000)
    _settle(qtbot)
    t = view.table
    before = (view._split.sizes(), [t.columnWidth(c) for c in range(t.columnCount())])
    rng = np.random.default_rng(36)
    wide = [0x00000001, 0x80000001, 0xFF7FFFFF, 0x807FFFFF, 0xB9FFB000, 0x38FFFFFF]
    for bits in wide + [int(b) for b in rng.integers(0, 2**32, 300, dtype=np.uint64)]:
        view.state_.update(fmt="f32", bits=bits)
    _settle(qtbot)
    assert (view._split.sizes(), [t.columnWidth(c) for c in range(t.columnCount())]) == before
    assert t.horizontalScrollBar().maximum() == 0


def _samples(name: str) -> list[int]:
    """Every pattern of a format of 16 bits or fewer; else 20,000 random ones and the
    extremes (largest, smallest normal and denormal, each signed)."""
    f = FORMATS[name]
    if f.bits <= 16:
        return list(range(1 << f.bits))
    rng = np.random.default_rng(7)
    top = min(1 << f.bits, 2**63)
    out = [int(b) for b in rng.integers(0, top, 20000, dtype=np.uint64)]
    out += [int(rng.integers(0, 2**63)) | 2**63 for _ in range(5000)] if f.bits == 64 else []
    ends = [1, f.frac_mask, 1 << f.frac_bits, f.pos_inf - 1, f.quiet_nan]
    return out + ends + [f.sign_mask | e for e in ends]


@pytest.mark.parametrize("name", [n for n in FORMATS if FORMATS[n].d3d_conversion])
def test_a_columns_floor_holds_every_value_of_its_format(view, name) -> None:
    """The floor side by side (widest_texts) is at least what any cell of the format
    shows, measured in the table's font: every f16/f11/f10 pattern, f32/f64 samples."""
    fm = view.table.fontMetrics()
    floor = view._column_floor(name)
    widest = max(_samples(name), key=lambda b: fm.horizontalAdvance(bridge.value_text(name, b)))
    text = view._fmt(name, widest)
    assert max(fm.horizontalAdvance(line) for line in text.split("\n")) + 14 <= floor, text
