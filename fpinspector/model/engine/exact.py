"""Exact references: the infinitely precise result of each op as a float64 pair (hi, lo).

Exactness, per op (operands are already-decoded float64 values of the operand format):

- add, sub (all formats): TwoSum, exact (hi + lo is the exact sum).
- mul: f32/f16 products have at most 22/48 significant bits: float64 is exact (lo = 0);
  f64: Dekker's TwoProduct, exact unless an operand exceeds 2^995 or the product
  underflows (then hi = the IEEE float64 product, lo = 0).
- div, sqrt: hi is the correctly rounded float64 result. f32/f16: lo = 0; a quotient or
  root of p-bit numbers (p <= 24) that is not on the 2p+1-bit grid lies at least 2^-50
  relatively away from every point of it, so no f32/f16 rounding decision depends on the
  residual. f64: the residual a - q*b (a - q*q) is computed exactly with TwoProduct;
  lo carries its sign and magnitude to first order.
- mad, dp: products exactly as for mul, summed with a vectorized expansion
  (Shewchuk's grow-expansion of TwoSums), then folded into (hi, lo): hi is within one
  float64 ULP of the exact sum and the sign of lo is right except after cancellation
  below 2^-106 of the largest term.
- rcp: as div with a = 1.
- rsq, log, exp: numpy float64 (max error about 1 float64 ULP, 2^-52 relative);
  elements whose float64 value lies within 2^-44 (relative) of a rounding boundary of the
  target format are recomputed with mpmath at 120 bits, so the model's f32/f16 bits are
  correctly rounded (lo is then the mpmath residual).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..formats import FloatFormat
from . import grid

__all__ = ["binary_exact", "sum_exact", "transcendental", "refine_near_boundaries"]


def binary_exact(op: str, a: np.ndarray, b: np.ndarray, fmt: FloatFormat) -> tuple[np.ndarray, np.ndarray]:
    """Exact a op b for op in add, sub, mul, div (see the module docstring)."""
    with np.errstate(all="ignore"):
        if op == "add":
            return grid.two_sum(a, b)
        if op == "sub":
            return grid.two_sum(a, -b)
        if op == "mul":
            if fmt.bits == 64:
                return grid.two_prod(a, b)
            return a * b, np.zeros_like(a)
        if op == "div":
            q = a / b
            if fmt.bits < 64:
                return q, np.zeros_like(q)
            p, e = grid.two_prod(q, b)
            r = (a - p) - e
            ok = np.isfinite(q) & (b != 0) & np.isfinite(r)
            return q, np.where(ok, r / np.where(b == 0, 1.0, b), 0.0)
    raise ValueError(f"binary_exact: unknown op {op!r}")


def sum_exact(terms: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Exact sum of (hi, lo) terms as (hi, lo), via a grow-expansion of TwoSums."""
    comps: list[np.ndarray] = []
    flat = [t for pair in terms for t in pair]
    with np.errstate(all="ignore"):
        naive = np.sum(np.stack(flat), axis=0)
        for x in flat:
            new = []
            for c in comps:
                x, e = grid.two_sum(x, c)
                new.append(e)
            new.append(x)
            comps = new
        hi = comps[-1]
        lo = np.zeros_like(hi)
        for c in reversed(comps[:-1]):
            hi, r = grid.two_sum(hi, c)
            lo = lo + r
        hi, lo2 = grid.two_sum(hi, lo)
    special = ~np.isfinite(naive)
    return np.where(special, naive, hi), np.where(special, 0.0, lo2)


def _mp(name: str) -> Callable:
    """mpmath reference for one element (imported lazily: model layer stays numpy-only)."""
    import mpmath

    mpmath.mp.prec = 120
    funcs = {
        "rcp": lambda x: 1 / mpmath.mpf(x),
        "rsq": lambda x: 1 / mpmath.sqrt(mpmath.mpf(x)),
        "log": lambda x: mpmath.log(mpmath.mpf(x), 2),
        "exp": lambda x: mpmath.power(2, mpmath.mpf(x)),
        "sqrt": lambda x: mpmath.sqrt(mpmath.mpf(x)),
    }
    return funcs[name]


def transcendental(name: str, x: np.ndarray, fmt: FloatFormat) -> tuple[np.ndarray, np.ndarray]:
    """Exact-enough (hi, lo) for rcp, rsq, log (log2), exp (2^x), sqrt on float64 values."""
    if name == "rcp":
        return binary_exact("div", np.ones_like(x), x, fmt)
    with np.errstate(all="ignore"):
        if name == "rsq":
            hi = 1.0 / np.sqrt(x)
        elif name == "log":
            hi = np.log2(x)
        elif name == "exp":
            hi = np.exp2(x)
        elif name == "sqrt":
            hi = np.sqrt(x)
        else:
            raise ValueError(name)
    lo = np.zeros_like(hi)
    if name == "sqrt" and fmt.bits == 64:
        p, e = grid.two_prod(hi, hi)
        with np.errstate(all="ignore"):
            r = (x - p) - e
            lo = np.where(np.isfinite(hi) & (hi > 0), r / (2 * np.where(hi > 0, hi, 1.0)), 0.0)
        return hi, lo
    if name in ("rsq", "log", "exp"):
        hi, lo = refine_near_boundaries(name, x, hi, fmt)
    return hi, lo


def refine_near_boundaries(
    name: str, x: np.ndarray, hi: np.ndarray, fmt: FloatFormat
) -> tuple[np.ndarray, np.ndarray]:
    """Recompute with mpmath the elements whose float64 value is too close to call.

    "Too close": within 2^-44 relative of a point of the target grid or of a midpoint
    (the 2^(frac_bits+1) grid). Those are rare (about 2^-19 of random inputs for f32),
    so the scalar mpmath loop only runs on a handful of elements.
    """
    lo = np.zeros_like(hi)
    fin = np.isfinite(hi) & (hi != 0)
    if not fin.any():
        return hi, lo
    m, e = np.frexp(np.where(fin, hi, 1.0))
    # distance to the nearest multiple of 2^-(F+2) in the mantissa [0.5, 1)
    scale = 2.0 ** (fmt.frac_bits + 2)
    t = np.abs(m) * scale
    frac = np.abs(t - np.rint(t))
    close = fin & (frac < 2.0 ** (fmt.frac_bits + 2 - 44))
    idx = np.flatnonzero(close)
    if idx.size == 0:
        return hi, lo
    f = _mp(name)
    import mpmath

    for i in idx:
        v = f(float(x[i]))
        h = float(v)
        hi[i] = h
        lo[i] = float(v - mpmath.mpf(h))
    return hi, lo
