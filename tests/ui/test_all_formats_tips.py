"""All formats: a value field's tooltip is the exact expansion of the pattern the field
shows, worked out when the field is hovered, not on every edit.

Oracle: the exact value of each pattern written out from its fields with ``Fraction``
(docs/rules.md FMT-F32, FMT-F16, FMT-F64: a binary fraction ends, so its decimal
expansion is exact), never the app's own decimal code.
"""

from __future__ import annotations

import struct
from fractions import Fraction

import pytest
from _qt_probes import send_tooltip_event

from fpinspector.ui import bridge
from fpinspector.ui.inspector.all_formats import AllFormatsPanel


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _value(bits: int, ebits: int, mbits: int) -> Fraction:
    """The value of a finite binary float pattern, from its sign, exponent and fraction."""
    sign = -1 if bits >> (ebits + mbits) else 1
    e, m = (bits >> mbits) & ((1 << ebits) - 1), bits & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if e == 0:
        return sign * Fraction(m, 1 << mbits) * Fraction(2) ** (1 - bias)
    return sign * (1 + Fraction(m, 1 << mbits)) * Fraction(2) ** (e - bias)


LAYOUT = {"f64": (11, 52), "f32": (8, 23), "f16": (5, 10)}


def _tip_value(tip: str) -> Fraction:
    digits = tip.split("is exactly\n")[1].split("\n=")[0].replace("\n", "")
    return Fraction(digits)


@pytest.fixture
def panel(qtbot) -> AllFormatsPanel:
    p = AllFormatsPanel()
    qtbot.addWidget(p)
    p.resize(1200, 300)
    p.show()
    return p


def test_an_edit_works_out_no_exact_expansion(panel, monkeypatch) -> None:
    """Values shown in every row ask the model for no exact expansion (until a hover)."""
    asked: list[tuple[str, int]] = []
    real = bridge.exact_tip
    monkeypatch.setattr(bridge, "exact_tip", lambda f, b: asked.append((f, b)) or real(f, b))
    for x in (1.5, 0.1, -3.25e-41, 65504.0):
        panel.show_value("f32", _f32(x))
    assert asked == []


@pytest.mark.parametrize("fmt", ["f64", "f32", "f16"])
def test_a_hover_shows_the_exact_value_of_the_pattern_shown_now(panel, fmt) -> None:
    """1.5, 0.1f, 1.5 again: each hover names the pattern its row shows at that moment
    (the f16 row shows 0.1f rounded toward zero: CONV-F2F-RTZ)."""
    row = panel.rows[fmt]
    for x in (1.5, 0.1, 1.5):
        panel.show_value("f32", _f32(x))
        assert row.value_edit.toolTip() == row.value_tip  # not an earlier value's
        send_tooltip_event(row.value_edit)
        tip = row.value_edit.toolTip()
        assert tip == row.exact_tip()
        assert tip.startswith(f"{fmt} 0x{row.bits():X} is exactly")
        assert tip.endswith(row.value_tip)
        assert _tip_value(tip) == _value(row.bits(), *LAYOUT[fmt]), tip
    assert _tip_value(panel.rows["f64"].exact_tip()) == 1.5


def test_a_tip_saying_why_a_typed_value_was_refused_stays_on_hover(qtbot, make_window) -> None:
    """The field's "cannot read" tooltip is not replaced by the expansion when hovered."""
    win = make_window()
    win.show()
    row = win.all_formats.rows["f64"]
    row.value_edit.setText("zebra")
    row.value_edit.editingFinished.emit()
    assert "cannot read 'zebra'" in row.value_edit.toolTip()
    send_tooltip_event(row.value_edit)
    assert "cannot read 'zebra'" in row.value_edit.toolTip()
    assert row.exact_tip() == row.value_edit.toolTip()
    win.state.update(fmt="f32", bits=_f32(2.5))  # a new value: its expansion again
    send_tooltip_event(row.value_edit)
    assert _tip_value(row.value_edit.toolTip()) == Fraction(5, 2)
