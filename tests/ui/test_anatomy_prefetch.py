"""The Conversions view's rounding anatomy, kept per value and worked out ahead by the
neighbour prefetch: a bit click after an idle moment shows its anatomy without a model
call, and the anatomy shown is the clicked value's (CONV-F2F-RTZ, CONV-F2F-RNE: the exact
input and the two neighbouring patterns, checked against Fractions written out here;
CONV-UNSIGNED for a negative value into f11)."""

from __future__ import annotations

import struct
from fractions import Fraction

import pytest
from PySide6 import QtCore

from fpinspector.ui import bridge


@pytest.fixture(autouse=True)
def _fresh_caches():
    bridge.clear_caches()
    yield
    bridge.clear_caches()


def _f32(bits: int) -> Fraction:
    """The exact value of an f32 pattern (struct reads it as a double: exact)."""
    return Fraction(struct.unpack("<f", struct.pack("<I", bits))[0])


def _f16(bits: int) -> Fraction:
    """The exact value of a normal f16 pattern, by its fields."""
    e, m = bits >> 10 & 0x1F, bits & 0x3FF
    return (-1) ** (bits >> 15) * Fraction(1024 + m, 1024) * Fraction(2) ** (e - 15)


def _line(text: str, name: str) -> str:
    return next(ln for ln in text.splitlines() if ln.startswith(name)).split(":", 1)[1].strip()


def _idle(wait_for, win) -> None:
    assert wait_for(lambda: not win.prefetch.busy(), 10000)


def _counting(monkeypatch) -> list:
    calls: list = []
    real = bridge.rounding_anatomy
    monkeypatch.setattr(bridge, "rounding_anatomy",
                        lambda *a, **k: calls.append((a, k)) or real(*a, **k))
    return calls


def test_a_bit_click_after_an_idle_moment_shows_its_anatomy_without_a_model_call(
        make_window, qtbot, wait_for, monkeypatch) -> None:
    """Wide window, Conversions seen, cell (d3d, f16) selected: after the idle prefetch a
    click on bit 3 of 0x3FC00120 shows the anatomy of 0x3FC00128 (exact 1.5000219...,
    between f16 0x3E00 = 1.5 and 0x3E01 = 1.5 + 2^-10) and the model was not asked."""
    win = make_window()
    view = win.conversions_view
    win.state.update(fmt="f32", bits=0x3FC00120)
    view.select("d3d", "f16")
    _idle(wait_for, win)
    calls = _counting(monkeypatch)
    cells = win.editor.cells
    qtbot.mouseClick(cells, QtCore.Qt.MouseButton.LeftButton,
                     pos=cells.cell_rect(3).center().toPoint())
    assert win.state.snapshot.bits == 0x3FC00128
    assert calls == []  # (before: one rounding_anatomy per value)
    text = view.anatomy.toPlainText()
    assert text.startswith("f32 → f16 by d3d\n")
    exact = _f32(0x3FC00128)
    assert exact == Fraction(0x3FC00128 & 0x7FFFFF | 0x800000, 2 ** 23)
    assert _line(text, "exact input").startswith(f"{exact.numerator}/{exact.denominator}")
    lower, upper = _line(text, "lower"), _line(text, "upper")
    assert lower.startswith("0x3E00") and _f16(0x3E00) == Fraction(3, 2) <= exact
    assert upper.startswith("0x3E01") and _f16(0x3E01) == Fraction(3, 2) + Fraction(1, 1024) > exact
    assert "CONV-F2F-RTZ" in text  # (D3D converts to a smaller float toward zero)


def test_the_kept_anatomy_is_the_one_the_value_gets_alone(make_window, wait_for) -> None:
    """Prefetched for the selected cell (ieee, f11) of each neighbour, then shown: the same
    text as the same value worked out with nothing kept, for every neighbour of 1.1f (a key
    mixed up between values fails here)."""
    win = make_window()
    view = win.conversions_view
    win.state.update(fmt="f32", bits=0x3F8CCCCD)
    view.select("ieee", "f11")
    _idle(wait_for, win)
    assert view.anatomy_conversion() == ("f11", "ieee")
    kept = {}
    for k in range(32):
        win.state.update(bits=0x3F8CCCCD ^ (1 << k))
        kept[k] = view.anatomy.toPlainText()
    bridge.clear_caches()
    for k in range(32):
        win.state.update(bits=0x3F8CCCCD ^ (1 << k))
        assert view.anatomy.toPlainText() == kept[k], k
    # bit 31, the sign: -1.1f has no f11 (no sign bit): clamped to 0 (CONV-UNSIGNED)
    exact = -_f32(0x3F8CCCCD)
    assert _line(kept[31], "exact input").startswith(f"-{-exact.numerator}/{exact.denominator}")
    assert _line(kept[31], "result (ieee)").startswith("0x000")
    # bit 0: 1.1f + 2^-23 lies between f11 0x3C6 (1 + 6/64) and 0x3C7 (1 + 7/64), under
    # halfway: to nearest is down
    exact = _f32(0x3F8CCCCD ^ 1)
    assert Fraction(70, 64) < exact < Fraction(141, 128)
    assert _line(kept[0], "result (ieee)").startswith("0x3C6")
    assert "round to nearest" in kept[0]


def test_no_anatomy_is_worked_out_ahead_for_a_conversions_view_behind_a_tab(
        make_compact_window, wait_for, monkeypatch) -> None:
    """Compact window, Conversions behind another tab: its anatomy waits until raised."""
    from fpinspector.ui.qt_utils import is_seen
    from fpinspector.ui.shell.window_layout import raise_dock

    win = make_compact_window()
    raise_dock(win, win.docks["history"])
    wait_for(lambda: not is_seen(win.conversions_view), 2000)
    calls = _counting(monkeypatch)
    win.state.update(fmt="f32", bits=0x40490FDB)
    _idle(wait_for, win)
    assert calls == []
