"""The fast float64 encoder (formats/array_encoding.py behind ``encode_float64``) gives the
integer reference encoder's patterns bit for bit, and both give what independent oracles
give (FMT-F16, FMT-F11, FMT-F10, FMT-F32; CONV-F2F-RTZ / CONV-F2F-SAT through the
"saturate" policy; CONV-UNSIGNED for negative values in f11/f10).

Inputs, exhaustively per small format: every finite value of the format and both its
float64 neighbours, every midpoint between consecutive values (both signs) and its
neighbours, values beyond the largest finite one, float64 denormals, zeros, INF and NaN.
Oracles: a table of every finite value of the format searched with ``np.searchsorted``
(floor, ceiling and the exact midpoint, all exact in float64: written here from the
format's definition, no fpinspector encoder); numpy's float16 / float32 casts for f16 and
f32 to nearest.
"""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model.formats import FORMATS
from fpinspector.model.formats.array_encoding import CHUNK, encode_array
from fpinspector.model.formats.encoding import encode_float64, encode_float64_integer

ROUNDINGS = ("rne", "rtz", "rtp", "rtn")
OVERFLOWS = ("ieee", "inf", "saturate")
SMALL = ("f16", "f11", "f10")


def _values(e_bits: int, f_bits: int) -> np.ndarray:
    """Every finite non-negative value of a format with these field widths, ascending,
    from its definition: (e == 0: f * 2^(1-bias-F); else (2^F + f) * 2^(e-bias-F))."""
    bias = (1 << (e_bits - 1)) - 1
    f = np.arange(1 << f_bits, dtype=np.float64)
    rows = [np.ldexp(f, 1 - bias - f_bits)]
    for e in range(1, (1 << e_bits) - 1):
        rows.append(np.ldexp((1 << f_bits) + f, e - bias - f_bits))
    return np.concatenate(rows)


def _inputs(name: str) -> np.ndarray:
    fmt = FORMATS[name]
    v = _values(fmt.exp_bits, fmt.frac_bits)
    both = np.concatenate([-v[::-1], v])
    mids = (both[:-1] + both[1:]) / 2
    top = v[-1]
    beyond = np.array([top + (top - v[-2]) / 2, 2 * top, 1e300, np.finfo(np.float64).max])
    tiny = np.array([5e-324, 2.2250738585072014e-308, 1e-300, v[1] / 2, v[1] / 4])
    base = np.concatenate([both, mids, beyond, -beyond, tiny, -tiny])
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan,
                        np.uint64(0x7FF0000000000001).view(np.float64),
                        np.uint64(0xFFF8000000000123).view(np.float64)])
    with np.errstate(over="ignore"):  # the neighbour of the largest double is INF
        return np.concatenate([base, np.nextafter(base, np.inf), np.nextafter(base, -np.inf),
                               special])


def _oracle(name: str, x: np.ndarray, rnd: str, ovf: str) -> np.ndarray:
    """Patterns by searching the table of values: the largest value <= |x| (floor), the next
    one (ceiling), the midpoint between them decides nearest-even (even = even pattern)."""
    fmt = FORMATS[name]
    v = _values(fmt.exp_bits, fmt.frac_bits)
    inf_pat = ((1 << fmt.exp_bits) - 1) << fmt.frac_bits
    top = v.size - 1
    a = np.abs(x)
    neg = np.signbit(x)
    lo = np.clip(np.searchsorted(v, a, side="right") - 1, 0, top)  # floor pattern
    exact = v[lo] == a
    hi = np.where(exact, lo, lo + 1)  # ceiling pattern; top + 1 is INF
    hi_val = np.where(hi <= top, v[np.minimum(hi, top)], 2.0 ** (fmt.maxexp))
    mid = (v[lo] + hi_val) / 2
    if rnd == "rne":
        pick = np.where(a < mid, lo, np.where(a > mid, hi, np.where(lo % 2 == 0, lo, hi)))
        pick = np.where(exact, lo, pick)
    elif rnd == "rtz":
        pick = lo
    else:
        up = ~neg if rnd == "rtp" else neg  # away from zero for this sign
        pick = np.where(up, hi, lo)
    if ovf == "saturate":
        to_inf = np.zeros_like(neg)
    elif ovf == "inf":
        to_inf = np.ones_like(neg)
    else:  # IEEE 754 7.4
        to_inf = {"rne": np.ones_like(neg), "rtz": np.zeros_like(neg), "rtp": ~neg,
                  "rtn": neg}[rnd]
    # overflow: the rounding with an unbounded exponent lies beyond the largest finite value
    over = (pick > top) | (a >= 2.0 ** fmt.maxexp)
    pick = np.where(over, np.where(to_inf, top + 1, top), pick)
    pat = np.where(pick > top, inf_pat, pick).astype(np.int64)
    pat = np.where(np.isinf(x), inf_pat, pat)
    sign = 1 << (fmt.bits - 1)
    if fmt.signed:
        pat = np.where(neg, pat | sign, pat)
        pat = np.where(np.isnan(x), fmt.quiet_nan | np.where(neg, sign, 0), pat)
    else:
        pat = np.where(neg, 0, pat)
        pat = np.where(np.isnan(x), fmt.quiet_nan, pat)
    return pat.astype(fmt.dtype)


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("rnd", ROUNDINGS)
@pytest.mark.parametrize("ovf", OVERFLOWS)
def test_every_neighbourhood_equals_the_integer_encoder_and_the_table_oracle(name, rnd, ovf):
    x = _inputs(name)
    fmt = FORMATS[name]
    got = encode_float64(fmt, x, rnd, ovf)
    assert got.dtype == fmt.dtype
    np.testing.assert_array_equal(got, encode_float64_integer(fmt, x, rnd, ovf))
    np.testing.assert_array_equal(got, _oracle(name, x, rnd, ovf))


@pytest.mark.parametrize("rnd", ROUNDINGS)
@pytest.mark.parametrize("ovf", OVERFLOWS)
def test_f32_equals_the_integer_encoder_on_random_doubles_FMT_F32(rnd, ovf):
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 1 << 64, 1 << 18, dtype=np.uint64)
    near = rng.integers(0, 1 << 32, 1 << 18, dtype=np.uint32)
    with np.errstate(all="ignore"):
        x = np.concatenate([bits.view(np.float64), near.view(np.float32).astype(np.float64)])
    with np.errstate(invalid="ignore"):
        x = np.concatenate([x, np.nextafter(x, np.inf), np.nextafter(x, -np.inf)])
    f32 = FORMATS["f32"]
    np.testing.assert_array_equal(encode_float64(f32, x, rnd, ovf),
                                  encode_float64_integer(f32, x, rnd, ovf))


@pytest.mark.parametrize("name, dtype", [("f16", np.float16), ("f32", np.float32)])
def test_nearest_even_is_numpys_cast_FMT_F16(name, dtype):
    """numpy's casts round a double once to nearest even (NaNs aside: ours are canonical)."""
    x = _inputs("f16")
    x = x[~np.isnan(x)]
    with np.errstate(all="ignore"):
        want = x.astype(dtype).view(FORMATS[name].dtype)
    np.testing.assert_array_equal(FORMATS[name].encode(x), want)


@pytest.mark.parametrize("n", [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5])
def test_chunk_edges_lose_nothing(n):
    """Element k's pattern depends on element k alone, whatever the chunking."""
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n) * 3e4
    f11 = FORMATS["f11"]
    whole = encode_array(f11, x, "rtz", "saturate")
    assert whole.shape == (n,)
    np.testing.assert_array_equal(whole, encode_float64_integer(f11, x, "rtz", "saturate"))


def test_shapes_and_scalars_keep_their_form():
    f10 = FORMATS["f10"]
    grid = np.array([[1.0, 2.5], [-3.0, np.nan]])
    out = f10.encode(grid)
    assert out.shape == (2, 2) and out.dtype == np.uint16
    assert out.tolist() == [[0x1E0, 0x208], [0, 0x3F0]]  # 1.0, 2.5 exact; -3 -> 0; NaN
    assert int(f10.encode(np.float64(1.0))) == 0x1E0
