"""The paste parser: every input style of the brief, rounding once, errors with positions,
hostile input. Oracles: struct, numpy float16, int(..., 16), and a Fraction neighbour-picking
round-to-nearest-even oracle. Rule IDs: FMT-* (widths), CONV-UNSIGNED (negatives in f11/f10),
DEC-NAN/DEC-INF (special spellings).
"""

from __future__ import annotations

import bisect
import math
import struct
import time
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from fpinspector.model import FORMATS, ParseError, parse
from fpinspector.model.parse import MAX_INPUT_CHARS

_SMALL_TABLES: dict[str, tuple[list, list]] = {}


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def rne_oracle(q: Fraction, neg: bool, name: str) -> int:
    """Round-to-nearest-even of sign*q by exact comparison with the two neighbours."""
    fmt = FORMATS[name]
    if neg and not fmt.signed:
        return 0
    mx = Fraction(fmt.exact_value(fmt.max_finite_bits))
    top = 2 * mx - Fraction(fmt.exact_value(fmt.max_finite_bits - 1))  # one step past the max
    if q > mx:
        lo, hi = (mx, fmt.max_finite_bits), (top, fmt.pos_inf)
    elif fmt.bits <= 16:
        if name not in _SMALL_TABLES:
            pairs = sorted((fmt.exact_value(i), i) for i in range(fmt.pos_inf))
            _SMALL_TABLES[name] = ([v for v, _ in pairs], [i for _, i in pairs])
        vals, pats = _SMALL_TABLES[name]
        k = bisect.bisect_left(vals, q)
        if vals[k] == q:
            return (fmt.sign_mask if neg else 0) | pats[k]
        lo, hi = (vals[k - 1], pats[k - 1]), (vals[k], pats[k])
    else:
        if name == "f32":
            p0 = _f32(float(q))
            near = [p for p in (p0 - 1, p0, p0 + 1) if 0 <= p < fmt.pos_inf]
        else:
            x = float(q)
            near = [struct.unpack("<Q", struct.pack("<d", y))[0]
                    for y in (math.nextafter(x, -1), x, math.nextafter(x, math.inf)) if y >= 0]
        cands = [(Fraction(fmt.exact_value(p)), p) for p in near]
        lo = max(c for c in cands if c[0] <= q)
        hi = min(c for c in cands if c[0] >= q)
    if lo[0] == hi[0]:
        pat = lo[1]
    else:
        dl, dh = q - lo[0], hi[0] - q
        pat = lo[1] if dl < dh else hi[1] if dh < dl else (lo[1] if lo[1] % 2 == 0 else hi[1])
    return (fmt.sign_mask if neg else 0) | pat


def one(text: str, fmt=None, **kw):
    vals = parse(text, fmt, **kw)
    assert len(vals) == 1, vals
    return vals[0]


# --------------------------------------------------------------------------------------
# patterns: width from the digit count (FMT-F16/F32/F64), or from format=


@pytest.mark.parametrize("text, fmt_name, bits", [
    ("0x3f800000", "f32", 0x3F800000),
    ("3F800000", "f32", 0x3F800000),
    ("3f800000h", "f32", 0x3F800000),
    ("0x3F80_0000", "f32", 0x3F800000),
    ("0x3c00", "f16", 0x3C00),
    ("3c00", "f16", 0x3C00),
    ("0x3FF0000000000000", "f64", 0x3FF0000000000000),
    ("0x3f800000u", "f32", 0x3F800000),
    ("00000000", "f32", 0),
    ("0b0011110000000000", "f16", 0x3C00),
    ("0b0_01111111_00000000000000000000000", "f32", 0x3F800000),
    ("0b01111000000", "f11", 0x3C0),
    ("0b0111100000", "f10", 0x1E0),
])
def test_pattern_width_from_digits_FMT(text, fmt_name, bits):
    """FMT-*: 4/8/16 hex digits are f16/f32/f64; 10/11/16/32/64 binary digits likewise."""
    v = one(text)
    assert (v.format, v.bits) == (fmt_name, bits)
    assert v.kind in ("hex", "bin")
    assert text[v.start:v.end] == v.text and v.span == (v.start, v.end)


def test_three_hex_digits_need_f11_or_f10_FMT_F11_F10():
    """FMT-F11/F10: 3 hex digits are ambiguous without format=; with it they are read."""
    with pytest.raises(ParseError, match="f11 or f10"):
        parse("0x3c0")
    assert one("0x3c0", "f11").bits == 0x3C0
    assert one("0x1e0", "f10").bits == 0x1E0
    with pytest.raises(ParseError, match="does not fit f10"):
        parse("0x7ff", "f10")


def test_explicit_format_wins_and_refuses_wider_patterns():
    assert (one("0x3c00", "f32").format, one("0x3c00", "f32").bits) == ("f32", 0x3C00)
    with pytest.raises(ParseError, match="does not fit f16"):
        parse("0x3f800000", "f16")
    with pytest.raises(ParseError, match="no sign"):
        parse("-0x3f800000")


# --------------------------------------------------------------------------------------
# decimals: rounded once, nearest-even


@pytest.mark.parametrize("text, value", [
    ("1.0", 1.0), ("-2.5e-3", -2.5e-3), ("1.0f", 1.0), ("3.14159", 3.14159), ("1e-45", 1e-45),
    ("0.1", 0.1), ("-0.0", -0.0), ("3.4028235e38", 3.4028235e38),
    (".5", 0.5), ("1'000.5", 1000.5),
])
def test_decimal_to_f32_matches_struct(text, value):
    """Decimals default to f32; simple cases agree with C's float conversion (struct)."""
    v = one(text)
    assert (v.format, v.kind) == ("f32", "decimal")
    assert v.bits == _f32(value)


def test_a_decimal_f32_would_round_but_f64_holds_is_an_f64():
    """Issue 33: 16777217 (2^24 + 1) is exact in f64, not in f32: read as f64, never
    silently rounded to 16777216 (this test read it as f32 16777216 before)."""
    v = one("16777217")
    assert (v.format, v.bits) == ("f64", struct.unpack("<Q", struct.pack("<d", 16777217.0))[0])


def test_decimal_rounds_once_not_twice():
    """The brief's case: just above the f32 midpoint goes up; the exact midpoint goes to even.

    Through float64 first, 1 + 2^-24 + 10^-27 would round to the midpoint and then to even.
    (Decimals of 10+ digits are f64 unless a format is given: issue 33; f32 asked here.)
    """
    assert one("1.000000059604644775390625001", "f32").bits == 0x3F800001
    assert one("1.000000059604644775390625", "f32").bits == 0x3F800000
    assert one("1.000000178813934326171875", "f32").bits == 0x3F800002  # midpoint 1|2 -> 2
    assert float("1.000000059604644775390625001") == 1.0000000596046448  # the trap is real


@pytest.mark.slow
def test_decimal_into_each_format_RNE_oracle():
    rng = np.random.default_rng(5)
    for name in FORMATS:
        fmt = FORMATS[name]
        pats = rng.integers(0, fmt.max_finite_bits, 120)
        for p in pats:
            # the exact midpoint to the next pattern, nudged by +-1e-60 or not at all
            mid = (Fraction(fmt.exact_value(int(p))) + Fraction(fmt.exact_value(int(p) + 1))) / 2
            for nudge in (0, Fraction(1, 10**60), -Fraction(1, 10**60)):
                q = abs(mid + nudge)
                text = _dec_text(q)
                assert one(text, name).bits == rne_oracle(q, False, name), (name, text)


def _dec_text(q: Fraction) -> str:
    """Exact decimal text of a Fraction whose denominator is 2^a 5^b."""
    k = 0
    while (q * 10**k).denominator != 1:
        k += 1
    digits = str((q * 10**k).numerator).rjust(k + 1, "0")
    text = digits[: len(digits) - k] + "." + digits[len(digits) - k:] if k else digits
    assert Fraction(Decimal(text)) == q
    return text


@pytest.mark.parametrize("text, name, bits", [
    ("1.0", "f16", 0x3C00), ("65504", "f16", 0x7BFF), ("65520", "f16", 0x7C00),
    ("65519.99", "f16", 0x7BFF), ("1e50", "f16", 0x7C00), ("-1e50", "f16", 0xFC00),
    ("1e-50", "f32", 0), ("-1e-50", "f32", 0x80000000), ("1e999", "f64", 0x7FF0000000000000),
    ("1e-999", "f64", 0), ("5e-324", "f64", 1), ("2.4703282292062328e-324", "f64", 1),
    ("2.4703282292062327e-324", "f64", 0), ("1.0h", None, None), ("1.0", "f11", 0x3C0),
])
def test_decimal_edges_overflow_underflow(text, name, bits):
    """Overflow to INF / underflow to signed zero under nearest-even (IEEE baseline)."""
    if bits is None:  # suffix h: a half literal
        v = one(text)
        assert (v.format, v.bits) == ("f16", 0x3C00)
        return
    assert one(text, name).bits == bits


def test_negative_decimal_in_unsigned_format_is_zero_CONV_UNSIGNED():
    """CONV-UNSIGNED: a negative value in f11/f10 becomes 0, and the note says so."""
    v = one("-1.5", "f11")
    assert v.bits == 0 and "CONV-UNSIGNED" in v.note
    assert one("-inf", "f10").bits == 0


@pytest.mark.parametrize("text, bits", [
    ("inf", 0x7F800000), ("-inf", 0xFF800000), ("+Infinity", 0x7F800000),
    ("1.#INF", 0x7F800000), ("-1.#INF00", 0xFF800000), ("1.#QNAN", 0x7FC00000),
    ("-1.#IND", 0xFFC00000), ("nan", 0x7FC00000), ("-nan(ind)", 0xFFC00000),
    ("NaN", 0x7FC00000),
])
def test_special_spellings_DEC_INF_DEC_NAN(text, bits):
    """DEC-INF/DEC-NAN: C, MSVC (1.#INF, -1.#IND = the x86 default NaN) and Python spellings."""
    v = one(text)
    assert v.bits == bits and v.kind == "special"
    val = struct.unpack("<f", struct.pack("<I", v.bits))[0]
    assert math.isnan(val) == ("n" in text.lower() and "inf" not in text.lower())


def test_gdb_nan_payload_DEC_NAN():
    """DEC-NAN: gdb's nan(0x...) gives the fraction field; one that does not fit is noted."""
    vals = parse("$1 = {nan(0x400001), -nan(0x400000), nan(0x1)}")
    assert [v.bits for v in vals] == [0x7FC00001, 0xFFC00000, 0x7F800001]
    v = one("nan(0x800000)")  # wider than f32's fraction: an f64 payload (issue 33)
    assert (v.format, v.bits) == ("f64", 0x7FF0000000800000)
    v = one("nan(0x800000)", "f32")
    assert v.bits == 0x7FC00000 and "does not fit" in v.note


def test_c_hex_float_exact():
    assert one("0x1.8p+1").bits == _f32(3.0)
    assert one("-0x1p-149").bits == 0x80000001
    assert one("0x1.000002p+0").bits == 0x3F800001
    assert one("0x1.000001p+0").bits == 0x3F800000  # exact midpoint: to even
    assert one("0x1.0000010000001p+0").bits == 0x3F800001  # just above: up
    assert one("0x1p-1000", "f64").bits == struct.unpack("<Q", struct.pack("<d", 2.0**-1000))[0]
    assert one("0x1p+99999").bits == 0x7F800000
    assert one("-0x0p+0").bits == 0x80000000


# --------------------------------------------------------------------------------------
# byte dumps


def test_byte_dump_little_big_both():
    assert one("00 00 80 3f").bits == 0x3F800000
    assert one("3f 80 00 00", byte_order="big").bits == 0x3F800000
    both = parse("3f 80 00 00", byte_order="both")
    assert [(v.kind, v.bits) for v in both] == [("bytes-le", 0x803F), ("bytes-be", 0x3F800000)]
    assert both[0].group == both[1].group and both[0].note
    words = parse("00 00 80 3f 00 00 00 40")
    assert [v.bits for v in words] == [0x3F800000, 0x40000000]
    assert [v.group for v in words] == [0, 1]
    assert one("00 3c", "f16").bits == 0x3C00
    assert one("00 00 00 00 00 00 f0 3f", "f64").bits == 0x3FF0000000000000
    assert one("{0x00, 0x00, 0x80, 0x3f}").bits == 0x3F800000


def test_byte_dump_errors():
    with pytest.raises(ParseError, match="whole number of 4-byte f32"):
        parse("00 00 80")
    with pytest.raises(ParseError, match="no whole-byte width"):
        parse("00 00", "f11")


# --------------------------------------------------------------------------------------
# vectors, gdb, Visual Studio, RenderDoc


@pytest.mark.parametrize("text, name, values", [
    ("(0x3f800000, 0x40000000)", "f32", [1.0, 2.0]),
    ("{1.0, 2.0, 3.0}", "f32", [1.0, 2.0, 3.0]),
    ("float4(1, 2, 3, 4)", "f32", [1.0, 2.0, 3.0, 4.0]),
    ("half2(1.5, -2)", "f16", [1.5, -2.0]),
    ("double2(0.1, 2)", "f64", [0.1, 2.0]),
    ("vec3(1, 0.5, 0)", "f32", [1.0, 0.5, 0.0]),
    ("$1 = 0x3f800000", "f32", [1.0]),
    ("$2 = {1, 2}", "f32", [1.0, 2.0]),
    ("$3 = {x = 1, y = 2.5}", "f32", [1.0, 2.5]),
    ("$4 = {0x3f800000, 0x0}", "f32", [1.0, 0.0]),
    ("$5 = {0x3c00, 0x0, 0x1}", "f16", [1.0, 0.0, 2.0**-24]),
    ("$6 = {0 <repeats 3 times>, 1}", "f32", [0.0, 0.0, 0.0, 1.0]),
    ("0x7ffd1234:\t0x3f800000\t0x00000000\t0x40000000\t0xbf800000", "f32", [1, 0, 2, -1]),
    ("0x601040 <arr+16>:\t0x3f800000\t0x40000000", "f32", [1.0, 2.0]),
    ("0x7ffd1234:\t0x00\t0x00\t0x80\t0x3f", "f32", [1.0]),
    ("1.00000000 float", "f32", [1.0]),
    ("0x3f800000 unsigned int", "f32", [1.0]),
    ("1065353216 int", "f32", [1.0]),
    ("-1082130432 int", "f32", [-1.0]),
    ("f\t1.00000000\tfloat", "f32", [1.0]),
    ("v\t{x=1.00000000 y=2.00000000 }\tDirectX::XMFLOAT2", "f32", [1.0, 2.0]),
    ("h\t1.5\thalf", "f16", [1.5]),
    ("0x000000C5D2EFF8A0  00 00 80 3f 00 00 00 40  ...€?...@", "f32", [1.0, 2.0]),
    ("0x000000C5D2EFF8A0  3f800000 40000000  ...€?...@", "f32", [1.0, 2.0]),
    ("0x00AF0000  00 00 80 bf ab cd  ....", None, None),
    ("asdouble(0x00000000, 0x3ff00000)", "f64", [1.0]),
    ("asfloat(0x3f800000)", "f32", [1.0]),
    ("array([1., 2.5], dtype=float16)", "f16", [1.0, 2.5]),
    ("array([[1., 2.],\n       [3., 4.]], dtype=float16)", "f16", [1, 2, 3, 4]),
    ("np.float32(1.5)", "f32", [1.5]),
    ("(float) $0 = 1.5", "f32", [1.5]),
    ("(half) $1 = 2", "f16", [2.0]),
    ("(unsigned int) $2 = 1065353216", "f32", [1.0]),
    ("1.0\r\n2.0\r\n", "f32", [1.0, 2.0]),
])
def test_paste_styles(text, name, values):
    """gdb, Visual Studio watch/memory, HLSL/GLSL vectors: type words set the format."""
    if values is None:  # VS memory row whose ASCII column could pass for hex: 6 bytes, error
        with pytest.raises(ParseError, match="6 bytes"):
            parse(text)
        return
    vals = parse(text)
    assert [v.format for v in vals] == [name] * len(values)
    assert [v.value for v in vals] == [float(x) for x in values]


def test_vs_memory_rows_continue_across_lines_and_skip_ascii():
    text = ("0x000000C5D2EFF8A0  00 00 80 3f 00 00  ...€?..\n"
            "0x000000C5D2EFF8A6  00 40 cd cc cc 3d  .@...=\n")
    vals = parse(text)
    assert [v.bits for v in vals] == [0x3F800000, 0x40000000, _f32(0.1)]
    assert text[vals[1].start:vals[1].end].startswith("00 00")  # span crosses the line


def test_renderdoc_csv_columns_and_labels():
    text = "Index,value,bits\n0,1.0,0x3F800000\n1,-2.5,0xC0200000\n"
    vals = parse(text)
    assert [(v.label, v.bits) for v in vals] == [
        ("value[0]", 0x3F800000), ("bits[0]", 0x3F800000),
        ("value[1]", 0xC0200000), ("bits[1]", 0xC0200000)]
    assert all(text[v.start:v.end] == v.text for v in vals)
    with pytest.raises(ParseError) as ei:
        parse("Index,value\n0,1.0\n1,zz\n")
    assert ei.value.line == 3 and ei.value.column == 3


# --------------------------------------------------------------------------------------
# errors and hostile input


def test_parse_error_names_position_with_caret():
    with pytest.raises(ParseError) as ei:
        parse("1.0, 2.0\n3.0 zz 4.0")
    e = ei.value
    assert isinstance(e, ValueError)
    assert (e.index, e.line, e.column) == (13, 2, 5)
    assert "zz" in str(e) and "\n  3.0 zz 4.0\n      ^" in str(e)


@pytest.mark.parametrize("text, msg", [
    ("(1, 2", "unclosed"), ("1, 2)", "unmatched"), ("{1, 2)", "unmatched"),
    ("banana", "unknown word"), ("1.0abc", "cannot read"), ("0x", "cannot read"),
    ("<repeats 3 times>", "no value before"), ("1 <repeats 999999999 times>", "more than"),
    ("0x123456789", "9-digit"), ("", None), ("   \n\t", None),
])
def test_bad_input_messages(text, msg):
    if msg is None:
        assert parse(text) == []
        return
    with pytest.raises(ParseError, match=msg):
        parse(text)


def test_argument_checks():
    with pytest.raises(ValueError, match="byte_order"):
        parse("1", byte_order="middle")
    with pytest.raises(ValueError, match="unknown format"):
        parse("1", "f8")
    with pytest.raises(ValueError, match="needs text"):
        parse(b"1.0")  # type: ignore[arg-type]


def test_huge_paste_refused_fast():
    """Over 1 MiB is refused with a message; a 10 MB paste returns well under a second."""
    big = "0x3f800000 " * 1_000_000
    t = time.perf_counter()
    with pytest.raises(ParseError, match="limit"):
        parse(big)
    assert time.perf_counter() - t < 0.5
    assert len(big) > MAX_INPUT_CHARS


@pytest.mark.slow
@pytest.mark.parametrize("text", [
    "1" * 900_000, "0" * 900_000, "0x" + "f" * 900_000, "(" * 300_000, "00 " * 300_000 + "zz",
    "1e" * 400_000, "-" * 900_000, "a" * 900_000, "1." * 400_000, " " * 900_000 + "?",
    "0b" + "1" * 900_000, "#" * 900_000, "1.#" * 300_000,
])
def test_hostile_input_is_linear(text):
    """No exponential (or quadratic) regular expressions: each of these ends within ~a second."""
    t = time.perf_counter()
    try:
        parse(text)
    except ParseError:
        pass
    assert time.perf_counter() - t < 3.0  # generous: 2 shared CPU cores


def test_big_valid_paste_throughput():
    text = "1.5, " * 40_000 + "0x3f800000 " * 20_000
    t = time.perf_counter()
    vals = parse(text)
    dt = time.perf_counter() - t
    assert len(vals) == 60_000 and vals[0].bits == _f32(1.5) and vals[-1].bits == 0x3F800000
    assert dt < 5.0


def test_two_tagged_fp8_patterns_are_two_values_not_a_byte_dump():
    """FMT-E4M3, FMT-E5M2: 2-digit hex tokens are bytes of a dump ('0x00 0x00 0x80 0x3f'
    is one f32), but tagged with an 8-bit format they are that format's patterns."""
    got = [(v.format, int(v.bits)) for v in parse("e4m3 0x7e e4m3 0x38")]
    assert got == [("e4m3", 0x7E), ("e4m3", 0x38)]
    assert [(v.format, int(v.bits)) for v in parse("e5m2 0x3c, e5m2 0x40")] == [
        ("e5m2", 0x3C), ("e5m2", 0x40)]
    assert [(v.format, int(v.bits)) for v in parse("0x00 0x00 0x80 0x3f")] == [
        ("f32", 0x3F800000)]
