"""Edits of the inspector state that carry values over (format/op switches) and pastes.

Oracles: struct and numpy.float16 for patterns, Fractions for the toward-zero conversion
of D3D (CONV-F2F-RTZ), Python's round() (ties to even) and clamping for codes.
"""

from __future__ import annotations

import struct
from fractions import Fraction

import numpy as np
import pytest

from fpinspector.model.state import InspectorState, edits, paste


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _f16(x: float) -> int:
    return int(np.float16(x).view(np.uint16))


def test_switch_format_carries_the_value_toward_zero_CONV_F2F_RTZ() -> None:
    """1 + 3/4 of an f16 ULP has no f16: D3D rounds toward zero to 1.0 (nearest-even, as
    numpy rounds, would give 1 + 2^-10)."""
    s = InspectorState()
    x = float(1 + Fraction(3, 2**12))
    s.update(bits=_f32(x))
    edits.switch_format(s, "half")
    assert (s.fmt, s.bits) == ("f16", 0x3C00)
    assert _f16(x) == 0x3C01  # the RNE oracle differs: the carry is D3D's
    assert s.can_undo()


@pytest.mark.parametrize(("value", "code"), [(2.5, 2), (3.5, 4), (-7.25, -7), (1e10, 2**31 - 1),
                                             (-1e10, -(2**31)), (float("nan"), 0)])
def test_float_to_i32_code_nearest_even_clamped(value: float, code: int) -> None:
    assert edits.carry_code(_f32(value), "f32", "i32") == code & 0xFFFFFFFF


def test_code_to_float_and_unsigned_clamp() -> None:
    assert edits.carry_code(0xFFFFFFFF, "i32", "f32") == _f32(-1.0)  # the code -1
    assert edits.carry_code(_f32(-3.0), "f32", "unorm8") == 0
    assert edits.carry_code(_f32(300.0), "f32", "unorm8") == 255
    assert edits.carry_operand(0x3C00, "f16", "f16") == 0x3C00


def test_switch_op_to_a_code_op_and_back_CONV_ITOF() -> None:
    s = InspectorState()
    s.update(operands=[_f32(-2.0), _f32(7.0)])
    edits.switch_op(s, "itof")  # takes i32 codes: -2.0 -> -2, 7.0 -> 7
    assert (s.op, s.op_format) == ("itof", "i32")
    assert s.operands[:2] == (0xFFFFFFFE, 7)
    edits.switch_op(s, "add")  # takes floats again: the first it takes, f32
    assert (s.op_format, s.operands[:2]) == ("f32", (_f32(-2.0), _f32(7.0)))
    edits.switch_op(s, "mul")  # f32 is one of mul's: no carrying
    assert (s.op, s.op_format) == ("mul", "f32")
    with pytest.raises(ValueError, match="unknown op"):
        edits.switch_op(s, "pow")


def _paste(s: InspectorState, text: str, reading: str | None = None) -> str:
    return paste.paste_text(s, text, reading).message


def test_paste_values_fill_the_inspector_and_operands_F32_FTZ() -> None:
    s = InspectorState()
    msg = _paste(s, "0x00000001 3f800000")
    assert msg == "read as 2 hex patterns (2 f32): A = 1e-45, B = 1.0; the inspector shows 1e-45"
    assert (s.fmt, s.bits, s.operands[:2]) == ("f32", 1, (1, 0x3F800000))
    assert _paste(s, "1.5") == "read as 1 decimal (one f32): 1.5 into the inspector (operands unchanged)"
    assert s.bits == _f32(1.5) and s.operands[:2] == (1, 0x3F800000)


def test_paste_says_which_values_were_not_used() -> None:
    """mad takes three: a fourth and fifth value are named as not used."""
    s = InspectorState()
    edits.switch_op(s, "mad")
    msg = _paste(s, "1 2 3 4 5")
    assert "A = 1.0, B = 2.0, C = 3.0" in msg
    assert msg.endswith("not used (mad takes 3): 4.0, 5.0")


def test_paste_bytes_offers_the_decimal_and_other_readings() -> None:
    """'10 20 30 40' is the bytes of one f32 (little-endian: 0x40302010, struct oracle) or
    four decimals, or big-endian, or two f16: the first is taken and named, the others
    offered; taking another replaces the values."""
    import struct

    s = InspectorState()
    res = paste.paste_text(s, "10 20 30 40")
    assert res.reading.key == "as written" and "bytes of one f32, little-endian" in res.message
    le = struct.unpack("<I", bytes([0x10, 0x20, 0x30, 0x40]))[0]
    assert s.bits == le
    keys = [r.key for r in res.others]
    assert {"decimals", "big-endian", "f16 width"} <= set(keys)
    res = paste.paste_text(s, "10 20 30 40", "decimals")
    assert s.operands[:4] == tuple(_f32(x) for x in (10, 20, 30, 40))
    assert res.message.startswith("read as 4 decimals")
    paste.paste_text(s, "10 20 30 40", "big-endian")
    assert s.bits == struct.unpack(">I", bytes([0x10, 0x20, 0x30, 0x40]))[0]
    paste.paste_text(s, "10 20 30 40", "f16 width")
    assert (s.fmt, s.operands[:2]) == ("f16", (0x2010, 0x4030))
    with pytest.raises(ValueError, match="no reading"):
        paste.paste_text(s, "1.5", "decimals")


@pytest.mark.parametrize("inspected", ["f32", "f16"])
def test_a_lone_pattern_offers_its_other_widths(inspected: str) -> None:
    """The README's promise: a pattern's digits pick its width, the other widths its bits
    fill are offered. 0x3c00 (an f16: 1.0) is also the f32 pattern 0x00003C00; 0x3c003c00
    (an f32) is also two f16, the low half first (lane 0); 0x3FF0000000000000 (an f64) two
    f32. Oracle: struct's IEEE half/single decoders on the bytes."""
    import struct

    def half(b: int) -> float:
        return struct.unpack("<e", b.to_bytes(2, "little"))[0]

    def single(b: int) -> float:
        return struct.unpack("<f", b.to_bytes(4, "little"))[0]

    s = InspectorState()
    s.update(fmt=inspected, bits=0)
    res = paste.paste_text(s, "0x3c00")
    assert (s.fmt, s.bits) == ("f16", 0x3C00) and half(s.bits) == 1.0
    [f32] = [r for r in res.others if r.key == "f32 width"]
    assert f32.items == (("f32", 0x3C00),)
    assert f32.label.startswith("f32 pattern 0x00003C00 = ")
    assert float(f32.label.rsplit("= ", 1)[1]) == pytest.approx(single(0x3C00), rel=1e-4)
    paste.paste_text(s, "0x3c00", "f32 width")
    assert (s.fmt, s.bits) == ("f32", 0x3C00)

    res = paste.paste_text(s, "0x3c004000")
    [two] = [r for r in res.others if r.key == "two f16"]
    assert two.items == (("f16", 0x4000), ("f16", 0x3C00))
    assert two.label == f"two f16: {half(0x4000)}, {half(0x3C00)} (low half first)"
    assert paste.paste_text(s, "0x3c003c00").others[0].label == "two f16: 1.0, 1.0 (low half first)"
    paste.paste_text(s, "0x3c004000", "two f16")
    assert (s.op_format, s.operands[:2]) == ("f16", (0x4000, 0x3C00))

    [two32] = paste.paste_text(s, "0x3FF0000000000000").others
    assert two32.items == (("f32", 0), ("f32", 0x3FF00000))
    assert two32.label == f"two f32: 0.0, {single(0x3FF00000)} (low half first)"


def test_paste_half_values_switch_the_operand_format() -> None:
    s = InspectorState()
    _paste(s, "0x3c00 0x4000")  # four hex digits: f16 (add takes f16)
    assert (s.op_format, s.operands[:2]) == ("f16", (_f16(1.0), _f16(2.0)))


def test_paste_codes_and_state_strings() -> None:
    s = InspectorState()
    edits.switch_op(s, "itof")
    assert _paste(s, "16777217, -1") == "2 i32 codes: A = 16777217; not used (itof takes 1): -1"
    assert s.operands[:2] == (16777217, 0xFFFFFFFF)
    other = InspectorState()
    assert _paste(other, s.to_string()) == "restored the pasted state"
    assert other.snapshot == s.snapshot


@pytest.mark.parametrize(("text", "words"), [
    ("x" * (paste.MAX_PASTE_CHARS + 1), "too much text"),
    ("0xZZZZ garbage(", "cannot read"),
    ("1 2 3 4 5 6 7 8 9", "at most 8"),
])
def test_bad_pastes_leave_the_state_untouched(text: str, words: str) -> None:
    s = InspectorState()
    if words == "at most 8":
        edits.switch_op(s, "itof")
    before = s.snapshot
    with pytest.raises(ValueError, match=words):
        paste.paste_text(s, text)
    assert s.snapshot == before
