"""Allowed sets of the ops that pick or move a value: min/max (F32-MINMAX-*) and mov."""

from __future__ import annotations

import numpy as np

from .. import grid
from ..allowed import AllowedArrays
from .facts import Facts

__all__ = ["minmax_allowed", "mov_allowed"]


def minmax_allowed(f: Facts) -> AllowedArrays:
    """The model's pick; either zero on a -0/+0 tie (F32-MINMAX-ZERO); any NaN when the
    result is NaN; and (F32-MINMAX-FTZ: the result may or may not be flushed) the
    unflushed form of whichever operand the result came from."""
    ctx = f.ctx
    fmt = ctx.fmt
    ch = f.choice
    k = grid.to_key(ch.bits, fmt)
    klo = np.where(ch.zero_tie, -1, k)
    khi = np.where(ch.zero_tie, 0, k)
    klo = np.where(ch.nan_out, 1, klo)
    khi = np.where(ch.nan_out, 0, khi)
    points = []
    if ctx.flush:
        ra, rb = (np.asarray(o).astype(fmt.dtype) for o in f.ops)
        pick_a = ~ch.nan_out & (ch.a_wins | ch.tie | (ch.nb & ~ch.na))
        pick_b = ~ch.nan_out & (ch.b_wins | ch.tie | (ch.na & ~ch.nb))
        points.append((grid.to_key(ra, fmt), pick_a & f.ftz_in[0]))
        points.append((grid.to_key(rb, fmt), pick_b & f.ftz_in[1]))
    return AllowedArrays(fmt, [(klo, khi, False)], points, ch.nan_out.copy())


def mov_allowed(f: Facts) -> AllowedArrays:
    """A raw move keeps every bit, NaN payloads and denormals included (F32-FTZ exempt)."""
    fmt = f.ctx.fmt
    k = grid.to_key(f.core.bits, fmt)
    return AllowedArrays(fmt, [(k, k.copy(), False)], [], np.zeros(f.n, dtype=bool))
