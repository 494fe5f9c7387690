"""Plain-element kernel for f16 add, sub, mul (see engine/plain.py for the idea).

Plain: both operands finite and nonzero (and not +/-1 for mul: F32-IDENT). f16 does not
flush, so overflowing, denormal and zero results only need F16-DENORM and F16-PREC fired;
the sum or product is exact in float64 (hi exact, lo = 0) and the window is the one
rounded pattern (grid.round_f16: the same rounding as the general path's encoder).
"""

from __future__ import annotations

import numpy as np

from . import grid
from .result import Ctx
from .tolerances import Tolerance

__all__ = ["f16_binary"]


def f16_binary(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]):
    """Kernel for correctly rounded f16 add/sub/mul (every rule set)."""
    from .plain import _plain_parts

    fmt = ctx.fmt
    pa = np.asarray(operands[0], dtype=np.uint16)
    pb = np.asarray(operands[1], dtype=np.uint16)
    plain = _finite_nonzero16(pa)
    plain &= _finite_nonzero16(pb)
    op = ctx.op
    if op == "mul":
        one = np.uint16(0x3C00)
        plain &= ((pa & np.uint16(0x7FFF)) != one) & ((pb & np.uint16(0x7FFF)) != one)
    table = fmt._table  # exact float64 value of every f16 pattern
    a = table[pa]
    c = table[pb]
    with np.errstate(all="ignore"):
        if op == "add":
            hi = a + c
        elif op == "sub":
            hi = a - c
        else:
            hi = a * c
        bits = grid.round_f16(hi)  # one RNE rounding of the exact float64 value
    if not plain.any():
        return plain, None
    all_plain = bool(plain.all())
    lo = np.zeros(hi.shape)
    kb = grid.to_key(bits, fmt)
    parts = _plain_parts(ctx, tol, bits, hi, lo, kb, kb.copy(), 2)
    exact = table[bits] == hi
    parts.fire("IEEE-RNE" if ctx.rules == "ieee754" else "F16-PREC", ~exact)
    for rule in ("F32-INFINF", "F32-IDENT"):
        parts.fired[rule] = np.zeros(bits.shape, bool)
    if ctx.rules != "ieee754":  # denormal operands or results are kept (F16-DENORM)
        den = grid.is_den(bits, fmt)
        den |= grid.is_den(pa, fmt)
        den |= grid.is_den(pb, fmt)
        parts.fired["F16-DENORM"] = den
    return (None if all_plain else plain), parts


def _finite_nonzero16(p: np.ndarray) -> np.ndarray:
    """0 < |p| < INF for f16 patterns: (p << 1) - 2 wraps zero to the top (uint16)."""
    t = p << np.uint16(1)
    t -= np.uint16(2)
    return t < np.uint16(0xF7FE)
