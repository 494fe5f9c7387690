"""ULP of a result format at an exact value, and signed ULP errors of observed patterns.

The ULP at x is the spacing of x's binade in the format: 2^(k - F) for |x| in [2^k, 2^(k+1)),
the denormal spacing at zero and below the smallest normal, the top binade's spacing at
and beyond 2^maxexp (the engine's convention, so step and expression errors read alike).
"""

from __future__ import annotations

import numpy as np

from ..formats import FloatFormat

__all__ = ["ulp_at", "ulp_error"]


def ulp_at(x: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """ULP of ``fmt`` at the (float64) values ``x``; NaN and INF get the top spacing."""
    a = np.abs(np.asarray(x, dtype=np.float64))
    with np.errstate(invalid="ignore", over="ignore"):
        _, e = np.frexp(np.where(np.isfinite(a), a, 0.0))  # a = m * 2^e, m in [0.5, 1)
    k = np.clip(e.astype(np.int64) - 1, fmt.minexp, fmt.maxexp - 1)
    top = ~np.isfinite(a)
    k = np.where(top, fmt.maxexp - 1, k)
    return np.ldexp(1.0, (k - fmt.frac_bits).astype(np.int32))


def ulp_error(obs: np.ndarray, exact: np.ndarray, exact_lo: np.ndarray | None,
              fmt: FloatFormat) -> np.ndarray:
    """Signed (observed - exact) / ULP at exact.

    Exact INF or NaN: 0 when the observation is the same INF / any NaN, else +-INF (INF
    exact) or NaN (NaN exact); a NaN observation of a finite exact value gives NaN.
    """
    o = np.asarray(obs).astype(fmt.dtype)
    with np.errstate(invalid="ignore"):
        v = fmt.decode(o)
    hi = np.broadcast_to(np.asarray(exact, dtype=np.float64), v.shape)
    lo = 0.0 if exact_lo is None else np.broadcast_to(np.asarray(exact_lo, np.float64), v.shape)
    u = ulp_at(hi, fmt)
    with np.errstate(all="ignore"):
        err = ((v - hi) - lo) / u
        same_inf = np.isinf(hi) & (v == hi)
        err = np.where(same_inf, 0.0, err)
        err = np.where(np.isinf(hi) & ~same_inf, np.where(np.isnan(v), np.nan,
                                                          np.copysign(np.inf, v - hi)), err)
        err = np.where(np.isnan(hi), np.where(np.isnan(v), 0.0, np.nan), err)
    return err
