"""Numeric conversions (CONV-FTOI, CONV-ITOF, CONV-DTOF, CONV-UNORM, CONV-SNORM, CONV-SRGB)
against Fraction, struct and mpmath oracles."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fpinspector.model.convert.numeric import (
    dtof,
    f32_to_snorm,
    f32_to_srgb8,
    f32_to_unorm,
    ftoi,
    ftou,
    itof,
    snorm_to_f32,
    srgb8_to_f32,
    unorm_to_f32,
    utof,
)


def fbits(*v) -> np.ndarray:
    return np.array(v, np.float32).view(np.uint32)


def f32val(pattern: int) -> float:
    return struct.unpack("<f", struct.pack("<I", int(pattern)))[0]


def rne_f32(q: Fraction) -> Fraction:
    """Correctly rounded float32 value of a positive normal-range Fraction, by integer math."""
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    m = q / Fraction(2) ** (e - 23)
    n, r = divmod(m.numerator, m.denominator)
    rem = Fraction(r, m.denominator)
    n += rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1)
    return n * Fraction(2) ** (e - 23)


SPECIAL = [0.0, -0.0, 0.5, -0.5, 1.0, -2.7, 2.7, 1e10, -1e10, 2147483520.0, 2147483648.0,
           -2147483648.0, -2147483904.0, 4294967040.0, 4294967296.0, math.inf, -math.inf,
           math.nan, 1e-45, -1e-45]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.floats(width=32), min_size=1, max_size=50))
def test_conv_ftoi_ftou_against_python_ints(vals):
    """CONV-FTOI: toward zero, clamp to the int32/uint32 range, NaN -> 0."""
    vals = vals + SPECIAL
    u = fbits(*vals)
    si, ui = ftoi(u).bits.tolist(), ftou(u).bits.tolist()
    for v, a, b in zip(vals, si, ui):
        if v != v:
            assert a == 0 and b == 0
            continue
        t = max(-2**31, min(2**31 - 1, math.trunc(v))) if math.isfinite(v) else \
            (2**31 - 1 if v > 0 else -2**31)
        assert a == t
        tu = max(0, min(2**32 - 1, math.trunc(v))) if math.isfinite(v) else (2**32 - 1 if v > 0 else 0)
        assert b == tu


def test_ftoi_fired_nan_and_ftz():
    """CONV-NAN fires for NaN (-> 0); F32-FTZ fires for a denormal input."""
    r = ftoi(np.array([0x7FC00000, 0x00000001, 0x3F800000], np.uint32))
    assert r.fired["CONV-NAN"].tolist() == [True, False, False]
    assert r.fired["F32-FTZ"].tolist() == [False, True, False]
    assert r.bits.tolist() == [0, 0, 1]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-2**31, 2**31 - 1), min_size=1, max_size=60),
       st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=60))
def test_conv_itof_utof_window_is_both_neighbours(ints, uints):
    """CONV-ITOF: the model is nearest even; lo/hi are the two float32 neighbours."""
    for fn, vals in ((itof, ints + [2**24 + 1, -(2**24 + 3), 2**31 - 1]),
                     (utof, uints + [2**32 - 1, 2**24 + 1])):
        r = fn(np.array(vals, np.int64))
        for v, b, lo, hi in zip(vals, r.bits.tolist(), r.lo.tolist(), r.hi.tolist()):
            q = Fraction(v)
            fb, fl, fh = (Fraction(f32val(p)) for p in (b, lo, hi))
            assert fl <= q <= fh
            assert fb == (Fraction(f32val(struct.unpack("<I", struct.pack("<f", float(v)))[0])))
            if fl == fh:
                assert fl == q
            else:  # adjacent float32 values around q
                assert abs(lo - hi) == 1 or (lo ^ hi) == 0x80000000
                assert abs(fb - q) <= min(abs(fl - q), abs(fh - q))
        assert r.allowed(r.lo).all() and r.allowed(r.hi).all()


def test_conv_dtof_against_struct():
    """CONV-DTOF: nearest even; struct's C (float) cast is the oracle in the normal range."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(2000) * 10.0 ** rng.integers(-30, 30, 2000)
    x = np.append(x, [1 + 2**-24, 1 + 3 * 2**-24])
    r = dtof(x.view(np.uint64))
    ref = [struct.unpack("<I", struct.pack("<f", float(v)))[0] for v in x]
    assert r.bits.tolist() == ref
    assert r.fired["CONV-DTOF"][-1] and r.lo.tolist() == r.hi.tolist()


def unorm_oracle(v: float, n: int) -> tuple[int, int, int]:
    d = (1 << n) - 1
    x = Fraction(0) if v != v else Fraction(min(max(v, 0.0), 1.0))
    e = x * d
    code = math.floor(e + Fraction(1, 2))
    lo = max(0, math.ceil(e - Fraction(3, 5)))
    hi = min(d, math.floor(e + Fraction(3, 5)))
    return code, lo, hi


def snorm_oracle(v: float, n: int) -> tuple[int, int, int]:
    m = (1 << (n - 1)) - 1
    x = Fraction(0) if v != v else Fraction(min(max(v, -1.0), 1.0))
    e = x * m
    code = math.trunc(e + (Fraction(1, 2) if e >= 0 else Fraction(-1, 2)))
    return code, max(-m, math.ceil(e - Fraction(3, 5))), min(m, math.floor(e + Fraction(3, 5)))


def norm_inputs(n: int) -> list[float]:
    d = (1 << n) - 1
    base = [c / d for c in range(0, d + 1, max(1, d // 300))]
    base += [(c + 0.5) / d for c in range(0, d, max(1, d // 300))]
    out = []
    for v in base:
        f = np.float32(v)
        out += [float(f), float(np.nextafter(f, np.float32(2))), float(np.nextafter(f, np.float32(-2)))]
    return out + SPECIAL


@pytest.mark.parametrize("n", [8, 16])
def test_conv_unorm_encode_against_fraction(n):
    """CONV-UNORM float -> UNORM: NaN -> 0, clamp, *(2^n-1), +0.5, truncate; 0.6 ULP window."""
    vals = norm_inputs(n)
    r = f32_to_unorm(fbits(*vals), n)
    got = list(zip(r.bits.tolist(), r.lo.tolist(), r.hi.tolist()))
    assert got == [unorm_oracle(v, n) for v in vals]


@pytest.mark.parametrize("n", [8, 16])
def test_conv_snorm_encode_against_fraction(n):
    """CONV-SNORM float -> SNORM: NaN -> 0, clamp [-1, 1], +/-0.5 by sign, truncate."""
    vals = norm_inputs(n) + [-v for v in norm_inputs(n)]
    r = f32_to_snorm(fbits(*vals), n)
    got = list(zip(r.bits.tolist(), r.lo.tolist(), r.hi.tolist()))
    assert got == [snorm_oracle(v, n) for v in vals]


@pytest.mark.parametrize("n", [8, 10])
def test_conv_unorm_decode_exhaustive_correctly_rounded(n):
    """CONV-UNORM UNORM -> float: c / (2^n - 1) correctly rounded, every code."""
    d = (1 << n) - 1
    r = unorm_to_f32(np.arange(d + 1), n)
    for c, b in enumerate(r.bits.tolist()):
        assert Fraction(f32val(b)) == (rne_f32(Fraction(c, d)) if c else 0)


def test_conv_unorm_decode_sampled_16():
    """CONV-UNORM for UNORM16 on a deterministic sample of codes."""
    codes = np.unique(np.r_[np.arange(0, 65536, 97), 65535, 1, 2, 3])
    r = unorm_to_f32(codes, 16)
    for c, b in zip(codes.tolist(), r.bits.tolist()):
        assert Fraction(f32val(b)) == (rne_f32(Fraction(c, 65535)) if c else 0)


def test_case8_unorm8_divide_vs_reciprocal_126_codes_differ():
    """docs/rules.md case 8: c/255 correctly rounded vs c*(1/255) in float32: 126 differ;
    code 3 is one of them. The reciprocal result is outside the (exact) window there."""
    c = np.arange(256)
    div = unorm_to_f32(c, 8)
    rec_ref = (c.astype(np.float32) * np.float32(1 / 255)).view(np.uint32)  # numpy, by hand
    rec = unorm_to_f32(c, 8, method="reciprocal")
    np.testing.assert_array_equal(rec.bits, rec_ref)
    differ = div.bits != rec.bits
    assert int(differ.sum()) == 126 and differ[3]
    assert not rec.allowed(rec.bits)[3] and div.allowed(div.bits).all()


def test_conv_snorm_decode_exhaustive_8():
    """CONV-SNORM SNORM8 -> float: -128 and -127 are -1.0, else c/127 correctly rounded."""
    c = np.arange(-128, 128)
    r = snorm_to_f32(c, 8)
    for k, b in zip(c.tolist(), r.bits.tolist()):
        ref = Fraction(-1) if k <= -127 else (
            0 if k == 0 else (1 if k > 0 else -1) * rne_f32(Fraction(abs(k), 127)))
        assert Fraction(f32val(b)) == ref


def mp_srgb_to_linear(c: int) -> mpmath.mpf:
    x = mpmath.mpf(c) / 255
    return x / mpmath.mpf("12.92") if x <= mpmath.mpf("0.04045") else \
        ((x + mpmath.mpf("0.055")) / mpmath.mpf("1.055")) ** mpmath.mpf("2.4")


def mp_linear_to_srgb(v: float) -> mpmath.mpf:
    x = mpmath.mpf(min(max(v, 0.0), 1.0))
    return 12.92 * x if x <= mpmath.mpf("0.0031308") else \
        mpmath.mpf("1.055") * x ** (1 / mpmath.mpf("2.4")) - mpmath.mpf("0.055")


def test_conv_srgb_decode_all_codes_against_mpmath():
    """CONV-SRGB sRGB8 -> linear: nearest float32 to the 50-digit value; 0 and 1 exact;
    window = float32 values whose sRGB image is within half a code."""
    mpmath.mp.dps = 50
    r = srgb8_to_f32(np.arange(256))
    for c in range(256):
        exact = mp_srgb_to_linear(c)
        got = mpmath.mpf(f32val(r.bits[c]))
        f = np.float32(float(exact))
        for g in (np.nextafter(f, np.float32(2)), np.nextafter(f, np.float32(-2))):
            assert abs(got - exact) <= abs(mpmath.mpf(float(g)) - exact)
        lo, hi = f32val(r.lo[c]), f32val(r.hi[c])
        assert lo <= f32val(r.bits[c]) <= hi
        if 0 < c < 255:
            assert abs(mp_linear_to_srgb(lo) * 255 - c) <= 0.5 + 1e-9
            assert abs(mp_linear_to_srgb(hi) * 255 - c) <= 0.5 + 1e-9
    assert r.bits[0] == 0 and r.bits[255] == 0x3F800000


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-0.5, 1.5, width=32), min_size=1, max_size=40))
def test_conv_srgb_encode_against_mpmath(vals):
    """CONV-SRGB linear -> sRGB8: the curve, *255, +0.5, truncate; 0.6 window."""
    mpmath.mp.dps = 40
    r = f32_to_srgb8(fbits(*vals))
    for v, b, lo, hi in zip(vals, r.bits.tolist(), r.lo.tolist(), r.hi.tolist()):
        e = mp_linear_to_srgb(v) * 255
        assert b == int(mpmath.floor(e + mpmath.mpf("0.5")))
        assert lo == max(0, int(mpmath.ceil(e - mpmath.mpf("0.6"))))
        assert hi == min(255, int(mpmath.floor(e + mpmath.mpf("0.6"))))


def test_srgb_round_trip_every_code():
    """CONV-SRGB: decoding then encoding every sRGB8 code gives the code back."""
    c = np.arange(256)
    assert f32_to_srgb8(srgb8_to_f32(c).bits).bits.tolist() == c.tolist()


@pytest.mark.parametrize("call", [
    lambda: f32_to_unorm(fbits(0.5), 0),
    lambda: unorm_to_f32([256], 8),
    lambda: snorm_to_f32([-129], 8),
    lambda: itof([2**31]),
    lambda: utof([-1]),
    lambda: srgb8_to_f32([1.5]),
    lambda: ftoi([1.5]),
    lambda: unorm_to_f32([1], 8, method="guess"),
])
def test_bad_input_value_error(call):
    """Bad input: ValueError with a message."""
    with pytest.raises(ValueError):
        call()
