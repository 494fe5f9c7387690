"""Double-double arithmetic on numpy arrays (hi + lo, |lo| <= ulp(hi)/2), with the error
terms the bound tracking in :mod:`.exact_fast` needs.

Error-free transformations: TwoSum (Knuth) and TwoProduct (Dekker's split; no FMA in numpy).
Operands must stay below 2^995 in magnitude for the split not to overflow; callers mark
larger values for the exact fallback.
"""

from __future__ import annotations

import numpy as np

from ..numerics.eft import SPLIT_MAX, U, two_prod, two_sum

__all__ = ["two_sum", "two_prod", "dd_add", "dd_mul", "dd_div", "dd_sqrt", "U", "SPLIT_MAX"]


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
