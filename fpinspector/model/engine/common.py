"""Steps shared by every float op: input flush, model rounding + output flush, windows."""

from __future__ import annotations

import numpy as np

from . import grid
from .result import Ctx, Parts, cr_window, finish_window, window_hull, window_tol
from .tolerances import Tolerance

__all__ = ["load", "round_model", "tol_window", "new_parts"]


def load(ctx: Ctx, operands: list[np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Decode operands to float64; flush denormals to signed zero where F32-FTZ applies.

    Returns (values, flushed-masks).
    """
    vals, ftz = [], []
    for b in operands:
        with np.errstate(invalid="ignore"):  # signaling NaNs raise "invalid" on the cast
            v = ctx.fmt.decode(b)
        if ctx.flush:
            den = grid.is_den(b, ctx.fmt)
            v = np.where(den, np.copysign(0.0, v), v)
        else:
            den = np.zeros(v.shape, dtype=bool)
        vals.append(v)
        ftz.append(den)
    return vals, ftz


def new_parts(ctx: Ctx, hi: np.ndarray, lo: np.ndarray, ftz: list[np.ndarray]) -> Parts:
    """A Parts record with the exact value, the model bits and the input-flush facts."""
    fmt = ctx.fmt
    parts = Parts(fmt, fmt.name, np.zeros(hi.shape, fmt.dtype), hi, lo, ftz_in=ftz)
    for m in ftz:
        parts.fire("F32-FTZ", m)
    round_model(parts, ctx)
    return parts


def round_model(parts: Parts, ctx: Ctx) -> None:
    """Model bits: round to nearest even, flush a denormal result, canonical quiet NaN."""
    fmt = ctx.fmt
    bits = grid.rne(parts.hi, parts.lo, fmt)
    parts.unrounded = bits
    nan = np.isnan(parts.hi)
    if ctx.flush:
        den = grid.is_den(bits, fmt)
        parts.ftz_out = den
        parts.fire("F32-FTZ", den)
        bits = grid.flush_pat(bits, fmt)
    else:
        parts.ftz_out = np.zeros(bits.shape, dtype=bool)
    bits = np.where(nan, fmt.dtype.type(fmt.quiet_nan), bits).astype(fmt.dtype)
    parts.bits = bits
    parts.fire("F32-NANOUT", nan)


def _ulp_window(parts: Parts, t: float) -> tuple[np.ndarray, np.ndarray]:
    fmt = parts.fmt
    u = grid.ulp_at(parts.hi, parts.lo, fmt) * t
    with np.errstate(invalid="ignore"):
        u = np.where(np.isfinite(parts.hi), u, 0.0)
    return window_tol(parts.hi, parts.lo, u, u, fmt)


def _rel_window(parts: Parts, r: float) -> tuple[np.ndarray, np.ndarray]:
    with np.errstate(invalid="ignore"):
        d = np.where(np.isfinite(parts.hi), np.abs(parts.hi) * r, 0.0)
    return window_tol(parts.hi, parts.lo, d, d, parts.fmt)


def tol_window(parts: Parts, ctx: Ctx, tol: Tolerance, x: np.ndarray | None = None) -> None:
    """Build the allowed window for the simple kinds (cr, exact, ulp, rel, rel_or_ulp, log).

    ``x`` is the (flushed) operand value, needed by ``log`` to pick absolute vs relative.
    """
    fmt = ctx.fmt
    k = tol.kind
    if k in ("cr", "exact"):
        klo, khi = cr_window(parts.unrounded, fmt)
    elif k == "ulp":
        klo, khi = _ulp_window(parts, tol.ulp)
    elif k == "rel":
        klo, khi = _rel_window(parts, tol.rel)
    elif k == "rel_or_ulp":
        klo, khi = window_hull(_ulp_window(parts, tol.ulp), _rel_window(parts, tol.rel))
    elif k == "log":
        assert x is not None
        near = (x >= 0.5) & (x <= 2.0)
        d = np.where(near, tol.rel, np.abs(np.nan_to_num(parts.hi)) * tol.rel)
        d = np.where(np.isfinite(parts.hi), d, 0.0)
        klo, khi = window_tol(parts.hi, parts.lo, d, d, fmt)
    else:
        raise ValueError(f"tol_window cannot build kind {k!r}")
    # the model's own (unflushed) result is always allowed: guards float64 edge rounding
    kb = grid.to_key(parts.unrounded, fmt)
    fin = np.isfinite(parts.hi)
    klo = np.where(fin, np.minimum(klo, kb), klo)
    khi = np.where(fin, np.maximum(khi, kb), khi)
    finish_window(parts, ctx, klo, khi)
    parts.tol_text = tol.describe()
