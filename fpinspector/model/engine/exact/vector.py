"""The vector entry of the exact values: the infinitely precise result of each op on whole
arrays of float64 operands, as a float64 pair (hi, lo).

Exactness, per op (operands are already-decoded float64 values of the operand format):

- add, sub (all formats): TwoSum, exact (hi + lo is the exact sum).
- mul: f32/f16 products have at most 22/48 significant bits: float64 is exact (lo = 0);
  f64: Dekker's TwoProduct, exact unless an operand exceeds 2^995 or the product
  underflows (then hi = the IEEE float64 product, lo = 0).
- div: hi is the correctly rounded float64 quotient; the residual a - q*b is computed
  exactly with TwoProduct and lo = residual / b carries its sign and magnitude to first
  order (every format: tolerance edges such as rcp's relative 2^-21 can fall exactly on
  an f32 value, and only the residual tells the side).
- sqrt: hi is the correctly rounded float64 root. f32/f16: lo = 0; a root of a p-bit
  number (p <= 24) that is not on the 2p+1-bit grid lies at least 2^-50 relatively away
  from every point of it, so no f32/f16 rounding decision depends on the residual.
  f64: the residual a - q*q is computed exactly with TwoProduct.
- mad, dp: products exactly as for mul, summed with a vectorized expansion
  (Shewchuk's grow-expansion of TwoSums), then folded into (hi, lo): hi is within one
  float64 ULP of the exact sum and the sign of lo is right except after cancellation
  below 2^-106 of the largest term.
- rcp: as div with a = 1.
- rsq, log, exp: float64 (rsq: numpy's 1/sqrt, two IEEE roundings; log and exp:
  :mod:`..numerics.elementary`, below 2^-66 relative and the same bits on every CPU);
  elements whose float64 value lies within 2^-44 (relative) of a rounding boundary of the
  target format are recomputed with mpmath at 120 bits, so the model's f32/f16 bits are
  correctly rounded (lo is then the mpmath residual). Two vectorized shortcuts skip
  mpmath: results that are exact in float64 (2^x for integer x, log2 of a power of two,
  1/sqrt of a power of four: lo = 0, as mpmath would give), and 2^x for 0 < |x| < 2^-20,
  where a double-double Taylor series gives hi + lo within 2^-90 of the exact value
  (mpmath would cost ~10 us each on a third of all f32 patterns).
"""

from __future__ import annotations

import numpy as np

from ...formats import FloatFormat
from .. import grid
from ..oprow import UnaryMath
from ..residual import zero_residual
from .mpcontext import mp_context

__all__ = ["exact_add", "exact_sub", "exact_mul", "exact_div", "sum_exact", "fused_terms",
           "fused_exact", "unary_exact", "refine_near_boundaries"]


def exact_add(a: np.ndarray, b: np.ndarray, fmt: FloatFormat, finite: bool = False
              ) -> tuple[np.ndarray, np.ndarray]:
    """Exact a + b: TwoSum (``finite``: no INF/NaN fix-up pass)."""
    with np.errstate(all="ignore"):
        return grid.two_sum(a, b, finite)


def exact_sub(a: np.ndarray, b: np.ndarray, fmt: FloatFormat, finite: bool = False
              ) -> tuple[np.ndarray, np.ndarray]:
    """Exact a - b: TwoSum of a and -b."""
    with np.errstate(all="ignore"):
        return grid.two_sum(a, -b, finite)


def exact_mul(a: np.ndarray, b: np.ndarray, fmt: FloatFormat, finite: bool = False
              ) -> tuple[np.ndarray, np.ndarray]:
    """Exact a * b: float64 holds an f32/f16 product; f64: TwoProduct."""
    with np.errstate(all="ignore"):
        if fmt.bits == 64:
            return grid.two_prod(a, b)
        return a * b, zero_residual(a)


def exact_div(a: np.ndarray, b: np.ndarray, fmt: FloatFormat, finite: bool = False
              ) -> tuple[np.ndarray, np.ndarray]:
    """a / b: the correctly rounded float64 quotient and the residual over b (module
    docstring); ``finite``: the caller knows every quotient is finite."""
    with np.errstate(all="ignore"):
        q = a / b
        if fmt.frac_bits <= 23:  # f32, f16 (and f11, f10) operands: 24 bits at most
            r = grid.div_residual_narrow(a, q, b)
        else:
            p, e = grid.two_prod(q, b)
            r = np.subtract(a, p, out=p)
            r -= e
        # r / b is finite exactly where q is finite, b != 0 and r is finite (a residual
        # is below |a| 2^-52); elsewhere lo = 0
        lo = np.divide(r, b, out=r) if isinstance(r, np.ndarray) else r / b
        if finite:
            return q, lo
        fin = np.isfinite(lo)
        if not np.all(fin):
            lo = np.where(fin, lo, 0.0)
        return q, lo


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


def fused_terms(vals: list[np.ndarray]) -> tuple[list[tuple[np.ndarray, np.ndarray]],
                                                  list[np.ndarray]]:
    """(product operand pairs, added terms) of a fused op: three operands are a*b + c
    (mad), an even count a0..an, b0..bn is sum a_i*b_i (dpN)."""
    if len(vals) == 3:
        return [(vals[0], vals[1])], [vals[2]]
    n = len(vals) // 2
    return list(zip(vals[:n], vals[n:])), []


def fused_exact(op: str, vals: list[np.ndarray], fmt: FloatFormat, finite: bool = False
                ) -> tuple[np.ndarray, np.ndarray]:
    """Exact a*b + c / sum a_i*b_i; an exact zero sum has the IEEE sign (-0 only when every
    term is -0: mad(-0, 1, -0) = -0; F32-FUSED). ``finite``: the caller knows every
    operand is a finite f32 or f16 value (then so is the exact sum in float64). ``op``:
    the op's name, for messages (the operand count says which terms)."""
    if len(vals) < 2:
        raise ValueError(f"fused_exact: {op} needs products, got {len(vals)} operand(s)")
    pairs, extra = fused_terms(vals)
    prods = [exact_mul(x, y, fmt) for x, y in pairs]
    terms = prods + [(c, zero_residual(c)) for c in extra]
    if len(pairs) == 1 and extra and fmt.bits <= 32:
        # a*b is exact in float64 (48 bits at most), so a*b + c is one TwoSum: the
        # expansion's result (sum_exact on [(a*b, 0), (c, 0)] gives this same pair,
        # INF and NaN included), at a tenth of its passes. Its sum is 0 only where the
        # exact sum is (float64 has denormals), and then so is the residual
        hi, lo = grid.two_sum(prods[0][0], extra[0], finite)
        zero = hi == 0
    else:
        hi, lo = sum_exact(terms)
        zero = (hi == 0) & (lo == 0)
    if zero.any():
        all_neg = np.ones(hi.shape, dtype=bool)
        for t, _ in terms:
            all_neg &= (t == 0) & np.signbit(t)
        hi = np.where(zero, np.where(all_neg, -0.0, 0.0), hi)
    return hi, lo


def unary_exact(math: UnaryMath, x: np.ndarray, fmt: FloatFormat
                ) -> tuple[np.ndarray, np.ndarray]:
    """Exact-enough (hi, lo) of a unary op on float64 values: its own vector function, or
    its float64 value refined with mpmath near the format's rounding boundaries; the
    special-value table's results where it names the operand."""
    if math.vector is not None:
        hi, lo = math.vector(x, fmt)
    else:
        with np.errstate(all="ignore"):
            hi = math.approx(x)
        hi, lo = refine_near_boundaries(math, x, hi, fmt)
    if math.specials:
        for v, r in math.specials:
            at = x == v
            if at.any():
                hi, lo = np.where(at, r, hi), np.where(at, 0.0, lo)
    return hi, lo


def refine_near_boundaries(
    math: UnaryMath, x: np.ndarray, hi: np.ndarray, fmt: FloatFormat
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
    if math.series is not None:  # e.g. 2^x for tiny x next to 1.0: a double-double series
        tiny = fin & math.in_series(x)
        if tiny.any():
            hi[tiny], lo[tiny] = math.series[1](x[tiny])
            fin &= ~tiny
    if math.exact_hits is not None:  # the float64 value is the exact result there
        fin &= ~math.exact_hits(x, fin)
    m, e = np.frexp(np.where(fin, hi, 1.0))
    # distance to the nearest multiple of 2^-(F+2) in the mantissa [0.5, 1)
    scale = 2.0 ** (fmt.frac_bits + 2)
    t = np.abs(m) * scale
    frac = np.abs(t - np.rint(t))
    close = fin & (frac < 2.0 ** (fmt.frac_bits + 2 - 44))
    idx = np.flatnonzero(close)
    if idx.size == 0:
        return hi, lo
    mp = mp_context(120)
    for i in idx:
        v = math.mp(mp, float(x[i]))
        h = float(v)
        hi[i] = h
        lo[i] = float(v - mp.mpf(h))
    return hi, lo
