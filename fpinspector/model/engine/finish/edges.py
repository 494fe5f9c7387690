"""Exact tolerance edges: decide with exact arithmetic the window ends that float64 cannot.

Why: a tolerance edge can fall exactly on a pattern, and "within" is inclusive
(F32-SQRT-RCP): rcp(1.5) = 2/3 and 0x3F2AAAB0 is exactly 2^-21 (relative) away, as is
rsq(9) = 1/3 from its neighbours 2^-21 out. The float64 (double-double) ends are right
to about 2^-100 of the exact value, which cannot tell "on the edge" from "just outside".
Ends that lie within 2^-40 (relative) of a pattern are rare (about 2^-17 of random
inputs), so those few elements are recomputed one by one: rational results (rcp, div,
sums, products) with Fractions; square roots through their squares; 2^x and log2 with
mpmath at 300 bits, where an exact tie is impossible (the value is irrational unless it
is a power of two or an integer, and those are computed exactly).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ...formats import FloatFormat
from .. import grid
from ..exact import mp_context
from ..exact import scalar as sc
from .facts import Facts

__all__ = ["refine_edges", "near_pattern", "exact_scalar", "within"]

_EPS_BITS = 40


def near_pattern(s: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Where the float64 values ``s`` lie within 2^-40 (relative) of a pattern of ``fmt``
    (f16/f32 grids; INF counts as the grid point 2^maxexp)."""
    s = np.ascontiguousarray(s, dtype=np.float64)
    sh = 52 - fmt.frac_bits  # float64 mantissa bits below one step of the format's grid
    keep = np.int64(1 << (52 - _EPS_BITS))  # 2^-40 relative, in float64 ULPs
    u = s.view(np.int64)
    t = (u + keep) & np.int64((1 << sh) - 1)
    near = t < 2 * keep
    a = u & np.int64(0x7FFFFFFFFFFFFFFF)
    small = np.flatnonzero(a < np.int64((1023 + fmt.minexp) << 52))
    if small.size:  # the denormal grid: multiples of the smallest denormal (0 is far)
        m = np.abs(s[small])
        q = m * 2.0 ** (fmt.frac_bits - fmt.minexp)
        r = np.rint(q)
        d = np.abs(q - r) * 2.0 ** (fmt.minexp - fmt.frac_bits)
        near[small] = (r > 0) & (d < m * 2.0**-_EPS_BITS)
    big = np.flatnonzero(a >= np.int64((1023 + fmt.maxexp) << 52))
    if big.size:  # beyond the largest binade the only grid point is INF (2^maxexp)
        m = np.abs(s[big])
        near[big] = np.abs(m - 2.0**fmt.maxexp) < m * 2.0**-_EPS_BITS
    return near & np.isfinite(s)


def refine_edges(f: Facts, klo: np.ndarray, khi: np.ndarray,
                 ends: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """Fix, in place, the window ends of elements whose exact edge may sit on a pattern.

    ``ends``: each window end as (float64 value, residual), before rounding to patterns.
    A result that is a value of the format (hi exact, lo = 0: 2^n, log2 of a power of two,
    the engine's refinement leaves no other float64 on the grid) has exactly computed
    ends and is never in doubt. Where the exact value is known to ~2^-105 (families whose
    exact value is ``error_free``: error-free transforms, or a residual computed to first
    order; the others carry a float64 value (2^-52) unless refined), a unary op whose exact function is ``accurate`` (rcp), refined values
    with a residual), an end is in doubt only when it lands on a pattern with a residual
    below 2^-100 of it (a tie of a rational value; otherwise rational ends are at least
    ~2^-70 away); elsewhere when it is within 2^-40 of a pattern.
    """
    ctx = f.ctx
    fmt = ctx.fmt
    if fmt.bits > 32:  # f64 windows: the residual decides exactly (no pattern ties)
        return
    math = ctx.spec.math
    accurate = (ctx.traits.error_free or (math is not None and math.accurate)) | (f.lo != 0)
    near = np.zeros(f.n, dtype=bool)
    sh = 52 - fmt.frac_bits
    for e, r in ends:
        with np.errstate(invalid="ignore", over="ignore"):
            on_grid = (np.ascontiguousarray(e).view(np.int64)
                       & np.int64((1 << sh) - 1)) == 0
            a = np.abs(e)
            tiny = np.abs(r) < a * 2.0**-100
            irregular = (a < 2.0**fmt.minexp) | (a >= 2.0**fmt.maxexp)
        loose = near_pattern(e, fmt)
        near |= np.where(accurate & ~irregular, on_grid & tiny, loose)
    near &= f.finite & (f.hi != 0) & f.inexact  # an exact result: its ends are exact too
    if math is not None and math.series is not None:  # e.g. 2^x for 0 < |x| < 2^-20: a
        # series with a relatively exact residual, irrational (no tie): its sign decides
        near &= ~math.in_series(f.vals[0])
    idx = np.flatnonzero(near)
    if idx.size == 0:
        return
    mp = mp_context(300)
    for i in idx:
        x = exact_scalar(f, int(i), mp)
        test = lambda key: within(f, int(i), x, key, mp)  # noqa: E731
        a, b = int(klo[i]), int(khi[i])
        ins = [k for k in range(a - 2, a + 3) if test(k)]
        if ins:
            klo[i] = min(ins)
        ins = [k for k in range(b - 2, b + 3) if test(k)]
        if ins:
            khi[i] = max(ins)


def exact_scalar(f: Facts, i: int, mp: Any) -> Any:
    """The exact result of element i (the scalar entry, engine/exact/scalar.py, on the op
    row): a Fraction where it is rational, else an mpmath number at the context's
    precision (square roots, 2^x, log2)."""
    args = [sc.of_float(float(a[i])) for a in f.vals]
    return sc.of_row(f.ctx.spec, args, mp)


def _value_of_key(key: int, fmt: FloatFormat) -> tuple[Fraction, bool]:
    """Exact value of the pattern with this key (INF as 2^maxexp) and its sign."""
    p = int(grid.from_key(np.array([key], dtype=np.int64), fmt)[0])
    neg = fmt.signed and bool(p >> (fmt.bits - 1))
    mag = p & (fmt.mask & ~fmt.sign_mask)
    if mag >= fmt.pos_inf:
        if mag > fmt.pos_inf:
            raise ValueError("NaN key")
        v = Fraction(2) ** fmt.maxexp
    else:
        v = Fraction(fmt.exact_value(mag))
    return (-v if neg else v), neg


def _ulp_exact(x: Any, fmt: FloatFormat) -> Fraction:
    """The engine's ULP at an exact value: 2^(k - F) for |x| in [2^k, 2^(k+1)), clamped to
    the format's normal binades (grid.ulp_at)."""
    a = abs(x)
    if a == 0:
        k = fmt.minexp
    elif isinstance(a, Fraction):
        k = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** k > a:
            k -= 1
    else:  # mpmath number
        m, e = a.man_exp
        k = int(m).bit_length() - 1 + int(e)
    k = min(max(k, fmt.minexp), fmt.maxexp - 1)
    return Fraction(2) ** (k - fmt.frac_bits)


def within(f: Facts, i: int, x: Any, key: int, mp: Any) -> bool:
    """Is the pattern with ``key`` within the tolerance of the exact value x (element i)?"""
    ctx = f.ctx
    fmt = ctx.fmt
    tol = ctx.tol
    try:
        g, neg = _value_of_key(key, fmt)
    except ValueError:
        return False
    if f.absolute_window[i]:
        pass  # an absolute window holds both signs (ALLOWED-ZERO)
    elif neg != bool(x < 0) or (x == 0 and neg != bool(np.signbit(f.hi[i]))):
        return False  # ALLOWED-ZERO: never the other sign
    if not isinstance(x, Fraction):
        g = mp.mpf(g.numerator) / g.denominator
    d = abs(g - x)
    k = tol.kind
    ok = False
    if k in ("ulp", "rel_or_ulp"):
        t = Fraction(tol.ulp).limit_denominator(1000)
        u = _ulp_exact(x, fmt) * t
        ok = d <= (u if isinstance(x, Fraction) else mp.mpf(u.numerator) / u.denominator)
    if k in ("rel", "rel_or_ulp", "log"):
        r = Fraction(tol.rel)
        # mpmath < 1.4 makes no mpf of a Fraction: numerator / denominator (exact for
        # the tolerances' powers of two)
        rm = r if isinstance(x, Fraction) else mp.mpf(r.numerator) / r.denominator
        bound = rm * abs(x)
        if k == "log":
            xin = float(f.vals[0][i])
            if 0.5 <= xin <= 2.0:
                bound = rm
        ok = ok or d <= bound
    return bool(ok)
