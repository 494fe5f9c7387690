"""Vectorized shortcuts of the exact reference (engine/exact/) against mpmath: the
double-double 2^x series for tiny x and the exact-result skips (F32-INSTR windows of exp,
log, rsq are built around this reference, so its error must stay far below 2^-60)."""

from __future__ import annotations

import mpmath
import numpy as np

from fpinspector.model import evaluate, get_format
from fpinspector.model.engine.exact.unary import _exp2_tiny, transcendental

RNG = np.random.default_rng(11)


def test_exp2_tiny_series_within_2_pow_minus_90_F32_INSTR() -> None:
    """2^x for 0 < |x| < 2^-20 (every binade down to the smallest f32 denormal): hi is the
    float64 nearest and hi + lo is within 2^-90 of mpmath's 200-bit value."""
    n = 400
    x = np.ldexp(RNG.uniform(1, 2, n), RNG.integers(-149, -20, n)) * RNG.choice([-1, 1], n)
    x = x.astype(np.float32).astype(np.float64)
    x = np.concatenate([x[x != 0], [2.0**-149, -(2.0**-149), np.float32(2.0**-20 * 0.999)]])
    hi, lo = _exp2_tiny(x)
    with mpmath.workprec(200):
        for xi, h, r in zip(x, hi, lo):
            v = mpmath.power(2, mpmath.mpf(xi))
            assert h == float(v)
            assert abs(mpmath.mpf(h) + mpmath.mpf(r) - v) < mpmath.mpf(2) ** -90


def test_exact_result_skips_match_mpmath_F32_INSTR() -> None:
    """2^n, log2(2^k) and 1/sqrt(4^k) come out exact (lo = 0) and equal to mpmath."""
    f32 = get_format("f32")
    n = np.arange(-149, 128, dtype=np.float64)
    hi, lo = transcendental("exp", n, f32)
    assert np.all(lo == 0) and np.all(hi == np.ldexp(1.0, n.astype(np.int32)))
    p = np.ldexp(1.0, np.arange(-149, 128))
    hi, lo = transcendental("log", p, f32)
    assert np.all(lo == 0) and np.all(hi == np.arange(-149, 128))
    q = np.ldexp(1.0, np.arange(-148, 128, 2))
    hi, lo = transcendental("rsq", q, f32)
    assert np.all(lo == 0) and np.all(hi == np.ldexp(1.0, -np.arange(-148, 128, 2) // 2))


def test_exp_tiny_model_bits_and_window_side_F32_INSTR() -> None:
    """exp of tiny x: the model rounds to 1.0 and the exact value's side of 1.0 (which
    sets the ULP below/above the power of two) follows the sign of x, like mpmath says."""
    x = np.array([2.0**-30, -(2.0**-30), 2.0**-100, -(2.0**-126)], np.float32)
    ev = evaluate("exp", x.view(np.uint32), rules="ieee754")
    assert np.all(ev.bits == 0x3F800000)
    above = (ev.exact - 1.0) + ev.exact_lo
    assert np.all(np.sign(above) == np.sign(x.astype(np.float64)))
    # error of the model (1.0) is -y / ulp, with the ULP below 1 for negative x
    y = x.astype(np.float64) * np.log(2.0)
    ulp = np.where(x > 0, 2.0**-23, 2.0**-24)
    np.testing.assert_allclose(ev.ulp_error(ev.bits), -y / ulp, rtol=1e-6)


def test_f32_mad_two_sum_equals_the_expansion_and_fractions_F32_FUSED() -> None:
    """f32/f16 mad's exact value is one TwoSum of the (exact) float64 product and c: the
    same (hi, lo) bits as the general expansion (sum_exact) on random values, products
    that cancel c, zeros of every sign, INF and NaN; and hi + lo is a*b + c exactly
    (Fraction oracle)."""
    from fractions import Fraction

    from fpinspector.model.engine.exact.vector import fused_exact, sum_exact

    f32 = get_format("f32")
    n = 20000
    a, b, c = (np.ldexp(RNG.uniform(1, 2, n) * RNG.choice([-1, 1], n),
                        RNG.integers(-70, 60, n)).astype(np.float32).astype(np.float64)
               for _ in range(3))
    c[: n // 4] = -(a[: n // 4] * b[: n // 4]).astype(np.float32)  # cancellation
    sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0**-149])
    g = [x.reshape(-1) for x in np.meshgrid(sp, sp, sp, indexing="ij")]
    a, b, c = (np.concatenate([x, y]) for x, y in zip((a, b, c), g))
    with np.errstate(all="ignore"):
        hi, lo = fused_exact("mad", [a, b, c], f32)
        ehi, elo = sum_exact([(a * b, np.zeros_like(a)), (c, np.zeros_like(c))])
    zero = (ehi == 0) & (elo == 0)  # fused_exact gives exact zeros their IEEE sign
    np.testing.assert_array_equal(hi[~zero].view(np.int64), ehi[~zero].view(np.int64))
    np.testing.assert_array_equal(lo.view(np.int64), elo.view(np.int64))
    for i in range(0, n, 13):
        assert Fraction(hi[i]) + Fraction(lo[i]) == (Fraction(a[i]) * Fraction(b[i])
                                                     + Fraction(c[i]))
