"""Integer-code ops in the Operations panel (itof, utof, from_unorm8, ...): editors, results, state.

Oracles are independent of the engine: struct for f32 patterns, Fraction for correctly
rounded quotients, Python ints for two's complement.
"""

from __future__ import annotations

import struct
from fractions import Fraction

import numpy as np
import pytest

from fpinspector.model.state import InspectorState
from fpinspector.ui.shell import actions


def _f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _f32_value(bits: int) -> Fraction:
    return Fraction(struct.unpack("<f", struct.pack("<I", bits))[0])


def _nearest_even_f32(q: Fraction) -> int:
    """Correctly rounded f32 of a positive rational: the closest of the neighbours of a
    float64 guess (ties to the even pattern), compared exactly as Fractions."""
    guess = _f32_bits(float(q))
    cands = [guess - 1, guess, guess + 1]
    return min(cands, key=lambda b: (abs(_f32_value(b) - q), b & 1))


def _type_into(qtbot, edit, text: str) -> None:
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    edit.editingFinished.emit()


def test_itof_minus_one_typed_as_signed_integer(qtbot, make_window) -> None:
    """CONV-ITOF: itof(-1) = -1.0 (0xBF800000); the A editor is a one-run i32 code editor."""
    win = make_window()
    v = win.ops_view
    v.op_combo.setCurrentText("itof")
    s = win.state.snapshot
    assert (s.op, s.op_format) == ("itof", "i32")
    ed = v.operand_editor(0)
    assert ed is v.code_editors[0] and not v.editors[0].isVisibleTo(v)
    assert [seg.kind for seg in ed.cells.segments()] == ["sign", "frac"]  # two's-complement sign
    _type_into(qtbot, ed.int_edit, "-1")
    assert win.state.operands[0] == (-1) & 0xFFFFFFFF  # two's complement pattern
    assert ed.hex_edit.text() == "0xFFFFFFFF"
    assert win.ctl.outcome.bits == _f32_bits(-1.0) == 0xBF800000
    assert "-1" in v.model_box.value.text()


def test_code_editor_hex_and_range_errors(qtbot, make_window) -> None:
    """CONV-UNORM operands are codes 0..255: hex fills the integer field, 256 is refused."""
    win = make_window()
    win.ops_view.op_combo.setCurrentText("from_unorm8")
    ed = win.ops_view.operand_editor(0)
    _type_into(qtbot, ed.hex_edit, "0xff")
    assert win.state.operands[0] == 255 and ed.int_edit.text() == "255"
    _type_into(qtbot, ed.int_edit, "256")
    assert win.state.operands[0] == 255
    assert "outside unorm8" in ed.error_label.text()
    with pytest.raises(ValueError, match="does not fit in 8 bits"):
        win.state.set_operand(0, 0x100)


@pytest.mark.parametrize("code", [255, 3, 0, 128])
def test_from_unorm8_is_correctly_rounded(make_window, code) -> None:
    """CONV-UNORM: from_unorm8(c) is c/255 correctly rounded to f32 (Fraction oracle)."""
    win = make_window()
    win.ops_view.op_combo.setCurrentText("from_unorm8")
    win.state.set_operand(0, code)
    want = _nearest_even_f32(Fraction(code, 255)) if code else 0
    assert win.ctl.outcome.bits == want
    if code == 255:
        assert want == _f32_bits(1.0)


def test_signed_codes_read_as_negative(make_window) -> None:
    """CONV-SNORM: snorm8 pattern 0x81 is code -127 -> -1.0; -128 clamps to -1.0 as well."""
    win = make_window()
    win.ops_view.op_combo.setCurrentText("from_snorm8")
    ed = win.ops_view.operand_editor(0)
    for pattern, text in ((0x81, "-127"), (0x80, "-128")):
        win.state.set_operand(0, pattern)
        assert ed.int_edit.text() == text
        assert win.ctl.outcome.bits == _f32_bits(-1.0)


def test_code_op_state_string_and_workspace_round_trip(tmp_path, make_window) -> None:
    """State of a code op (CONV-ITOF operands) survives the state string and a workspace."""
    win = make_window()
    win.ops_view.op_combo.setCurrentText("itof")
    win.state.set_operand(0, -5)
    text = win.state.to_string()
    assert "op=itof:i32:" in text and "a=FFFFFFFB" in text
    assert InspectorState.snapshot_from_string(text) == win.state.snapshot
    path = tmp_path / "ws.json"
    assert actions.save_workspace_to(win, str(path))
    other = make_window()
    assert actions.open_workspace(other, str(path))
    assert other.state.snapshot == win.state.snapshot
    assert other.ops_view.operand_editor(0).int_edit.text() == "-5"
    assert other.ctl.outcome.bits == _f32_bits(-5.0)


def test_switching_back_to_a_float_op_restores_float_editors(make_window) -> None:
    """Leaving itof for mul shows the sign/exponent/fraction editors again, values carried."""
    win = make_window()
    v = win.ops_view
    v.op_combo.setCurrentText("itof")
    win.state.set_operand(0, 7)
    v.op_combo.setCurrentText("mul")
    s = win.state.snapshot
    assert s.op_format == "f32" and s.operands[0] == _f32_bits(7.0)
    assert v.operand_editor(0) is v.editors[0]
    assert v.editors[0].isVisibleTo(v) and not v.code_editors[0].isVisibleTo(v)
    assert [seg.kind for seg in v.editors[0].cells.segments()] == ["sign", "exp", "frac"]


@pytest.mark.gpu
def test_itof_gpu_column_equal_and_conformant(qtbot, make_window, wait_for) -> None:
    """CONV-ITOF on llvmpipe: the GPU's itof(-1) equals the model's and is conformant."""
    from fpinspector import gpu

    try:
        gpu.open_session().close()
    except gpu.GpuUnavailable as exc:
        pytest.skip(exc.message)
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available is not None, 10000)
    win.ops_view.op_combo.setCurrentText("itof")
    _type_into(qtbot, win.ops_view.operand_editor(0).int_edit, "-1")
    assert wait_for(lambda: win.ctl.gpu_result is not None, 10000)
    assert win.ctl.gpu_result == ("f32", 0xBF800000)
    assert win.ops_view.gpu_conformant() is True
    assert np.uint32(win.ops_view.gpu_box.cells.diff_mask()) == 0


@pytest.mark.gpu
def test_from_unorm8_gpu_decode_is_judged_and_deviation_named(make_window, wait_for) -> None:
    """CONV-UNORM on llvmpipe: the sampler's decode of code 3 is judged against the correctly
    rounded 3/255; when it differs (c * (1/255) in f32) it is NOT CONFORMANT and the panel
    names the deviation whose behaviour gives exactly the GPU's bits."""
    from fpinspector import gpu

    try:
        gpu.open_session().close()
    except gpu.GpuUnavailable as exc:
        pytest.skip(exc.message)
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available is not None, 10000)
    win.ops_view.op_combo.setCurrentText("from_unorm8")
    win.state.set_operand(0, 3)
    assert wait_for(lambda: win.ctl.gpu_result is not None, 10000)
    fmt, got = win.ctl.gpu_result
    want = _nearest_even_f32(Fraction(3, 255))
    rcp = _f32_bits(float(np.float32(3) * np.float32(1 / 255)))  # the driver's c * (1/255)
    assert fmt == "f32" and got in (want, rcp)
    text = win.ops_view.gpu_box.detail.text()
    if got == want:
        assert win.ops_view.gpu_conformant() is True
    else:
        assert win.ops_view.gpu_conformant() is False
        assert "NOT CONFORMANT" in win.ops_view.verdict_text()
        renderer = win.gpu.info.get("renderer", "")
        if "llvmpipe" in renderer:
            assert "LLVMPIPE-UNORM8-DECODE-RCP" in text


def test_paste_integer_codes_keeps_them_exact(make_window) -> None:
    """CONV-ITOF: with itof picked, a pasted 16777217 is the code 2^24 + 1 (not f32-rounded
    first) and the model rounds it to 2^24 (struct oracle); out-of-range codes are refused."""
    win = make_window()
    win.ops_view.op_combo.setCurrentText("itof")
    assert win.ctl.paste("16777217")
    assert win.state.operands[0] == 2**24 + 1
    assert win.ctl.outcome.bits == _f32_bits(2.0**24)
    assert win.ctl.paste("0xFFFFFFFF")
    assert win.ops_view.operand_editor(0).int_edit.text() == "-1"
    assert not win.ctl.paste("2147483648")
    assert win.paste_box.is_error() and "outside i32" in win.paste_box.message.text()
    assert win.state.operands[0] == 0xFFFFFFFF
