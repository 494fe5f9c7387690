"""Per-element comparisons used by sweeps: ordered pattern distance ("GPU vs model" in ULPs)."""

from __future__ import annotations

import numpy as np

from ..formats import FORMATS, FloatFormat, get_format

__all__ = ["ordered_index", "ulp_distance"]


def ordered_index(bits: np.ndarray, fmt: str | FloatFormat) -> np.ndarray:
    """Map patterns to int64 so that value order is integer order and +0 == -0.

    Why: the number of representable values between two results is the difference of
    these indices, which is what "n ULPs apart" means across binades and signs.
    NaN patterns map above +INF (callers mask them).
    """
    f = get_format(fmt)
    b = np.asarray(bits).astype(np.int64)
    if not f.signed:
        return b
    mag = b & np.int64(f.mask & ~f.sign_mask)
    return np.where((b & np.int64(f.sign_mask)) != 0, -mag, mag)


def ulp_distance(observed: np.ndarray, reference: np.ndarray, fmt: str | FloatFormat) -> np.ndarray:
    """Signed count of representable steps from ``reference`` to ``observed`` (float64).

    0 when both are NaN or both are zeros of either sign; NaN when exactly one is NaN.
    Boolean results (comparisons) give 0 for equal and 1 for different; integer results
    (formats not in FORMATS, e.g. "i32") their plain difference.
    """
    obs, ref = np.asarray(observed), np.asarray(reference)
    if obs.dtype == np.bool_ or ref.dtype == np.bool_:
        return (obs.astype(bool) != ref.astype(bool)).astype(np.float64)
    if (fmt.name if isinstance(fmt, FloatFormat) else str(fmt)) not in FORMATS:  # integer results (ftoi, ftou...): plain difference
        return obs.astype(np.float64) - ref.astype(np.float64)
    f = get_format(fmt)
    o, r = _ordered_and_nan(obs, f), _ordered_and_nan(ref, f)
    d = (o[0] - r[0]).astype(np.float64)
    d[o[1] | r[1]] = np.nan
    d[o[1] & r[1]] = 0.0
    return d


def _ordered_and_nan(bits: np.ndarray, f: FloatFormat) -> tuple[np.ndarray, np.ndarray]:
    """(ordered index, is-NaN) in one pass over the magnitude."""
    b = np.asarray(bits).astype(np.int64)
    mag = b & np.int64(f.mask & ~f.sign_mask) if f.signed else b
    nan = mag > f.pos_inf
    if f.signed:
        neg = (b & np.int64(f.sign_mask)) != 0
        np.negative(mag, out=mag, where=neg)
    return mag, nan
