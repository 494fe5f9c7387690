"""FloatFormat decode/classify/fields/neighbours/encode against independent oracles.

Oracles: numpy float16 (exhaustive f16), docs/rules.md DEC-* formulas with fractions.Fraction
(exhaustive f11/f10), struct and Python float (f32/f64 samples), and a "pick a neighbour"
rounding oracle that only compares exact Fractions (candidates from sorted tables, struct
or math.nextafter). Rule IDs: FMT-F64/F32/F16/F11/F10, DEC-NAN/INF/NORMAL/DENORM/ZERO.
"""

from __future__ import annotations

import bisect
import math
import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fpinspector.model.formats import CLASS_NAMES, F10, F11, F16, F32, F64, FORMATS

SMALL = [f for f in FORMATS.values() if f.bits <= 16]  # F16, F11, F10, and the others
ROUNDINGS = ["rne", "rtz", "rtp", "rtn"]


def dec_rule_value(p: int, exp_bits: int, frac_bits: int, signed: bool):
    """docs/rules.md DEC-* literally: returns (class, Fraction or None)."""
    F = frac_bits
    s = (p >> (exp_bits + F)) & 1 if signed else 0
    e = (p >> F) & ((1 << exp_bits) - 1)
    f = p & ((1 << F) - 1)
    emax = (1 << exp_bits) - 1
    bias = (1 << (exp_bits - 1)) - 1
    sign = -1 if s else 1
    if e == emax:
        return ("nan", None) if f else ("infinity", sign)
    if e == 0:
        if f == 0:
            return "zero", Fraction(0)
        return "denormal", sign * Fraction(2) ** (1 - bias) * Fraction(f, 1 << F)
    return "normal", sign * Fraction(2) ** (e - bias) * (1 + Fraction(f, 1 << F))


# --------------------------------------------------------------------------------------
# exhaustive small formats


def test_f16_decode_exhaustive_matches_numpy_FMT_F16_DEC():
    """FMT-F16, DEC-*: every f16 pattern decodes to numpy's float16 value, NaNs included."""
    p = np.arange(1 << 16, dtype=np.uint16)
    ref = p.view(np.float16).astype(np.float64)
    got = F16.decode(p)
    assert got.dtype == np.float64
    assert np.array_equal(np.isnan(got), np.isnan(ref))
    ok = ~np.isnan(ref)
    assert np.array_equal(got[ok].view(np.uint64), ref[ok].view(np.uint64))  # -0 kept


def test_f16_classify_exhaustive_matches_numpy_DEC_rules():
    """DEC-NAN/INF/ZERO/DENORM/NORMAL for f16 from numpy's float16 predicates."""
    p = np.arange(1 << 16, dtype=np.uint16)
    v = p.view(np.float16)
    tiny = np.finfo(np.float16).smallest_normal
    ref = np.full(p.shape, "normal", dtype="<U8")
    ref[v == 0] = "zero"
    ref[(v != 0) & (np.abs(v) < tiny)] = "denormal"
    ref[np.isinf(v)] = "infinity"
    ref[np.isnan(v)] = "nan"
    assert np.array_equal(F16.classify(p), ref)
    assert np.array_equal(np.asarray(CLASS_NAMES)[F16.class_codes(p)], ref)
    assert np.array_equal(F16.is_nan(p), np.isnan(v))
    assert np.array_equal(F16.is_denormal(p), ref == "denormal")


@pytest.mark.parametrize("fmt", [F32, F64], ids=lambda f: f.name)
def test_is_nan_of_wide_formats_matches_the_fields_DEC_NAN(fmt):
    """DEC-NAN for f32/f64 (numpy's isnan on the patterns' own type) against the field
    definition in Python integers: quiet and signalling NaNs of both signs, INF, the
    largest finite values, zeros and random patterns; quietly under errstate raise."""
    rng = np.random.default_rng(5)
    inf, sm = fmt.pos_inf, fmt.sign_mask
    edge = [0, 1, inf - 1, inf, inf + 1, inf | (fmt.frac_mask >> 1), inf | fmt.frac_mask,
            fmt.quiet_nan]
    edge += [p | sm for p in edge]
    rand = rng.integers(0, 1 << min(fmt.bits, 63), 4000, dtype=np.uint64) << np.uint64(
        fmt.bits - min(fmt.bits, 63))
    pats = np.concatenate([np.array(edge, dtype=np.uint64), rand,
                           rand | np.uint64(inf)]).astype(fmt.dtype)
    with np.errstate(all="raise"):
        got = fmt.is_nan(pats)
    want = [((int(p) >> fmt.frac_bits) & fmt.exp_max) == fmt.exp_max
            and int(p) & fmt.frac_mask != 0 for p in pats]
    assert got.tolist() == want
    assert sum(want) > 1000


@pytest.mark.parametrize("fmt", [f for f in SMALL if f.has_inf], ids=lambda f: f.name)
def test_small_decode_classify_exhaustive_DEC_formulas(fmt):
    """DEC-* formulas with Fraction for every f16/f11/f10 pattern (FMT-F16/F11/F10)."""
    p = np.arange(1 << fmt.bits)
    got = fmt.decode(p)
    cls = fmt.classify(p)
    for i in range(1 << fmt.bits):
        c, v = dec_rule_value(i, fmt.exp_bits, fmt.frac_bits, fmt.signed)
        assert cls[i] == c, hex(i)
        if c == "nan":
            assert math.isnan(got[i]) and math.isnan(float(fmt.exact_value(i)))
        elif c == "infinity":
            assert got[i] == v * math.inf and fmt.exact_value(i) == v * math.inf
        else:
            assert Fraction(float(got[i])) == v, hex(i)
            assert fmt.exact_value(i) == v, hex(i)
            if c == "zero" and fmt.signed:
                assert math.copysign(1.0, got[i]) == (-1.0 if i >> (fmt.bits - 1) else 1.0)


@pytest.mark.parametrize("fmt", list(FORMATS.values()), ids=lambda f: f.name)
def test_fields_and_compose_FMT_layout(fmt):
    """FMT-*: sign | exponent | fraction from the top bit down; compose inverts fields."""
    rng = np.random.default_rng(1)
    if fmt.bits <= 16:
        p = np.arange(1 << fmt.bits, dtype=np.uint64)
    else:
        p = rng.integers(0, 1 << 63, 20000, dtype=np.uint64, endpoint=False)
        p = (p << np.uint64(1) | (p & np.uint64(1))) & np.uint64(fmt.mask)
    s, e, f = fmt.fields(p)
    for i in range(0, p.size, max(1, p.size // 3000)):  # integer oracle, Python ints
        b = int(p[i])
        assert int(f[i]) == b % (1 << fmt.frac_bits)
        assert int(e[i]) == (b >> fmt.frac_bits) % (1 << fmt.exp_bits)
        assert int(s[i]) == ((b >> (fmt.bits - 1)) if fmt.signed else 0)
    assert np.array_equal(fmt.compose(s, e, f).astype(np.uint64), p)
    assert fmt.bits == int(fmt.signed) + fmt.exp_bits + fmt.frac_bits


def test_layout_table_matches_rules_md_FMT_rows():
    """FMT-F64/F32/F16/F11/F10 rows of docs/rules.md: sign, exponent bits (bias), fraction bits."""
    rows = {"f64": (True, 11, 1023, 52), "f32": (True, 8, 127, 23), "f16": (True, 5, 15, 10),
            "f11": (False, 5, 15, 6), "f10": (False, 5, 15, 5)}
    for name, (signed, eb, bias, fb) in rows.items():
        f = FORMATS[name]
        assert (f.signed, f.exp_bits, f.bias, f.frac_bits) == (signed, eb, bias, fb)
    for t, f in ((np.float16, F16), (np.float32, F32), (np.float64, F64)):
        fi = np.finfo(t)
        assert f.max == float(fi.max) and f.eps == float(fi.eps)
        assert f.smallest_normal == float(fi.smallest_normal)
        assert f.smallest_subnormal == float(fi.smallest_subnormal)


# --------------------------------------------------------------------------------------
# f32 / f64 against struct and Python float


def _f32_sample() -> np.ndarray:
    rng = np.random.default_rng(7)
    exps = np.arange(256, dtype=np.uint32) << np.uint32(23)
    fr = np.array([0, 1, 2, 0x400000, 0x7FFFFE, 0x7FFFFF, 0x123456], dtype=np.uint32)
    structured = (exps[:, None] | fr[None, :]).reshape(-1)
    structured = np.concatenate([structured, structured | np.uint32(0x80000000)])
    return np.concatenate([structured, rng.integers(0, 1 << 32, 20000, dtype=np.uint32)])


def test_f32_decode_classify_vs_struct_FMT_F32():
    """FMT-F32, DEC-*: struct.unpack('<f') is the oracle for structured and random patterns."""
    p = _f32_sample()
    got = F32.decode(p)
    cls = F32.classify(p)
    for i in range(p.size):
        ref = struct.unpack("<f", struct.pack("<I", int(p[i])))[0]
        if math.isnan(ref):
            assert math.isnan(got[i]) and cls[i] == "nan"
            continue
        assert struct.pack("<d", got[i]) == struct.pack("<d", ref)
        expect = ("infinity" if math.isinf(ref) else "zero" if ref == 0 else
                  "denormal" if abs(ref) < 2.0**-126 else "normal")
        assert cls[i] == expect


def test_f64_decode_vs_python_float_FMT_F64():
    """FMT-F64: decode is the float64 the bits spell (struct '<d'), exact_value its Fraction."""
    rng = np.random.default_rng(8)
    p = rng.integers(0, 1 << 63, 5000, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    p = np.concatenate([p, np.array([0, 1, 0x7FF0000000000000, 0x8000000000000000,
                                     0x7FEFFFFFFFFFFFFF, 0x0010000000000000], dtype=np.uint64)])
    got = F64.decode(p)
    for i in range(p.size):
        ref = struct.unpack("<d", struct.pack("<Q", int(p[i])))[0]
        if math.isnan(ref):
            assert math.isnan(got[i])
            continue
        assert struct.pack("<d", got[i]) == struct.pack("<d", ref)
        if math.isfinite(ref):
            assert F64.exact_value(int(p[i])) == Fraction(ref)


# --------------------------------------------------------------------------------------
# neighbours


def test_f16_next_up_down_ulp_exhaustive_vs_numpy():
    """next_up/next_down agree with numpy.nextafter on float16; ulp with numpy.spacing."""
    p = np.arange(1 << 16, dtype=np.uint16)
    v = p.view(np.float16)
    with np.errstate(over="ignore"):
        up = np.nextafter(v, np.float16(np.inf))
        dn = np.nextafter(v, np.float16(-np.inf))
    fin = ~np.isnan(v)
    got_up = F16.next_up(p).view(np.float16)
    got_dn = F16.next_down(p).view(np.float16)
    # numpy: nextafter(+inf, +inf) = +inf, and for zero the sign of the result may differ
    assert np.array_equal(got_up[fin].astype(np.float64), up[fin].astype(np.float64))
    assert np.array_equal(got_dn[fin].astype(np.float64), dn[fin].astype(np.float64))
    assert np.array_equal(F16.next_up(p)[~fin], p[~fin])
    pos = fin & ~np.isinf(v) & (v >= 0) & (p != F16.max_finite_bits)
    assert np.array_equal(F16.ulp(p)[pos], np.spacing(v[pos]).astype(np.float64))
    # numpy says spacing(65504) = inf; the model keeps the top binade's spacing (documented)
    assert float(F16.ulp(F16.max_finite_bits)) == 32.0 == float(F16.ulp(F16.pos_inf))


# --------------------------------------------------------------------------------------
# encoding: a neighbour-picking oracle over exact Fractions


def _small_table(fmt):
    """Sorted non-negative finite values of a small format and their patterns."""
    pos = [(fmt.exact_value(i), i) for i in range(fmt.pos_inf)]
    pos.sort()
    return [v for v, _ in pos], [i for _, i in pos]


_TABLES = {f.name: _small_table(f) for f in SMALL}


def _candidates(fmt, a: Fraction) -> tuple[tuple[Fraction, int], tuple[Fraction, int]]:
    """(value, pattern) of the representable magnitudes just below/above a (>= 0); above the
    top, the 'next' candidate is 2^(emax+1) standing for INF (its pattern is even)."""
    mx = Fraction(fmt.exact_value(fmt.max_finite_bits))
    top = 2 * mx - Fraction(fmt.exact_value(fmt.max_finite_bits - 1))  # one step past the max
    if a > mx:  # overflow region: IEEE 754 §7.4 picks between max finite and INF
        return (mx, fmt.max_finite_bits), (top, fmt.pos_inf)
    if fmt.name in _TABLES:
        vals, pats = _TABLES[fmt.name]
        k = bisect.bisect_left(vals, a)
        if vals[k] == a:
            return (a, pats[k]), (a, pats[k])
        return (vals[k - 1], pats[k - 1]), (vals[k], pats[k])
    if fmt is F32:
        try:
            p0 = struct.unpack("<I", struct.pack("<f", float(a)))[0]
        except OverflowError:
            p0 = F32.max_finite_bits
        near = [p for p in (p0 - 1, p0, p0 + 1) if 0 <= p <= F32.pos_inf]
    else:  # f64: float(Fraction) is correctly rounded; neighbours by math.nextafter
        x = float(a)
        near_f = [math.nextafter(x, -math.inf), x, math.nextafter(x, math.inf)]
        near = [struct.unpack("<Q", struct.pack("<d", y))[0] for y in near_f if y >= 0]
    vals = [(top if p == fmt.pos_inf else Fraction(fmt.exact_value(p)), p) for p in near]
    lo = max(c for c in vals if c[0] <= a)
    hi = min(c for c in vals if c[0] >= a)
    return lo, hi


def oracle_encode(fmt, q: Fraction, neg: bool, rnd: str) -> int:
    """IEEE 754 rounding of sign*q, picked by comparing exact distances."""
    if neg and not fmt.signed:
        return 0
    (lv, lp), (hv, hp) = _candidates(fmt, q)
    if lv == hv:
        pat = lp
    elif rnd == "rtz":
        pat = lp
    elif rnd == ("rtn" if neg else "rtp"):
        pat = hp
    elif rnd in ("rtn", "rtp"):
        pat = lp
    else:
        dl, dh = q - lv, hv - q
        pat = lp if dl < dh else hp if dh < dl else (lp if lp % 2 == 0 else hp)
    return (fmt.sign_mask if neg else 0) | pat


def _near_value(fmt, data) -> Fraction:
    """A value near a random representable one: exact ties, quarters and far offsets."""
    p = data.draw(st.integers(0, fmt.pos_inf - 1))
    base = Fraction(fmt.exact_value(p))
    ulp = Fraction(float(fmt.ulp(p)))
    k = data.draw(st.sampled_from([0, 1, 2, 3, -1, -2, 5, 7, 1000]))
    return abs(base + ulp * k / 4)


@pytest.mark.parametrize("fmt", list(FORMATS.values()), ids=lambda f: f.name)
@pytest.mark.parametrize("rnd", ROUNDINGS)
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_encode_exact_rounds_once_like_oracle(fmt, rnd, data):
    """encode of an exact Fraction rounds once in every mode, ties to even (FMT-*)."""
    q = _near_value(fmt, data)
    neg = data.draw(st.booleans())
    got = fmt.encode(-q if neg else q, rounding=rnd)
    want = oracle_encode(fmt, q, neg and q != 0, rnd)
    if q == 0:
        want = 0  # a Fraction has no -0: the encoder gets +0
    assert int(got) == want, (fmt.name, rnd, q, neg)


@pytest.mark.parametrize("fmt", [F32, F16, F11, F10], ids=lambda f: f.name)
@pytest.mark.parametrize("rnd", ROUNDINGS)
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_encode_float64_array_matches_oracle(fmt, rnd, data):
    """Vectorized encode of float64 arrays (including far out-of-range values) vs oracle."""
    xs = [float(_near_value(fmt, data)) * data.draw(st.sampled_from([1, -1])) for _ in range(4)]
    xs += data.draw(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=4))
    got = fmt.encode(np.array(xs), rounding=rnd)
    for x, g in zip(xs, np.atleast_1d(got)):
        neg = math.copysign(1.0, x) < 0
        want = oracle_encode(fmt, abs(Fraction(x)), neg, rnd)
        if x == 0 and not fmt.signed:
            want = 0
        assert int(g) == want, (fmt.name, rnd, x)


@pytest.mark.parametrize("fmt", list(FORMATS.values()), ids=lambda f: f.name)
def test_encode_decode_round_trip_every_class(fmt):
    """decode then encode (RNE) gives the pattern back for every non-NaN pattern (sample)."""
    if fmt.bits <= 16:
        p = np.arange(1 << fmt.bits, dtype=np.uint64)
    else:
        p = _f32_sample().astype(np.uint64) if fmt is F32 else np.random.default_rng(3).integers(
            0, 1 << 63, 20000, dtype=np.uint64)
    p = p[~fmt.is_nan(p)]
    assert np.array_equal(fmt.encode(fmt.decode(p)).astype(np.uint64), p)
    nan = fmt.encode(np.array([np.nan]))
    assert bool(fmt.is_nan(nan)[0])


@pytest.mark.parametrize("rnd", ROUNDINGS)
def test_encode_f64_any_rounding_is_the_float64_pattern(rnd):
    """FMT-F64: every float64 is exact in f64, so every rounding returns its struct pattern."""
    xs = [-1.5, 2.0, -0.0, 0.0, 5e-324, -5e-324, 1.7976931348623157e308, -math.inf]
    got = F64.encode(np.array(xs), rounding=rnd)
    want = [struct.unpack("<Q", struct.pack("<d", x))[0] for x in xs]
    assert [int(g) for g in got] == want


@pytest.mark.parametrize("fmt", list(FORMATS.values()), ids=lambda f: f.name)
def test_is_normal_matches_classify_DEC_NORMAL(fmt):
    """The engine's three-pass normal test (engine/grid.is_normal) against classify:
    every pattern of the small formats, the class edges and random patterns of f32/f64,
    both signs."""
    from fpinspector.model.engine.grid import is_normal

    if fmt.bits <= 16:
        pats = np.arange(1 << fmt.bits).astype(fmt.dtype)
    else:
        rng = np.random.default_rng(11)
        inf, sm = fmt.pos_inf, fmt.sign_mask
        edge = [0, 1, fmt.frac_mask, fmt.frac_mask + 1, fmt.max_finite_bits, inf, inf + 1,
                fmt.mask >> 1]
        edge += [p | sm for p in edge]
        rand = rng.integers(0, fmt.mask, 20000, dtype=np.uint64, endpoint=True)
        pats = np.concatenate([np.array(edge, dtype=np.uint64), rand]).astype(fmt.dtype)
    want = fmt.classify(pats) == "normal"
    np.testing.assert_array_equal(is_normal(pats, fmt), want)
    assert want.any() and not want.all()


@pytest.mark.parametrize("name", list(FORMATS))
def test_one_python_int_is_read_as_the_same_pattern_or_refused_the_same_way(name) -> None:
    """``as_bits`` of a Python int (its own short path) against the same int in an array:
    the same 0-d pattern of the storage dtype, or the same error."""
    f = FORMATS[name]

    def read(x):
        try:
            r = f.as_bits(x)
        except (ValueError, TypeError) as exc:
            return type(exc), str(exc)
        return r.dtype, r.shape, int(r)

    for b in (0, 1, f.mask >> 1, f.mask, f.mask + 1, -1, 2 ** 63, 2 ** 64 - 1):
        assert read(b) == read(np.asarray(b)), hex(b)
    assert read(True) == read(np.asarray(True))  # (a bool is no Python int here)
