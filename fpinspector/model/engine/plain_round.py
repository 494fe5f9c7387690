"""Plain-element kernels for f32 round_ne/ni/pi/z and frc (see engine/plain.py for the idea).

Plain: the operand is a normal f32 number; for frc also the float64 difference x - floor(x)
is exact (lo = 0: false only for tiny negative x, where 1 + x needs more than 53 bits) and
at least 2^-125 (so the result and every window end are normal: no zero or F32-FTZ case).
"""

from __future__ import annotations

import numpy as np

from . import grid
from .result import Ctx
from .tolerances import Tolerance

__all__ = ["f32_round", "f32_frc"]

_ROUND = {"round_ne": np.rint, "round_ni": np.floor, "round_pi": np.ceil, "round_z": np.trunc}
_ONE = 0x3F800000


def f32_round(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]):
    """round_*: the rounded integer is exact in f32, the window is that one pattern."""
    from .plain import _normal32, _plain_parts

    b = np.asarray(operands[0], dtype=np.uint32)
    plain = _normal32(b)
    if not plain.any():
        return plain, None
    with np.errstate(invalid="ignore"):
        x = b.view(np.float32).astype(np.float64)
    hi = _ROUND[ctx.op](x, out=x)
    if not plain.all():
        hi[~plain] = 0.0  # scratch, overwritten by the general handler
    bits = grid.rne(hi, 0.0, ctx.fmt)
    kb = grid.to_key(bits, ctx.fmt)
    parts = _plain_parts(ctx, tol, bits, hi, np.zeros_like(hi), kb, kb.copy(), 1)
    parts.fired["F32-INSTR"] = np.ones(bits.shape, bool)
    return (None if plain.all() else plain), parts


def f32_frc(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]):
    """frc = x - floor(x) rounded, 1.0 clamped to the value below (F32-INSTR)."""
    from .plain import _normal32, _plain_parts, _window

    fmt = ctx.fmt
    b = np.asarray(operands[0], dtype=np.uint32)
    plain = _normal32(b)
    if not plain.any():
        return plain, None
    with np.errstate(invalid="ignore"):
        x = b.view(np.float32).astype(np.float64)
    with np.errstate(all="ignore"):
        hi, lo = grid.two_sum(x, -np.floor(x))
    plain &= lo == 0
    plain &= hi >= 2.0**-125
    if not plain.any():
        return plain, None
    all_plain = bool(plain.all())
    if not all_plain:
        hi[~plain] = 0.5  # scratch, overwritten by the general handler
        lo[~plain] = 0.0
    bits = grid.rne(hi, lo, fmt)
    below = np.uint32(_ONE - 1)
    bits[bits == np.uint32(_ONE)] = below
    if ctx.rules == "d3d10":  # subtraction at 1 ULP
        u = grid.ulp_at(hi, lo, fmt)
        klo, khi = _window(hi, u, u, lo)
    else:
        klo = grid.to_key(bits, fmt)
        khi = klo.copy()
    np.maximum(klo, 0, out=klo)
    np.minimum(khi, int(below), out=khi)
    parts = _plain_parts(ctx, tol, bits, hi, lo, klo, khi, 1)
    parts.fired["F32-INFINF"] = np.zeros(bits.shape, bool)
    parts.fired["F32-INSTR"] = np.ones(bits.shape, bool)
    if ctx.rules == "d3d10":
        parts.tol_text += " (subtraction at 1 ULP, d3d10)"
    return (None if all_plain else plain), parts
