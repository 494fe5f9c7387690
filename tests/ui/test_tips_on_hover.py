"""Tooltips worked out when they are asked for (a hover), not on every value.

Issue 36's latency must-hold: Decode wrote the exact expansion of three values (the
shortest decimal's, next up's, next down's) into their tooltips on every edit. These
tests prove an edit works out none of them, and that a hover still shows the exact value
of the pattern in view (never an earlier value's).
"""

from __future__ import annotations

from fractions import Fraction

from _decode_tips import decode_counting_tips
from _qt_probes import hover_cell, hover_tip
from PySide6 import QtCore, QtGui, QtWidgets

from fpinspector.model.state import InspectorState


def _f32_fraction(bits: int) -> Fraction:
    """The exact value of a positive normal f32 pattern, by hand (oracle)."""
    e, m = bits >> 23 & 0xFF, bits & 0x7FFFFF
    return Fraction(0x800000 + m, 0x800000) * Fraction(2) ** (e - 127)


def _digits(tip: str) -> Fraction:
    """The exact decimal of a value tooltip ("f32 0x... is exactly\\n<digits>\\n= <hex>")."""
    return Fraction(tip.split("is exactly\n")[1].split("\n=")[0].replace("\n", ""))


def test_decode_edit_works_out_no_exact_tip(qtbot, monkeypatch) -> None:
    """An edit (1.5 -> 1.5000001, f32) asks the model for no exact expansion of the
    shortest / next up / next down rows (on main it asked for three)."""
    state, panel, asked = decode_counting_tips(qtbot, monkeypatch)
    state.update(bits=0x3FC00001)
    labelled = {(f, b) for f, b in asked if b in (0x3FC00000, 0x3FC00001, 0x3FC00002)
                and f == "f32"}
    assert labelled == set(), asked
    assert panel.text("shortest") == "1.5000001"  # (the edit did show the new value)


def test_decode_hover_shows_the_exact_value_of_the_pattern_in_view(qtbot) -> None:
    """Hovering shortest / next up / next down shows the exact value of the pattern each
    row shows, after 1.5 then 0.1f: never the earlier value's (before the hover, the
    tooltip is the row's explanation). Oracle: the f32 patterns' values by hand
    (Fraction), 1.5 = 0x3FC00000 and 0.1f = 0x3DCCCCCD."""
    from fpinspector.ui.inspector.value_panel import _ROWS, ValuePanel

    state = InspectorState()
    panel = ValuePanel(state)
    qtbot.addWidget(panel)
    panel.show()
    explain = dict(_ROWS)
    for bits in (0x3FC00000, 0x3DCCCCCD, 0x3FC00000):
        state.update(fmt="f32", bits=bits)
        for key, pattern in (("shortest", bits), ("next up", bits + 1),
                             ("next down", bits - 1)):
            lab = panel.labels[key]
            assert lab.toolTip() == explain[key]  # no earlier value's expansion
            tip = hover_tip(lab)
            assert tip.startswith(f"f32 0x{pattern:X} is exactly"), tip
            assert _digits(tip) == _f32_fraction(pattern), tip
            assert panel.exact_tip(key) == tip


def _cell(view, r: int, c: int) -> str:
    item = view.table.item(r, c)
    return item.text() if item else ""


def test_conversions_shading_and_tips_follow_each_value_and_the_palette(qtbot) -> None:
    """Conversions, values in and out of disagreement (1.5: every encoder agrees; 65504+
    0x477FF000 and 2^-14-ish 0x387FC000: some round another way), then a dark palette:
    a cell is shaded exactly when its pattern (its text's first line) differs from the
    D3D row's in its column (oracle: the texts shown), in the palette's colour of the
    moment; D3D cells name their rules, the others work theirs out on hover."""
    from fpinspector.ui import palette
    from fpinspector.ui.inspector.conversions_view import ConversionsView

    state = InspectorState()
    view = ConversionsView(state)
    qtbot.addWidget(view)
    view.show()
    app = QtWidgets.QApplication.instance()
    old = app.palette()
    R = QtCore.Qt.ItemDataRole
    try:
        for bits, dark in ((0x477FF000, False), (0x3FC00000, False), (0x387FC000, False),
                           (0x477FF000, False), (0x387FC000, True), (0x3FC00000, True),
                           (0x477FF000, True)):
            if dark:
                pal = QtGui.QPalette(app.palette())
                pal.setColor(QtGui.QPalette.ColorRole.Window, QtGui.QColor("#202020"))
                app.setPalette(pal)
            state.update(fmt="f32", bits=bits)
            shade = QtGui.QColor(palette.colors().diff).lighter(160)
            shaded = 0
            for c, dst in enumerate(view._targets):
                ref = _cell(view, 0, c).split("\n")[0]
                for r, var in enumerate(view._rows[:-1]):
                    differs = _cell(view, r, c).split("\n")[0] != ref
                    shaded += differs
                    item = view.table.item(r, c)
                    assert view.is_highlighted(var, dst) == differs, (hex(bits), var, dst)
                    bg = item.data(R.BackgroundRole)
                    if differs:
                        assert bg is not None and bg.color() == shade, (hex(bits), var, dst)
                        assert view.cell_tooltip(var, dst).startswith("differs from d3d")
                    else:
                        assert bg is None, (hex(bits), var, dst)
                        assert not view.cell_tooltip(var, dst).startswith("differs")
                    assert "rules: " in view.cell_tooltip(var, dst)
                    if var == "d3d":
                        assert item.toolTip() == view.cell_tooltip(var, dst)
            assert shaded == 0 if bits == 0x3FC00000 else shaded > 0
    finally:
        app.setPalette(old)


def test_decode_other_format_cells_tooltips_are_their_text(qtbot) -> None:
    """Decode's "In the other formats": after each of 1.5, FLT_MAX, 1.5, 1 ulp above 1.5,
    the format, pattern and rules cells' tooltips are their text (the value cells', the
    exact expansion: test_partial_view_updates)."""
    from fpinspector.ui.inspector.value_panel import ValuePanel

    state = InspectorState()
    panel = ValuePanel(state)
    qtbot.addWidget(panel)
    panel.show()
    t = panel.others
    for bits in (0x3FC00000, 0x7F7FFFFF, 0x3FC00000, 0x3FC00001):
        state.update(fmt="f32", bits=bits)
        for r in range(t.rowCount()):
            for c in (0, 1, 3):
                assert t.item(r, c).toolTip() == t.item(r, c).text(), (hex(bits), r, c)
            assert t.item(r, 1).text().startswith("0x")


def _small_fraction(bits: int, exp_bits: int, frac_bits: int) -> Fraction:
    """A positive f16/f11/f10 pattern's exact value by hand (oracle)."""
    bias = (1 << (exp_bits - 1)) - 1
    e, m = bits >> frac_bits, bits & ((1 << frac_bits) - 1)
    if e == 0:
        return Fraction(m, 1 << frac_bits) * Fraction(2) ** (1 - bias)
    return (1 + Fraction(m, 1 << frac_bits)) * Fraction(2) ** (e - bias)


def test_word_view_works_out_exact_tips_on_hover_only(qtbot, monkeypatch) -> None:
    """The word view: a new word asks for no exact expansion; hovering a float reading
    shows its pattern's exact value; the integer and RGB9E5 readings keep the model's
    tooltips. Words 0x3FC03C00 (f32 1.5000715..., f16 halves 1.875 and 1.0), then
    0x40490FDB (pi). Oracle: each field's value by hand (Fraction)."""
    from fpinspector.model.describe.word_ints import integer_readings
    from fpinspector.ui import bridge
    from fpinspector.ui.inspector.word_view import WordView

    state = InspectorState()
    view = WordView(state)
    qtbot.addWidget(view)
    view.resize(500, 700)
    view.show()
    asked: list[tuple[str, int]] = []
    real = bridge.exact_tip
    monkeypatch.setattr(bridge, "exact_tip", lambda f, b: asked.append((f, b)) or real(f, b))
    t = view.table
    for word in (0x3FC03C00, 0x40490FDB):
        asked.clear()
        state.update(word=word)
        assert asked == []
        rows = {t.item(r, 0).text(): r for r in range(t.rowCount())}
        fields = {"f32": (word, lambda b: _f32_fraction(b)),
                  "f16 high half (bits 31-16)": (word >> 16, lambda b: _small_fraction(b, 5, 10)),
                  "f16 low half (bits 15-0)": (word & 0xFFFF, lambda b: _small_fraction(b, 5, 10)),
                  "R11G11B10 R (f11, bits 10-0)": (word & 0x7FF, lambda b: _small_fraction(b, 5, 6)),
                  "R11G11B10 G (f11, bits 21-11)": (word >> 11 & 0x7FF,
                                                    lambda b: _small_fraction(b, 5, 6)),
                  "R11G11B10 B (f10, bits 31-22)": (word >> 22, lambda b: _small_fraction(b, 5, 5))}
        for key, (pattern, value) in fields.items():
            digits = {"f32": 8, "f16": 4}.get(key[:3], 3)
            assert t.item(rows[key], 1).text().startswith(f"0x{pattern:0{digits}X} = "), key
            tip = hover_cell(t, rows[key], 1)
            assert tip.split(" is exactly")[0].split(":")[0].endswith(f" 0x{pattern:X}"), tip
            if "is exactly" in tip:
                assert _digits(tip) == value(pattern), (key, tip)
            assert view.tip(key) == tip
        for key, value, tip in integer_readings(word):
            assert t.item(rows[key], 1).text() == value
            assert t.item(rows[key], 1).toolTip() == tip == view.tip(key)
        for ch in "RGB":
            assert t.item(rows[f"R9G9B9E5 {ch} (CONV-RGB9E5)"], 1).toolTip().startswith("exactly ")


def test_distance_rows_follow_each_pair(qtbot) -> None:
    """The Distance view's cells, updated in place, show each new pair: f32 operands
    1.5 and 1.5 + 3 ulps, then 1.5 and 1.5 + 40 ulps, then 1.0 and 1.0. Oracle: positive
    f32 patterns are as many ulps apart as their integers differ (by hand), and the
    f32 row's A and B are the operands' shortest decimals (1.5, 1.0000001 ... by hand)."""
    from fpinspector.ui.inspector.distance_view import DistanceView

    view = DistanceView()
    qtbot.addWidget(view)
    view.show()
    t = view.table
    for a, b, a_text in ((0x3FC00000, 0x3FC00003, "1.5"), (0x3FC00000, 0x3FC00028, "1.5"),
                         (0x3F800000, 0x3F800000, "1.0")):
        view.show_pair("f32", a, b)
        row = next(r for r in range(t.rowCount()) if t.item(r, 0).text() == "f32")
        d = b - a
        assert t.item(row, 1).text() == a_text
        assert view.distances()["f32"] == f"{d} ({max(d - 1, 0)} in between)"
        between = t.item(row, 4).text()
        if d == 0 or d == 1:
            assert between == ""
        elif d <= 9:
            assert len(between.split(", ")) == d - 1
        else:
            assert f"{d - 1 - 8:,} more" in between
