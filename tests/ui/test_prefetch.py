"""The neighbour prefetch: the conversions of the values one bit flip away, computed while
the app is idle, are the ones each value gets alone, and a bit click then converts nothing
itself (CONV-* rules: the answers are the model's, only computed ahead)."""

from __future__ import annotations

import random

import pytest
from PySide6 import QtCore

from fpinspector.model.convert import VARIANTS
from fpinspector.model.formats import FORMATS
from fpinspector.ui import bridge
from fpinspector.ui.memo import Memo


@pytest.fixture(autouse=True)
def _fresh_caches():
    bridge.clear_caches()
    yield
    bridge.clear_caches()


def _answers(fmt: str, pats: list[int]) -> dict:
    """Every conversion the views ask for, with its rules, as they find it now."""
    out: dict = {}
    for b in pats:
        out[("d3d", b)] = bridge.d3d_conversions(fmt, b)
        for var in VARIANTS:
            for dst in FORMATS:
                if dst == fmt:
                    continue
                try:
                    bits, rules = bridge.convert_lazy(b, fmt, dst, var)
                    out[(var, b, dst)] = (bits, rules())
                except ValueError as exc:
                    out[(var, b, dst)] = str(exc)
    return out


@pytest.mark.parametrize("fmt", ["f32", "f16", "f11", "f10", "f64"])
def test_prefetched_conversions_are_the_ones_each_value_gets_alone(fmt) -> None:
    """One model call per (format, variant) for all neighbours, each answer kept under its
    own value: the same patterns and fired rules as converting each value alone (a key
    mixed up between values, formats or variants fails here)."""
    rng = random.Random(fmt)
    width = FORMATS[fmt].bits
    specials = {"f32": [0x7F800000, 0x00000001, 0x477FF000], "f16": [0x7C00, 0x0001],
                "f11": [0x7C0, 0x001], "f10": [0x3E0, 0x001], "f64": [0x7FF0000000000000, 1]}
    for value in [rng.getrandbits(width) for _ in range(3)] + specials[fmt]:
        pats = [value ^ (1 << k) for k in range(width)]
        bridge.prefetch_conversions(fmt, pats, list(VARIANTS))
        kept = _answers(fmt, pats)
        bridge.clear_caches()
        assert _answers(fmt, pats) == kept, hex(value)
        bridge.clear_caches()


def test_a_prefetch_skips_what_is_kept_and_converts_the_rest_once(monkeypatch) -> None:
    calls = []
    real = bridge.convert
    monkeypatch.setattr(bridge, "convert", lambda bits, *a, **k: calls.append(bits.size)
                        or real(bits, *a, **k))
    bridge.prefetch_conversions("f32", [1, 2, 3], ["ieee"])
    assert calls == [3, 3, 3, 3]  # one call per other format, all three values in it
    calls.clear()
    bridge.prefetch_conversions("f32", [2, 3, 4], ["ieee"])
    assert calls == [1, 1, 1, 1]  # only the value not kept yet
    calls.clear()
    bridge.convert_lazy(4, "f32", "f16", "ieee")
    assert calls == []


def test_the_memo_drops_the_least_recently_used_entry() -> None:
    m = Memo(2)
    m.put("a", 1)
    m.put("b", 2)
    assert m.get("a") == 1  # a use: "b" is now the oldest
    m.put("c", 3)
    assert "b" not in m and m.get("a") == 1 and m.get("c") == 3 and len(m) == 2
    with pytest.raises(ValueError):
        m.put("d", None)


def _idle(wait_for, win) -> None:
    assert wait_for(lambda: not win.prefetch.busy(), 10000)


def test_a_bit_click_after_an_idle_moment_converts_nothing_itself(make_window, qtbot,
                                                                  wait_for, monkeypatch) -> None:
    """Wide window, Conversions seen: after the idle prefetch a click on a bit shows every
    cell from kept answers, and the cells are the ones a cold click shows."""
    win = make_window()
    win.state.update(fmt="f32", bits=0x3F812345)
    _idle(wait_for, win)
    converted = []
    real = bridge.convert
    monkeypatch.setattr(bridge, "convert", lambda *a, **k: converted.append(a) or real(*a, **k))
    cells = win.editor.cells
    qtbot.mouseClick(cells, QtCore.Qt.MouseButton.LeftButton, pos=cells.cell_rect(12).center().toPoint())
    assert win.state.snapshot.bits == 0x3F812345 ^ (1 << 12)
    assert converted == []  # every conversion of the clicked value was kept already
    view = win.conversions_view
    shown = {(v, d): view.cell_text(v, d) for v in view.variants for d in FORMATS if d != "f32"}
    tips = {(v, d): view.cell_tooltip(v, d) for v in view.variants for d in FORMATS if d != "f32"}
    decode = win.value_panel.others.item(0, 3).text()
    bridge.clear_caches()  # the same value, converted when it is shown
    win.state.update(bits=0)
    win.state.update(bits=0x3F812345 ^ (1 << 12))
    assert converted  # (this time the view did convert)
    assert {(v, d): view.cell_text(v, d) for v in view.variants for d in FORMATS
            if d != "f32"} == shown
    assert {(v, d): view.cell_tooltip(v, d) for v in view.variants for d in FORMATS
            if d != "f32"} == tips
    assert win.value_panel.others.item(0, 3).text() == decode


def test_a_new_edit_replaces_the_prefetch_of_the_one_before(make_window, wait_for) -> None:
    win = make_window()
    win.state.update(fmt="f16", bits=0x3C00)
    win.state.update(fmt="f16", bits=0x4000)  # before the first one's idle moment
    _idle(wait_for, win)
    assert ("f16", 0x4000 ^ 1) in bridge._D3D and ("f16", 0x4000 ^ 1, "f11", "mesa") in \
        bridge._LAZY
    assert ("f16", 0x3C00 ^ 1) not in bridge._D3D


def test_variants_are_not_prefetched_for_a_conversions_view_behind_a_tab(
        make_compact_window, wait_for) -> None:
    """Compact window: the Conversions view is a tab behind another; its variants are
    converted when it is raised, the D3D row (Decode, All formats) ahead as always."""
    from fpinspector.ui.qt_utils import is_seen

    win = make_compact_window()
    assert not is_seen(win.conversions_view)
    win.state.update(fmt="f32", bits=0x40490FDB)
    _idle(wait_for, win)
    assert ("f32", 0x40490FDB ^ 1) in bridge._D3D
    assert not any(("f32", 0x40490FDB ^ 1, "f16", v) in bridge._LAZY for v in VARIANTS)
