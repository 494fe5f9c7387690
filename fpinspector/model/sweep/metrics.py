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
    return _ordered_and_nan(np.asarray(bits), get_format(fmt))[0]


def ulp_distance(observed: np.ndarray, reference: np.ndarray, fmt: str | FloatFormat) -> np.ndarray:
    """Signed count of representable steps from ``reference`` to ``observed`` (float64).

    0 when both are NaN or both are zeros of either sign; NaN when exactly one is NaN.
    Boolean results (comparisons) give 0 for equal and 1 for different; integer results
    (formats not in FORMATS, e.g. "i32") their plain difference. Distances across zero
    between huge f64 values are rounded to float64; same-sign distances are exact.
    """
    obs, ref = np.asarray(observed), np.asarray(reference)
    if obs.dtype == np.bool_ or ref.dtype == np.bool_:
        return (obs.astype(bool) != ref.astype(bool)).astype(np.float64)
    if (fmt.name if isinstance(fmt, FloatFormat) else str(fmt)) not in FORMATS:
        return obs.astype(np.float64) - ref.astype(np.float64)
    f = get_format(fmt)
    o, o_nan = _ordered_and_nan(obs, f)
    r, r_nan = _ordered_and_nan(ref, f)
    if f.bits < 64:
        d = (o - r).astype(np.float64)
    else:  # int64 o - r can overflow only across zero, where float64 precision is plenty
        same = (o >= 0) == (r >= 0)
        d = np.where(same, (o - r).astype(np.float64), o.astype(np.float64) - r.astype(np.float64))
    d[o_nan | r_nan] = np.nan
    d[o_nan & r_nan] = 0.0
    return d


def _ordered_and_nan(bits: np.ndarray, f: FloatFormat) -> tuple[np.ndarray, np.ndarray]:
    """(ordered index as int64, is-NaN) in one pass over the magnitude (bit ops in uint64)."""
    b = np.asarray(bits).astype(np.uint64)
    mag = (b & np.uint64(f.mask & ~f.sign_mask)).astype(np.int64)
    nan = mag > f.pos_inf
    if f.signed:
        neg = (b >> np.uint64(f.bits - 1)).astype(bool)
        np.negative(mag, out=mag, where=neg)
    return mag, nan
