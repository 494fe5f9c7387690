"""Main window: every view follows the state; paste; fired rules; undo/redo; copy; settings."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from fpinspector.model.state import InspectorState
from fpinspector.ui.shell import actions


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _click_bit(qtbot, editor, bit: int) -> None:
    qtbot.mouseClick(editor.cells, QtCore.Qt.MouseButton.LeftButton,
                     pos=editor.cells.cell_rect(bit).center().toPoint())


def _raise(qtbot, win, dock: str, view) -> None:
    from fpinspector.ui.shell.window_layout import raise_dock

    raise_dock(win, win.docks[dock])
    qtbot.waitUntil(lambda: not view.is_stale(), timeout=2000)


def test_editing_a_bit_updates_every_view(qtbot, make_window) -> None:
    """FMT-F32 / DEC-*: one click on the sign bit reaches the state, decode, conversions, history."""
    win = make_window()
    win.show()
    win.state.update(fmt="f32", bits=_f32(1.5))
    _click_bit(qtbot, win.editor, 31)
    assert win.state.bits == _f32(-1.5)
    assert win.editor.hex_edit.text() == "0xBFC00000"
    _raise(qtbot, win, "decode", win.value_panel)  # a tab behind another catches up when raised
    assert win.value_panel.text("sign").startswith("1")
    assert win.value_panel.text("shortest") == "-1.5"
    assert win.value_panel.text("class") == "normal"
    # -1.5 into f16 is exact (numpy oracle); into f11 it clamps to 0 (CONV-UNSIGNED)
    _raise(qtbot, win, "conversions", win.conversions_view)
    assert win.conversions_view.cell_text("d3d", "f16").startswith(
        f"0x{int(np.float16(-1.5).view(np.uint16)):04X}")
    assert win.conversions_view.cell_text("d3d", "f11").startswith("0x000")
    assert win.history.entries()[0] == ("f32", _f32(-1.5))
    others = {win.value_panel.others.item(r, 0).text(): win.value_panel.others.item(r, 3).text()
              for r in range(win.value_panel.others.rowCount())}
    assert "F11-CLAMP" in others["f11"]


def test_hex_and_decimal_fields_write_the_state(make_window) -> None:
    win = make_window()
    win.editor.dec_edit.setText("0.1")
    win.editor.dec_edit.editingFinished.emit()
    assert win.state.bits == _f32(0.1)  # struct (C float rounding) as the oracle
    win.editor.hex_edit.setText("40490fdb")
    win.editor.hex_edit.editingFinished.emit()
    assert win.state.bits == 0x40490FDB
    assert win.value_panel.text("shortest") == repr(float(np.float32(np.pi)))[:9]


def test_format_switch_carries_value_by_d3d_conversion(make_window) -> None:
    """CONV-F2F-RTZ: 1 + 3*2^-11 into f16 is 0x3C01 under d3d (docs/rules.md case 1)."""
    win = make_window()
    win.state.update(fmt="f32", bits=_f32(1 + 3 * 2.0 ** -11))
    win.fmt_combo.setCurrentText("f16")
    assert win.state.fmt == "f16" and win.state.bits == 0x3C01
    assert win.editor.cells._width == 16


PASTE_FORMS = [
    ("0x3f800000", "f32", _f32(1.0)),
    ("3F800000", "f32", _f32(1.0)),
    ("1.0f", "f32", _f32(1.0)),
    ("asfloat(0x3dcccccd)", "f32", _f32(0.1)),
    ("0x1.8p+1", "f32", _f32(3.0)),
    ("00 00 80 3f", "f32", _f32(1.0)),
    ("$1 = 0.5", "f32", _f32(0.5)),
    ("half(0x3c00)", "f16", 0x3C00),
    ("-inf", "f32", _f32(float("-inf"))),
    ("0x3ff0000000000000", "f64", struct.unpack("<Q", struct.pack("<d", 1.0))[0]),
]


@pytest.mark.parametrize("text, fmt, bits", PASTE_FORMS)
def test_paste_each_form_fills_the_inspector(make_window, text, fmt, bits) -> None:
    """Paste through the parser: struct/numpy give the expected patterns."""
    win = make_window()
    assert win.ctl.paste(text)
    assert (win.state.fmt, win.state.bits) == (fmt, bits)
    assert not win.paste_box.is_error()


def test_paste_several_values_fill_operands(make_window) -> None:
    win = make_window()
    win.state.update(op="mad")
    assert win.ctl.paste("float3(1.5, -2, 0x1p-149)")
    assert win.state.operands[:3] == (_f32(1.5), _f32(-2.0), 1)
    eds = win.ops_view.editors
    assert [e.bits() for e in eds[:3]] == [_f32(1.5), _f32(-2.0), 1]
    msg = win.paste_box.message.text()
    assert "A = 1.5, B = -2.0, C = 1e-45" in msg
    assert msg == win.messages.text()  # the one place for messages
    assert msg == win.statusBar().currentMessage()  # (status messages land there too)


def test_paste_error_is_inline_never_a_dialog(make_window) -> None:
    win = make_window()
    before = win.state.snapshot
    assert not win.ctl.paste("0xZZZZ garbage(")
    assert win.paste_box.is_error()
    assert win.state.snapshot == before
    assert not [w for w in QtWidgets.QApplication.topLevelWidgets()
                if isinstance(w, QtWidgets.QMessageBox) and w.isVisible()]


def test_ctrl_v_pastes_the_clipboard(qtbot, make_window) -> None:
    win = make_window()
    QtWidgets.QApplication.clipboard().setText("0x00000001 3f800000")
    win.paste_action.trigger()
    assert win.state.operands[:2] == (1, _f32(1.0))


@pytest.mark.parametrize(
    "op, a, b, rule",
    [
        ("mul", 0x00000001, _f32(1.0), "F32-FTZ"),  # denormal input flushed
        ("min", 0x7FC00000, _f32(1.0), "F32-MINMAX-NAN"),  # min with one NaN -> the other
        ("max", _f32(2.0), 0x7FC00000, "F32-MINMAX-NAN"),
        ("add", 0x80000000, 0x00000000, "F32-IDENT"),  # -0 + 0 = +0
        ("to_f11", _f32(-1.0), 0, "F11-CLAMP"),  # a negative into f11 becomes 0
    ],
)
def test_fired_rules_are_shown(make_window, op, a, b, rule) -> None:
    win = make_window()
    with win.state.batch():
        win.state.update(op=op, op_format="f32")
        win.state.set_operand(0, a)
        win.state.set_operand(1, b)
    shown = [win.ops_view.rules_list.item(i).text() for i in range(win.ops_view.rules_list.count())]
    assert any(rule in line for line in shown), shown
    if rule == "F11-CLAMP":  # the f11 result is +0 and is shown with an 11-bit layout
        assert win.ops_view.model_box.cells.bits() == 0
        assert win.ops_view.model_box.cells._width == 11
    assert any(rule in line for line in win.why_view.lines()) or rule in win.why_view.heading.text()


def test_minus_zero_plus_zero_result_is_plus_zero(make_window) -> None:
    """F32-IDENT: -0 + 0 = +0 (the model's result bits shown)."""
    win = make_window()
    with win.state.batch():
        win.state.update(op="add", operands=[0x80000000, 0])
    assert win.ops_view.model_box.cells.bits() == 0
    assert "0x00000000" in win.ops_view.model_box.value.text()


def test_headline_mul_flushes_the_denormal(make_window) -> None:
    """F32-FTZ: 2^-149 * 1.0 -> +0 in the model, window [+0, +0]."""
    win = make_window()
    win.ctl.paste("0x00000001 3f800000")
    win.ops_view.op_combo.setCurrentText("mul")
    assert win.state.op == "mul"
    assert "0x00000000" in win.ops_view.model_box.value.text()
    assert win.ops_view.allowed_label.text() == "{0x00000000 (+0)}"  # exactly +0, never a hull


def test_undo_redo_walks_edits(qtbot, make_window) -> None:
    win = make_window()
    win.state.update(fmt="f32", bits=_f32(1.0))
    _click_bit(qtbot, win.editor, 31)
    _click_bit(qtbot, win.editor, 22)
    assert win.state.bits == _f32(-1.5)
    win.undo_action.trigger()
    assert win.state.bits == _f32(-1.0) and win.editor.bits() == _f32(-1.0)
    win.undo_action.trigger()
    assert win.editor.hex_edit.text() == "0x3F800000"
    win.redo_action.trigger()
    assert win.value_panel.text("shortest") == "-1.0"


def test_history_click_recalls_a_value(make_window) -> None:
    win = make_window()
    win.state.update(bits=_f32(2.0))
    win.state.update(bits=_f32(3.0))
    item = win.history.item(1)
    win.history.itemClicked.emit(item)
    assert win.state.bits == _f32(2.0)


def test_copy_as_texts_and_state_string_round_trip(make_window) -> None:
    win = make_window()
    win.state.update(fmt="f32", bits=_f32(1.0), op="div", operands=[_f32(1.0), _f32(3.0)])
    texts = actions.copy_texts(win)
    assert texts["hex"] == "0x3F800000"
    assert texts["literal"] == "asfloat(0x3f800000)"
    assert texts["bytes (little-endian)"].lower().split() == ["00", "00", "80", "3f"]
    assert texts["bytes (big-endian)"].lower().split() == ["3f", "80", "00", "00"]
    assert float.fromhex(texts["hex float"]) == 1.0
    win.copy_actions["state string"].trigger()
    copied = QtWidgets.QApplication.clipboard().text()
    win.state.update(bits=0, op="add")
    assert win.ctl.paste(copied)
    assert win.state.op == "div" and win.state.bits == _f32(1.0)
    assert win.state.operands[1] == _f32(3.0)


def test_word_view_reinterprets_32_bits(make_window) -> None:
    """FMT-R11G11B10 / two f16 halves of one word (numpy float16 as the oracle)."""
    win = make_window()
    win.state.update(word=0x3C00BC00)
    r = win.word_view.readings()
    assert r["f32"].startswith("0x3C00BC00")
    assert r["f16 high half (bits 31-16)"].endswith(f"= {np.uint16(0x3C00).view(np.float16)}")
    assert r["f16 low half (bits 15-0)"].endswith("= -1.0")


def test_distance_between_a_and_b(make_window) -> None:
    win = make_window()
    win.state.update(operands=[_f32(1.0), int(np.nextafter(np.float32(1), np.float32(2)).view(np.uint32)) + 1])
    assert win.distance_view.distances()["f32"].startswith("2 (1 in between)")
    row = [win.distance_view.table.item(1, c).text() for c in range(5)]
    # numpy prints the shortest float32 decimal that round-trips: the oracle for the value
    assert row[0] == "f32" and row[4] == str(np.nextafter(np.float32(1), np.float32(2)))


def test_drag_over_bits_is_one_undo_step(qtbot, make_window) -> None:
    from PySide6 import QtGui

    win = make_window()
    win.show()
    win.state.update(fmt="f32", bits=0)
    cells = win.editor.cells
    qtbot.mousePress(cells, QtCore.Qt.MouseButton.LeftButton, pos=cells.cell_rect(30).center().toPoint())
    for bit in (29, 28, 27):
        c = cells.cell_rect(bit).center()
        QtWidgets.QApplication.sendEvent(cells, QtGui.QMouseEvent(
            QtCore.QEvent.Type.MouseMove, c, cells.mapToGlobal(c), QtCore.Qt.MouseButton.NoButton,
            QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.KeyboardModifier.NoModifier))
    qtbot.mouseRelease(cells, QtCore.Qt.MouseButton.LeftButton, pos=cells.cell_rect(27).center().toPoint())
    assert win.state.bits == 0x78000000
    win.undo_action.trigger()
    assert win.state.bits == 0


def test_settings_persist_last_values(make_window, settings) -> None:
    win = make_window()
    win.state.update(fmt="f16", bits=0x3555, op="sub")
    win.save_settings()
    again = make_window(restore=True, settings=settings)
    assert (again.state.fmt, again.state.bits, again.state.op) == ("f16", 0x3555, "sub")


def test_shared_state_drives_a_second_window(make_window) -> None:
    """STYLE.md 4-5: views only listen to the state."""
    state = InspectorState()
    a, b = make_window(state=state), make_window(state=state)
    state.update(bits=_f32(-2.0))
    assert a.editor.bits() == b.editor.bits() == _f32(-2.0)


def test_comparison_result_reads_as_bool(make_window) -> None:
    """F32-CMPNAN: eq with a NaN operand is false; F32-CMPZERO: -0 == +0 is true."""
    win = make_window()
    with win.state.batch():
        win.state.update(op="eq", operands=[0x7FC00000, 0x7FC00000])
    assert "false" in win.ops_view.model_box.value.text()
    win.state.update(operands=[0x80000000, 0])
    assert "true" in win.ops_view.model_box.value.text()


def test_dp4_shows_eight_named_operands(make_window) -> None:
    """dp ops take a0..aN-1, b0..bN-1 (engine contract); dp4 of (1,2,3,4).(1,1,1,1) = 10."""
    win = make_window()
    win.state.update(op="dp4")
    eds = win.ops_view.editors
    assert all(e.isVisibleTo(win) for e in eds[:8])
    assert [e.title.text() for e in eds[:8]] == [f"<b>{n}</b>" for n in
                                                 ("a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3")]
    assert win.ctl.paste("float4(1, 2, 3, 4) float4(1, 1, 1, 1)".replace(") float4(", ", "))
    assert win.ops_view.model_box.value.text().endswith("= 10.0")


def test_op_switch_to_an_op_without_the_format_converts_operands(make_window) -> None:
    """An op that does not take f64 moves the operands to its first format (D3D conversion)."""
    win = make_window()
    with win.state.batch():
        win.state.update(op="add", op_format="f64",
                         operands=[0x3FF0000000000000, 0x4000000000000000])
    win.ops_view.op_combo.setCurrentText("dp2")
    assert win.state.op_format == "f32"
    assert win.state.operands[:2] == (_f32(1.0), _f32(2.0))


def test_sweep_map_click_loads_the_operation(make_window) -> None:
    """The error-map dock (sweep panel) feeds a clicked cell into the same state."""
    win = make_window()
    assert win.sweep_panel is None  # not built until its tab is shown (fast start)
    assert win._load_sweep_panel() is win.sweep_panel is not None
    win.sweep_panel.inspect_requested.emit("add", "f32", "d3d10", (_f32(1.0), 0x00000001))
    assert (win.state.op, win.state.rule_set) == ("add", "d3d10")
    assert win.ops_view.editors[1].bits() == 1
    assert win.ops_view.rules_combo.currentText() == "d3d10"


@pytest.mark.parametrize(
    "op, a, expect",
    [
        ("ftoi", _f32(-2.75), "= -2"),  # CONV-FTOI: toward zero
        ("to_unorm8", _f32(0.5), "= code 128"),  # CONV-UNORM: 0.5 * 255 + 0.5 -> 128
        ("to_snorm8", _f32(-1.0), "= code -127"),  # CONV-SNORM: -1 * 127
    ],
)
def test_integer_results_read_as_integers(make_window, op, a, expect) -> None:
    win = make_window()
    with win.state.batch():
        win.state.update(op=op, op_format="f32")
        win.state.set_operand(0, a)
    assert win.ops_view.model_box.value.text().endswith(expect)


def test_pasting_fp8_values_fills_every_view_and_back(qtbot, make_window) -> None:
    """FMT-E4M3 (a source D3D converts nothing into): the Conversions view takes a column
    more (f32 too) and back when an f32 is inspected again; the paste reads both values
    (it failed inside the view with an AttributeError before)."""
    win = make_window()
    win.show()
    win.state.update(rule_set="ieee754", op="mul")
    assert win.ctl.paste("e4m3 0x7e e4m3 0x38")
    assert not win.messages.is_error(), win.messages.text()
    assert (win.state.fmt, win.state.bits) == ("e4m3", 0x7E)
    _raise(qtbot, win, "conversions", win.conversions_view)
    assert win.conversions_view.cell_text("d3d", "f32").startswith("0x43E00000")  # 448.0
    win.state.update(fmt="f32", bits=_f32(-1.5))
    _raise(qtbot, win, "conversions", win.conversions_view)
    assert win.conversions_view.cell_text("d3d", "f16").startswith("0xBE00")
    assert win.conversions_view.table.columnCount() == 4


@pytest.mark.parametrize("fmt, bits", [("bf16", 0x3F80), ("e5m2", 0x7B), ("e4m3", 0x7F)])
def test_every_dock_shows_a_bf16_or_fp8_value(qtbot, make_window, fmt, bits) -> None:
    """FMT-BF16, FMT-E5M2, FMT-E4M3: the inspected value and an op on it (ieee754) reach
    every dock without an error, and an op under d3d11 says D3D defines none."""
    from fpinspector.ui.shell.window_layout import raise_dock

    win = make_window()
    win.show()
    win.state.update(rule_set="ieee754", op="add")
    assert win.ctl.paste(f"{fmt} 0x{bits:x} {fmt} 0x{bits:x}")
    assert not win.messages.is_error(), win.messages.text()
    for name, dock in win.docks.items():
        raise_dock(win, dock)
        for _ in range(5):
            QtWidgets.QApplication.processEvents()
    assert win.state.fmt == fmt
    win.state.update(rule_set="d3d11")
    for _ in range(5):
        QtWidgets.QApplication.processEvents()
    texts = [w.text() for w in win.findChildren(QtWidgets.QLabel) if w.isVisible()]
    assert any("D3D defines no arithmetic" in t for t in texts), texts
