"""Fast grid primitives (xor keys, two-pass denormal test, bit-built ULP) equal the generic
ones bit for bit: every f16 pattern, f32/f64 special values and random patterns.

Why these matter: every window (F32-PREC, F32-SQRT-RCP, F32-INSTR, F16-PREC) is a pair of
keys, every F32-FTZ flush a denormal test and every ulp_error an ulp_at; the fast versions
must not move a single verdict. Also checks the keys against an independent oracle (value
order from numpy's decoder).
"""

from __future__ import annotations

import numpy as np
import pytest
from _engine_oracle import F32_SPECIALS

from fpinspector.model import FORMATS, get_format
from fpinspector.model.engine import grid
from fpinspector.model.engine.ulp import ulp_at_one

RNG = np.random.default_rng(20261122)


def _patterns(name: str) -> np.ndarray:
    f = get_format(name)
    if name == "f16":
        return np.arange(1 << 16, dtype=np.uint16)
    info = np.iinfo(f.dtype)
    rand = RNG.integers(0, info.max, 1 << 16, dtype=f.dtype, endpoint=True)
    sm = f.sign_mask
    edges = [0, 1, sm, sm | 1, f.pos_inf, f.pos_inf | sm, f.quiet_nan, f.mask,
             f.max_finite_bits, 1 << f.frac_bits, (1 << f.frac_bits) - 1]
    extra = F32_SPECIALS if name == "f32" else []
    return np.concatenate([rand, np.array(edges + extra, dtype=f.dtype)])


@pytest.mark.parametrize("name", ["f16", "f32", "f64"])
def test_keys_match_generic_and_value_order_F32_PREC(name: str) -> None:
    """F32-PREC windows are key ranges: fast keys == generic keys, order == value order."""
    f = get_format(name)
    p = _patterns(name)
    k = grid.to_key(p, f)
    assert k.dtype == np.int64
    np.testing.assert_array_equal(k, grid._to_key_generic(p, f))
    np.testing.assert_array_equal(grid.from_key(k, f), grid._from_key_generic(k, f))
    np.testing.assert_array_equal(grid.from_key(k, f), p)
    # independent oracle: numpy's own float view orders the non-NaN patterns the same way
    with np.errstate(invalid="ignore"):  # signaling NaNs quiet on the cast
        v = p.view({16: np.float16, 32: np.float32, 64: np.float64}[f.bits]).astype(np.float64)
    keep = ~np.isnan(v)
    s = v[keep][np.argsort(k[keep], kind="stable")]
    assert np.all(s[1:] >= s[:-1])


@pytest.mark.parametrize("name", ["f16", "f32", "f64"])
def test_is_den_matches_generic_F32_FTZ(name: str) -> None:
    """F32-FTZ flush test: fast denormal mask == fmt.is_denormal == numpy's subnormal class."""
    f = get_format(name)
    p = _patterns(name)
    fast = grid.is_den(p, f)
    np.testing.assert_array_equal(fast, f.is_denormal(p))
    v = np.abs(p.view({16: np.float16, 32: np.float32, 64: np.float64}[f.bits]))
    tiny = np.finfo(v.dtype).smallest_normal
    np.testing.assert_array_equal(fast, (v > 0) & (v < tiny))
    flushed = grid.flush_pat(p, f)
    np.testing.assert_array_equal(flushed[fast], p[fast] & f.dtype.type(f.sign_mask))
    np.testing.assert_array_equal(flushed[~fast], p[~fast])


@pytest.mark.parametrize("name", ["f16", "f32"])
def test_ulp_at_matches_generic_ULP_definition(name: str) -> None:
    """The ULP of ulp_error (the engine's definition): bit-built == frexp/ldexp version, on every
    decoded pattern with residuals of both signs (power-of-two edges), zeros, INF, NaN,
    float64 denormals and values beyond the format's range."""
    f = get_format(name)
    hi = f.decode(_patterns(name))
    lo = RNG.normal(size=hi.size) * 1e-30
    lo[::3] = 0.0
    edge_h = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 5e-324, 2.0**-1022, 2.0**200,
                       -(2.0**-200), 2.0**f.minexp, -(2.0**f.minexp), 2.0**f.maxexp])
    edge_l = np.array([0, 0, 0, 0, 0, 0, -1e-300, -1.0, 1e-300, -1e-300, 1e-300, -1.0])
    hi = np.concatenate([hi, edge_h])
    lo = np.concatenate([lo, edge_l])
    with np.errstate(all="ignore"):
        fast = grid.ulp_at(hi, lo, f)
        gen = grid._ulp_at_generic(hi, lo, f)
    np.testing.assert_array_equal(fast, gen)
    # independent check on finite normals: spacing of numpy's own format at |x|
    dt = {16: np.float16, 32: np.float32}[f.bits]
    x = hi[np.isfinite(hi) & (np.abs(hi) >= 2.0**f.minexp) & (np.abs(hi) < f.max) & (lo == 0)]
    spacing = np.spacing(np.abs(x).astype(dt)).astype(np.float64)
    np.testing.assert_array_equal(grid.ulp_at(x, np.zeros_like(x), f), spacing)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_ulp_at_one_equals_ulp_at_ULP_definition(name: str) -> None:
    """The one-value ULP (a verdict's figure) is ulp_at's, bit for bit, in every format: every
    pattern's value (a sample of the wide ones) with residuals of both signs, powers of two
    with residuals pointing in and out (tiny ones, whose product with hi underflows), zeros,
    INF, NaN, float64 denormals and values beyond the format's range."""
    f = get_format(name)
    hi = f.decode(_patterns(name) if f.bits >= 16 else np.arange(1 << f.bits))
    hi = hi[:: max(1, hi.size // 4096)]
    lo = RNG.normal(size=hi.size) * 1e-30
    lo[::3] = 0.0
    two = np.ldexp(1.0, np.arange(f.minexp - f.frac_bits - 2, min(f.maxexp + 2, 1024)))
    edge_h = np.concatenate([two, -two, [np.inf, -np.inf, np.nan, 0.0, -0.0, 5e-324,
                                         2.0**-1022, 2.0**200, -(2.0**-200)]])
    edge_l = np.concatenate([np.full(two.size, -1e-300), np.full(two.size, -1e-300),
                             [0, -1.0, 0, 1e-300, -1e-300, 0, -1e-300, -1.0, 1e-300]])
    hi = np.concatenate([hi, edge_h, edge_h])
    lo = np.concatenate([lo, edge_l, -edge_l])
    with np.errstate(all="ignore"):
        want = grid.ulp_at(hi, lo, f)
    got = np.array([ulp_at_one(float(h), float(lo_), f) for h, lo_ in zip(hi, lo)])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["f16", "f32", "f64"])
def test_divide_by_ulp_equals_division_ULP_definition(name: str) -> None:
    """ulp_error's x /= ULP (a multiplication by the exact inverse for f16 and f32) gives
    the quotient's bits on every numerator class: errors far beyond the format's range,
    tiny residuals, zeros of both signs, INF and NaN, at every decoded pattern."""
    f = get_format(name)
    with np.errstate(all="ignore"):
        hi = f.decode(_patterns(name))
    lo = RNG.normal(size=hi.size) * 1e-30
    x = np.concatenate([RNG.normal(size=hi.size) * 2.0 ** RNG.integers(-300, 300, hi.size),
                        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 2.0**-1074, 2.0**1023])])
    hi = np.resize(hi, x.size)
    lo = np.resize(lo, x.size)
    with np.errstate(all="ignore"):
        expect = x / grid.ulp_at(hi, lo, f, specials=False)
        got = x.copy()
        grid.divide_by_ulp(got, hi, lo, f)
    np.testing.assert_array_equal(got.view(np.int64), expect.view(np.int64))


@pytest.mark.parametrize("name", ["f16", "f32"])
def test_div_residual_narrow_is_exact_against_fractions_F32_PREC(name: str) -> None:
    """The division residual a - q*b of f32/f16 operands (normals, denormals, the extremes
    of the range, quotients at both ends, exact quotients, zeros): equal as a Fraction to
    the exact residual, and bit for bit to the residual of Dekker's two_prod; NaN where the
    quotient is INF or NaN (and where an operand is: binary_exact sets lo = 0 there)."""
    from fractions import Fraction

    f = get_format(name)
    n = 6000
    with np.errstate(all="ignore"):
        pats = np.concatenate([_patterns(name),
                               RNG.integers(0, 1 << f.bits, n).astype(f.dtype)])
        v = f.decode(pats)
    a = np.resize(v, 2 * v.size)
    b = np.concatenate([v[RNG.permutation(v.size)], v[::-1]])
    # exact quotients and quotients at the ends of the format's range
    a = np.concatenate([a, b * 3.0, np.full(50, f.decode(np.array([f.max_finite_bits]))[0]),
                        np.full(50, 1.0)])
    b = np.concatenate([b, b, np.abs(v[(v != 0) & np.isfinite(v)][:50]),
                        v[(v != 0) & np.isfinite(v)][-50:]])
    a = a[:b.size]
    with np.errstate(all="ignore"):
        q = a / b
        r = grid.div_residual_narrow(a, q, b)
        p, e = grid.two_prod(q, b)
        r_old = (a - p) - e
    assert np.isnan(r[~np.isfinite(q)]).all()
    fin = np.isfinite(q) & np.isfinite(a) & np.isfinite(b)
    assert np.isfinite(r[fin]).all()
    np.testing.assert_array_equal(r[fin].view(np.int64), r_old[fin].view(np.int64))
    for i in np.flatnonzero(fin)[::5]:
        assert Fraction(r[i]) == Fraction(a[i]) - Fraction(q[i]) * Fraction(b[i])
    one = grid.div_residual_narrow(np.float64(1.0), np.float64(1.0) / 3.0, np.float64(3.0))
    assert one.shape == () and Fraction(float(one)) == 1 - Fraction(1.0 / 3.0) * 3  # a scalar


@pytest.mark.parametrize("name", ["f16", "f32"])
def test_rne_midpoint_prefilter_matches_fraction_oracle_F32_PREC(name: str) -> None:
    """Correct rounding of hi + lo (F32-PREC / F16-PREC) with the midpoint pre-filter:
    exact midpoints, near-midpoints, denormal-range and overflow-range values, residuals of
    both signs, against exact Fraction rounding."""
    from fractions import Fraction

    f = get_format(name)
    F = f.frac_bits
    n = 3000
    e = RNG.integers(f.minexp - F - 2, f.maxexp + 1, n)
    m = RNG.integers(1 << F, 1 << (F + 1), n)
    mid = np.ldexp((2 * m + 1).astype(np.float64), (e - F - 1).astype(np.int32))  # midpoints
    near = mid * (1 + RNG.choice([-1.0, 1.0], n) * 2.0**-50)
    hi = np.concatenate([mid, -mid, near, mid])
    lo = np.concatenate([np.abs(mid) * 2.0**-60, -np.abs(mid) * 2.0**-60,
                         np.abs(near) * 2.0**-60 * RNG.choice([-1.0, 1.0], n), 0 * mid])
    with np.errstate(over="ignore"):
        got = grid.rne(hi, lo, f)
    dt = {16: np.float16, 32: np.float32}[f.bits]
    for h, r, p in zip(hi[::7], lo[::7], got[::7]):
        x = Fraction(float(h)) + Fraction(float(r))
        with np.errstate(over="ignore"):
            c = dt(float(x))  # nearest candidate, then compare both neighbours exactly
        cands = [c, np.nextafter(c, dt(np.inf)), np.nextafter(c, dt(-np.inf))]
        cands = [v for v in cands if np.isfinite(v)]
        best = min(cands, key=lambda v: (abs(Fraction(float(v)) - x),
                                         int(np.array(v, dt).view(f.dtype)) & 1))
        if abs(x) >= Fraction(float(f.max)) + Fraction(2.0 ** (f.maxexp - F - 2)) * 2:
            continue  # overflow region: INF by rule, covered by the special-value tests
        assert int(p) == int(np.array(best, dt).view(f.dtype)), (h, r)


def test_ulp_error_inf_nan_exact_every_observation_class_F32_NANOUT() -> None:
    """ulp_error's in-place INF / NaN handling (the engine's definition): exact +INF against
    +INF (0), -INF (-INF), max finite (-INF), NaN (NaN); exact NaN (F32-NANOUT) against
    any NaN (0) and against numbers or INF (NaN); written from the definition."""
    from fpinspector.model import evaluate

    one = 0x3F800000
    obs = np.array([0x7F800000, 0xFF800000, 0x7F7FFFFF, 0x7FC00000, 0xFFC00001, one, 0],
                   np.uint32)
    inf = evaluate("add", np.full(obs.size, 0x7F800000, np.uint32), one)
    e = inf.ulp_error(obs)
    assert e[0] == 0 and e[1] == -np.inf and e[2] == -np.inf and e[5] == -np.inf
    assert np.isnan(e[3]) and np.isnan(e[4])
    nan = evaluate("add", np.full(obs.size, 0x7FC00000, np.uint32), one)
    e = nan.ulp_error(obs)
    assert e[3] == 0 and e[4] == 0
    assert np.isnan(e[[0, 1, 2, 5, 6]]).all()


def test_round_f16_equals_encode_float64_F16_PREC() -> None:
    """The engine's f16 rounding (used by every f16 op's model bits) equals the lead's
    formats.encode_float64 on random float64 values of every magnitude, ties, INF, NaN."""
    from fpinspector.model.formats import encode_float64

    f16 = get_format("f16")
    x = RNG.standard_normal(200_000) * np.ldexp(1.0, RNG.integers(-40, 30, 200_000))
    ties = (np.arange(-3000, 3000) + 0.5) * 2.0**-24  # denormal-range ties
    x = np.concatenate([x, ties, [np.inf, -np.inf, np.nan, -np.nan, 0.0, -0.0, 65520.0,
                                  -65519.0, 1e300, -1e-300, 5e-324]])
    with np.errstate(all="ignore"):
        want = encode_float64(f16, x, "rne", "ieee")
    np.testing.assert_array_equal(grid.round_f16(x), want)


def test_round_f16_every_value_and_midpoint_against_numpy_cast_F16_PREC() -> None:
    """Against numpy's own float64 -> float16 cast (an independent RNE): every f16 value,
    every midpoint between neighbours (ties to even, the carry into the next binade and
    into INF at 65520) and the float64 values just below and above each midpoint."""
    v = np.arange(1 << 15, dtype=np.uint16).view(np.float16).astype(np.float64)
    v = v[np.isfinite(v)]
    mid = (v[:-1] + v[1:]) / 2
    mid = np.concatenate([mid, [65520.0]])
    x = np.concatenate([v, mid, np.nextafter(mid, 0.0), np.nextafter(mid, np.inf)])
    x = np.concatenate([x, -x])
    with np.errstate(all="ignore"):
        want = x.astype(np.float16).view(np.uint16)
    np.testing.assert_array_equal(grid.round_f16(x), want)


def test_round_f16_f32_against_numpy_cast_F16_PREC() -> None:
    """The float32 rounding of f16 products against numpy's own float32 -> float16 cast (an
    independent RNE): every f16 value, every midpoint between neighbours and the float32
    values just beside each, random float32 patterns of every class, and every product of
    four f16 rows with all f16 patterns; NaNs become the canonical quiet NaN, sign kept."""
    v = np.arange(1 << 15, dtype=np.uint16).view(np.float16).astype(np.float32)
    v = v[np.isfinite(v)]
    mid = np.concatenate([(v[:-1] + v[1:]) / 2, [np.float32(65520.0)]])  # exact in float32
    x = np.concatenate([v, mid, np.nextafter(mid, np.float32(0)),
                        np.nextafter(mid, np.float32(np.inf))])
    x = np.concatenate([x, -x, RNG.integers(0, 1 << 32, 1 << 20, dtype=np.uint64)
                        .astype(np.uint32).view(np.float32)])
    b = np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float32)
    with np.errstate(all="ignore"):
        for a in (0x0001, 0x0C00, 0x3C01, 0xF3FF):  # (INF * 0: NaN)
            x = np.concatenate([x, np.array(a, np.uint16).view(np.float16).astype(np.float32)
                                * b])
        want = x.astype(np.float16).view(np.uint16)
    nan = np.isnan(x)
    want[nan] = np.where(np.signbit(x[nan]), 0xFE00, 0x7E00)
    np.testing.assert_array_equal(grid.round_f16_f32(x), want)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(grid.round_f16_f32(x), grid.round_f16(x.astype(np.float64)))


def test_representable_f16_every_value_and_every_midpoint_F32_PREC() -> None:
    """grid.representable (what `inexact`, the accuracy rule's mask, reads) against numpy's
    own float64 -> float16 cast: all 65,536 patterns' values are representable, the
    midpoints between neighbours, values beyond the largest and below the smallest are
    not; NaN never is."""
    f16 = get_format("f16")
    vals = f16.decode(np.arange(1 << 16, dtype=np.uint16))
    finite = np.unique(vals[np.isfinite(vals)])
    mids = (finite[:-1] + finite[1:]) / 2  # exact in float64
    extra = np.array([65504.0 + 16, 65520.0, 1e6, 2.0**-25, 3 * 2.0**-26, 2.0**-40,
                      -(2.0**-25), np.inf, -np.inf, np.nan])
    x = np.concatenate([vals, mids, extra])
    with np.errstate(all="ignore"):
        oracle = x.astype(np.float16).astype(np.float64) == x
    got = grid.representable(x, f16)
    assert np.array_equal(got, oracle)
    assert got[: 1 << 16].sum() == (1 << 16) - 2046  # every value but the 2046 NaNs
    assert not got[(1 << 16):(1 << 16) + mids.size].any()


@pytest.mark.parametrize("name", ["f32", "f64", "f11", "f10"])
def test_representable_values_and_midpoints_F32_PREC(name: str) -> None:
    """Values of the format are representable, the midpoint of two neighbours is not
    (f64: every float64 but NaN); f11/f10 (no sign) through the encoder's rounding."""
    fmt = get_format(name)
    rng = np.random.default_rng(5)
    if name == "f64":
        x = rng.standard_normal(1000) * 10.0 ** rng.integers(-300, 300, 1000)
        assert grid.representable(np.append(x, [np.inf, 0.0, -0.0]), fmt).all()
        assert not grid.representable(np.array([np.nan]), fmt).any()
        return
    pats = rng.integers(0, fmt.max_finite_bits, 20000, dtype=np.uint64).astype(fmt.dtype)
    v0, v1 = fmt.decode(pats), fmt.decode(pats + fmt.dtype.type(1))  # neighbours
    mids = (v0 + v1) / 2  # exact in float64
    values = np.concatenate([v0, v1, -v0 if fmt.signed else v0])
    assert grid.representable(values, fmt).all()
    assert not grid.representable(mids, fmt).any()


@pytest.mark.parametrize("value", [0.0, -0.0, np.nan, 1.5, -np.inf])
def test_fill_where_writes_the_value_where_the_mask_holds(value: float) -> None:
    """masked.fill_where (the branch-free x[mask] = value behind NaN-canonical exact
    values and zeroed ULP errors) against boolean-index assignment, bit for bit, on masks
    that are empty, full and half true."""
    from fpinspector.model.engine.masked import fill_where

    x = RNG.normal(size=3000) * 2.0 ** RNG.integers(-1000, 1000, 3000)
    x[::17] = np.nan
    x[::19] = -0.0
    for mask in (RNG.random(3000) < 0.5, np.zeros(3000, bool), np.ones(3000, bool)):
        want = x.copy()
        want[mask] = value
        got = x.copy()
        fill_where(got, mask, value)
        np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))


@pytest.mark.parametrize("n", [0, 1, 9, 10, 11, 40, 41, 400, 4800, 1 << 13, (1 << 17) + 3])
def test_indices_are_numpys_flatnonzero_at_every_density(n: int) -> None:
    """masked.indices (the mask-to-indices step of verdicts, fired rules and sweep
    diffs) against np.flatnonzero, on masks with 0..n true elements, the counts at and
    around its switches (n/40, n/10) included: the same indices in the same order."""
    from fpinspector.model.engine.masked import indices

    counts = {0, 1, n // 2, n, n // 40, n // 40 + 1, n // 10, n // 10 + 1, n // 20, n // 11}
    for c in sorted(x for x in counts if 0 <= x <= n):
        mask = np.zeros(n, dtype=bool)
        mask[RNG.permutation(n)[:c]] = True
        got = indices(mask)
        want = np.flatnonzero(mask)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(indices(mask, count=c), want)
        np.testing.assert_array_equal(indices(mask[::-1]), np.flatnonzero(mask[::-1]))
        if n % 3 == 0:  # read flat, as np.flatnonzero reads it
            np.testing.assert_array_equal(indices(mask.reshape(3, -1)), want)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 63, 4800, (1 << 17) + 3])
def test_word_indices_are_numpys_flatnonzero_where_sparse(n: int) -> None:
    """masked.word_indices (zero_same_specials' NaN errors) on a padded_mask buffer: the
    indices of np.flatnonzero in the same order, the padding never among them, where at
    most 1/64 of the 8-element words hold a true element (scattered, in runs, at the last
    element) or none does (an empty array); None above that."""
    from fpinspector.model.engine.masked import _WORDS_SPARSE, padded_mask, word_indices

    for c in sorted({0, 1, n // 600, n // 200, n // 8, n}):
        for how in ("scattered", "run", "last"):
            buf = padded_mask(n)
            assert buf.size % 8 == 0 and not buf[n:].any()
            mask = buf[:n]
            mask[:] = False
            if how == "scattered":
                mask[RNG.permutation(n)[:c]] = True
            elif how == "run":
                mask[(n - c) // 2:(n - c) // 2 + c] = True
            elif n:
                mask[-1] = True
            words = int(np.count_nonzero(buf.view(np.uint64)))
            got = word_indices(buf)
            if words and words * _WORDS_SPARSE >= buf.size:
                assert got is None
                continue
            assert got is not None
            want = np.flatnonzero(mask)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n", [2, 41, 4800, 1 << 17])
def test_indices_of_masks_in_runs_are_numpys_flatnonzero(n: int) -> None:
    """masked.indices on masks whose true elements lie in runs (a sweep chunk over a grid
    of patterns: INF and NaN operand ranges, denormal and overflowing ranges), where it
    keeps numpy's skipping loop instead of padding the mask: the same indices as
    np.flatnonzero, and the run test says "runs" exactly where the runs average at least
    _RUN_LENGTH elements (a mask of scattered elements at the same density is no run)."""
    from fpinspector.model.engine.masked import _RUN_LENGTH, _in_runs, indices

    for runs, length in ((1, n // 30), (4, n // 100), (n // 600, 20), (n // 400, 70)):
        if runs < 1 or length < 1:
            continue
        mask = np.zeros(n, dtype=bool)
        starts = np.sort(RNG.choice(max(1, n - length), size=runs, replace=False))
        for s in starts:
            mask[s:s + length] = True
        for m in (mask, ~mask, mask[::-1]):
            c = int(np.count_nonzero(m))
            got = indices(m)
            want = np.flatnonzero(m)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
            edges = int(np.count_nonzero(m[1:] != m[:-1]))
            if 0 < c < n:
                assert _in_runs(m, c) == ((edges + 2) * _RUN_LENGTH <= 2 * c)
        if n >= 4800 and length >= 2 * _RUN_LENGTH and runs * length * 40 > n:
            assert _in_runs(mask, int(np.count_nonzero(mask)))
            scattered = np.zeros(n, dtype=bool)
            scattered[RNG.permutation(n)[:int(np.count_nonzero(mask))]] = True
            assert not _in_runs(scattered, int(np.count_nonzero(scattered)))


@pytest.mark.parametrize("name", ["f16", "bf16", "f11", "f10", "e5m2", "e4m3", "f32", "f64"])
def test_values32_widen_to_the_decoded_values_bit_for_bit(name: str) -> None:
    """grid.values32 (the float32 table the finisher decodes f16 and narrower results
    with, and the f16 mul kernel its operands): every pattern's float32 value widens to
    the format's own float64 decode bit for bit (NaNs and their signs too); no table for
    formats wider than 16 bits. Oracle for the finite values: Fraction of the pattern's
    fields (FloatFormat.exact_value)."""
    from fractions import Fraction

    from fpinspector.model.engine.fastbits import _f16_as_f32

    f = get_format(name)
    table = grid.values32(f)
    if f.bits > 16:
        assert table is None
        return
    assert table is not None and table.dtype == np.float32 and table.size == 1 << f.bits
    pats = np.arange(1 << f.bits, dtype=np.uint64).astype(f.dtype)
    with np.errstate(invalid="ignore"):
        want = f.decode(pats)
    np.testing.assert_array_equal(table.astype(np.float64).view(np.uint64), want.view(np.uint64))
    for p in RNG.choice(1 << f.bits, size=200, replace=False):
        exact = f.exact_value(int(p))
        if isinstance(exact, Fraction):
            assert Fraction(float(table[p])) == exact
    if name == "f16":
        assert _f16_as_f32() is table  # one table in the cache for operands and results


def test_zero_residual_is_a_constant_view_and_becomes_an_array_to_write() -> None:
    """engine/residual.py: the +0 residual is recognised (not a -0 constant, not an array
    that happens to hold zeros), refuses writes, and writable_residual gives an array of
    its own for it and passes any other array through."""
    from fpinspector.model.engine.residual import is_zero_residual, writable_residual, zero_residual

    like = np.ones(5)
    z = zero_residual(like)
    assert z.shape == (5,) and is_zero_residual(z) and not z.flags.writeable
    assert not is_zero_residual(np.zeros(5))
    assert not is_zero_residual(np.broadcast_to(-0.0, (5,)))
    w = writable_residual(z)
    w[2] = 1.5
    assert w.flags.writeable and w.tolist() == [0.0, 0.0, 1.5, 0.0, 0.0]
    assert writable_residual(like) is like
