"""Conversions view: a new value rewrites only the cells whose pattern changed, and what
every cell shows never depends on the values shown before (issue 36's latency must-hold).

A bit click changes a few of the view's 28 cells; making every cell's text (pattern over
shortest decimal) on each edit was most of the view's update. The oracle of the first test
is a fresh view that was shown only the final value: a walked view must equal it cell by
cell (text, tooltip, shading) after every step, across NaN, INF, denormals, disagreeing
encoders and source switches that add and remove a column.
"""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from fpinspector.ui import bridge
from fpinspector.ui.inspector.conversions_view import GPU_ROW, ConversionsView

#: (source, pattern): f32 specials and values the encoders disagree on, then sources with
#: another set of columns (bf16: one more column; f16 and f64: others) and back.
WALK = [
    ("f32", 0x3F800000),  # 1.0: every conversion exact, no rule fired
    ("f32", 0x3F800001),  # 1.0000001: the same small patterns, other rules (rounded)
    ("f32", 0x3F800002),
    ("f32", 0x477FF000),  # 65520: f16 overflow, saturate or INF by encoder
    ("f32", 0x387FC000),  # an f16 denormal the encoders round differently
    ("f32", 0x00000001),  # the smallest f32 denormal (d3d flushes it)
    ("f32", 0x7FC00001),  # a NaN with payload
    ("f32", 0xFF800000),  # -INF: 0 or INF in the unsigned formats
    ("f32", 0x7F7FFFFF),  # FLT_MAX
    ("bf16", 0x3FC0),     # a source D3D does not convert: a fifth column
    ("f32", 0x3FC00000),  # back to four columns
    ("bf16", 0x3FC0),     # the fifth column again, the same value as before
    ("f16", 0x3C01),
    ("f16", 0x0001),      # the smallest f16 denormal
    ("f64", 0x3FF0000000000001),
    ("f64", 0x7FF8000000000001),
    ("f32", 0x3F800001),
]


def _cells(view: ConversionsView) -> dict[tuple[str, str], tuple]:
    """Every cell's text, tooltip, highlight and background, by (row, column) name."""
    out = {}
    for r, var in enumerate(view._rows):
        if var == GPU_ROW:
            continue
        for c, dst in enumerate(view._targets):
            item = view.table.item(r, c)
            bg = item.data(QtCore.Qt.ItemDataRole.BackgroundRole) if item else None
            out[(var, dst)] = (view.cell_text(var, dst), view.cell_tooltip(var, dst),
                               view.is_highlighted(var, dst),
                               bg.color().name() if bg is not None else None)
    return out


def test_a_walked_view_shows_what_a_fresh_view_shows(qtbot) -> None:
    """After each step of WALK, the view that showed every earlier value equals a new view
    shown this value alone, in every cell: a skipped cell never keeps an earlier value's
    text, tooltip (1.0 -> 1.0000001 keeps f16 0x3C00 but fires a rounding rule) or
    shading, and a column removed and added again is filled."""
    walked = ConversionsView()
    qtbot.addWidget(walked)
    for src, bits in WALK:
        walked.show_value(src, bits)
        fresh = ConversionsView()
        qtbot.addWidget(fresh)
        fresh.show_value(src, bits)
        assert walked._targets == fresh._targets
        got, want = _cells(walked), _cells(fresh)
        assert got == want, (src, hex(bits))
        assert all(text for text, _, _, _ in got.values())  # (no cell left empty)


def test_a_cell_whose_pattern_stays_makes_no_new_text(qtbot, monkeypatch) -> None:
    """1.0000001 -> 1.0000002: every f16, f11 and f10 cell keeps its pattern (0x3C00 and
    1.0 in f11/f10, numpy's float16 of both values is 1.0), so only the f64 column's texts
    are made (one shortest decimal asked per f64 cell); the others are not rewritten."""
    view = ConversionsView()
    qtbot.addWidget(view)
    view.show_value("f32", 0x3F800001)
    before = _cells(view)
    asked: list[str] = []
    real = bridge.value_text

    def counting(fmt: str, bits: int) -> str:
        asked.append(fmt)
        return real(fmt, bits)

    monkeypatch.setattr(bridge, "value_text", counting)
    view.show_value("f32", 0x3F800002)
    after = _cells(view)
    changed = {key for key in after if after[key][0] != before[key][0]}
    assert changed and {dst for _, dst in changed} == {"f64"}
    assert set(asked) == {"f64"}
    assert len(asked) == len(changed)


@pytest.mark.parametrize("variant", ["ieee", "mesa"])
def test_a_kept_cell_tooltip_names_the_new_value_rules(qtbot, variant: str) -> None:
    """1.0 -> 1.0000001 in f16 by ``variant``: the cell still reads 0x3C00, and its hover
    now names the rounding rule fired for the new value (1.0 fires none: the model's
    rules, compared with the cell's tooltip text)."""
    view = ConversionsView()
    qtbot.addWidget(view)
    view.show_value("f32", 0x3F800000)
    assert view.cell_tooltip(variant, "f16") == "rules: none"
    view.show_value("f32", 0x3F800001)
    assert view.cell_text(variant, "f16").startswith("0x3C00")
    assert view.cell_tooltip(variant, "f16") == "rules: ROUND-NEAREST"


def test_a_source_switch_side_by_side_measures_no_column_floor_again(qtbot, monkeypatch) -> None:
    """Side by side each column is as wide as its format's widest texts; they are measured
    once per font and format, not on each source switch (an All formats row click: 24
    texts measured per switch). The columns still get their floors: each holds the widest
    text of its format (the oracle: QFontMetrics of those texts, measured here)."""
    from fpinspector.ui.inspector import conversions_view

    view = ConversionsView()
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    qtbot.waitExposed(view)
    assert view._side_by_side()
    for src, bits in (("f32", 0x3FC00000), ("f16", 0x3E00), ("f32", 0x3FC00000),
                      ("f16", 0x3E00)):  # every format's floor measured once
        view.show_value(src, bits)
    measured: list[str] = []
    real = conversions_view.widest_texts
    monkeypatch.setattr(conversions_view, "widest_texts",
                        lambda fmt: measured.append(fmt) or real(fmt))
    fm = view.table.fontMetrics()
    for src, bits in (("f32", 0x3FC00001), ("f16", 0x3E01), ("f32", 0x7F7FFFFF),
                      ("f16", 0x0001)):
        view.show_value(src, bits)
        for c, dst in enumerate(view._targets):
            widest = max(fm.horizontalAdvance(t) for t in real(dst))
            assert view.table.columnWidth(c) >= widest + 14, (src, dst)
    assert measured == []
