"""min / max (F32-MINMAX-*, IEEE minNum/maxNum) and the comparisons eq ne lt le gt ge."""

from __future__ import annotations

import numpy as np

from . import grid
from .common import load
from .result import Ctx, Parts, empty_window
from .tolerances import Tolerance

__all__ = ["eval_minmax", "eval_compare", "is_snan"]

_CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
        "gt": np.greater, "ge": np.greater_equal}


def is_snan(bits: np.ndarray, fmt) -> np.ndarray:
    """Signaling NaN: a NaN whose top fraction bit is clear (IEEE 754-2008 §6.2.1)."""
    quiet_bit = 1 << (fmt.frac_bits - 1)
    return fmt.is_nan(bits) & ((np.asarray(bits).astype(np.uint64) & np.uint64(quiet_bit)) == 0)


def eval_minmax(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]) -> Parts:
    """min/max: flushed comparison (F32-MINMAX-FTZ), one NaN -> the other (F32-MINMAX-NAN),
    -0/+0 recommended order (F32-MINMAX-ZERO); ieee754 (and f64 by default) add the sNaN rule."""
    fmt = ctx.fmt
    ra, rb = (np.asarray(o).astype(fmt.dtype) for o in operands)
    (a, b), ftz = load(ctx, [ra, rb])
    fa = grid.flush_pat(ra, fmt) if ctx.flush else ra
    fb = grid.flush_pat(rb, fmt) if ctx.flush else rb
    na, nb = np.isnan(a), np.isnan(b)
    is_min = ctx.op == "min"
    with np.errstate(invalid="ignore"):
        a_wins = (a < b) if is_min else (a > b)
        b_wins = (b < a) if is_min else (b > a)
    tie = ~(a_wins | b_wins) & ~na & ~nb
    zero_tie = tie & (a == 0) & (np.signbit(a) != np.signbit(b))
    zero_pat = fmt.dtype.type(fmt.sign_mask if is_min else 0)
    bits = np.where(a_wins | (tie & ~zero_tie), fa, fb)
    bits = np.where(zero_tie, zero_pat, bits)
    bits = np.where(na & ~nb, fb, bits)
    bits = np.where(nb & ~na, fa, bits)
    both_nan = na & nb
    snan_rule = ctx.rules == "ieee754" or (fmt.name == "f64" and ctx.opts["f64_minmax_snan"])
    snan = (is_snan(ra, fmt) | is_snan(rb, fmt)) if snan_rule else np.zeros(a.shape, bool)
    nan_out = both_nan | snan
    bits = np.where(nan_out, fmt.dtype.type(fmt.quiet_nan), bits).astype(fmt.dtype)
    hi = np.where(nan_out, np.nan, fmt.decode(bits))
    parts = Parts(fmt, fmt.name, bits, hi, np.zeros_like(hi), ftz_in=ftz)
    parts.unrounded = bits
    parts.ftz_out = np.zeros(a.shape, dtype=bool)
    for m in ftz:
        parts.fire("F32-MINMAX-FTZ", m)
    one_nan = (na ^ nb) & ~snan
    parts.fire("F32-MINMAX-NAN", one_nan)
    parts.fire("F32-NANOUT", both_nan)
    if snan_rule:
        parts.fire("IEEE-MINMAX", snan)
    parts.fire("F32-MINMAX-ZERO", zero_tie)
    # allowed: the model pattern, either zero on a -0/+0 tie, any NaN when the result is NaN,
    # and (F32-MINMAX-FTZ) the unflushed form of whichever operand the result came from
    k = grid.to_key(bits, fmt)
    klo, khi = k, k.copy()
    klo = np.where(zero_tie, -1, klo)
    khi = np.where(zero_tie, 0, khi)
    e_lo, e_hi = empty_window(len(k))
    parts.klo = np.where(nan_out, e_lo, klo)
    parts.khi = np.where(nan_out, e_hi, khi)
    parts.nan_ok = nan_out
    if ctx.flush:
        pick_a = ~nan_out & (a_wins | tie | (nb & ~na))
        pick_b = ~nan_out & (b_wins | tie | (na & ~nb))
        parts.extras.append(("pat", ra, pick_a & ftz[0]))
        parts.extras.append(("pat", rb, pick_b & ftz[1]))
    parts.tol_text = tol.describe()
    return parts


def eval_compare(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]) -> Parts:
    """Comparisons on flushed values: NaN false except ne (F32-CMPNAN), -0 == +0, INF ordered."""
    (a, b), ftz = load(ctx, operands)
    with np.errstate(invalid="ignore"):
        res = _CMP[ctx.op](a, b)
    nan = np.isnan(a) | np.isnan(b)
    parts = Parts(None, "bool", res, res.astype(np.float64), np.zeros(res.shape), ftz_in=ftz)
    for m in ftz:
        parts.fire("F32-FTZ", m)
    parts.fire("F32-CMPNAN", nan)
    parts.fire("F32-CMPZERO", (a == 0) & (b == 0))
    parts.fire("F32-CMPINF", ~nan & (np.isinf(a) | np.isinf(b)))
    parts.nan_ok = np.zeros(res.shape, dtype=bool)
    parts.tol_text = tol.describe()
    return parts
