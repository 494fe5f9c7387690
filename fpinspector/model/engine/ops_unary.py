"""Unary ops: sqrt, rsq, rcp, log (log2), exp (2^x), frc, round_ne/ni/pi/z, mov."""

from __future__ import annotations

import numpy as np

from . import grid
from .common import load, new_parts, tol_window
from .exact import transcendental
from .result import Ctx, Parts, finish_window
from .tolerances import Tolerance

__all__ = ["eval_unary", "eval_mov"]

_ROUND = {"round_ne": np.rint, "round_ni": np.floor, "round_pi": np.ceil, "round_z": np.trunc}


def _acc_rule(ctx: Ctx) -> str:
    if ctx.rules == "ieee754":
        return "IEEE-RNE"
    if ctx.fmt.name == "f16":
        return "F16-PREC"
    if ctx.fmt.name == "f64":
        return "F64-IEEE"
    return "F32-SQRT-RCP" if ctx.op in ("sqrt", "rcp") else "F32-INSTR"


def eval_unary(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]) -> Parts:
    """Every unary math op: exact reference, model bits, window and fired rules."""
    (x,), ftz = load(ctx, operands)
    op = ctx.op
    if op in _ROUND:
        with np.errstate(all="ignore"):
            hi = _ROUND[op](x)
        lo = np.zeros_like(hi)
    elif op == "frc":
        with np.errstate(all="ignore"):
            hi, lo = grid.two_sum(x, -np.floor(x))
    else:
        hi, lo = transcendental(op, x, ctx.fmt)
    parts = new_parts(ctx, hi, lo, ftz)
    nan_in = np.isnan(x)
    parts.fire("F32-NANPROP", nan_in)
    neg = (x < 0) | ((x == 0) & np.signbit(x))
    if op in ("sqrt", "rsq"):
        parts.fire("F32-SQRTNEG", neg)
    elif op == "log":
        parts.fire("F32-LOG0", (x == 0) | (x < 0))
    elif op == "rcp":
        parts.fire("F32-DIV0", x == 0)
    if op == "frc":
        parts.fire("F32-INFINF", np.isinf(x))
        _frc(parts, ctx, tol)
    elif op in _ROUND:
        tol_window(parts, ctx, tol)
        parts.fire("F32-INSTR", ~nan_in)
    else:
        tol_window(parts, ctx, tol, x)
        parts.fire(_acc_rule(ctx), np.isfinite(hi) & ~nan_in)
    return parts


def _frc(parts: Parts, ctx: Ctx, tol: Tolerance) -> None:
    """frc = x - round_ni(x) in [+0, 1): the rounded 1.0 is clamped to the value below 1."""
    fmt = ctx.fmt
    one = int(fmt.encode(1.0))
    below = one - 1
    b = parts.bits
    clamp = b == one
    parts.bits = np.where(clamp, fmt.dtype.type(below), b).astype(fmt.dtype)
    parts.unrounded = np.where(parts.unrounded == one, fmt.dtype.type(below), parts.unrounded)
    parts.fire("F32-INSTR", np.isfinite(parts.hi))
    sub_tol = 1.0 if (ctx.rules == "d3d10" and fmt.name == "f32") else 0.5
    if sub_tol == 0.5:
        k = grid.to_key(parts.unrounded, fmt)
        klo, khi = k, k.copy()
    else:
        from .common import _ulp_window

        klo, khi = _ulp_window(parts, sub_tol)
    klo = np.maximum(klo, 0)  # result >= +0
    khi = np.minimum(khi, below)
    finish_window(parts, ctx, klo, khi)
    parts.tol_text = tol.describe() + (" (subtraction at 1 ULP, d3d10)" if sub_tol == 1.0 else "")


def eval_mov(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]) -> Parts:
    """mov: a raw move keeps every bit, denormals and NaN payloads included (F32-FTZ exempt)."""
    fmt = ctx.fmt
    b = np.asarray(operands[0]).astype(fmt.dtype)
    with np.errstate(invalid="ignore"):  # signaling NaN payloads raise "invalid" on the cast
        v = fmt.decode(b)
    parts = Parts(fmt, fmt.name, b.copy(), v, np.zeros_like(v))
    parts.unrounded = parts.bits
    parts.ftz_in = [np.zeros(b.shape, dtype=bool)]
    parts.ftz_out = np.zeros(b.shape, dtype=bool)
    k = grid.to_key(b, fmt)
    parts.klo, parts.khi = k, k.copy()
    parts.nan_ok = np.zeros(b.shape, dtype=bool)
    parts.fired["F32-FTZ"] = np.zeros(b.shape, dtype=bool)
    parts.fire("F32-NANOUT", fmt.is_nan(b))  # the raw-move exception: payload kept
    parts.tol_text = tol.describe()
    return parts
