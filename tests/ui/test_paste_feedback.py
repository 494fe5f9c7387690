"""Nothing pasted or typed is silently misread: the reading used is named and the others are
one click (or Ctrl+Shift+V) away, Ctrl+V reaches the inspector from any field the text does
not fit, "-0" in a hex field is -0, a denormal survives an f32 -> f16 -> f32 round trip of
the op format, and a drag over the bits is one history entry."""

from __future__ import annotations

import struct

import numpy as np
from PySide6 import QtCore, QtGui, QtTest, QtWidgets


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def test_bytes_paste_names_its_reading_and_offers_decimals(make_window) -> None:
    """'10 20 30 40': bytes of one f32 (struct oracle) first; Ctrl+Shift+V reads four
    decimals instead, replacing the first paste in one undo step."""
    win = make_window()
    win.state.update(op="mad")
    before = win.state.snapshot
    assert win.ctl.paste("10 20 30 40")
    assert win.state.bits == struct.unpack("<I", bytes([0x10, 0x20, 0x30, 0x40]))[0]
    msg = win.paste_box.message.text()
    assert "bytes of one f32, little-endian" in msg
    assert any("decimals" in a.text() for a in win.paste_box.reading_actions)
    win.reading_action.trigger()  # Ctrl+Shift+V: the first other reading, the decimals
    assert win.state.operands[:3] == tuple(_f32(x) for x in (10, 20, 30))
    msg = win.paste_box.message.text()
    assert msg.startswith("read as 4 decimals") and "not used (mad takes 3): 40.0" in msg
    assert "not used" in win.statusBar().currentMessage()
    win.state.undo()  # one step back is the state before either paste
    assert win.state.snapshot == before


def _key_paste(widget: QtWidgets.QWidget) -> None:
    QtTest.QTest.keyClick(widget, QtCore.Qt.Key.Key_V, QtCore.Qt.KeyboardModifier.ControlModifier)


def test_ctrl_v_in_a_field_goes_to_the_inspector_unless_it_fits(make_window, wait_for) -> None:
    win = make_window()
    win.show()
    QtTest.QTest.qWaitForWindowExposed(win)
    field = win.ops_view.editors[0].hex_edit
    field.setFocus()
    assert wait_for(lambda: QtWidgets.QApplication.focusWidget() is field, 2000)
    clip = QtGui.QGuiApplication.clipboard()
    clip.setText("0x40400000 0x40800000")  # two values: the inspector's paste
    _key_paste(field)
    assert win.state.operands[:2] == (_f32(3.0), _f32(4.0))
    assert "0x40800000" not in field.text()
    clip.setText("0x3FC00000")  # one pattern: the field's own paste, typed into it
    field.selectAll()
    _key_paste(field)
    assert field.text() == "0x3FC00000"
    assert win.state.operands[0] == _f32(3.0)  # not applied until Enter
    field.editingFinished.emit()
    assert win.state.operands[0] == _f32(1.5)


def test_minus_zero_in_a_hex_field_is_negative_zero_F32_ZERO(make_window) -> None:
    """'-0' typed into the hex field is the value -0: 0x80000000 (struct oracle), not +0."""
    win = make_window()
    ed = win.editor
    for text in ("-0", "-0.0"):
        win.state.update(fmt="f32", bits=_f32(1.0))
        ed.hex_edit.setText(text)
        ed.hex_edit.editingFinished.emit()
        assert win.state.bits == struct.unpack("<I", struct.pack("<f", -0.0))[0] == 0x80000000
        assert ed.hex_edit.text() == "0x80000000"


def test_op_format_round_trip_keeps_a_denormal_and_says_so_CONV_F2F_RTZ(make_window) -> None:
    """f32 -> f16 turns A = 2^-149 into 0 (numpy float16 oracle: no f16 holds it); the note
    says so, and f16 -> f32 right after brings 2^-149 back."""
    win = make_window()
    win.state.update(op="add", op_format="f32", operands=[1, _f32(2.0)])
    assert np.float16(np.float32(2.0**-149)) == 0
    win.ops_view.fmt_combo.setCurrentText("f16")
    assert win.state.op_format == "f16" and win.state.operands[0] == 0
    note = win.messages.text()
    assert "A = 1e-45 became 0.0" in note and "B" not in note.split("changed")[1].split("(")[0]
    win.ops_view.fmt_combo.setCurrentText("f32")
    assert (win.state.op_format, win.state.operands[:2]) == ("f32", (1, _f32(2.0)))


def test_a_drag_over_the_bits_is_one_history_entry(make_window) -> None:
    win = make_window()
    win.show()
    QtTest.QTest.qWaitForWindowExposed(win)
    win.state.update(fmt="f32", bits=0)
    n = len(win.history.entries())
    cells = win.editor.cells
    y = int(cells.cell_rect(0).center().y())
    xs = [int(cells.cell_rect(b).center().x()) for b in (5, 4, 3, 2, 1)]
    QtTest.QTest.mousePress(cells, QtCore.Qt.MouseButton.LeftButton, pos=QtCore.QPoint(xs[0], y))
    for x in xs[1:]:
        QtTest.QTest.mouseMove(cells, QtCore.QPoint(x, y))
        cells.mouseMoveEvent(QtGui.QMouseEvent(
            QtCore.QEvent.Type.MouseMove, QtCore.QPointF(x, y), QtCore.QPointF(x, y),
            QtCore.Qt.MouseButton.NoButton, QtCore.Qt.MouseButton.LeftButton,
            QtCore.Qt.KeyboardModifier.NoModifier))
    QtTest.QTest.mouseRelease(cells, QtCore.Qt.MouseButton.LeftButton,
                              pos=QtCore.QPoint(xs[-1], y))
    assert win.state.bits == 0b111110
    assert len(win.history.entries()) == n + 1
    assert win.history.entries()[0] == ("f32", 0b111110)
    win.docks["history"].raise_()  # the list shows the same once it is seen
    QtTest.QTest.qWait(50)
    rows = [win.history.item(r).data(QtCore.Qt.ItemDataRole.UserRole)
            for r in range(win.history.count())]
    assert rows == win.history.entries()


def test_pasted_packed_word_updates_the_word_view_FMT_R11G11B10(make_window) -> None:
    win = make_window()
    word = (0x1E0 << 22) | (0x3C0 << 11) | 0x7BF
    assert win.ctl.paste(f"R11G11B10 0x{word:08X}")
    assert win.word_view.hex_edit.text() == f"0x{word:08X}"
    assert win.word_view.readings()["R11G11B10 R (f11, bits 10-0)"] == "0x7BF = 65024.0"
    assert (win.state.fmt, win.state.bits) == ("f11", 0x7BF)
    assert "word view" in win.statusBar().currentMessage()


def test_vs_memory_window_paste_fills_the_operands_not_the_address(make_window) -> None:
    win = make_window()
    win.state.update(op="mad")
    assert win.ctl.paste("0x000000D5A5AFF8B0  1.0000000 2.0000000 +Inf -nan(ind)")
    assert win.state.operands[:3] == (_f32(1.0), _f32(2.0), 0x7F800000)
    assert "not used (mad takes 3): -nan" in win.paste_box.message.text()


def test_the_paste_message_goes_when_the_op_changes(make_window) -> None:
    """The message says which pasted values the op used; another op makes it stale ("not
    used (mul takes 2)" next to mad's C), so it goes; a paste after the switch writes a new
    one."""
    win = make_window()
    win.state.update(op="mul")
    assert win.ctl.paste("0x00800000 0.5 0")
    assert "not used (mul takes 2)" in win.messages.text()
    win.ops_view.op_combo.setCurrentText("mad")
    assert win.state.op == "mad" and win.messages.text() == ""
    assert win.ctl.paste("1 2 3 4")
    assert "not used (mad takes 3): 4.0" in win.messages.text()
    win.state.update(rule_set="d3d10")  # not a change of what it describes: it stays
    assert "not used (mad takes 3)" in win.messages.text()


def test_many_readings_fit_a_small_window_and_each_is_one_click_away(make_compact_window) -> None:
    """'10 20 30 40' has four other readings. At 1280x720 they are offered without widening
    the central area (a button per reading pushed it 300 px past its view: everything was
    cut and scrolled sideways): the first as a button (Ctrl+Shift+V), the rest in a menu,
    and a menu entry pastes its reading (two f16 from the bytes, struct as the oracle)."""
    win = make_compact_window()
    assert win.ctl.paste("10 20 30 40")
    for _ in range(10):
        QtWidgets.QApplication.processEvents()
    box, area = win.paste_box, win.centralWidget()
    assert area.widget().width() <= area.viewport().width()
    assert not area.horizontalScrollBar().isVisible()
    assert box.first_reading.isVisible() and "decimals" in box.first_reading.defaultAction().text()
    menu = box.more_readings.menu().actions()
    assert box.more_readings.isVisible() and len(menu) == 3 == len(box.reading_actions) - 1
    (little_f16,) = [a for a in menu if "2 f16, little-endian" in a.text()]
    little_f16.trigger()
    assert win.state.operands[:2] == struct.unpack("<2H", bytes([0x10, 0x20, 0x30, 0x40]))
    assert "2 f16, little-endian" in box.message.text()


def test_pasting_a_double_while_the_inspector_shows_f64_keeps_f64(make_window) -> None:
    """Issue 33: '1.5' or '0.1' pasted while the inspector shows f64 stay f64 (they were
    read as f32 and switched the inspector); gdb's print of a float ('0.100000001', 9
    digits) is still an f32, and with the inspector at f32 '1.5' is an f32. Oracle: struct."""
    win = make_window()
    win.state.update(fmt="f64", bits=struct.unpack("<Q", struct.pack("<d", 2.0))[0])
    for text, value in (("1.5", 1.5), ("0.1", 0.1), ("$1 = 0.33333333333333331", 1 / 3)):
        assert win.ctl.paste(text)
        assert (win.state.fmt, win.state.bits) == (
            "f64", struct.unpack("<Q", struct.pack("<d", value))[0]), text
    assert win.ctl.paste("$2 = 0.100000001")
    assert (win.state.fmt, win.state.bits) == ("f32", _f32(0.1))
    assert win.ctl.paste("1.5")
    assert (win.state.fmt, win.state.bits) == ("f32", _f32(1.5))
