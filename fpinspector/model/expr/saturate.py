"""The ``_sat`` result modifier (EXPR-SAT), exactly: D3D11.3 22.19.1 defines it as
``min(1.0f, max(0.0f, value))`` with the min/max instructions' rules (22.10.10/11):

- NaN gives +0 (min/max return the non-NaN operand);
- a value >= 1 gives 1.0, a normal value in (0, 1) is kept, a negative value gives +0;
- -0: max(+0, -0) may return either zero (F32-MINMAX-ZERO), so +0 or -0;
- a denormal (only a raw ``mov``/``movc`` passes one on) compares as a zero after the flush
  (F32-MINMAX-FTZ), so max(+0, d) may return +0, d, or d flushed: +0 or d (and -0 for a
  negative d).

The model takes the recommended reading (+0 for all of those). The allowed set of
``op_sat`` is the image of ``op``'s allowed set under that (set-valued, monotone) clamp.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..engine.grid import from_key, to_key
from ..formats import FloatFormat

__all__ = ["sat_model", "sat_changed", "sat_allowed", "sat_exact"]


def _parts(bits: np.ndarray, fmt: FloatFormat) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    b = np.asarray(bits).astype(np.int64)
    mag = b & (fmt.mask & ~fmt.sign_mask)
    neg = (b & fmt.sign_mask) != 0
    one = int(fmt.encode(1.0))
    return b, mag, neg, one


def sat_model(bits: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Model result of ``_sat`` on result patterns: clamp to [+0, 1.0]; NaN, negatives, -0
    and denormals give +0."""
    b, mag, neg, one = _parts(bits, fmt)
    nan = mag > fmt.pos_inf
    small = mag <= fmt.frac_mask  # zeros and denormals
    out = np.where(neg | nan | small, 0, np.where(mag >= one, one, b))
    return out.astype(fmt.dtype)


def sat_changed(bits: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Where the clamp changed the pattern (EXPR-SAT fired)."""
    return np.asarray(sat_model(bits, fmt) != np.asarray(bits).astype(fmt.dtype))


def sat_exact(exact: np.ndarray) -> np.ndarray:
    """The clamp on exact values: [0, 1], NaN to 0."""
    with np.errstate(invalid="ignore"):
        e = np.clip(np.asarray(exact, dtype=np.float64), 0.0, 1.0)
    return np.where(np.isnan(e), 0.0, e)


def sat_allowed(inner: Callable[[np.ndarray], np.ndarray], lo: np.ndarray, hi: np.ndarray,
                nan_ok: np.ndarray, obs: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Is each observed ``op_sat`` result in the image of ``op``'s allowed set?

    Parameters
    ----------
    inner : callable
        ``op``'s verdict on candidate patterns (same shape as ``obs``).
    lo, hi : ndarray
        Lowest and highest allowed non-NaN patterns of ``op`` (value order); a NaN pattern
        where only NaN is allowed.
    nan_ok : ndarray of bool
        Where ``op`` may give a NaN.
    obs : ndarray
        Observed ``op_sat`` patterns.
    """
    dt = fmt.dtype
    o = np.asarray(obs).astype(dt)
    b, mag, neg, one = _parts(o, fmt)
    shape = o.shape
    lo = np.broadcast_to(np.asarray(lo).astype(dt), shape)
    hi = np.broadcast_to(np.asarray(hi).astype(dt), shape)
    real = ~fmt.is_nan(lo)  # op allows some non-NaN value
    klo, khi = to_key(lo, fmt), to_key(hi, fmt)
    maxden = fmt.frac_mask
    full = lambda p: np.full(shape, p, dt)  # noqa: E731
    ok = np.zeros(shape, bool)
    # normal values in (0, 1) and denormals of either sign: kept as they are
    keep = ((~neg) & (mag > maxden) & (b < one)) | ((mag > 0) & (mag <= maxden))
    if keep.any():
        ok |= keep & inner(o)
    top = (b == one)  # 1.0: some allowed value >= 1
    ok |= top & real & (khi >= to_key(one, fmt))
    pz = (b == 0)  # +0: NaN, or some allowed value below the smallest normal
    if pz.any():
        ok |= pz & (np.asarray(nan_ok, bool) | (real & (klo <= maxden)) | inner(full(0))
                    | inner(full(fmt.sign_mask)))
    nz = (b == fmt.sign_mask)  # -0: -0 itself, or a negative denormal
    if nz.any():
        x = np.maximum(klo, -1 - maxden)
        y = np.minimum(khi, -2)
        hit = real & (x <= y)
        cand = np.array(inner(full(fmt.sign_mask)), dtype=bool)
        if hit.any():
            cand = cand | hit & (inner(from_key(np.where(hit, x, -1), fmt))
                           | inner(from_key(np.where(hit, y, -1), fmt)))
        ok |= nz & cand
    return ok
