"""Pastes from Visual Studio's memory window (float display), RenderDoc's tab-separated
buffer copies, and f11/f10/packed values named by a tag: nothing is silently misread.

Oracles: struct (IEEE binary32 encodings), fractions (exact values of f11/f10 patterns from
their bit fields: bias 15, 6 or 5 fraction bits), plain bit arithmetic for packed words.
"""

from __future__ import annotations

import struct
from fractions import Fraction

import pytest

from fpinspector.model.parse import ParseError, parse
from fpinspector.model.state import InspectorState
from fpinspector.model.state.paste import paste_text, readings


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _small_float(bits: int, frac_bits: int) -> Fraction:
    """Value of an unsigned f11 (6 fraction bits) or f10 (5) pattern, bias 15."""
    e, m = bits >> frac_bits, bits & ((1 << frac_bits) - 1)
    if e == 0:
        return Fraction(m, 1 << frac_bits) * Fraction(2) ** -14
    return (1 + Fraction(m, 1 << frac_bits)) * Fraction(2) ** (e - 15)


def test_vs_memory_window_float_display_address_is_never_a_value_F32_NANOUT() -> None:
    """'0x000000D5A5AFF8B0  1.0000000 2.0000000 +Inf -nan(ind)': four f32 values; the
    address is skipped (it was read as an f64 and shifted the operands)."""
    vals = parse("0x000000D5A5AFF8B0  1.0000000 2.0000000 +Inf -nan(ind)")
    assert [(v.format, v.bits) for v in vals] == [
        ("f32", _f32(1.0)), ("f32", _f32(2.0)), ("f32", 0x7F800000), ("f32", 0xFFC00000)]
    rows = parse("0x000000D5A5AFF8B0  1.0000000 -0.0000000\n"
                 "0x000000D5A5AFF8B8  1.401298e-45#DEN 3.0000000\n")
    assert [v.bits for v in rows] == [_f32(1.0), 0x80000000, 1, _f32(3.0)]


def test_vs_denormal_marker_is_read_F32_DENORM() -> None:
    """'1.401298e-45#DEN' is VS's denormal 2^-149: the nearest f32 (Fraction oracle)."""
    (v,) = parse("1.401298e-45#DEN")
    assert v.bits == 1
    assert abs(Fraction("1.401298e-45") - Fraction(2) ** -149) < Fraction(2) ** -150


def test_renderdoc_tab_separated_rows_index_columns_are_not_values() -> None:
    text = ("VTX\tIDX\tPOSITION.x\tPOSITION.y\tPOSITION.z\n"
            "0\t0\t1.5\t-2\t0.25\n"
            "1\t3\t1e-40\tinf\t0\n")
    vals = parse(text)
    assert [v.bits for v in vals] == [_f32(1.5), _f32(-2.0), _f32(0.25), _f32(1e-40),
                                      0x7F800000, 0]
    assert [v.label for v in vals][:3] == ["POSITION.x[0]", "POSITION.y[0]", "POSITION.z[0]"]
    assert vals[3].label == "POSITION.x[3]"  # the row named by its IDX, never a value


@pytest.mark.parametrize("text", ["f11 0x3c0", "0x3c0 f11", "f11: 0x3c0"])
def test_f11_tag_before_or_after_reads_the_pattern_DEC_values(text: str) -> None:
    (v,) = parse(text)
    assert (v.format, v.bits) == ("f11", 0x3C0)
    assert _small_float(0x3C0, 6) == 1


def test_f10_tag_and_f16_tag_are_format_words_not_hex() -> None:
    assert [(v.format, v.bits) for v in parse("f10 0x1e0 0x3c0")] == [("f10", 0x1E0),
                                                                       ("f10", 0x3C0)]
    assert _small_float(0x1E0, 5) == 1
    assert [(v.format, v.bits) for v in parse("f16 3c00")] == [("f16", 0x3C00)]


def test_three_digit_pattern_without_a_tag_still_asks_for_the_format() -> None:
    with pytest.raises(ParseError, match="3-digit"):
        parse("0x3c0")


def test_three_digit_paste_fills_an_f11_inspector_and_offers_f10() -> None:
    s = InspectorState()
    s.update(fmt="f11", bits=0)
    res = paste_text(s, "0x3c0")
    assert (s.fmt, s.bits) == ("f11", 0x3C0)
    assert "the inspector's f11" in res.message
    assert [r.key for r in res.others] == ["f10 patterns"]
    paste_text(s, "0x3c0", "f10 patterns")
    assert (s.fmt, s.bits) == ("f10", 0x3C0)
    assert _small_float(0x3C0, 5) == 32768  # the same bits, another number in f10


def test_packed_r11g11b10_word_updates_the_word_and_inspects_r_FMT_R11G11B10() -> None:
    word = (0x1E0 << 22) | (0x3C0 << 11) | 0x7BF  # B = f10 1.0, G = f11 1.0, R = f11 65024
    s = InspectorState()
    before = s.snapshot.operands
    res = paste_text(s, f"R11G11B10 0x{word:08X}")
    assert s.word == word and (s.fmt, s.bits) == ("f11", 0x7BF)
    assert s.operands == before
    assert _small_float(0x7BF, 6) == 65024
    assert "R = 65024.0, G = 1.0, B = 1.0" in res.message
    other = InspectorState()
    paste_text(other, f"0x{word:08x} r11g11b10_float")
    assert other.word == word


def test_packed_rgb9e5_word_CONV_RGB9E5() -> None:
    """E = 16, R mantissa 256: 256 / 512 * 2^(16 - 15) = 1.0 (the D3D decode)."""
    word = (16 << 27) | 256
    s = InspectorState()
    res = paste_text(s, f"RGB9E5 0x{word:08X}")
    assert s.word == word and (s.fmt, s.bits) == ("f32", _f32(1.0))
    assert "R = 1.0, G = 0.0, B = 0.0" in res.message
    with pytest.raises(ValueError, match="one 32-bit pattern"):
        readings("RGB9E5 1.5")


def test_vs_memory_row_with_one_space_after_the_address():
    """Visual Studio's memory row as a web page shows it (one space after the address,
    published: vs/memory_bytes_vs2008): the address is no value; a typed pattern followed
    by fewer than 4 bytes or by an 8-digit word keeps every value."""
    vals = parse("0x0012FF60 00 00 20 3e cc cc cc cc")
    assert [(v.format, v.bits) for v in vals] == [("f32", 0x3E200000), ("f32", 0xCCCCCCCC)]
    assert [v.bits for v in parse("0x3f800000 3f800000")] == [0x3F800000, 0x3F800000]


def test_vs_float_print_with_the_crt_exponent_is_an_f32():
    """``1.0863247e+009`` (a Visual Studio memory cell, 8 digits and the CRT's 3-digit
    exponent) is the f32 0x4e818000, whose %.8g it is (struct oracle); the same digits
    with gdb's 2-digit exponent name no width and stay exact in f64."""
    (want,) = struct.unpack("<I", struct.pack("<f", 1.0863247e9))
    assert f"{struct.unpack('<f', struct.pack('<I', want))[0]:.8g}" == "1.0863247e+09"
    (v,) = parse("1.0863247e+009")
    assert (v.format, v.bits) == ("f32", want)
    (w,) = parse("1.0863247e+09")
    assert w.format == "f64"
