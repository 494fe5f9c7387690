"""add, sub, mul, div, mad, dp2/dp3/dp4: exact value, model bits, windows, fired rules."""

from __future__ import annotations

from itertools import combinations, permutations

import numpy as np

from . import grid
from .common import load, new_parts, tol_window
from .exact import binary_exact, sum_exact
from .result import Ctx, Parts, finish_window, window_hull, window_tol
from .tolerances import Tolerance

__all__ = ["eval_binary", "eval_fused"]


def _prec_rule(ctx: Ctx) -> str:
    if ctx.rules == "ieee754":
        return "IEEE-RNE"
    return {"f32": "F32-PREC", "f16": "F16-PREC", "f64": "F64-IEEE"}[ctx.fmt.name]


def _nan_rules(parts: Parts, op: str, a: np.ndarray, b: np.ndarray) -> None:
    """Fire the IEEE special-case rules for a binary op on (flushed) operand values."""
    nan_in = np.isnan(a) | np.isnan(b)
    parts.fire("F32-NANPROP", nan_in)
    ia, ib = np.isinf(a), np.isinf(b)
    za, zb = a == 0, b == 0
    if op in ("add", "sub"):
        sb = np.sign(b) if op == "add" else -np.sign(b)
        parts.fire("F32-INFINF", ia & ib & (np.sign(a) != sb))
        parts.fire("F32-IDENT", ~nan_in & (za | zb))  # x + 0 = x; -0 + 0 = +0
    elif op == "mul":
        parts.fire("F32-INFINF", (ia & zb) | (za & ib))
        parts.fire("F32-IDENT", ~nan_in & ((a == 1) | (b == 1)))
    elif op == "div":
        parts.fire("F32-INFINF", ia & ib)
        parts.fire("F32-DIV0", zb & ~np.isnan(a))
        parts.fire("F32-IDENT", ~nan_in & (b == 1))


def eval_binary(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]) -> Parts:
    """add / sub / mul / div: exact via float64 error-free transforms, then the tolerance."""
    (a, b), ftz = load(ctx, operands)
    hi, lo = binary_exact(ctx.op, a, b, ctx.fmt)
    parts = new_parts(ctx, hi, lo, ftz)
    _nan_rules(parts, ctx.op, a, b)
    inexact = (grid.values(parts.unrounded, ctx.fmt) != hi) | (lo != 0)
    if not (ctx.op == "div" and ctx.fmt.name == "f32" and ctx.rules != "ieee754"):
        parts.fire(_prec_rule(ctx), inexact & np.isfinite(hi))  # div has F32-DIV below
    _denorm_rules(parts, ctx, operands)
    if tol.kind == "div":
        _div_window(parts, ctx, tol, a, b)
    else:
        tol_window(parts, ctx, tol)
    ident = parts.fired.get("F32-IDENT")
    if ident is not None and ident.any():  # F32-IDENT: the identity is exact in every rule set
        kb = grid.to_key(parts.bits, ctx.fmt)
        pin = ident & ~np.isnan(hi)
        parts.klo = np.where(pin, kb, parts.klo)
        parts.khi = np.where(pin, kb, parts.khi)
    if ctx.op == "div" and ctx.fmt.name == "f32" and ctx.rules != "ieee754":
        parts.fire("F32-DIV", np.isfinite(hi) & (b != 0))
        if ctx.opts["inf_div_huge_nan"]:
            huge = np.isinf(a) & (np.abs(b) > 2.0**126) & np.isfinite(b)
            parts.nan_ok = parts.nan_ok | huge
            parts.fire("F32-DIV", huge)
    return parts


def _denorm_rules(parts: Parts, ctx: Ctx, operands: list[np.ndarray]) -> None:
    """F16-DENORM / F64-DENORM: denormal operands or results kept as denormals."""
    rule = {"f16": "F16-DENORM", "f64": "F64-DENORM"}.get(ctx.fmt.name)
    if rule is None or ctx.rules == "ieee754":
        return
    m = grid.is_den(parts.bits, ctx.fmt)
    for b in operands:
        m = m | grid.is_den(b, ctx.fmt)
    parts.fire(rule, m)


def _step(h: np.ndarray, l: np.ndarray, ctx: Ctx, t: float, up: bool) -> np.ndarray:
    """Extreme value a serial step may give for exact h + l with t ULPs (flushed)."""
    fmt = ctx.fmt
    if t == 0.5:
        pat = grid.rne(h, l, fmt)
    else:
        u = grid.ulp_at(h, l, fmt) * t
        u = np.where(np.isfinite(h), u, 0.0)
        s, e = grid.two_sum(h, u if up else -u)
        pat = grid.floor_pat(s, e + l, fmt) if up else grid.ceil_pat(s, e + l, fmt)
    if ctx.flush:
        pat = grid.flush_pat(pat, fmt)
    v = grid.values(pat, fmt)
    return np.where(np.isnan(h), np.nan, v)


def _orders(n: int) -> list[tuple[int, ...]]:
    """Distinct serial orders of an n-term sum (the first two terms commute)."""
    out = []
    for first in combinations(range(n), 2):
        rest = [i for i in range(n) if i not in first]
        for tail in permutations(rest):
            out.append(first + tail)
    return out or [tuple(range(n))]


def eval_fused(ctx: Ctx, tol: Tolerance, operands: list[np.ndarray]) -> Parts:
    """mad (a*b + c) and dpN (sum a_i*b_i): exact expansion sum; F32-FUSED window."""
    vals, ftz = load(ctx, operands)
    if ctx.op == "mad":
        pairs, extra = [(vals[0], vals[1])], [vals[2]]
    else:
        n = len(vals) // 2
        pairs, extra = list(zip(vals[:n], vals[n:])), []
    prods = [binary_exact("mul", x, y, ctx.fmt) for x, y in pairs]
    terms = prods + [(c, np.zeros_like(c)) for c in extra]
    hi, lo = sum_exact(terms)
    parts = new_parts(ctx, hi, lo, ftz)
    nan_in = np.logical_or.reduce([np.isnan(v) for v in vals])
    parts.fire("F32-NANPROP", nan_in)
    inv = np.zeros(hi.shape, dtype=bool)
    for x, y in pairs:
        inv |= (np.isinf(x) & (y == 0)) | ((x == 0) & np.isinf(y))
    parts.fire("F32-INFINF", inv | (np.isnan(hi) & ~nan_in))
    _denorm_rules(parts, ctx, operands)
    if tol.kind != "fused":
        tol_window(parts, ctx, tol)
        parts.fire(_prec_rule(ctx), np.isfinite(hi))
        return parts
    t = tol.ulp
    # serial evaluation: each product and each partial sum is one rounded step
    p_lo = [_step(h, l, ctx, t, False) for h, l in prods] + extra
    p_hi = [_step(h, l, ctx, t, True) for h, l in prods] + extra
    cmin = np.full(hi.shape, np.inf)
    cmax = np.full(hi.shape, -np.inf)
    serial_nan = np.zeros(hi.shape, dtype=bool)
    for order in _orders(len(p_lo)):
        lo_acc, hi_acc = p_lo[order[0]], p_hi[order[0]]
        for j in order[1:]:
            s, e = grid.two_sum(lo_acc, p_lo[j])
            lo_acc = _step(s, e, ctx, t, False)
            s, e = grid.two_sum(hi_acc, p_hi[j])
            hi_acc = _step(s, e, ctx, t, True)
        serial_nan |= np.isnan(lo_acc) | np.isnan(hi_acc)
        cmin = np.fmin(cmin, lo_acc)
        cmax = np.fmax(cmax, hi_acc)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.fmax(hi - cmin, cmax - hi)
    err = np.where(np.isfinite(hi), np.nan_to_num(err, nan=0.0, posinf=np.inf), 0.0)
    err = np.maximum(err, 0.0)
    fmt = ctx.fmt
    wk = window_tol(hi, lo, err, err, fmt)
    cands = []
    for c in (cmin, cmax):
        ok = np.isfinite(c)
        pat = fmt.encode(np.where(ok, c, 0.0))
        kc = grid.to_key(np.atleast_1d(pat), fmt)
        cands.append((np.where(ok, kc, wk[0]), np.where(ok, kc, wk[1])))
    kb = grid.to_key(parts.unrounded, fmt)
    klo, khi = window_hull(wk, (kb, kb), *cands)
    finish_window(parts, ctx, klo, khi)
    parts.nan_ok = parts.nan_ok | (serial_nan & ~np.isinf(hi))
    parts.fire("F32-FUSED", np.isfinite(hi))
    parts.tol_text = tol.describe()
    return parts


def _div_window(parts: Parts, ctx: Ctx, tol: Tolerance, a: np.ndarray, b: np.ndarray) -> None:
    """F32-DIV (d3d11): at least as accurate as x * rcp(y), rcp 1 ULP, mul ``tol.ulp``."""
    fmt = ctx.fmt
    q, ql = binary_exact("div", np.ones_like(b), b, fmt)
    r_lo = _step(q, ql, ctx, 1.0, False)
    r_hi = _step(q, ql, ctx, 1.0, True)
    hi, lo = parts.hi, parts.lo
    cands = []
    errs = []
    for r in (r_lo, r_hi):
        with np.errstate(all="ignore"):
            m = _step(a * r, np.zeros_like(a), ctx, tol.ulp, False)
            m2 = _step(a * r, np.zeros_like(a), ctx, tol.ulp, True)
        for c in (m, m2):
            ok = np.isfinite(c)
            with np.errstate(all="ignore"):
                errs.append(np.where(ok & np.isfinite(hi), np.abs(c - hi), 0.0))
            pat = np.atleast_1d(fmt.encode(np.where(ok, c, 0.0)))
            cands.append((ok, grid.to_key(pat, fmt)))
    err = np.maximum.reduce(errs)
    wk = window_tol(hi, lo, err, err, fmt)
    kb = grid.to_key(parts.unrounded, fmt)
    klo, khi = window_hull(wk, (kb, kb))
    for ok, kc in cands:
        klo = np.where(ok, np.minimum(klo, kc), klo)
        khi = np.where(ok, np.maximum(khi, kc), khi)
    finish_window(parts, ctx, klo, khi)
    parts.tol_text = tol.describe()
