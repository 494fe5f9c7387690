"""A test op added as one row: log10, with its exact function (numpy and mpmath, and a
stated bound on the numpy one), its tolerance, its special-value table and its GLSL/WGSL/HLSL spellings. Nothing else in the
package knows it: the tests that register it prove that one row is enough."""

from __future__ import annotations

from contextlib import AbstractContextManager
from fractions import Fraction

import numpy as np
from _row_registry import registered

from fpinspector.model.engine.optable import (
    OpSpec,
    Spelling,
    TolRow,
    UnaryMath,
)
from fpinspector.model.engine.tolerances import Tolerance

#: log10(2), for the shaders (GLSL and WGSL have log2 but no log10)
LOG10_2 = "0.30102999566398120"


def _rational(x: Fraction) -> Fraction | None:
    """log10(10^k) = k: the only rational values of log10 at a rational x."""
    if x <= 0:
        return None
    n, d, k = x.numerator, x.denominator, 0
    while n % 10 == 0 and d == 1:
        n //= 10
        k += 1
    while d % 10 == 0 and n == 1:
        d //= 10
        k -= 1
    return Fraction(k) if n == 1 and d == 1 else None


LOG10 = OpSpec(
    "log10", 1, ("f32", "f16"), "same", "log10(x)", "unary",
    tolerances=(TolRow(("f32",), ("d3d11", "d3d10"),
                       Tolerance("rel", 0.5, 2.0**-21, "F32-INSTR", "a test row")),),
    # approx_error: numpy's log10 (libm's or numpy's SIMD loop, a few float64 ULPs) is
    # within 2^-50 of the exact value: the expression layer's maps take it on whole arrays
    # (tests/model/test_exact_bounded_oracle.py checks the bound against mpmath)
    math=UnaryMath(np.log10, lambda mp, x: mp.log10(mp.mpf(x)), _rational,
                   specials=((1.0, 0.0), (10.0, 1.0)), approx_error=2.0**-50),
    gpu=Spelling(f"log2({{0}}) * {LOG10_2}", ("f32",), f"log2({{0}}) * {LOG10_2}", ("f32",),
                 hlsl="log10({0})"),
)


def log10_row() -> AbstractContextManager[OpSpec]:
    """The row registered for the duration of a test, removed after."""
    return registered(LOG10)
