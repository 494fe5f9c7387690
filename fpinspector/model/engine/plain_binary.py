"""Plain-element kernel for f32 add, sub, mul, div (see engine/plain.py for the idea).

Plain: both operands normal, no F32-IDENT case (|b| != 1 for mul/div, |a| != 1 for mul),
the float64 result in [2^-125, 2^127) in magnitude, and for div also |b| <= 2^124 so that
the reciprocal of the d3d11 F32-DIV window (x * rcp(y)) is normal too. Then no flush,
zero, INF or NaN rule can apply, and the windows are computed with the same arithmetic as
ops_arith (TwoSum / exact float64 products and quotients, the same directed roundings).
"""

from __future__ import annotations

import numpy as np

from . import grid
from .result import Ctx
from .tolerances import Tolerance

__all__ = ["f32_binary", "OPS"]

OPS = ("add", "sub", "mul", "div")
_ABS = np.uint32(0x7FFFFFFF)
_ONE = np.uint32(0x3F800000)


def _prec_rule(ctx: Ctx) -> str | None:
    if ctx.op == "div" and ctx.rules != "ieee754":
        return None  # F32-DIV below
    return "IEEE-RNE" if ctx.rules == "ieee754" else "F32-PREC"


def f32_binary(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]):
    """Kernel for tolerance kinds cr, ulp and div (the F32-PREC / F32-DIV windows)."""
    from .plain import _normal32, _plain_parts, _window

    fmt = ctx.fmt
    op = ctx.op
    pa = np.asarray(operands[0], dtype=np.uint32)
    pb = np.asarray(operands[1], dtype=np.uint32)
    plain = _normal32(pa)
    plain &= _normal32(pb)
    if op in ("mul", "div"):
        plain &= (pb & _ABS) != _ONE
    if op == "mul":
        plain &= (pa & _ABS) != _ONE
    if op == "div":
        plain &= (pb & _ABS) <= np.uint32(0x7D800000)  # |b| <= 2^124
    if not plain.any():
        return plain, None
    with np.errstate(invalid="ignore"):
        a = pa.view(np.float32).astype(np.float64)
        b = pb.view(np.float32).astype(np.float64)
    with np.errstate(all="ignore"):
        if op in ("add", "sub"):
            hi, lo = grid.two_sum(a, b if op == "add" else -b)
        else:
            hi = a * b if op == "mul" else a / b
            lo = np.zeros_like(hi)
        m = np.abs(hi)
        plain &= m >= 2.0**-125
        plain &= m < 2.0**127
    if not plain.any():
        return plain, None
    all_plain = bool(plain.all())
    if not all_plain:  # scratch elements: finite normal values, overwritten later
        np.putmask(hi, ~plain, 1.0)
        np.putmask(lo, ~plain, 0.0)
        np.putmask(b, ~plain, 3.0)
        np.putmask(a, ~plain, 3.0)
    bits = grid.rne(hi, lo, fmt)
    kb = grid.to_key(bits, fmt)
    if tol.kind == "cr":
        klo, khi = kb, kb.copy()
    elif tol.kind == "ulp":
        u = grid.ulp_at(hi, lo, fmt) * tol.ulp
        klo, khi = _window(hi, u, u, lo)
        np.minimum(klo, kb, out=klo)
        np.maximum(khi, kb, out=khi)
    else:  # "div": at least as accurate as a * rcp(b), rcp 1 ULP, the mul ``tol.ulp``
        klo, khi = _div_window(hi, a, b, kb, tol)
    parts = _plain_parts(ctx, tol, bits, hi, lo, klo, khi, 2)
    for rule in ("F32-INFINF", "F32-IDENT") + (("F32-DIV0",) if op == "div" else ()):
        parts.fired[rule] = np.zeros(bits.shape, bool)
    rule = _prec_rule(ctx)
    if rule is not None:
        inexact = (bits.view(np.float32).astype(np.float64) != hi) | (lo != 0)
        parts.fire(rule, inexact)
    if op == "div" and ctx.rules != "ieee754":
        parts.fired["F32-DIV"] = np.ones(bits.shape, bool)
    return (None if all_plain else plain), parts


def _values(k: np.ndarray) -> np.ndarray:
    from .plain import _F32

    return grid.from_key(k, _F32).view(np.float32).astype(np.float64)


def _step_val(p: np.ndarray, t: float, up: bool) -> np.ndarray:
    """ops_arith._step for a normal exact float64 value p (lo = 0): one serial step."""
    from .plain import _F32, _window

    if t == 0.5:
        return p.astype(np.float32).astype(np.float64)
    u = grid.ulp_at(p, 0.0 * p, _F32) * t
    klo, khi = _window(p, u, u, 0.0 * p)
    return _values(khi if up else klo)


def _div_window(hi: np.ndarray, a: np.ndarray, b: np.ndarray, kb: np.ndarray,
                tol: Tolerance) -> tuple[np.ndarray, np.ndarray]:
    """ops_arith._div_window on plain elements: the same candidates, error and hull."""
    from .plain import _F32, _window

    with np.errstate(all="ignore"):
        q = 1.0 / b
    zero = np.zeros_like(q)
    u = grid.ulp_at(q, zero, _F32)
    rk_lo, rk_hi = _window(q, u, u, zero)
    cands = []
    err = None
    for rk in (rk_lo, rk_hi):
        pr = a * _values(rk)
        for up in (False, True):
            c = _step_val(pr, tol.ulp, up)
            e = np.abs(c - hi)
            err = e if err is None else np.maximum(err, e, out=err)
            cands.append(grid.to_key(c.astype(np.float32).view(np.uint32), _F32))
    klo, khi = _window(hi, err, err, zero)
    np.minimum(klo, kb, out=klo)
    np.maximum(khi, kb, out=khi)
    for kc in cands:
        np.minimum(klo, kc, out=klo)
        np.maximum(khi, kc, out=khi)
    return klo, khi
