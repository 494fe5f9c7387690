"""Allowed sets defined by other evaluations: the serial orders of fused ops (F32-FUSED)
and the two-step route of a divide (F32-DIV).

F32-FUSED: mad / dp2 / dp3 / dp4 may give the correctly rounded fused result or what any
serial order of the unfused steps gives (each product and partial sum rounded within the
step tolerance, denormals flushed, overflow to INF, INF - INF = NaN): the union of those
results, not their hull. So an order that overflows to -INF never lets +INF or +1.0 in,
and NaN is allowed where some order gives NaN. With 0.5-ULP steps each order gives one
value; with 1-ULP steps (option fused_step_ulp) an order gives the interval between its
lowest and highest outcome.

F32-DIV (d3d11): the correctly rounded quotient, or x * r for every r a 1-ULP rcp(y)
may return (flushed if denormal), multiplied at 0.5 ULP and flushed. That is a handful
of points: for |y| > 2^126, r flushes to zero and the route gives a zero of the
quotient's sign, but never the values between that zero and the quotient.
"""

from __future__ import annotations

from itertools import combinations, permutations

import numpy as np

from ...formats import FloatFormat
from .. import grid
from ..allowed import AllowedArrays
from ..compute import fused_terms
from ..exact import binary_exact
from .facts import Facts
from .windows import value_window, zero_side

__all__ = ["fused_union", "div_route"]


def _step(h: np.ndarray, r: np.ndarray, f: Facts, t: float, up: bool, flush: bool
          ) -> np.ndarray:
    """Extreme value one serial step may give for the exact h + r with t ULPs (flushed if
    ``flush``); never the zero of the other sign (ALLOWED-ZERO)."""
    fmt = f.ctx.fmt
    if t == 0.5:
        pat = grid.rne(h, r, fmt)
    else:
        u = grid.ulp_at(h, r, fmt) * t
        with np.errstate(invalid="ignore"):
            u = np.where(np.isfinite(h), u, 0.0)
        s, e = grid.two_sum(h, u if up else -u)
        pat = grid.floor_pat(s, e + r, fmt) if up else grid.ceil_pat(s, e + r, fmt)
        k = grid.to_key(pat, fmt)
        pos = zero_side(h)
        k = np.where(pos, np.maximum(k, 0), np.minimum(k, -1))
        pat = grid.from_key(k, fmt)
    if flush:
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


def _order_ranges(f: Facts, t: float, flush: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per serial order: its lowest and highest possible result (values; each step
    rounded within t ULPs; equal when t = 0.5)."""
    fmt = f.ctx.fmt
    pairs, extra = fused_terms(f.ctx.op, f.vals)
    prods = [binary_exact("mul", x, y, fmt) for x, y in pairs]
    p_lo = [_step(h, r, f, t, False, flush) for h, r in prods] + list(extra)
    p_hi = p_lo if t == 0.5 else [_step(h, r, f, t, True, flush) for h, r in prods] + list(extra)
    out = []
    for order in _orders(len(p_lo)):
        lo_acc, hi_acc = p_lo[order[0]], p_hi[order[0]]
        for j in order[1:]:
            s, e = grid.two_sum(lo_acc, p_lo[j])
            lo_acc = _step(s, e, f, t, False, flush)
            if t == 0.5:  # a correctly rounded step has one outcome: lowest = highest
                hi_acc = lo_acc
                continue
            s, e = grid.two_sum(hi_acc, p_hi[j])
            hi_acc = _step(s, e, f, t, True, flush)
        out.append((lo_acc, hi_acc))
    return out


def _key_of_values(v: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Keys of values that are patterns of the format (NaN elements: key 0, unused)."""
    with np.errstate(invalid="ignore"):
        pat = fmt.encode(np.where(np.isnan(v), 0.0, v))
    return grid.to_key(np.atleast_1d(pat), fmt)


def fused_union(f: Facts) -> AllowedArrays:
    """F32-FUSED: the fused result or what any serial order gives (module docstring)."""
    ctx = f.ctx
    fmt = ctx.fmt
    t = ctx.tol.ulp
    windows: list[tuple[np.ndarray, np.ndarray, bool]] = []
    points: list[tuple[np.ndarray, np.ndarray]] = []
    nan = f.exact_nan.copy()
    variants = [(ctx.flush, ctx.strict_out)]
    if ctx.flush and not ctx.strict_out:  # option ftz_output=either: unflushed steps too
        variants.append((False, False))
        points.append((grid.to_key(f.unrounded, fmt), ~f.exact_nan))
    for flush, no_den in variants:
        for lo_v, hi_v in _order_ranges(f, t, flush):
            ln, hn = np.isnan(lo_v), np.isnan(hi_v)
            nan |= ln | hn
            klo, khi = _key_of_values(lo_v, fmt), _key_of_values(hi_v, fmt)
            both = ~ln & ~hn
            windows.append((np.where(both, klo, 1), np.where(both, khi, 0), no_den))
            one = ln ^ hn  # one end NaN: the other end is still a result of this order
            if one.any():
                points.append((np.where(ln, khi, klo), one))
    points.append((grid.to_key(f.core.bits, fmt), ~f.exact_nan))
    return AllowedArrays(fmt, windows, points, nan)


def div_route(f: Facts) -> AllowedArrays:
    """F32-DIV (d3d11): the quotient or x * r for each r = rcp(y) within 1 ULP."""
    ctx = f.ctx
    fmt = ctx.fmt
    a, b = f.vals
    q, ql = binary_exact("div", np.ones_like(b), b, fmt)
    u = grid.ulp_at(q, ql, fmt)
    with np.errstate(invalid="ignore"):
        u = np.where(np.isfinite(q), u, 0.0)
    rlo, rhi = value_window(q, ql, u, u, fmt)
    kq = grid.to_key(grid.rne(q, ql, fmt), fmt)
    special = ~np.isfinite(q)  # y = 0 (r = INF) or NaN: r is the exact result only
    rlo = np.where(special, kq, rlo)
    rhi = np.where(special, kq, rhi)
    points = [(grid.to_key(f.core.bits, fmt), ~f.exact_nan)]
    if ctx.flush and not ctx.strict_out:  # option ftz_output=either: the correctly
        # rounded quotient unflushed too (the direct division's own result)
        points.append((grid.to_key(f.unrounded, fmt), ~f.exact_nan))
    nan = f.exact_nan.copy()
    for j in range(4):  # a 1-ULP window holds at most 4 patterns (2 below a power of 2)
        kr = rlo + j
        use = (kr <= rhi) & ~np.isnan(q)
        if j and not use.any():  # nor a later one (kr only grows): most windows hold
            break  # two patterns, more only where 1/y is one or a power of two is near
        rp = grid.from_key(np.where(use, kr, 0), fmt)
        if ctx.flush:  # each candidate reciprocal is flushed if it is a denormal (never
            rp = grid.flush_pat(rp, fmt)  # x times an unflushed denormal)
        r = grid.values(rp, fmt)
        with np.errstate(all="ignore"):
            prod = a * r  # exact in float64 (24 x 24 bits) or an IEEE special
        pk = grid.rne(prod, np.zeros_like(prod), fmt)
        ok = use & ~np.isnan(prod)
        if ctx.flush:
            if not ctx.strict_out:  # option ftz_output=either: the unflushed product too
                points.append((grid.to_key(pk, fmt), ok.copy()))
            pk = grid.flush_pat(pk, fmt)
        nan |= np.isnan(prod) & use
        points.append((grid.to_key(pk, fmt), ok))
    empty = np.ones(f.n, dtype=np.int64), np.zeros(f.n, dtype=np.int64)
    return AllowedArrays(fmt, [(empty[0], empty[1], False)], points, nan)
