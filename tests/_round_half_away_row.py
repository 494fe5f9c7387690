"""A test op of an existing family added as one row: round_ha, round to integral with ties
away from zero (C's round(), HLSL's round() on most drivers), a row of the round family.
Its family record (engine/families.py ``ROUND``: the exact value is the row's numpy
function of the operand) and its row (numpy function, scalar exact function, tolerance)
are all the engine needs: nothing else in the package knows it."""

from __future__ import annotations

import math
from contextlib import AbstractContextManager
from fractions import Fraction
from typing import Any

import numpy as np
from _row_registry import registered

from fpinspector.model.engine import tolerances as tol
from fpinspector.model.engine.optable import OpSpec


def _half_away(x: np.ndarray) -> np.ndarray:
    """float64 values of f32/f16 operands: |x| + 0.5 is exact below 2^52 (24 significant
    bits at most), and above 2^23 every such value is integral already."""
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


def _half_away_exact(a: Any) -> Any:
    """The scalar exact function: a signed zero, INF and NaN are their own result; a
    Fraction rounds to the integer nearest, ties away from zero (a zero result keeps
    the operand's sign, as the engine's exact values do)."""
    if not isinstance(a, Fraction):
        return a
    r = Fraction(math.floor(abs(a) + Fraction(1, 2))) * (1 if a > 0 else -1)
    return r if r != 0 else math.copysign(0.0, a)


ROUND_HA = OpSpec("round_ha", 1, ("f32", "f16"), "same",
                  "round to integral, ties away from zero", "round",
                  tolerances=tol.EXACT, scalar=_half_away_exact, numpy=_half_away)


def round_half_away_row() -> AbstractContextManager[OpSpec]:
    """The row registered for the duration of a test, removed after."""
    return registered(ROUND_HA)
