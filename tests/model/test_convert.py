"""convert(): the D3D conversion rules (docs/rules.md CONV-*) against independent oracles.

Oracles: an independent small-float decoder written here from the DEC-* formulas with
Python ints and math.ldexp, numpy.float16 / numpy.float32 casts (IEEE round to nearest
even), and sorted value tables searched for the neighbours of each exact input.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fpinspector.model.convert import VARIANTS, convert

SMALL = {"f16": (5, 10, True), "f11": (5, 6, False), "f10": (5, 5, False)}


def oracle_decode(name: str) -> np.ndarray:
    """Value of every pattern of a small format, from the DEC-* formulas (not the format table)."""
    e_bits, f_bits, signed = SMALL[name]
    n = 1 << (e_bits + f_bits + int(signed))
    out = np.empty(n)
    for p in range(n):
        s = (p >> (e_bits + f_bits)) & 1 if signed else 0
        e = (p >> f_bits) & 31
        f = p & ((1 << f_bits) - 1)
        if e == 31:
            v = math.nan if f else math.inf
        elif e == 0:
            v = math.ldexp(f, -14 - f_bits)
        else:
            v = math.ldexp((1 << f_bits) + f, e - 15 - f_bits)
        out[p] = -v if s else v
    return out


DEC = {k: oracle_decode(k) for k in SMALL}


def positive_table(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Sorted finite non-negative values and their patterns."""
    vals = DEC[name]
    pats = np.arange(vals.size)
    keep = np.isfinite(vals) & (vals >= 0) & ~np.signbit(vals)
    return vals[keep], pats[keep]


def oracle_encode(x: np.ndarray, name: str, rounding: str, overflow: str) -> np.ndarray:
    """Independent encoder: neighbours by search in the value table, then the rule."""
    _, f_bits, signed = SMALL[name]
    vals, pats = positive_table(name)
    a = np.abs(x)
    i = np.clip(np.searchsorted(vals, a, side="right") - 1, 0, vals.size - 1)  # lo <= a
    lo_v, lo_p = vals[i], pats[i]
    hi_i = np.minimum(i + 1, vals.size - 1)
    hi_v, hi_p = vals[hi_i], pats[hi_i]
    if rounding == "rtz":
        res = lo_p
    else:
        mid = (lo_v + hi_v) / 2
        up = (a > mid) | ((a == mid) & (lo_p % 2 == 1))
        res = np.where(up & (a != lo_v), hi_p, lo_p)
    top = vals[-1]
    inf_p = 31 << f_bits
    if rounding == "rtz":
        over = a > top
    else:
        over = a >= top + (top - vals[-2]) / 2
    res = np.where(over, inf_p if overflow == "inf" else pats[-1], res)
    res = np.where(np.isinf(x), inf_p, res)
    if signed:
        res = np.where(np.signbit(x), res | 0x8000, res)
    else:
        res = np.where(np.signbit(x), 0, res)
    return res


def f32(*vals) -> np.ndarray:
    return np.array(vals, np.float32).view(np.uint32)


def boundary_f32_inputs() -> np.ndarray:
    """Every f16 value widened to f32, +-1 ULP, the midpoints to the next f16 value +-1 ULP."""
    v = DEC["f16"][np.isfinite(DEC["f16"])]
    w = v.astype(np.float32).view(np.uint32)
    nxt = np.nextafter(v, np.inf)  # a float64 nudge is fine: we only need inputs nearby
    mids = ((v + np.append(v[1:], v[-1])) / 2).astype(np.float32).view(np.uint32)
    cand = np.concatenate([w, w + 1, w - 1, mids, mids + 1, mids - 1,
                           nxt.astype(np.float32).view(np.uint32)])
    return np.unique(cand.astype(np.uint32))


@pytest.mark.parametrize("dst", ["f16", "f11", "f10"])
def test_conv_f2f_rtz_and_sat_f32_structured(dst):
    """CONV-F2F-RTZ + CONV-F2F-SAT + CONV-UNSIGNED: d3d f32 -> small equals the RTZ oracle."""
    u = boundary_f32_inputs()
    x = u.view(np.float32).astype(np.float64)
    ok = ~np.isnan(x)
    got = convert(u[ok], "f32", dst).bits.astype(np.int64)
    np.testing.assert_array_equal(got, oracle_encode(x[ok], dst, "rtz", "saturate"))


@pytest.mark.parametrize("dst", ["f16", "f11", "f10"])
def test_ieee_variant_matches_rne_oracle_structured(dst):
    """ieee variant: round to nearest even, overflow to INF (the textbook encoder)."""
    u = boundary_f32_inputs()
    x = u.view(np.float32).astype(np.float64)
    ok = ~np.isnan(x)
    got = convert(u[ok], "f32", dst, "ieee").bits.astype(np.int64)
    np.testing.assert_array_equal(got, oracle_encode(x[ok], dst, "rne", "inf"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=200))
def test_ieee_f16_matches_numpy_float16_random(pats):
    """ieee variant f32 -> f16 equals numpy's float16 cast bit for bit (NaN: is NaN)."""
    u = np.array(pats, np.uint32)
    got = convert(u, "f32", "f16", "ieee").bits
    with np.errstate(over="ignore", invalid="ignore"):
        ref = u.view(np.float32).astype(np.float16).view(np.uint16)
    nan = np.isnan(u.view(np.float32))
    np.testing.assert_array_equal(got[~nan], ref[~nan])
    assert np.isnan(got[nan].view(np.float16)).all()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=200),
       st.sampled_from(["f16", "f11", "f10"]))
def test_conv_f2f_rtz_random_f32(pats, dst):
    """CONV-F2F-RTZ on random f32 patterns (any exponent), d3d vs the RTZ oracle."""
    u = np.array(pats, np.uint32)
    with np.errstate(invalid="ignore"):  # (a signaling NaN pattern warns on the cast)
        x = u.view(np.float32).astype(np.float64)
    ok = ~np.isnan(x)
    got = convert(u[ok], "f32", dst).bits.astype(np.int64)
    np.testing.assert_array_equal(got, oracle_encode(x[ok], dst, "rtz", "saturate"))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(allow_nan=False, width=64), min_size=1, max_size=100),
       st.sampled_from(["f16", "f11", "f10"]))
def test_conv_f2f_rtz_from_f64_single_rounding(vals, dst):
    """CONV-F2F-RTZ from f64: one rounding of the exact value (no detour through f32)."""
    x = np.array(vals, np.float64)
    got = convert(x.view(np.uint64), "f64", dst).bits.astype(np.int64)
    np.testing.assert_array_equal(got, oracle_encode(x, dst, "rtz", "saturate"))
    got_rne = convert(x.view(np.uint64), "f64", dst, "ieee").bits.astype(np.int64)
    np.testing.assert_array_equal(got_rne, oracle_encode(x, dst, "rne", "inf"))


def test_conv_f2f_rtz_f64_no_double_rounding():
    """CONV-F2F-RTZ: f64 just below an f16 value + half ULP must not round up via f32."""
    x = np.array([1 + 2**-11 - 2**-40], np.float64)  # f32 would round it to 1 + 2^-11
    assert int(convert(x.view(np.uint64), "f64", "f16", "ieee").bits[0]) == 0x3C00


@pytest.mark.parametrize("src", ["f16", "f11", "f10"])
@pytest.mark.parametrize("dst", ["f32", "f64"])
def test_conv_widen_exhaustive(src, dst):
    """CONV-WIDEN: every f16/f11/f10 pattern widens exactly (f16 denormals become normal)."""
    pats = np.arange(DEC[src].size)
    r = convert(pats, src, dst)
    with np.errstate(invalid="ignore"):
        got = r.bits.view(np.float32 if dst == "f32" else np.float64).astype(np.float64)
    ref = DEC[src]
    nan = np.isnan(ref)
    np.testing.assert_array_equal(got[~nan], ref[~nan])
    np.testing.assert_array_equal(np.signbit(got[~nan]), np.signbit(ref[~nan]))
    assert np.isnan(got[nan]).all()  # CONV-NAN
    assert r.fired["CONV-WIDEN"][~nan].all()
    assert r.fired["CONV-NAN"][nan].all()


@pytest.mark.parametrize("src,dst", [("f10", "f11"), ("f10", "f16"), ("f11", "f16")])
def test_conv_widen_between_small_formats_exhaustive(src, dst):
    """CONV-WIDEN: f10 -> f11, f10/f11 -> f16 are exact for every pattern."""
    pats = np.arange(DEC[src].size)
    got = DEC[dst][convert(pats, src, dst).bits.astype(np.int64)]
    ref = DEC[src]
    nan = np.isnan(ref)
    np.testing.assert_array_equal(got[~nan], ref[~nan])
    assert np.isnan(got[nan]).all()


@pytest.mark.parametrize("src,dst", [("f16", "f11"), ("f16", "f10"), ("f11", "f10")])
@pytest.mark.parametrize("variant", ["d3d", "ieee"])
def test_narrowing_between_small_formats_exhaustive(src, dst, variant):
    """CONV-F2F-RTZ / CONV-UNSIGNED for every f16/f11 pattern into f11/f10."""
    x = DEC[src]
    ok = ~np.isnan(x)
    got = convert(np.arange(x.size)[ok], src, dst, variant).bits.astype(np.int64)
    rnd, ovf = ("rtz", "saturate") if variant == "d3d" else ("rne", "inf")
    np.testing.assert_array_equal(got, oracle_encode(x[ok], dst, rnd, ovf))


@pytest.mark.parametrize("name", ["f16", "f11", "f10"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_round_trip_small_f32_small_exhaustive(name, variant):
    """CONV-WIDEN then narrowing: small -> f32 -> small is the identity for every non-NaN
    pattern, in every variant; except the documented Mesa quirk (old float10: no denormal
    branch) and -0 into unsigned formats, which cannot occur."""
    x = DEC[name]
    pats = np.arange(x.size)
    ok = ~np.isnan(x)
    wide = convert(pats[ok], name, "f32", variant).bits
    back = convert(wide, "f32", name, variant).bits.astype(np.int64)
    expect = pats[ok]
    if variant == "mesa_rtz" and name == "f10":
        den = (expect >> 5) == 0
        assert (back[den] == 0).all()  # older format_r11g11b10f.h: float10 denormals -> 0
        expect = np.where(den, 0, expect)
    np.testing.assert_array_equal(back, expect)


def test_conv_nan_and_inf_rules():
    """CONV-NAN: NaN -> NaN (any bits); CONV-INF: +/-INF kept in f16, +INF kept in f11/f10."""
    u = f32(np.nan, -np.nan, np.inf, -np.inf)
    h = convert(u, "f32", "f16")
    assert np.isnan(h.bits[:2].view(np.float16)).all()
    assert h.bits[2] == 0x7C00 and h.bits[3] == 0xFC00
    assert h.fired["CONV-NAN"].tolist() == [True, True, False, False]
    assert h.fired["CONV-INF"].tolist() == [False, False, True, True]
    for dst, inf in (("f11", 0x7C0), ("f10", 0x3E0)):
        r = convert(u, "f32", dst)
        assert (r.bits[:2] > inf).all() and r.bits[2] == inf and r.bits[3] == 0


def test_conv_unsigned_and_f11_clamp():
    """CONV-UNSIGNED: negatives, -0 included, -> 0 in f11/f10; F11-CLAMP fires for < 0."""
    u = f32(-0.0, -1.5, -1e-30, -np.inf, 2.0)
    r = convert(u, "f32", "f11")
    assert r.bits.tolist() == [0, 0, 0, 0, 0x400]
    assert r.fired["CONV-UNSIGNED"].tolist() == [True, True, True, True, False]
    assert r.fired["F11-CLAMP"].tolist() == [False, True, True, True, False]
    assert "CONV-UNSIGNED" in r.rules_at(0) and "F11-CLAMP" in r.rules_at(3)


def test_conv_unsigned_neg_inf_option():
    """CONV-UNSIGNED AMBIGUOUS -INF: default 0, option neg_inf_to_unsigned='inf' keeps INF."""
    u = f32(-np.inf)
    assert int(convert(u, "f32", "f10").bits[0]) == 0
    assert int(convert(u, "f32", "f10", options={"neg_inf_to_unsigned": "inf"}).bits[0]) == 0x3E0
    x = np.array([-np.inf]).view(np.uint64)
    assert int(convert(x, "f64", "f11", options={"neg_inf_to_unsigned": "inf"}).bits[0]) == 0x7C0


def test_conv_denorm_kept_in_f16_and_f11():
    """CONV-DENORM: f16/f11 denormals are produced (not flushed); fired names them."""
    u = f32(2.0**-24, 3 * 2.0**-20, 2.0**-25)
    r = convert(u, "f32", "f16")
    assert r.bits.tolist() == [1, 48, 0]
    assert r.fired["CONV-DENORM"].all()
    assert convert(f32(2.0**-20), "f32", "f11").bits[0] == 1


def test_conv_dtof_round_nearest_even_and_denorm_flush():
    """CONV-DTOF: f64 -> f32 RNE (ties to even) vs numpy; F32-FTZ/CONV-DENORM flush results
    below 2^-126 by default, option f32_denorms='keep' keeps them; CONV-F2F-SAT."""
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.standard_normal(1000) * 10.0 ** rng.integers(-30, 30, 1000),
                        [1 + 2**-24, 1 + 3 * 2**-24, 2.0**-130, -(2.0**-140), 1e300]])
    r = convert(x.view(np.uint64), "f64", "f32")
    with np.errstate(over="ignore"):
        ref = x.astype(np.float32)
    small = np.abs(ref) < 2.0**-126
    big = np.abs(x) > 3.4028234663852886e38
    ok = ~small & ~big
    np.testing.assert_array_equal(r.bits[ok], ref[ok].view(np.uint32))
    assert (r.bits[small] & 0x7FFFFFFF == 0).all()
    assert r.bits[-1] == 0x7F7FFFFF and r.fired["CONV-F2F-SAT"][-1]
    assert r.fired["CONV-DTOF"][-5] and r.bits[-5] == 0x3F800000  # tie -> even
    assert r.fired["F32-FTZ"][-3]
    keep = convert(x.view(np.uint64), "f64", "f32", options={"f32_denorms": "keep"})
    assert keep.bits[-3] == np.float32(2.0**-130).view(np.uint32)


def test_f32_ftz_on_input_to_f64():
    """F32-FTZ: a float32 denormal converted to f64 is flushed (default) or kept (option)."""
    u = np.array([1, 0x80000001], np.uint32)
    r = convert(u, "f32", "f64")
    assert r.bits.view(np.float64).tolist() == [0.0, -0.0]
    assert r.fired["F32-FTZ"].all()
    kept = convert(u, "f32", "f64", options={"f32_denorms": "keep"}).bits.view(np.float64)
    assert kept[0] == 2.0**-149


def test_scalar_in_scalar_out_and_shapes():
    """Scalars give numpy scalars; shapes are kept; fired masks share the shape."""
    r = convert(0x3C00, "f16", "f32")
    assert np.ndim(r.bits) == 0 and int(r.bits) == 0x3F800000
    m = convert(np.zeros((2, 3), np.uint32), "f32", "f16")
    assert m.bits.shape == (2, 3) and m.bits.dtype == np.uint16
    assert m.rules_at((1, 2)) == []


@pytest.mark.parametrize("kwargs,msg", [
    (dict(bits=1, src="f99", dst="f16"), "unknown format"),
    (dict(bits=1, src="f32", dst="f16", variant="nvidia"), "unknown conversion variant"),
    (dict(bits=0x1FFFF, src="f16", dst="f32"), "wider than 16 bits"),
    (dict(bits=1.5, src="f16", dst="f32"), "must be integers"),
    (dict(bits=1, src="f32", dst="f16", options={"x": "y"}), "unknown conversion option"),
    (dict(bits=1, src="f32", dst="f11", variant="mesa",
          options={"neg_inf_to_unsigned": "inf"}), "fixed -INF"),
])
def test_bad_input_raises_clear_value_error(kwargs, msg):
    """Bad input: a ValueError with a readable message, never a traceback from numpy."""
    with pytest.raises(ValueError, match=msg):
        convert(**kwargs)


def test_explain_names_rule_ids_and_values():
    """explain_at: plain sentences naming the rule IDs and the element's values."""
    r = convert(f32(1 + 3 * 2**-11, 1e6), "f32", "f16")
    text = " ".join(r.explain_at(0))
    assert "CONV-F2F-RTZ" in text and "1.00146484375" in text and "0x3C01" in text
    assert any("CONV-F2F-SAT" in s and "65504.0" in s for s in r.explain_at(1))
    with pytest.raises(ValueError):
        r.explain_at(5)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(width=64), min_size=1, max_size=200))
def test_f16_encode_fast_path_matches_rne_oracle(vals):
    """formats.encode_float64 f16 fast path (numpy cast): nearest even from the exact
    float64, overflow to INF, NaN -> canonical quiet NaN with sign (as the generic path)."""
    from fpinspector.model.formats import F16, encode_float64

    x = np.array(vals + [1 + 2**-11 + 2**-40, 2**-25, 2**-25 + 2**-70, 65520.0, -0.0],
                 np.float64)
    got = encode_float64(F16, x, "rne", "ieee").astype(np.int64)
    nan = np.isnan(x)
    np.testing.assert_array_equal(got[~nan], oracle_encode(x[~nan], "f16", "rne", "inf"))
    assert ((got[nan] & 0x7FFF) == 0x7E00).all()


def test_conv_f16_instr_f32tof16_follows_conversion_rules():
    """CONV-F16-INSTR: f32tof16 follows the conversion rules (here: the engine's op gives
    the d3d convert() result) and the 32-bit result register has its top 16 bits zero."""
    from fpinspector.model import evaluate

    u = boundary_f32_inputs()[::37]
    ev = evaluate("f32tof16", u, format="f32")
    ref = convert(u, "f32", "f16").bits
    got = np.asarray(ev.bits).astype(np.uint64)
    nan = np.isnan(u.view(np.float32))
    np.testing.assert_array_equal(got[~nan], ref[~nan])
    assert (got >> np.uint64(16) == 0).all()
