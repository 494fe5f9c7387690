"""The operation's verdict, ULP figure, allowed set and value texts agree with each other and
with independent arithmetic (fractions), whatever the GPU answers."""

from __future__ import annotations

import re
import struct
from fractions import Fraction

import numpy as np
import pytest
from _qt_probes import send_tooltip_event


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _gpu_answers(win, bits: int) -> None:
    """Deliver ``bits`` as the GPU's answer to the current op (as the GPU worker would)."""
    win.ctl._gpu_req = req = 10_000 + bits % 1000
    win.ctl._gpu_captured(req, np.array([bits], dtype=np.uint32))


def _allowed_patterns(text: str) -> list[tuple[int, int]]:
    """The (lo, hi) pattern ranges written in an allowed-set text: {0x..} and [0x.., 0x..]."""
    out = []
    for m in re.finditer(r"\{(0x[0-9A-F]+)[^}]*\}|\[(0x[0-9A-F]+)[^,]*, (0x[0-9A-F]+)", text):
        if m.group(1):
            out.append((int(m.group(1), 16),) * 2)
        else:
            out.append((int(m.group(2), 16), int(m.group(3), 16)))
    return out


def test_mad_denormal_result_shows_the_exact_set_and_why_F32_FTZ(make_window) -> None:
    """mad(2^-126, 0.5, 0) = 2^-127 exactly (Fraction), a denormal: F32-FTZ allows only +0.
    A GPU returning the unflushed 0x00400000 is not conformant although its ULP error is 0,
    and the sentence says so; the allowed set is {+0}, never a hull that holds 0x00400000."""
    win = make_window()
    win.ops_view.op_combo.setCurrentText("mad")
    with win.state.batch():
        win.state.update(op_format="f32", operands=[0x00800000, _f32(0.5), 0])
    exact = Fraction(2) ** -126 * Fraction(1, 2) + 0
    assert 0 < exact < Fraction(2) ** -126  # a denormal: F32-FTZ flushes it
    _gpu_answers(win, 0x00400000)
    allowed = win.ops_view.allowed_label.text()
    assert _allowed_patterns(allowed) == [(0, 0)], allowed
    assert "1.1754944e-38" not in allowed
    head = win.ops_view.verdict_text()
    assert head.startswith("NOT CONFORMANT") and "F32-FTZ" in head and "flushed" in head, head
    assert "ULP error 0" in win.ops_view.verdict_text()
    assert win.ops_view.gpu_conformant() is False


def test_to_f11_saturation_has_no_ulp_number_CONV_F2F_SAT(make_window) -> None:
    """to_f11(FLT_MAX): f11's largest finite is (2 - 2^-6) * 2^15 = 65024 (Fraction); the
    conformant saturated result shows 65024.0 and says why there is no ULP figure."""
    win = make_window()
    win.ops_view.op_combo.setCurrentText("to_f11")
    win.state.set_operand(0, 0x7F7FFFFF)
    f11_max = (2 - Fraction(2) ** -6) * 2**15
    assert f11_max == 65024
    _gpu_answers(win, 0x7BF)
    head, detail = win.ops_view.verdict_text().split("\n")
    assert head.startswith("CONFORMANT") and "CONV-F2F-SAT" in head, head
    assert "ULP error" not in detail.replace("no ULP error", "") and "e+" not in detail, detail
    assert "saturates" in detail
    assert win.ops_view.model_box.value.text().endswith("= 65024.0")
    assert "65024" in win.ops_view.allowed_label.text()


@pytest.mark.parametrize("fmt, bits, value", [("f11", 0x7BF, 65024), ("f16", 0x7BFF, 65504),
                                               ("f10", 0x3DF, 64512), ("f16", 0xFBFF, -65504)])
def test_values_are_never_rounded_for_display_DEC_values(make_window, fmt, bits, value) -> None:
    """The largest finite f11/f16/f10 values (Fraction oracle: (2 - 2^-m) * 2^15) read as
    themselves in the inspector and in every other view; the exact expansion is the tooltip."""
    win = make_window()
    win.state.update(fmt=fmt, bits=bits)
    assert Fraction(win.editor.dec_edit.text()) == value
    dec = win.editor.dec_edit
    assert str(abs(value)) not in dec.toolTip()  # (worked out when hovered, not per edit)
    send_tooltip_event(dec)
    assert str(abs(value)) in dec.toolTip()
    row = win.all_formats.rows[fmt]
    assert Fraction(row.value_edit.text()) == value
    assert win.value_panel.text("shortest") == f"{value}.0"


@pytest.mark.parametrize("op", ["add", "mul", "mad", "sqrt", "rcp", "div"])
def test_verdict_and_allowed_set_never_contradict(make_window, op) -> None:
    """For observations around the model's result (±2 ULPs, the flushed zero, the other
    zero, a NaN), the verdict is CONFORMANT exactly when the observation is in the allowed
    set the view shows, and a ULP number is shown only when the engine gives one."""
    win = make_window()
    win.ops_view.op_combo.setCurrentText(op)
    rng = np.random.default_rng(7)
    cases = [[0x00800000, _f32(0.5), 0], [_f32(1.0), 0x33800000, 0], [_f32(3.0), _f32(7.0), 0]]
    cases += [list(map(int, rng.integers(0, 2**32, 3, dtype=np.uint64))) for _ in range(3)]
    for operands in cases:
        with win.state.batch():
            win.state.update(op_format="f32", operands=operands + [0] * 5)
        model = win.ctl.outcome.bits
        shown = _allowed_patterns(win.ops_view.allowed_label.text())
        nan_ok = "any NaN" in win.ops_view.allowed_label.text()
        for obs in {model, (model + 1) & 0xFFFFFFFF, (model - 1) & 0xFFFFFFFF, model + 2 & 0xFFFFFFFF,
                    0, 0x80000000, 0x00000001, 0x7FC00000}:
            _gpu_answers(win, obs)
            head = win.ops_view.verdict_text()
            key = np.array([obs], np.uint32).view(np.float32)[0]
            if np.isnan(key):
                inside = nan_ok
            else:
                inside = any(_value_between(obs, lo, hi) for lo, hi in shown)
            assert head.startswith("CONFORMANT") == inside, (operands, hex(obs), head, shown)
            v = win.ctl.outcome.verdict(obs)
            detail = win.ops_view.verdict_text().split("\n")[1]
            assert ("ULP error " in detail and "no ULP error" not in detail) == (v.ulp_error is not None)


def _value_between(p: int, lo: int, hi: int) -> bool:
    """Pattern p lies in [lo, hi] in value order, -0 below +0 (an independent key)."""

    def key(x: int) -> int:
        return -(x & 0x7FFFFFFF) - 1 if x >> 31 else x

    return key(lo) <= key(p) <= key(hi)


def test_the_headline_is_bold_in_its_verdict_colour_and_a_message_is_plain(make_window) -> None:
    """F32-FTZ: mad(2^-126, 0.5, 0) allows only +0; the headline says so in the palette's
    verdict colour, bold, over a plain detail line; a message (no GPU) is plain text in the
    window's text colour; a new palette recolours the headline."""
    from PySide6 import QtGui, QtWidgets

    from fpinspector.ui import palette

    win = make_window()
    win.ops_view.op_combo.setCurrentText("mad")
    with win.state.batch():
        win.state.update(op_format="f32", operands=[0x00800000, _f32(0.5), 0])
    head, detail = win.ops_view.verdict_label, win.ops_view.verdict.verdict_detail
    text = QtGui.QPalette.ColorRole.WindowText

    def colour(lab) -> str:
        return lab.palette().color(text).name()

    for obs, ok in ((0x00400000, False), (0x00000000, True)):
        _gpu_answers(win, obs)
        want = palette.colors().ok if ok else palette.colors().bad
        assert head.font().bold() and colour(head) == QtGui.QColor(want).name()
        assert not detail.font().bold() and colour(detail) == colour(win.ops_view)
        assert head.text().startswith("CONFORMANT" if ok else "NOT CONFORMANT")
    win.ops_view.show_gpu(None, None, None, "No GPU: <none> here")
    assert win.ops_view.verdict_text() == "No GPU: <none> here"  # (plain: "<" shown as is)
    assert not head.font().bold() and colour(head) == colour(win.ops_view)
    _gpu_answers(win, 0x00400000)
    app = QtWidgets.QApplication.instance()
    before = app.palette()
    try:
        dark = QtGui.QPalette(before)
        dark.setColor(QtGui.QPalette.ColorRole.Window, QtGui.QColor("#202020"))
        app.setPalette(dark)
        QtWidgets.QApplication.processEvents()
        assert colour(head) == QtGui.QColor(palette.colors().bad).name()
    finally:
        app.setPalette(before)
