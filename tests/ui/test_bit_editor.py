"""Bit-field editor: cells, keyboard, drag painting, hex/decimal/field edits (FMT-*, DEC-*)."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from PySide6 import QtCore
from pytestqt.qtbot import QtBot

from fpinspector.model import FORMATS
from fpinspector.ui.inspector.bit_editor import BitFieldEditor


def _f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _click_bit(qtbot: QtBot, ed: BitFieldEditor, bit: int) -> None:
    qtbot.mouseClick(ed.cells, QtCore.Qt.MouseButton.LeftButton,
                     pos=ed.cells.cell_rect(bit).center().toPoint())


@pytest.fixture
def editor(qtbot: QtBot) -> BitFieldEditor:
    ed = BitFieldEditor("f32", "A")
    qtbot.addWidget(ed)
    ed.resize(900, 120)
    ed.show()
    return ed


def test_fmt_f32_click_sign_bit_negates_value(qtbot: QtBot, editor: BitFieldEditor) -> None:
    """FMT-F32: bit 31 is the sign; clicking it turns 1.0 into -1.0 (struct oracle)."""
    editor.set_bits(_f32_bits(1.0))
    with qtbot.waitSignal(editor.bits_changed) as sig:
        _click_bit(qtbot, editor, 31)
    assert sig.args == [_f32_bits(-1.0)]
    assert editor.hex_edit.text() == "0xBF800000"
    assert float(editor.dec_edit.text()) == -1.0
    assert editor.sign_box.isChecked() and editor.exp_spin.value() == 127


def test_drag_paints_a_run_of_bits(qtbot: QtBot, editor: BitFieldEditor) -> None:
    editor.set_bits(0)
    cells = editor.cells
    qtbot.mousePress(cells, QtCore.Qt.MouseButton.LeftButton, pos=cells.cell_rect(30).center().toPoint())
    for bit in (29, 28, 27, 26, 25, 24, 23):
        qtbot.mouseMove(cells, pos=cells.cell_rect(bit).center().toPoint())
        # offscreen platform: deliver a move with the button held
        from PySide6 import QtGui, QtWidgets
        ev = QtGui.QMouseEvent(QtCore.QEvent.Type.MouseMove, cells.cell_rect(bit).center(),
                               cells.mapToGlobal(cells.cell_rect(bit).center()),
                               QtCore.Qt.MouseButton.NoButton, QtCore.Qt.MouseButton.LeftButton,
                               QtCore.Qt.KeyboardModifier.NoModifier)
        QtWidgets.QApplication.sendEvent(cells, ev)
    qtbot.mouseRelease(cells, QtCore.Qt.MouseButton.LeftButton, pos=cells.cell_rect(23).center().toPoint())
    assert editor.bits() == 0x7F800000  # exponent all ones: +INF
    assert editor.bits() == _f32_bits(float("inf"))


def test_keyboard_moves_toggles_and_sets(qtbot: QtBot, editor: BitFieldEditor) -> None:
    editor.set_bits(0)
    editor.cells.setFocus()
    K = QtCore.Qt.Key
    qtbot.keyClick(editor.cells, K.Key_Home)  # bit 31
    qtbot.keyClick(editor.cells, K.Key_Right)  # bit 30
    qtbot.keyClick(editor.cells, K.Key_Space)  # set bit 30 -> 2.0
    assert editor.bits() == _f32_bits(2.0)
    qtbot.keyClick(editor.cells, K.Key_Right)  # bit 29
    qtbot.keyClick(editor.cells, K.Key_1)  # set 29, moves to 28
    qtbot.keyClick(editor.cells, K.Key_0)  # clear 28
    assert editor.bits() == 0x60000000
    qtbot.keyClick(editor.cells, K.Key_Left)
    qtbot.keyClick(editor.cells, K.Key_Left)
    qtbot.keyClick(editor.cells, K.Key_Space)
    assert editor.bits() == 0x40000000


@pytest.mark.parametrize("text, expect", [("0x3dcccccd", 0x3DCCCCCD), ("7f800001", 0x7F800001)])
def test_hex_field_sets_bits(qtbot: QtBot, editor: BitFieldEditor, text: str, expect: int) -> None:
    editor.hex_edit.setText(text)
    with qtbot.waitSignal(editor.bits_changed):
        editor.hex_edit.editingFinished.emit()
    assert editor.bits() == expect
    assert editor.cells.bits() == expect


def test_hex_field_too_wide_is_an_inline_error(qtbot: QtBot, editor: BitFieldEditor) -> None:
    editor.set_bits(5)
    editor.hex_edit.setText("0x1FFFFFFFF")
    editor.hex_edit.editingFinished.emit()
    assert editor.bits() == 5
    assert "wider than 32 bits" in editor.error_label.text()


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_decimal_field_rounds_to_nearest_dec_rules(qtbot: QtBot, fmt: str) -> None:
    """DEC-NORMAL: typing 0.1 gives the nearest pattern; oracle: numpy/struct float rounding."""
    ed = BitFieldEditor(fmt)
    qtbot.addWidget(ed)
    ed.dec_edit.setText("0.1")
    ed.dec_edit.editingFinished.emit()
    f = FORMATS[fmt]
    got = float(f.decode(np.asarray(ed.bits(), dtype=f.dtype)))
    assert ed.bits() != 0
    # the neighbours are no closer to 0.1 (checked with Fractions, independent of the encoder)
    from fractions import Fraction
    up = f.exact_value(int(f.next_up(ed.bits())))
    down = f.exact_value(int(f.next_down(ed.bits())))
    here = Fraction(got)
    t = Fraction(1, 10)
    assert abs(here - t) <= abs(up - t) and abs(here - t) <= abs(down - t)
    if fmt == "f32":
        assert ed.bits() == _f32_bits(0.1)
    if fmt == "f16":
        assert ed.bits() == int(np.float16(0.1).view(np.uint16))


def test_fields_compose_sign_exponent_fraction(qtbot: QtBot) -> None:
    """FMT-F16 / DEC-DENORM: exponent 0 with fraction 1 is the smallest f16 denormal."""
    ed = BitFieldEditor("f16")
    qtbot.addWidget(ed)
    ed.set_bits(0x3C00)
    ed.exp_spin.setValue(0)
    ed.frac_edit.setText("0x001")
    ed.frac_edit.editingFinished.emit()
    assert ed.bits() == 0x0001
    # the shown decimal reads back to the same pattern (numpy float16 parser as the oracle)
    assert int(np.float16(ed.dec_edit.text()).view(np.uint16)) == 0x0001


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_next_up_down_buttons_step_one_pattern(qtbot: QtBot, fmt: str) -> None:
    ed = BitFieldEditor(fmt)
    qtbot.addWidget(ed)
    f = FORMATS[fmt]
    one = int(f.encode(1.0))
    ed.set_bits(one)
    ed.up_btn.click()
    assert ed.bits() == one + 1
    ed.down_btn.click()
    ed.down_btn.click()
    assert ed.bits() == one - 1


def test_unsigned_formats_have_no_sign_field(qtbot: QtBot) -> None:
    """FMT-F11: no sign bit, so the sign box is disabled and the cells are 11 wide."""
    ed = BitFieldEditor("f11")
    qtbot.addWidget(ed)
    assert not ed.sign_box.isEnabled()
    assert ed.cells._width == 11


def test_a_format_switch_shows_the_new_pattern_in_every_field(qtbot: QtBot,
                                                              editor: BitFieldEditor) -> None:
    """FMT-F16: the editor switched to f16 with 0xBC01 shows it at once (cells, hex, decimal
    read back by numpy's float16 parser, sign, exponent and fraction), never 0 first."""
    editor.set_bits(0x3F800001)
    shown: list[str] = []
    set_hex = editor.hex_edit.setText

    def spy(text: str) -> None:
        shown.append(text)
        set_hex(text)

    editor.hex_edit.setText = spy  # type: ignore[method-assign]
    editor.set_format("f16", 0xBC01)
    assert editor.bits() == editor.cells.bits() == 0xBC01
    assert shown == ["0xBC01"]
    assert int(np.float16(editor.dec_edit.text()).view(np.uint16)) == 0xBC01
    assert editor.sign_box.isChecked() and editor.exp_spin.value() == 15
    assert editor.frac_edit.text() == "0x001"
