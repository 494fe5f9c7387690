"""A residual ``lo`` of an exact pair that is +0 everywhere, as a constant read-only view.

Why: products of f32/f16 values, the float64 square roots of f32/f16 values and results
that are their own exact value have ``lo = 0``. A constant view costs no pass to make,
and the ULP error and the ULP itself, which only add, subtract or compare ``lo``, skip
it (x - (+0) is x, every bit of it). Whoever keeps a residual copies it into its own
array; a write into the view raises.
"""

from __future__ import annotations

import numpy as np

__all__ = ["zero_residual", "is_zero_residual", "writable_residual"]

_ZERO = np.zeros(1)
#: the views made so far, by shape (a sweep's chunks have a few shapes; cleared past 64)
_VIEWS: dict[tuple[int, ...], np.ndarray] = {}


def zero_residual(like: np.ndarray) -> np.ndarray:
    """A +0 residual of ``like``'s shape (read-only, no memory of its own).

    Why kept by shape: np.broadcast_to costs ~7 us of Python per call, once or twice per
    sweep chunk; the view is read-only, so one per shape serves every caller."""
    shape = np.shape(like)
    view = _VIEWS.get(shape)
    if view is None:
        if len(_VIEWS) >= 64:
            _VIEWS.clear()
        view = _VIEWS[shape] = np.broadcast_to(_ZERO[0], shape)
    return view


def is_zero_residual(lo: object) -> bool:
    """Is ``lo`` a constant +0 array (all strides 0), such as :func:`zero_residual`'s?"""
    if not isinstance(lo, np.ndarray) or lo.ndim == 0 or lo.size == 0 or any(lo.strides):
        return False
    first = lo.reshape(-1)[:1]
    return bool(first[0] == 0 and not np.signbit(first[0]))


def writable_residual(lo: np.ndarray) -> np.ndarray:
    """``lo`` as an array some elements can be written into: zeros of its own for the
    constant view, any other array as it is."""
    return np.zeros(lo.shape) if is_zero_residual(lo) else lo
