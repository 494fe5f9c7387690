"""All-formats panel: every format at once by the D3D rules, editable rows, word row, undo/redo.

Oracles are independent of the code under test: exact Fractions with a hand-written
round-toward-zero encoder (docs/rules.md CONV-F2F-RTZ / CONV-F2F-SAT), struct for f64/f32
widening (CONV-WIDEN) and numpy float16.
"""

from __future__ import annotations

import struct
from fractions import Fraction

import numpy as np
import pytest
from _qt_probes import shown_all_formats
from PySide6 import QtCore

from fpinspector.ui.inspector.all_formats import WORD_ROW, AllFormatsPanel

# (exponent bits, fraction bits, signed) of the small formats (docs/rules.md FMT-*)
SMALL = {"f16": (5, 10, True), "f11": (5, 6, False), "f10": (5, 5, False)}


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _f64(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _rtz(v: Fraction, ebits: int, mbits: int, signed: bool) -> int:
    """D3D float -> smaller float of a finite value: toward zero, saturating, unsigned clamp."""
    sign = 1 if v < 0 else 0
    if sign and not signed:
        return 0  # CONV-UNSIGNED / F11-CLAMP
    a, bias = abs(v), (1 << (ebits - 1)) - 1
    top = (1 << ebits) - 2  # largest finite biased exponent
    sat = (top << mbits) | ((1 << mbits) - 1)
    if a == 0:
        code = 0
    else:
        e = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** e > a:
            e -= 1
        if e < 1 - bias:  # denormal in the target (CONV-DENORM)
            code = int(a / Fraction(2) ** (1 - bias - mbits))
        elif e + bias > top:
            code = sat  # CONV-F2F-SAT
        else:
            code = ((e + bias) << mbits) | (int(a / Fraction(2) ** (e - mbits)) - (1 << mbits))
    return (sign << (ebits + mbits)) | code if signed else code


@pytest.fixture
def panel(qtbot) -> AllFormatsPanel:
    p = AllFormatsPanel()
    qtbot.addWidget(p)
    return p


def test_every_row_is_the_d3d_conversion_of_f32_values(panel) -> None:
    """CONV-F2F-RTZ, CONV-F2F-SAT, CONV-UNSIGNED, CONV-WIDEN over 300 random normal f32 values,
    and the R11G11B10 word of each (FMT-R11G11B10)."""
    rng = np.random.default_rng(5)
    bits = rng.integers(0, 2**32, 300, dtype=np.uint64).astype(np.uint32)
    exp = (bits >> 23) & 0xFF
    bits = bits[(exp > 0) & (exp < 255)]  # normal f32 (f32 denormals flush: F32-FTZ)
    for b in bits.tolist():
        panel.show_value("f32", b)
        v = struct.unpack("<f", struct.pack("<I", b))[0]
        assert panel.rows["f32"].bits() == b
        assert panel.rows["f64"].bits() == _f64(v)  # widening is exact
        for name, (e, m, signed) in SMALL.items():
            assert panel.rows[name].bits() == _rtz(Fraction(v), e, m, signed), (name, hex(b))
        # FMT-R11G11B10: f11 in R (bits 10-0) and G (21-11), f10 in B (31-22)
        f11, f10 = _rtz(Fraction(v), *SMALL["f11"]), _rtz(Fraction(v), *SMALL["f10"])
        assert panel.rows[WORD_ROW].bits() == f11 | f11 << 11 | f10 << 22, hex(b)


def test_rules_are_named_per_row(panel) -> None:
    """F11-CLAMP / CONV-UNSIGNED on a negative value, CONV-F2F-SAT on a huge one."""
    panel.show_value("f32", _f32(-1.5))
    assert panel.rows["f11"].bits() == 0 and panel.rows["f10"].bits() == 0
    assert "F11-CLAMP" in panel.rows["f11"].rules.text()
    assert "CONV-UNSIGNED" in panel.rows["f10"].rules.text()
    assert panel.rows["f16"].bits() == int(np.float16(-1.5).view(np.uint16))
    panel.show_value("f32", _f32(1e6))
    assert panel.rows["f16"].bits() == int(np.finfo(np.float16).max.view(np.uint16))  # 65504
    assert "CONV-F2F-SAT" in panel.rows["f16"].rules.text()
    assert panel.rows["f11"].bits() == 0x7BF  # 65024 = (2 - 2^-6) * 2^15
    # the shortest decimal shown reads back to 65024 (f11 spacing there is 2^(15-6) = 512)
    assert abs(float(panel.rows["f11"].value_edit.text()) - 65024) < 256
    assert panel.rows["f32"].rules.text() == "inspected value"


def test_f16_source_widens_exactly(panel) -> None:
    """CONV-WIDEN: f16 -> f32/f64 is exact (numpy float16 as the oracle), denormals included."""
    for b in (0x3C00, 0x0001, 0x83FF, 0x7BFF, 0xC500):
        panel.show_value("f16", b)
        x = np.uint16(b).view(np.float16)
        assert panel.rows["f32"].bits() == int(x.astype(np.float32).view(np.uint32))
        assert panel.rows["f64"].bits() == int(x.astype(np.float64).view(np.uint64))


def test_word_row_packs_the_value_in_three_fields(panel) -> None:
    """FMT-R11G11B10: R bits 10-0, G 21-11 (f11), B 31-22 (f10); 1.0 is 0x3C0 / 0x1E0."""
    panel.show_value("f32", _f32(1.0))
    r, b = (15 << 6), (15 << 5)  # biased exponent 15, fraction 0
    assert panel.rows[WORD_ROW].bits() == (b << 22) | (r << 11) | r
    assert (panel.word_field("R"), panel.word_field("G"), panel.word_field("B")) == (r, r, b)
    assert panel.rows[WORD_ROW].value_edit.text() == "1.0 in R, G and B"
    panel.show_value("f32", _f32(-2.0))  # negative: every field clamps to 0 (F11-CLAMP)
    assert panel.rows[WORD_ROW].bits() == 0
    assert "F11-CLAMP" in panel.rows[WORD_ROW].rules.text()


def _click(qtbot, cells, bit: int) -> None:
    qtbot.mouseClick(cells, QtCore.Qt.MouseButton.LeftButton,
                     pos=cells.cell_rect(bit).center().toPoint())


def test_editing_a_row_inspects_that_format_in_one_undo_step(qtbot, make_window) -> None:
    """A click in the f11 row makes (f11, pattern) the inspected value; one undo goes back."""
    win = make_window()
    win.show()
    win.state.update(fmt="f32", bits=_f32(1.0))
    row = win.all_formats.rows["f11"]
    _click(qtbot, row.cells, 0)  # f11 1.0 = 0x3C0 -> 0x3C1 = 1 + 2^-6
    assert (win.state.fmt, win.state.bits) == ("f11", 0x3C1)
    assert win.editor.hex_edit.text() == "0x3C1"
    assert win.all_formats.rows["f32"].bits() == _f32(1 + 2 ** -6)  # CONV-WIDEN, exact
    assert win.all_formats.rows["f10"].bits() == 0x1E0  # CONV-F2F-RTZ drops the extra bit
    assert "CONV-F2F-RTZ" in win.all_formats.rows["f10"].rules.text()
    # the Decode tab behind All formats did no work; raised, it catches up
    from fpinspector.ui.shell.window_layout import raise_dock

    raise_dock(win, win.docks["decode"])
    qtbot.waitUntil(lambda: not win.value_panel.is_stale(), timeout=2000)
    assert win.value_panel.text("shortest") == win.all_formats.rows["f11"].value_edit.text()
    assert win.state.undo()
    assert (win.state.fmt, win.state.bits) == ("f32", _f32(1.0))


def test_drag_over_a_row_is_one_undo_step(qtbot, make_window) -> None:
    win = make_window()
    win.show()
    win.state.update(fmt="f32", bits=0)
    before = win.state.snapshot
    cells = win.all_formats.rows["f16"].cells
    y = cells.cell_rect(0).center().y()
    qtbot.mousePress(cells, QtCore.Qt.MouseButton.LeftButton,
                     pos=QtCore.QPoint(int(cells.cell_rect(3).center().x()), int(y)))
    for bit in (2, 1, 0):
        ev_pos = QtCore.QPointF(cells.cell_rect(bit).center().x(), y)
        cells.mouseMoveEvent(_move_event(ev_pos))
    qtbot.mouseRelease(cells, QtCore.Qt.MouseButton.LeftButton,
                       pos=cells.cell_rect(0).center().toPoint())
    assert (win.state.fmt, win.state.bits) == ("f16", 0xF)
    assert win.state.undo()
    assert win.state.snapshot == before


def _move_event(pos: QtCore.QPointF):
    from PySide6 import QtGui

    return QtGui.QMouseEvent(QtCore.QEvent.Type.MouseMove, pos, pos,
                             QtCore.Qt.MouseButton.NoButton, QtCore.Qt.MouseButton.LeftButton,
                             QtCore.Qt.KeyboardModifier.NoModifier)


def test_word_field_edit_inspects_that_field(qtbot, make_window) -> None:
    """A click in the B field (bits 31-22) inspects the f10 field; in R the f11 field."""
    win = make_window()
    win.show()
    win.state.update(fmt="f32", bits=_f32(1.0))
    word = win.all_formats.rows[WORD_ROW]
    _click(qtbot, word.cells, 22)  # lowest B fraction bit: f10 0x1E0 -> 0x1E1
    assert (win.state.fmt, win.state.bits) == ("f10", 0x1E1)
    _click(qtbot, word.cells, 5)  # R fraction top bit of f11 (now 0x3C2 from 0x1E1 widened)
    assert win.state.fmt == "f11"
    assert win.state.bits == ((0x1E1 << 1) ^ (1 << 5))  # f10 -> f11 is exact: frac << 1


def test_hex_and_value_fields_of_a_row(make_window) -> None:
    """Typing a pattern or a number into a row inspects it; bad text leaves the state alone."""
    win = make_window()
    row = win.all_formats.rows["f16"]
    row.hex_edit.setText("0x7c00")
    row.hex_edit.editingFinished.emit()
    assert (win.state.fmt, win.state.bits) == ("f16", 0x7C00)  # +INF
    before = win.state.snapshot
    row.hex_edit.setText("0x1FFFF")
    row.hex_edit.editingFinished.emit()
    assert win.state.snapshot == before and "16-bit" in row.hex_edit.toolTip()
    f64 = win.all_formats.rows["f64"]
    f64.value_edit.setText("0.1")
    f64.value_edit.editingFinished.emit()
    assert (win.state.fmt, win.state.bits) == ("f64", _f64(0.1))
    f64.value_edit.setText("zebra")
    f64.value_edit.editingFinished.emit()
    assert win.state.bits == _f64(0.1)
    assert "cannot read" in f64.value_edit.toolTip()
    assert win.statusBar().currentMessage().startswith("f64: ")  # said where users look


def test_undo_redo_actions_follow_the_state(make_window) -> None:
    """Undo/Redo are enabled exactly when InspectorState.can_undo()/can_redo() say so."""
    win = make_window()

    def flags():
        assert win.undo_action.isEnabled() == win.state.can_undo()
        assert win.redo_action.isEnabled() == win.state.can_redo()
        return win.undo_action.isEnabled(), win.redo_action.isEnabled()

    assert flags() == (False, False)
    win.state.update(bits=_f32(2.0))
    assert flags() == (True, False)
    win.undo_action.trigger()
    assert win.state.bits == _f32(1.0)
    assert flags() == (False, True)
    win.undo_action.trigger()  # disabled: nothing happens
    assert win.state.bits == _f32(1.0)
    win.redo_action.trigger()
    assert win.state.bits == _f32(2.0)
    assert flags() == (True, False)
    win.undo_action.trigger()
    win.state.update(bits=_f32(3.0))  # a new edit drops the redo branch
    assert flags() == (True, False)


def test_word_hex_edit_inspects_the_changed_field(make_window) -> None:
    """Typing a word where only G (bits 21-11) changed inspects that f11 field."""
    win = make_window()
    win.state.update(fmt="f32", bits=_f32(1.0))
    word = win.all_formats.rows[WORD_ROW]
    g = 0x3C0 + 7  # 1 + 7/64
    new = (word.bits() & ~(0x7FF << 11)) | (g << 11)
    word.hex_edit.setText(f"{new:08x}")
    word.hex_edit.editingFinished.emit()
    assert (win.state.fmt, win.state.bits) == ("f11", g)
    assert win.all_formats.rows["f32"].bits() == _f32(1 + 7 / 64)  # CONV-WIDEN exact


def test_all_formats_dock_is_shown_by_default(make_window) -> None:
    """The panel is a dock of its own, visible at start: on a big screen it spans the
    window's top; on a small one it is the raised tab beside the inspector."""
    from PySide6 import QtCore

    from fpinspector.ui.shell import window_layout

    win = make_window()
    win.show()
    dock = win.docks["all_formats"]
    A = QtCore.Qt.DockWidgetArea
    for size, area in ((QtCore.QSize(1800, 1000), A.TopDockWidgetArea),
                       (QtCore.QSize(1280, 720), A.RightDockWidgetArea)):
        win.resize(size)
        window_layout.arrange_docks(win, size)
        QtCore.QCoreApplication.processEvents()
        assert dock.isVisible() and not dock.visibleRegion().isEmpty(), size
        assert win.dockWidgetArea(dock) == area
    from PySide6 import QtWidgets

    view = next(m for m in win.menuBar().findChildren(QtWidgets.QMenu) if m.title() == "&View")
    assert dock.toggleViewAction() in view.actions()


def test_switching_the_inspected_format_asks_no_new_layout(qtbot, layout_requests,
                                                           paints) -> None:
    """The inspected format's name is underlined: the panel keeps its layout, nothing
    moves and nothing is laid out again, and each name and rule list is painted once per
    switch (latency of a format switch; rich text in a label was painted twice)."""
    p = shown_all_formats(qtbot)
    seen = layout_requests(p)
    names = {k: r.name.geometry() for k, r in p.rows.items()}
    for fmt, bits in (("f16", 0x3C00), ("f32", 0x3F800000), ("f11", 0x3C0)):
        spies = [paints(w) for r in p.rows.values() for w in (r.name, r.rules)]
        p.state.update(fmt=fmt, bits=bits)
        for _ in range(3):
            QtCore.QCoreApplication.processEvents()
        assert [k for k, r in p.rows.items() if r.name.font().underline()] == [fmt]
        assert max(s.count for s in spies) == 1
    assert seen.count == 0
    assert {k: r.name.geometry() for k, r in p.rows.items()} == names


def test_word_row_says_which_channel_holds_what(panel) -> None:
    """FMT-R11G11B10 in words, not "R=G=1.0, B=1.0": the value goes into all three
    channels; where f10 (5 fraction bits) holds it otherwise than f11 (6), each is named.
    1 + 2^-6 is exact in f11; in f10 it is halfway between 1 and 1 + 2^-5, and both nearest
    even and toward zero (CONV-F2F-RTZ) give 1 (Fraction)."""
    from fractions import Fraction

    panel.show_value("f32", _f32(1 + 2**-6))
    text = panel.rows[WORD_ROW].value_edit.text()
    assert text.startswith("R and G "), text
    rg, b = text.removeprefix("R and G ").split(", B ")
    # the shortest decimals that read back as those patterns: nearer to them than half
    # their formats' spacing (2^-6 for f11 at 1, 2^-6 for f10 just below 1)
    assert abs(Fraction(rg) - (1 + Fraction(1, 64))) < Fraction(1, 128)
    assert abs(Fraction(b) - 1) < Fraction(1, 128)
