"""Property tests of the parser: arbitrary text only ever raises ParseError, and everything
describe()/to_c_literal() prints reads back to the same pattern (FMT-*, DEC-*)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fpinspector.model import FORMATS, ParseError, describe, parse, to_c_literal
from fpinspector.model.describe import byte_dump

_ALPHABET = "0123456789abcdefABCDEFxXpP.+-_ ,;:=(){}[]<>#$\t\n\rhHfFuUlLnNiIqQsStT'\"?*/"
_PIECES = st.sampled_from([
    "0x", "0b", "1.#INF", "-1.#IND", "nan", "inf", "float4(", "half2(", ")", "{", "}", "$1 = ",
    "<repeats 3 times>", "0x7ffd1234:\t", "0x000000C5D2EFF8A0  ", "00 00 80 3f", "e+", "p-",
    "int", "unsigned", "asdouble(", "Index,value\n", ",", "\n", "3f800000h", "1e400", "-0.0",
])


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=60), st.sampled_from([None, *FORMATS]),
       st.sampled_from(["little", "big", "both"]))
def test_arbitrary_text_gives_values_or_parse_error(text, fmt, order):
    """Never a traceback: the result is a list of in-range patterns, or a ParseError."""
    _check(text, fmt, order)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES | st.text(alphabet=_ALPHABET, max_size=6), max_size=12),
       st.sampled_from([None, *FORMATS]))
def test_structured_junk_gives_values_or_parse_error(pieces, fmt):
    _check("".join(pieces), fmt, "little")


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40))
def test_any_unicode_gives_values_or_parse_error(text):
    _check(text, None, "little")


def _check(text, fmt, order):
    try:
        vals = parse(text, fmt, byte_order=order)
    except ParseError as e:
        assert 0 <= e.index <= len(text) and e.line >= 1 and e.column >= 1
        return
    for v in vals:
        f = FORMATS[v.format]
        assert 0 <= v.bits <= f.mask
        assert 0 <= v.start <= v.end <= len(text) and text[v.start:v.end] == v.text


_FMT = st.sampled_from(list(FORMATS))


@st.composite
def _pattern(draw):
    name = draw(_FMT)
    f = FORMATS[name]
    special = [0, 1, f.max_finite_bits, f.pos_inf, 1 << f.frac_bits, (1 << f.frac_bits) - 1,
               f.sign_mask | 1, f.sign_mask]
    return name, draw(st.sampled_from(special) | st.integers(0, f.mask))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(_pattern())
def test_describe_output_reads_back(case):
    """hex, exact decimal, shortest decimal and hex float of a pattern all parse back to it."""
    name, bits = case
    f = FORMATS[name]
    info = describe(bits, name)
    texts = [info.hex, info.exact, info.shortest, info.hex_float]
    for text in texts:
        got = parse(text, name)
        assert len(got) == 1
        if info.class_name == "nan":
            assert bool(f.is_nan(got[0].bits)), text
        elif not f.signed and info.class_name == "zero":
            assert got[0].bits == 0
        else:
            assert got[0].bits == bits, (name, hex(bits), text)
    if name in ("f16", "f32", "f64"):  # the digit count alone says the format
        assert parse(info.hex)[0].format == name and parse(info.hex)[0].bits == bits
        order = "little" if bits % 2 else "big"
        got = parse(byte_dump(bits, name, order), name, byte_order=order)
        assert got[0].bits == bits


@settings(max_examples=300, deadline=None)
@given(_pattern(), st.sampled_from(["asfloat", "decimal", "hexfloat"]))
def test_c_literals_read_back(case, style):
    name, bits = case
    f = FORMATS[name]
    try:
        lit = to_c_literal(bits, name, style)
    except ValueError:
        assert f.numpy_float is None  # only f11/f10 (bf16, FP8) have no bit-cast type
        return
    if f.numpy_float is None:  # f11/f10 (bf16, FP8) values: the f32 literal of the value
        got = parse(lit)[0]
        assert got.format == "f32" and got.value == float(f.decode(bits)) or (
            math.isnan(got.value) and math.isnan(float(f.decode(bits))))
        return
    got = parse(lit, name)[0]
    if bool(f.is_nan(bits)):
        assert got.bits == bits  # asfloat keeps the NaN payload
    else:
        assert got.bits == bits, (lit, hex(bits))
    if style == "decimal" and bool(f.class_codes(bits) < 3):
        assert parse(lit)[0].format == name  # the suffix says the format


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**30), st.integers(-60, 60), st.booleans(), _FMT)
def test_decimal_strings_round_once(mant, exp, neg, name):
    """Random decimal literals: the pattern is the nearest (ties to even) to the exact value."""
    from test_parse import rne_oracle

    text = ("-" if neg else "") + f"{mant}e{exp}"
    q = Fraction(Decimal(f"{mant}e{exp}"))
    got = parse(text, name)[0].bits
    f = FORMATS[name]
    if q == 0:
        assert got == (f.sign_mask if neg else 0)
    else:
        assert got == rne_oracle(q, neg, name), text
