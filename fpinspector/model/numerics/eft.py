"""Error-free transformations on numpy arrays: TwoSum (Knuth) and TwoProduct (Dekker's
split; numpy has no fma ufunc). Operands of two_prod must stay below 2^995 in magnitude for
the split not to overflow."""

from __future__ import annotations

import numpy as np

__all__ = ["two_sum", "two_prod", "U", "SPLIT_MAX"]

_SPLITTER = 134217729.0  # 2^27 + 1
#: Unit roundoff of float64 (2^-53).
U = 2.0 ** -53
#: Largest magnitude the split handles without overflow.
SPLIT_MAX = 2.0 ** 995


def two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """s + e == a + b exactly, s = fl(a + b)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = _SPLITTER * a
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """p + e == a * b exactly (no overflow or underflow), p = fl(a * b)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e
