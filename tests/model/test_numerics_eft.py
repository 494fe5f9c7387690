"""The one TwoSum / TwoProduct and the double-double operations (model/numerics/eft.py)
against Fractions: exact error terms, error bounds that hold, and a zero error term where
the result is not finite (the engine's exact references and the expression layer's exact
values both read ``lo`` after an INF)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from fpinspector.model.numerics.eft import dd_add, dd_div, dd_mul, dd_sqrt, two_prod, two_sum


def _values(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.standard_normal(n) * np.exp2(rng.integers(-60, 60, n))


def test_two_sum_and_two_prod_are_exact_against_fractions() -> None:
    a, b = _values(2000, 1), _values(2000, 2)
    for finite in (False, True):
        s, e = two_sum(a, b, finite)
        p, f = two_prod(a, b, finite)
        for i in range(a.size):
            x, y = Fraction(a[i]), Fraction(b[i])
            assert Fraction(s[i]) + Fraction(e[i]) == x + y
            assert Fraction(p[i]) + Fraction(f[i]) == x * y


def test_the_error_term_of_a_non_finite_result_is_zero_not_nan() -> None:
    big = np.array([1e308, np.inf, np.nan, -np.inf])
    s, e = two_sum(big, big)
    assert np.isinf(s[0]) and not e.any()
    p, f = two_prod(big, big)
    assert np.isinf(p[0]) and not f.any()


def test_double_double_bounds_hold_against_fractions() -> None:
    """|hi + lo - exact| <= err for a + b, a * b, a / b (exact rationals) and sqrt(a)
    (checked as (hi + lo - err)^2 <= a <= (hi + lo + err)^2)."""
    ah, bh = _values(300, 3), _values(300, 4)
    al, bl = ah * 2.0 ** -60 * 0.7, bh * 2.0 ** -58 * 0.3
    for fn, exact in ((dd_add, lambda x, y: x + y), (dd_mul, lambda x, y: x * y),
                      (dd_div, lambda x, y: x / y)):
        hi, lo, err = fn(ah, al, bh, bl)
        for i in range(ah.size):
            want = exact(Fraction(ah[i]) + Fraction(al[i]), Fraction(bh[i]) + Fraction(bl[i]))
            assert abs(Fraction(hi[i]) + Fraction(lo[i]) - want) <= Fraction(err[i]), fn
    x = np.abs(ah)
    hi, lo, err = dd_sqrt(x, np.abs(al))
    for i in range(x.size):
        a = Fraction(x[i]) + Fraction(abs(al[i]))
        r, d = Fraction(hi[i]) + Fraction(lo[i]), Fraction(err[i])
        assert (r - d) ** 2 <= a <= (r + d) ** 2
