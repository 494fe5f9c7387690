"""The finisher's lean code for ordinary f32 elements, and the closed form of point sets.

Why: most elements of a real input (and of every chunk of an exhaustive sweep) are
ordinary: normal operands, a normal result far from the flush and overflow boundaries,
no identity. For them no flush, zero, INF or NaN rule can apply, and the allowed set is
one window computed with a handful of float32/float64 passes. The general code
(windows.py, serial.py) gives the same sets with all its guards; the differential test
(tests/model/test_engine_paths.py) runs both (``paths="reference"`` turns this file off).

Point sets are no shortcut: for a correctly rounded op (tolerance kinds cr and exact) the
set *is* {model result}, plus any NaN where the model is NaN, on every element (the
model is RN(exact) flushed; an exact INF is that INF; an identity is exact).
"""

from __future__ import annotations

import numpy as np

from .. import grid
from ..allowed import AllowedArrays
from ..context import Ctx
from .edges import near_pattern
from .facts import Facts

__all__ = ["point_sets", "ordinary_mask", "ordinary_sets", "minmax_ordinary", "LEAN_KINDS",
           "lean_applies"]

#: Tolerance kinds with lean code for ordinary f32 elements (fused: mad, 0.5-ULP steps).
LEAN_KINDS = ("ulp", "rel", "rel_or_ulp", "log", "div", "fused")


def lean_applies(ctx: Ctx) -> bool:
    """Whether this evaluation's ordinary elements take the lean code."""
    if ctx.fmt.numpy_float != np.float32 or ctx.tol.kind not in LEAN_KINDS:  # (float32 code)
        return False
    either = ctx.flush and not ctx.strict_out  # option ftz_output=either: unflushed too
    if ctx.tol.kind == "fused":
        return ctx.spec.arity == 3 and ctx.tol.ulp == 0.5 and not either  # a * b + c
    if ctx.div_route and ctx.tol.kind != "div":  # (d3d10 with option d3d10_div_route)
        return False  # the route's products are not in a 1-ULP window
    return not (ctx.tol.kind == "div" and either)
_F32_ONE = np.uint32(0x3F800000)
_ABS = np.uint32(0x7FFFFFFF)


def point_sets(f: Facts) -> AllowedArrays:
    """{model result} on every element, any NaN where the model is NaN."""
    fmt = f.ctx.fmt
    bits = f.core.bits
    return AllowedArrays(fmt, [], [], fmt.is_nan(bits), single=bits)


def minmax_ordinary(f: Facts) -> np.ndarray:
    """min/max elements whose set is {model result}: both operands normal (no NaN, no
    zero tie, nothing to flush)."""
    fmt = f.ctx.fmt
    m = np.ones(f.n, dtype=bool)
    for o in f.ops:
        m &= grid.is_normal(o, fmt)
    return m


def _exp_field(b: np.ndarray) -> np.ndarray:
    return (b >> np.uint32(23)) & np.uint32(0xFF)


def ordinary_mask(f: Facts) -> np.ndarray:
    """f32 elements whose set the lean code gives: every operand normal, the model result
    normal with its exponent field in 3..252 (a window of a few ULPs or 2^-21 relative
    stays normal and finite), no F32-IDENT operand, no operand of the special-value table
    (its result is pinned), and per op: log away from [0.5, 2] (an
    absolute tolerance there reaches zero); div (the d3d11 route) any result, with every
    reciprocal candidate normal (|b| exponent field 3..251)."""
    ctx = f.ctx
    bits = f.core.bits
    if ctx.tol.kind == "div":  # the route's products are rounded and flushed like the op's
        m = np.ones(f.n, dtype=bool)
    else:
        e = _exp_field(bits)
        m = (e >= np.uint32(3)) & (e <= np.uint32(252))
    for o in f.ops:
        m &= grid.is_normal(o, ctx.fmt)
    for i, v in ctx.spec.identities:  # F32-IDENT's +/-1 operands (+/-0 are not normal)
        if v == 1:
            m &= (f.ops[i] & _ABS) != _F32_ONE
    if ctx.spec.rcp_route:
        eb = _exp_field(f.ops[1])
        m &= (eb >= np.uint32(3)) & (eb <= np.uint32(251))
    math = ctx.spec.math
    if math is not None and math.specials:  # the special-value table's operands: pinned
        m &= ~math.special_inputs(f.vals[0])
    if ctx.tol.kind == "log":
        a = f.ops[0]
        m &= (a < np.uint32(0x3F000000)) | (a > np.uint32(0x40000000))
    return m


def _window32(hi: np.ndarray, lo: np.ndarray, d_lo: np.ndarray, d_hi: np.ndarray,
              r_lo: np.ndarray | float, r_hi: np.ndarray | float,
              ends: list[tuple[np.ndarray, np.ndarray]] | None = None,
              ) -> tuple[np.ndarray, np.ndarray]:
    """Keys of the f32 patterns in [hi + lo - d_lo - r_lo, hi + lo + d_hi + r_hi] for normal
    ends: the arithmetic of windows.value_window (TwoSum, the residual deciding on the
    grid) with a float32 cast for the directed rounding. ``ends`` receives (end, residual)
    where the end is on the f32 grid (candidates for an exact tie)."""
    from ...formats import F32

    keys = []
    for d, r, up in ((d_lo, r_lo, False), (d_hi, r_hi, True)):
        s = np.add(hi, d) if up else np.subtract(hi, d)
        rr = s.astype(np.float32)
        back = rr.astype(np.float64)
        k = grid.to_key(rr.view(np.uint32), F32)
        if up:  # floor: largest pattern <= s + e
            k -= back > s
        else:  # ceil: smallest pattern >= s + e
            k += back < s
        on = np.flatnonzero(back == s)
        if on.size:
            h, ss = hi[on], s[on]
            dd = np.broadcast_to(d, hi.shape)[on]
            b = dd if up else -dd
            bb = ss - h
            e = (h - (ss - bb)) + (b - bb)
            e += lo[on]
            e += np.broadcast_to(r, hi.shape)[on] * (1 if up else -1)
            if up:
                k[on] -= e < 0
            else:
                k[on] += e > 0
            if ends is not None:
                ends.append((on, e))
        keys.append(k)
    return keys[0], keys[1]


def ordinary_sets(f: Facts) -> tuple[AllowedArrays, np.ndarray]:
    """Sets of the elements of ``f`` (all ordinary, see :func:`ordinary_mask`), and the
    mask of those whose window end may sit exactly on a pattern (the caller gives them to
    the general code, which decides ties exactly)."""
    ctx = f.ctx
    fmt = ctx.fmt
    tol = ctx.tol
    k = tol.kind
    bits = f.core.bits
    kb = grid.to_key(bits, fmt)
    doubt = np.zeros(f.n, dtype=bool)
    if k == "div":
        return _route(f, kb), doubt
    if k == "fused":
        return _mad(f, kb, doubt), doubt
    hi, lo = f.hi, f.lo
    ends: list[tuple[np.ndarray, np.ndarray]] = []
    if k == "ulp":
        u = grid.ulp_at(hi, lo, fmt, specials=False) * tol.ulp
        klo, khi = _window32(hi, lo, u, u, 0.0, 0.0)
        if tol.ulp not in (0.5, 1.0):
            doubt[:] = True
    else:
        a = np.abs(hi)
        d = a * tol.rel
        r = np.abs(lo) * tol.rel * np.sign(lo) * np.sign(hi)
        klo, khi = _window32(hi, lo, d, d, r, r, ends)
        if k == "rel_or_ulp":
            u = grid.ulp_at(hi, lo, fmt, specials=False) * tol.ulp
            ulo, uhi = _window32(hi, lo, u, u, 0.0, 0.0)
            np.minimum(klo, ulo, out=klo)
            np.maximum(khi, uhi, out=khi)
        math = ctx.spec.math
        accurate = (math is not None and math.accurate) | (lo != 0)
        for on, e in ends:  # an end exactly on the grid with a residual too small to trust
            s_abs = a[on]
            doubt[on] |= accurate[on] & (np.abs(e) < s_abs * 2.0**-100)
        loose = ~accurate
        if loose.any():  # float64-only values: ends within 2^-40 of a pattern
            li = np.flatnonzero(loose)
            for sgn in (-1.0, 1.0):
                doubt[li] |= near_pattern(hi[li] + sgn * d[li], fmt)
        if math is not None and math.series is not None:  # a series (2^x near 0): a
            doubt &= ~math.in_series(f.vals[0])  # relatively exact residual, no tie
        if doubt.any():  # a result that is a value of the format has exact ends
            doubt &= f.inexact
    np.minimum(klo, kb, out=klo)  # the correctly rounded value is in
    np.maximum(khi, kb, out=khi)
    return AllowedArrays(fmt, [(klo, khi, False)], [], np.zeros(f.n, dtype=bool)), doubt


def _mad(f: Facts, kb: np.ndarray, doubt: np.ndarray) -> AllowedArrays:
    """F32-FUSED for mad with 0.5-ULP steps: {fused result, RN(RN(a*b) + c)}; elements
    whose product or serial sum is not a normal number far from the boundaries are put
    in ``doubt`` (the general code handles flushes, zeros and overflow)."""
    from ...formats import F32

    a, b, c = (o.view(np.float32) for o in f.ops)
    with np.errstate(over="ignore", under="ignore"):  # such products are put in doubt below
        # IEEE float32 arithmetic rounds each step once: the exact product rounded, then
        # the exact sum of it and c rounded (what float64 then a cast gave, in a third of
        # the passes)
        p32 = np.multiply(a, b)
        ser = np.add(p32, c)
    for v in (p32, ser):
        e = _exp_field(v.view(np.uint32))
        doubt |= (e < np.uint32(3)) | (e > np.uint32(252))
    points = [(kb, np.ones(f.n, dtype=bool)), (grid.to_key(ser.view(np.uint32), F32),
                                                np.ones(f.n, dtype=bool))]
    return AllowedArrays(F32, [], points, np.zeros(f.n, dtype=bool))


def _route(f: Facts, kb: np.ndarray) -> AllowedArrays:
    """F32-DIV (d3d11) on ordinary elements: the quotient and x * r for the (at most four)
    patterns r within 1 ULP of 1/y, all normal; each product rounded once (the float32
    cast of the exact float64 product: overflow to INF, denormals) and flushed
    (F32-FTZ): serial.div_route without its guards."""
    from ...formats import F32

    a, b = (o.view(np.float32).astype(np.float64) for o in f.ops)  # normal: no flush
    q = 1.0 / b  # a 1-ULP end of 1/b is never within 2^-48 of a pattern: no residual needed
    zero = np.zeros_like(q)
    u = grid.ulp_at(q, zero, F32, specials=False)
    rlo, rhi = _window32(q, zero, u, u, 0.0, 0.0)
    points = [(kb, np.ones(f.n, dtype=bool))]
    for j in range(4):
        kr = rlo + j
        use = kr <= rhi
        if j and not use.any():  # none uses this or a later candidate (as div_route)
            break
        r = grid.from_key(kr, F32).view(np.float32).astype(np.float64)
        with np.errstate(over="ignore", under="ignore"):
            prod = (a * r).astype(np.float32).view(np.uint32)  # exact product, one rounding
        points.append((grid.to_key(grid.flush_pat(prod, F32), F32), use))
    empty = (np.ones(f.n, dtype=np.int64), np.zeros(f.n, dtype=np.int64), False)
    return AllowedArrays(F32, [empty], points, np.zeros(f.n, dtype=bool))
