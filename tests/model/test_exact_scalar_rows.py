"""The scalar entry of the exact values (engine/exact/scalar.py) reads each op's exact
function from its row: IEEE 754's special-value results (written out here, §6 and §9.2's
recommended functions), the rows' rational values, mpmath beyond (oracle: mpmath at 400 bits
computed here), and the one function the engine's edge checks and the expression layer share."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from fpinspector.model.engine.exact import scalar as sc
from fpinspector.model.engine.optable import OPS

INF, NAN = math.inf, math.nan

#: (op, operand, IEEE result): zeros keep their sign where the function is odd at 0
IEEE = [
    ("sqrt", -0.0, -0.0), ("sqrt", 0.0, 0.0), ("sqrt", INF, INF), ("sqrt", -INF, NAN),
    ("sqrt", Fraction(-4), NAN), ("rsq", -0.0, -INF), ("rsq", 0.0, INF), ("rsq", INF, 0.0),
    ("rsq", Fraction(-1, 3), NAN), ("rcp", -0.0, -INF), ("rcp", -INF, -0.0),
    ("rcp", INF, 0.0), ("exp", -0.0, Fraction(1)), ("exp", INF, INF), ("exp", -INF, 0.0),
    ("exp", Fraction(70000), INF), ("exp", Fraction(-70000), 0.0), ("log", 0.0, -INF),
    ("log", -0.0, -INF), ("log", INF, INF), ("log", Fraction(-1), NAN), ("log", NAN, NAN),
]


def _same(got: object, want: object) -> bool:
    if isinstance(want, float):
        return isinstance(got, float) and (
            (math.isnan(want) and math.isnan(got))
            or (got == want and math.copysign(1, got) == math.copysign(1, want)))
    return type(got) is type(want) and got == want


@pytest.mark.parametrize(("op", "x", "want"), IEEE)
def test_special_operands_give_ieee_results_F32_NANOUT(op, x, want):
    """F32-NANOUT / IEEE: signed zeros, INF, NaN and out-of-domain operands, from the row."""
    got = sc.exact_op(op, [x], OPS[op])
    assert _same(got, want), (op, x, got, want)


@pytest.mark.parametrize(("op", "x", "want"), [
    ("sqrt", Fraction(9, 4), Fraction(3, 2)), ("rsq", Fraction(1, 16), Fraction(4)),
    ("rcp", Fraction(3), Fraction(1, 3)), ("exp", Fraction(-3), Fraction(1, 8)),
    ("log", Fraction(1, 1024), Fraction(-10)), ("log", Fraction(1), 0.0)])
def test_rational_values_are_exact_EXPR_EXACT(op, x, want):
    """Where the value is rational the result is that Fraction (log2(1) is the zero +0)."""
    assert _same(sc.exact_op(op, [x], OPS[op]), want)


@pytest.mark.parametrize(("op", "fn"), [
    ("sqrt", mpmath.sqrt), ("rsq", lambda v: 1 / mpmath.sqrt(v)),
    ("exp", lambda v: mpmath.power(2, v)), ("log", lambda v: mpmath.log(v, 2))])
def test_irrational_values_match_mpmath_EXPR_EXACT(op, fn):
    """Irrational results to the 300 bits the scalar entry promises (PREC = 320)."""
    for x in (Fraction(2), Fraction(1, 3), Fraction(12345, 7)):
        got = sc.exact_op(op, [x], OPS[op])
        with mpmath.workprec(400):
            want = fn(mpmath.mpf(x.numerator) / x.denominator)
            # (a rational result is a Fraction: mpmath before 1.4 cannot convert one)
            g = (mpmath.mpf(got.numerator) / got.denominator
                 if isinstance(got, Fraction) else mpmath.mpf(got))
            assert abs(g - want) <= abs(want) * mpmath.mpf(2) ** -300


def test_engine_and_expression_share_each_rows_function():
    """One function per op: the arith rows' ``scalar`` is the scalar entry's, and the
    expression's entry for a row is the row's (the edge checks call of_row on the same row)."""
    for op, fn in (("add", sc.add), ("sub", sc.sub), ("mul", sc.mul), ("div", sc.div)):
        assert OPS[op].scalar is fn
        assert sc.entry(op, OPS[op]) is fn
    x = [Fraction(3), Fraction(-5, 2), Fraction(7)]
    assert sc.of_row(OPS["mad"], x) == sc.entry("mad", OPS["mad"])(*x) == Fraction(-1, 2)
