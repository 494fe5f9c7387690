"""The ULP error of an expression's result and of its steps is the engine's one definition
(model/engine/ulp.py): the ULP of the exact value's binade, the denormal spacing at an exact
zero (docs/rules.md: "a ULP counted at zero is the denormal spacing 2^-149"), the smaller
binade just below a power of two. Oracle: Fractions, with the binade found by comparison."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
from _engine_oracle import bits32, f32

from fpinspector.model import evaluate_expr

U32 = np.uint32


def _ulp_f32(x: Fraction) -> Fraction:
    """ULP of f32 at the exact value x: 2^(k-23) for |x| in [2^k, 2^(k+1)), k >= -126."""
    k = -126
    while abs(x) >= Fraction(2) ** (k + 1):
        k += 1
    return Fraction(2) ** (k - 23)


def _oracle(obs: int, exact: Fraction) -> float:
    return float((Fraction(f32(obs)) - exact) / _ulp_f32(exact))


def test_an_exact_zero_counts_in_denormal_ulps() -> None:
    """a - a is exactly 0: the smallest denormal observed is 1 ULP off, not 2^-125."""
    a = np.array([bits32(1.5)], U32)
    r = evaluate_expr("a - b", {"a": a, "b": a})
    for obs in (0x00000001, 0x80000003, 0x00800000):
        want = _oracle(obs, Fraction(0))
        assert r.ulp_error([np.array([obs], U32)])[0][0] == want
        assert r.steps[0].ulp_error(np.array([obs], U32))[0] == want


def test_just_below_a_power_of_two_the_smaller_binade_counts() -> None:
    """1 - 2^-60 is exactly hi + lo = 1.0 - 2^-60: its ULP is 2^-24, not 1.0's 2^-23."""
    a, b = np.array([bits32(1.0)], U32), np.array([bits32(2.0 ** -60)], U32)
    r = evaluate_expr("a - b", {"a": a, "b": b})
    exact = 1 - Fraction(2) ** -60
    for obs in (0x3F7FFFFF, 0x3F800000, 0x3F800001, 0x3F7FFFFE):
        want = _oracle(obs, exact)
        assert r.ulp_error([np.array([obs], U32)])[0][0] == want
        assert r.steps[0].ulp_error(np.array([obs], U32))[0] == want


def test_log2_of_either_zero_is_minus_infinity_on_the_array_path() -> None:
    """IEEE 754 log2(+-0) = -INF (mpmath agrees): the whole-array exact value of log2(a) at
    a zero is -INF, not NaN, so the model's -INF is 0 ULP off and exp2(log2(0)) is +0."""
    zeros = np.array([0x00000000, 0x80000000], U32)
    assert mpmath.log(0, 2) == -mpmath.inf
    r = evaluate_expr("log2(a)", {"a": zeros})
    assert r.exact[0].tolist() == [-np.inf, -np.inf] and r.ulp_error()[0].tolist() == [0, 0]
    r = evaluate_expr("exp2(log2(a)) + 1.0", {"a": zeros})
    assert r.exact[0].tolist() == [1.0, 1.0]


def test_exp2_and_log2_on_the_array_path_stay_within_their_bound_against_mpmath() -> None:
    """The array path's exp2/log2 (float64, a 2^-50 relative bound): hi + lo lies within
    the bound it reports of mpmath at 200 bits, for f32 inputs of every range (near 1 too,
    where log2 goes through log1p)."""
    from fpinspector.model.expr import lower
    from fpinspector.model.expr.exact import fast_exact
    from fpinspector.model.formats import get_format

    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-120, 120, 300), 1 + rng.uniform(-1e-3, 1e-3, 100),
                        np.exp2(rng.uniform(-140, 120, 300))]).astype(np.float32)
    for text, fn, vals in (("exp2(a)", lambda v: mpmath.power(2, v), x[:300]),
                           ("log2(a)", lambda v: mpmath.log(v, 2), x[300:])):
        p = lower(text, {"a": "float"})
        bits = vals.view(U32)
        (ap,) = fast_exact(p, [bits], [bits], get_format("f32"), bits.shape)
        with mpmath.workprec(200):
            for k, v in enumerate(vals):
                want = fn(mpmath.mpf(float(v)))
                got = mpmath.mpf(float(ap.hi[k])) + mpmath.mpf(float(ap.lo[k]))
                assert abs(got - want) <= mpmath.mpf(float(ap.err[k])), (text, v)
