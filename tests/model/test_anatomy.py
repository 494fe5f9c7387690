"""rounding_anatomy: neighbours, guard/round/sticky and direction checked with Fractions."""

from __future__ import annotations

import bisect
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fpinspector.model.describe import rounding_anatomy


def f16_values() -> list[Fraction]:
    """Every finite non-negative f16 value as a Fraction, from the DEC-* formulas."""
    out = []
    for p in range(0x7C00):
        e, f = p >> 10, p & 0x3FF
        out.append(Fraction(f, 1024) * Fraction(2) ** -14 if e == 0
                   else (1 + Fraction(f, 1024)) * Fraction(2) ** (e - 15))
    return out


F16 = f16_values()


def test_case1_tie_anatomy_rtz_vs_rne():
    """CONV-F2F-RTZ vs ROUND-NEAREST on case 1: 1 + 3*2^-11 is an exact tie (g=1, r=0, s=0)."""
    q = 1 + Fraction(3, 2048)
    a = rounding_anatomy(q, "f16")
    assert (a.lower_bits, a.upper_bits, a.guard, a.round, a.sticky) == (0x3C01, 0x3C02, 1, 0, 0)
    assert a.result_bits == 0x3C01 and a.direction == "toward_zero"
    assert "CONV-F2F-RTZ" in a.rules and "CONV-F2F-RTZ" in a.reason
    b = rounding_anatomy(q, "f16", "ieee")
    assert b.result_bits == 0x3C02 and "ties to even" in b.reason and b.direction == "away_from_zero"


@settings(max_examples=150, deadline=None)
@given(st.fractions(min_value=Fraction(1, 2**26), max_value=Fraction(65504)))
def test_neighbours_and_grs_against_fraction_table(q):
    """Neighbours are the table values around q; guard/round/sticky match (q - lower)/ULP;
    ieee result is the nearest (ties to even), d3d result the lower neighbour."""
    a = rounding_anatomy(q, "f16", "ieee")
    i = bisect.bisect_right(F16, q) - 1
    lo = F16[i]
    assert a.lower_bits == i and a.lower_value == lo
    if lo == q:
        assert a.upper_bits == i and a.direction == "exact"
        assert (a.guard, a.round, a.sticky) == (0, 0, 0)
        return
    hi = F16[i + 1]
    assert a.upper_bits == i + 1 and a.upper_value == hi
    frac = (q - lo) / (hi - lo)  # dropped part in ULPs, in (0, 1)
    assert a.guard == int(frac >= Fraction(1, 2))
    assert a.round == int(math.floor(frac * 4)) % 2
    assert a.sticky == int(frac * 4 != math.floor(frac * 4))
    near = i if (q - lo < hi - q or (q - lo == hi - q and i % 2 == 0)) else i + 1
    assert a.result_bits == near
    assert rounding_anatomy(q, "f16").result_bits == i  # d3d: toward zero


def test_pattern_input_saturation_unsigned_and_specials():
    """CONV-F2F-SAT, CONV-UNSIGNED/F11-CLAMP, CONV-NAN, CONV-INF via the anatomy."""
    sat = rounding_anatomy("1e6", "f16")
    assert sat.result_bits == 0x7BFF and "CONV-F2F-SAT" in sat.rules
    assert rounding_anatomy("1e6", "f16", "ieee").result_bits == 0x7C00
    neg = rounding_anatomy(-2.5, "f11")
    assert neg.result_bits == 0 and neg.lower_bits is None and "CONV-UNSIGNED" in neg.rules
    assert rounding_anatomy(float("nan"), "f16").direction == "nan"
    assert rounding_anatomy(0x7F800000, "f10", src="f32").rules == ["CONV-INF"]
    assert rounding_anatomy(0xFF800000, "f10", src="f32").result_bits == 0
    p = rounding_anatomy(0x3F803000, "f16", src="f32")
    assert p.exact == 1 + Fraction(3, 2048) and p.result_bits == 0x3C01


def test_dtof_anatomy_and_vendor_quirk():
    """CONV-DTOF: decimal 0.1 -> f32 rounds to nearest (upper); VARIANT-QUIRK for case 7."""
    a = rounding_anatomy("0.1", "f32")
    assert a.result_bits == 0x3DCCCCCD and "CONV-DTOF" in a.rules
    assert a.lower_value < Fraction(1, 10) < a.upper_value
    q = rounding_anatomy(2.0**-46, "f10", "directxmath")
    assert q.result_bits == 0x020 and "VARIANT-QUIRK" in q.rules
    assert np.isclose(float(q.exact), 2.0**-46)


@pytest.mark.parametrize("bad", ["abc", None, [1, 2]])
def test_bad_value_raises_value_error(bad):
    """Bad input: ValueError with a message."""
    with pytest.raises(ValueError):
        rounding_anatomy(bad, "f16")


def test_anatomy_reachable_from_convert_module_and_text():
    """The conversions view looks the anatomy up in model.convert; text() renders it."""
    import importlib

    conv = importlib.import_module("fpinspector.model.describe")

    a = conv.rounding_anatomy(0x3F803000, "f16", variant="ieee", src="f32")
    assert isinstance(a, conv.Anatomy) and a.result_bits == 0x3C02
    assert "guard/round/sticky : 1 0 0" in a.text()


def test_f32_denormal_flush_is_explained_as_conv_denorm_not_a_quirk():
    """CONV-DENORM: d3d treats f32 as a format without denormals, in and out of f32."""
    from fractions import Fraction

    a = rounding_anatomy(1, "f64", src="f32")  # the smallest f32 denormal, widened
    assert a.result_bits == 0 and "CONV-DENORM" in a.rules and "VARIANT-QUIRK" not in a.rules
    b = rounding_anatomy(Fraction(1, 2**140), "f32")  # a value that is an f32 denormal
    assert b.result_bits == 0 and "CONV-DENORM" in b.rules
    c = rounding_anatomy(1, "f64", src="f32", variant="ieee")  # ieee keeps it: exact
    assert c.direction == "exact"
