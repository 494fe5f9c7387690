"""Allowed sets defined by other evaluations: the serial orders of fused ops (F32-FUSED)
and the two-step route of a divide (F32-DIV).

F32-FUSED: mad / dp2 / dp3 / dp4 may give the correctly rounded fused result or what any
serial order of the unfused steps gives (each product and partial sum rounded within the
step tolerance, denormals flushed, overflow to INF, INF - INF = NaN): the union of those
results, not their hull. So an order that overflows to -INF never lets +INF or +1.0 in,
and NaN is allowed where some order gives NaN. A serial order is any association of the
sums, left to right or balanced (dp4: (p0 + p3) + (p1 + p2); GPUs reduce in trees). With
0.5-ULP steps each order gives one value; with 1-ULP steps (d3d10, option fused_step_ulp)
each step may give any pattern of its window, and the set is every outcome of every
choice, never the hull between the extremes (a cancelling sum of rounded products gives
isolated clusters).

F32-DIV (d3d11): the correctly rounded quotient, or x * r for every r a 1-ULP rcp(y)
may return (flushed if denormal), multiplied at 0.5 ULP and flushed. That is a handful
of points: for |y| > 2^126, r flushes to zero and the route gives a zero of the
quotient's sign, but never the values between that zero and the quotient.
"""

from __future__ import annotations

import numpy as np

from ...formats import FloatFormat
from .. import grid
from ..allowed import AllowedArrays
from ..exact.vector import exact_div, exact_mul, fused_terms
from .facts import Facts
from .windows import value_window, window_top

__all__ = ["fused_union", "div_route"]


def _subsets_splits(mask: int) -> list[tuple[int, int]]:
    """The unordered splits of a set of terms (a bitmask) into two non-empty parts: the
    part holding the lowest term first (a + b = b + a)."""
    low = mask & -mask
    rest = mask & ~low
    out = []
    sub = rest
    while True:  # every subset of the rest joins the lowest term on the left
        left = low | sub
        if left != mask:
            out.append((left, mask & ~left))
        if sub == 0:
            break
        sub = (sub - 1) & rest
    return out


def _sorted_unique(code: np.ndarray) -> np.ndarray:
    """np.unique of int64 codes by one sort (numpy's hash-based unique is slower here)."""
    code = np.sort(code)
    if code.size > 1:
        keep = np.empty(code.size, dtype=bool)
        keep[0] = True
        np.not_equal(code[1:], code[:-1], out=keep[1:])
        code = code[keep]
    return code


class _Results:
    """What a set of serial steps can give, as (element, f32 pattern) pairs, sorted and
    without repeats; NaN outcomes are recorded per element in ``nan`` instead."""

    def __init__(self, e: np.ndarray, pat: np.ndarray) -> None:
        code = _sorted_unique((e.astype(np.int64) << 32) | pat.astype(np.int64))
        self.e = code >> 32
        self.pat = (code & 0xFFFFFFFF).astype(np.uint32)

    def values(self, fmt: FloatFormat) -> np.ndarray:
        return grid.values(self.pat, fmt)


def _step_outcomes(e: np.ndarray, h: np.ndarray, r: np.ndarray, f: Facts, t: float,
                   flush: bool, nan: np.ndarray) -> _Results:
    """The patterns one serial step may give for the exact values h + r of elements e:
    t = 0.5: the nearest even; t = 1: every pattern of the 1-ULP window (never the zero
    of the other sign, an exact zero alone, INF only beyond the largest finite value:
    ALLOWED-ZERO, F32-WINDOW-TOP). Flushed where ``flush`` (F32-FTZ). NaN exact values
    mark their element in ``nan``."""
    fmt = f.ctx.fmt
    isnan = np.isnan(h)
    if isnan.any():
        nan[e[isnan]] = True
        keep = ~isnan
        e, h, r = e[keep], h[keep], r[keep]
    if t == 0.5:
        pats = [grid.rne(h, r, fmt)]
        uses = [np.ones(h.size, dtype=bool)]
    else:
        fin = np.isfinite(h)
        u = grid.ulp_at(h, r, fmt)
        with np.errstate(invalid="ignore"):
            u = np.where(fin, u, 0.0)
        klo, khi = value_window(h, r, u, u, fmt)
        window_top(h, r, klo, khi, fmt)
        kx = grid.to_key(grid.rne(h, r, fmt), fmt)
        exact = ~fin | ((h == 0) & (r == 0))  # INF, an exact zero: that value alone
        klo = np.where(exact, kx, klo)
        khi = np.where(exact, kx, khi)
        pats, uses = [], []
        for j in range(4):  # a 1-ULP window holds at most 4 patterns (2 below a power of 2)
            kr = klo + j
            use = kr <= khi
            if j and not use.any():
                break
            pats.append(grid.from_key(np.where(use, kr, kx), fmt))
            uses.append(use)
    es, ps = [], []
    for p, use in zip(pats, uses):
        if flush:
            p = grid.flush_pat(p, fmt)
        es.append(e[use])
        ps.append(p[use])
    return _Results(np.concatenate(es), np.concatenate(ps))


def _pair_up(a: _Results, b: _Results) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair of an outcome of ``a`` and one of ``b`` of the same element:
    (element, index into a, index into b)."""
    n = int(max(a.e.max(initial=-1), b.e.max(initial=-1))) + 1
    cb = np.bincount(b.e, minlength=n)
    start_b = np.cumsum(cb) - cb
    reps = cb[a.e]
    ia = np.repeat(np.arange(a.e.size), reps)
    first = np.cumsum(reps) - reps
    ib = start_b[a.e[ia]] + (np.arange(ia.size) - np.repeat(first, reps))
    return a.e[ia], ia, ib


def _distinct_sums(e: np.ndarray, h: np.ndarray, r: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The exact sums h + r of each element without repeats (many pairs of outcomes, and
    many orders, give the same exact sum; a step on it gives the same outcomes). A NaN
    sum is kept (it marks its element)."""
    if e.size < 2:
        return e, h, r
    hb = np.ascontiguousarray(h).view(np.int64)
    rb = np.ascontiguousarray(r + 0.0).view(np.int64)  # (-0.0 + 0.0: one zero residual)
    order = np.lexsort((rb, hb, e))
    e, hb, rb = e[order], hb[order], rb[order]
    keep = np.ones(e.size, dtype=bool)
    keep[1:] = (e[1:] != e[:-1]) | (hb[1:] != hb[:-1]) | (rb[1:] != rb[:-1])
    sel = order[keep]
    return e[keep], h[sel], r[sel]


def _serial_outcomes(f: Facts, t: float, flush: bool, nan: np.ndarray) -> _Results:
    """F32-FUSED: what every serial order gives, each product and each partial sum one
    step of t ULPs, the sums in every association (left to right and balanced trees):
    the results of a set of terms are the union over its splits in two of the steps on
    every pair of the parts' results (shared by every tree that holds that part)."""
    fmt = f.ctx.fmt
    pairs, extra = fused_terms(f.vals)
    n = f.n
    idx = np.arange(n, dtype=np.int64)
    leaves: list[_Results] = []
    for x, y in pairs:
        h, r = exact_mul(x, y, fmt)
        leaves.append(_step_outcomes(idx, h, r, f, t, flush, nan))
    for c in extra:  # an added operand is a term as it is (flushed on input)
        with np.errstate(invalid="ignore"):
            cp = np.asarray(fmt.encode(c), dtype=fmt.dtype).reshape(-1)
        isnan = np.isnan(c)
        nan |= isnan
        leaves.append(_Results(idx[~isnan], cp[~isnan]))
    memo: dict[int, _Results] = {1 << i: leaf for i, leaf in enumerate(leaves)}

    def outcomes(mask: int) -> _Results:
        if mask in memo:
            return memo[mask]
        es, hs, rs = [], [], []
        for left, right in _subsets_splits(mask):
            a, b = outcomes(left), outcomes(right)
            e, ia, ib = _pair_up(a, b)
            h, r = grid.two_sum(a.values(fmt)[ia], b.values(fmt)[ib])
            es.append(e)
            hs.append(h)
            rs.append(r)
        e, h, r = _distinct_sums(np.concatenate(es), np.concatenate(hs), np.concatenate(rs))
        res = _step_outcomes(e, h, r, f, t, flush, nan)  # one step on the distinct sums
        memo[mask] = res
        return res

    return outcomes((1 << len(leaves)) - 1)


def _as_windows(e: np.ndarray, keys: np.ndarray, n: int
                ) -> list[tuple[np.ndarray, np.ndarray, bool]]:
    """Per-element sets of keys as key intervals: the j-th run of consecutive keys of
    each element in the j-th window (empty where an element has fewer runs)."""
    code = _sorted_unique((e.astype(np.int64) << 33) | (keys.astype(np.int64) + (1 << 32)))
    e = code >> 33
    k = (code & ((1 << 33) - 1)) - (1 << 32)
    if not e.size:
        return []
    new_run = np.ones(e.size, dtype=bool)
    new_run[1:] = (e[1:] != e[:-1]) | (k[1:] != k[:-1] + 1)
    starts = np.flatnonzero(new_run)
    ends = np.append(starts[1:], e.size) - 1
    run_e = e[starts]
    change = np.ones(run_e.size, dtype=bool)
    change[1:] = run_e[1:] != run_e[:-1]
    group_start = np.maximum.accumulate(np.where(change, np.arange(run_e.size), 0))
    rank = np.arange(run_e.size) - group_start  # the rank of each run in its element
    out = []
    for j in range(int(rank.max()) + 1):
        sel = rank == j
        klo = np.ones(n, dtype=np.int64)
        khi = np.zeros(n, dtype=np.int64)
        klo[run_e[sel]] = k[starts[sel]]
        khi[run_e[sel]] = k[ends[sel]]
        out.append((klo, khi, False))
    return out


def fused_union(f: Facts) -> AllowedArrays:
    """F32-FUSED: the fused result or what any serial order gives (module docstring)."""
    ctx = f.ctx
    fmt = ctx.fmt
    t = ctx.tol.ulp
    nan = f.exact_nan.copy()
    idx = np.arange(f.n, dtype=np.int64)
    keep = ~f.exact_nan
    es = [idx[keep]]
    ps = [np.asarray(f.core.bits)[keep]]
    flushes = [ctx.flush]
    if ctx.flush and not ctx.strict_out:  # option ftz_output=either: unflushed steps and
        flushes.append(False)  # the unflushed fused result too
        es.append(idx[keep])
        ps.append(np.asarray(f.unrounded)[keep])
    for flush in flushes:
        res = _serial_outcomes(f, t, flush, nan)
        es.append(res.e)
        ps.append(res.pat)
    e = np.concatenate(es)
    keys = grid.to_key(np.concatenate(ps).astype(fmt.dtype), fmt)
    ex = f.exact_nan[e]  # an element whose exact result is NaN allows NaN alone
    windows = _as_windows(e[~ex], keys[~ex], f.n)
    return AllowedArrays(fmt, windows, [], nan)


def div_route(f: Facts) -> AllowedArrays:
    """F32-DIV (d3d11): the quotient or x * r for each r = rcp(y) within 1 ULP."""
    ctx = f.ctx
    fmt = ctx.fmt
    a, b = f.vals
    q, ql = exact_div(np.ones_like(b), b, fmt)
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
