"""Error-free transformations and double-double arithmetic on numpy float64 arrays: the one
TwoSum / TwoProduct of the engine (exact references, windows), the elementary functions
and the expression layer's exact values.

TwoSum is Knuth's; TwoProduct is Dekker's split (numpy has no fma ufunc), exact while the
operands stay below :data:`SPLIT_MAX` in magnitude and the product does not underflow.
Where a sum or product is not finite its error term is 0: an INF or NaN result has no
residual, and a NaN there would leak into every later step that reads ``lo``.

``dd_add`` / ``dd_mul`` / ``dd_div`` / ``dd_sqrt`` work on pairs ``hi + lo`` and return an
absolute bound on their own rounding error: the expression layer's bound tracking
(:mod:`..engine.exact.bounded`) adds these up to decide which elements need the exact path.
"""

from __future__ import annotations

import numpy as np

__all__ = ["two_sum", "two_prod", "dd_add", "dd_mul", "dd_div", "dd_sqrt", "U", "SPLIT_MAX"]

_SPLIT = 134217729.0  # 2^27 + 1, Veltkamp's constant for float64
#: Unit roundoff of float64 (2^-53).
U = 2.0 ** -53
#: Largest magnitude the split handles without overflow.
SPLIT_MAX = 2.0 ** 995


def two_sum(a: np.ndarray, b: np.ndarray, finite: bool = False
            ) -> tuple[np.ndarray, np.ndarray]:
    """Knuth's TwoSum: ``s + e == a + b`` exactly, ``s = fl(a + b)`` (e = 0 where s is not
    finite).

    Why in place: three temporaries instead of six (a sum of two f32 values costs as
    much as the rest of its ULP error); the INF/NaN fix-up only runs when there is one.
    ``finite``: the caller knows every sum is finite (no pass to look for INF or NaN).
    """
    with np.errstate(invalid="ignore", over="ignore"):
        s = np.add(a, b)
        if not isinstance(s, np.ndarray):
            bb = s - a
            e = (a - (s - bb)) + (b - bb)
            return s, np.where(np.isfinite(s), e, 0.0)
        bb = np.subtract(s, a)
        e = np.subtract(s, bb)
        np.subtract(a, e, out=e)
        np.subtract(b, bb, out=bb)
        e += bb
    if finite:
        return s, e
    fin = np.isfinite(s)
    if not fin.all():
        e[~fin] = 0.0
    return s, e


def two_prod(a: np.ndarray, b: np.ndarray, finite: bool = False
             ) -> tuple[np.ndarray, np.ndarray]:
    """Dekker's TwoProduct: ``p + e == a * b`` exactly when no step over/underflows,
    ``p = fl(a * b)``.

    Where the split overflows (|x| > 2^995) or the product is not finite, ``e`` is 0 (the
    float64 product is then used as the exact value). ``finite``: the caller knows every
    operand is below 2^995 and finite (no pass to look for INF or NaN).
    """
    with np.errstate(invalid="ignore", over="ignore"):
        p = a * b
        ca = _SPLIT * a
        ah = ca - (ca - a)
        al = a - ah
        cb = _SPLIT * b
        bh = cb - (cb - b)
        bl = b - bh
        e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    if finite:
        return p, e
    return p, np.where(np.isfinite(e) & np.isfinite(p), e, 0.0)


def dd_add(ah: np.ndarray, al: np.ndarray, bh: np.ndarray, bl: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hi, lo, err): a + b with an absolute bound ``err`` on its rounding error."""
    s, e = two_sum(ah, bh)
    t = (al + bl) + e
    err = 2 * U * (np.abs(al) + np.abs(bl) + np.abs(e))
    err = np.where((al == 0) & (bl == 0), 0.0, err)  # two doubles: TwoSum is exact
    hi, lo = two_sum(s, t)
    return hi, lo, err


def dd_mul(ah: np.ndarray, al: np.ndarray, bh: np.ndarray, bl: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hi, lo, err): a * b with an absolute bound ``err`` on its rounding error."""
    p, e = two_prod(ah, bh)
    c1, c2 = ah * bl, al * bh
    t = (c1 + c2) + e
    err = 3 * U * (np.abs(c1) + np.abs(c2) + np.abs(e)) + np.abs(al * bl) * (1 + 2 * U)
    err = np.where((al == 0) & (bl == 0), 0.0, err)  # two doubles: TwoProduct is exact
    hi, lo = two_sum(p, t)
    return hi, lo, err


def dd_div(ah: np.ndarray, al: np.ndarray, bh: np.ndarray, bl: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hi, lo, err): a / b (one correction step) with a rounding-error bound."""
    q1 = ah / bh
    p, e = two_prod(q1, bh)
    r = (((ah - p) - e) + al) - q1 * bl
    q2 = r / bh
    hi, lo = two_sum(q1, q2)
    err = 2.0 ** -98 * np.abs(hi) + 4 * U * np.abs(q2)
    err = np.where((r == 0) & (al == 0) & (bl == 0), 0.0, err)  # q1 * b == a exactly
    return hi, lo, err


def dd_sqrt(ah: np.ndarray, al: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hi, lo, err): sqrt(a) for a >= 0 (one Newton correction)."""
    s = np.sqrt(ah)
    p, e = two_prod(s, s)
    r = ((ah - p) - e) + al
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(s == 0, 0.0, r / (2 * s))
    hi, lo = two_sum(s, c)
    err = 2.0 ** -98 * np.abs(hi) + 4 * U * np.abs(c)
    err = np.where((r == 0) & (al == 0), 0.0, err)  # s * s == a exactly
    return hi, lo, err
