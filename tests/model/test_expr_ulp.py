"""The ULP error of an expression's result and of its steps is the engine's one definition
(model/engine/ulp.py): the ULP of the exact value's binade, the denormal spacing at an exact
zero (docs/rules.md: "a ULP counted at zero is the denormal spacing 2^-149"), the smaller
binade just below a power of two. Oracle: Fractions, with the binade found by comparison."""

from __future__ import annotations

from fractions import Fraction

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
