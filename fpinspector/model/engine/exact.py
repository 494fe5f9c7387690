"""Exact references: the infinitely precise result of each op as a float64 pair (hi, lo).

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

import threading
from fractions import Fraction
from math import isqrt
from typing import Any

import numpy as np

from ..formats import FloatFormat
from ..numerics import elementary
from . import grid
from .oprow import UnaryMath
from .residual import zero_residual

__all__ = ["exact_add", "exact_sub", "exact_mul", "exact_div", "sum_exact", "unary_exact",
           "transcendental", "refine_near_boundaries", "mp_context",
           "SQRT", "RCP", "RSQ", "LOG2", "EXP2"]


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


_MP = threading.local()


def mp_context(prec: int = 120) -> Any:
    """A private mpmath context at ``prec`` bits, one per thread (imported lazily: the
    model stays numpy-only until a reference value is needed). Why private: mpmath's
    global ``mp`` belongs to the caller (and to other threads); the engine never changes
    its precision."""
    cache = getattr(_MP, "contexts", None)
    if cache is None:
        cache = _MP.contexts = {}
    ctx = cache.get(prec)
    if ctx is None:
        import mpmath

        ctx = cache[prec] = mpmath.MPContext()
        ctx.prec = prec
    return ctx


_LN2_HI = 0.6931471805599453  # float64 nearest ln 2
_LN2_LO = 2.3190468138462996e-17  # ln 2 - _LN2_HI


def _exp2_tiny(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """2^x = e^y, y = x ln 2, for |x| < 2^-20 as a float64 pair (hi, lo).

    Error budget: y in double-double from TwoProduct (x has 24 bits) plus x * ln2_lo
    (error < 2^-125); y^2 / 2 via TwoProduct; y^3/6 + y^4/24 in float64 (|y| < 2^-20.5:
    their float64 error and the omitted y^5/120 are below 2^-95). Total < 2^-90 absolute.
    """
    yh, yl = grid.two_prod(x, np.full_like(x, _LN2_HI))
    yl = yl + x * _LN2_LO
    p, pe = grid.two_prod(yh, yh)
    y3 = p * yh
    t = yl + (pe * 0.5 + yh * yl) + y3 * (1.0 / 6.0) + (p * p) * (1.0 / 24.0)
    t = t + p * 0.5  # |t| < 2^-40: the sum's rounding error is below 2^-93
    s1, e1 = grid.two_sum(np.ones_like(x), yh)
    return grid.two_sum(s1, e1 + t)


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


# -- the unary ops' exact functions (the rows of engine/optable.py point at these) ----------

def _sqrt_rational(q: Fraction) -> Fraction | None:
    """sqrt(q) when it is rational, else None."""
    if q < 0:
        return None
    n, d = q.numerator, q.denominator
    rn, rd = isqrt(n), isqrt(d)
    if rn * rn == n and rd * rd == d:
        return Fraction(rn, rd)
    return None


def _rsq_rational(q: Fraction) -> Fraction | None:
    r = _sqrt_rational(q)
    return None if r is None else 1 / r


def _exp2_rational(q: Fraction) -> Fraction | None:
    return Fraction(2) ** int(q) if q.denominator == 1 else None


def _log2_rational(q: Fraction) -> Fraction | None:
    n, d = q.numerator, q.denominator
    if n & (n - 1) == 0 and d & (d - 1) == 0:  # a power of two: log2 is an integer
        return Fraction(n.bit_length() - d.bit_length())
    return None


def _pow2_operand(x: np.ndarray, fin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    m, e = np.frexp(np.where(fin, x, 3.0))
    return fin & (m == 0.5), e  # x = 2^(e-1)


def _exp2_hits(x: np.ndarray, fin: np.ndarray) -> np.ndarray:
    """2^n: exp2 is exact on integers (checked: == ldexp)."""
    with np.errstate(all="ignore"):
        xi = np.where(fin, x, 0.5)
        n = np.rint(xi)
        return fin & (n == xi) & (elementary.exp2(xi) == np.ldexp(1.0, n.astype(np.int32)))


def _log2_hits(x: np.ndarray, fin: np.ndarray) -> np.ndarray:
    """log2 of a power of two: an integer."""
    return _pow2_operand(x, fin)[0]


def _rsq_hits(x: np.ndarray, fin: np.ndarray) -> np.ndarray:
    """1/sqrt of a power of four: a power of two."""
    pow2, e = _pow2_operand(x, fin)
    return pow2 & ((e - 1) % 2 == 0)


def _sqrt_vector(x: np.ndarray, fmt: FloatFormat) -> tuple[np.ndarray, np.ndarray]:
    """IEEE's root; f64: the residual a - q*q by TwoProduct (module docstring)."""
    with np.errstate(all="ignore"):
        hi = np.sqrt(x)
    if fmt.bits != 64:
        return hi, zero_residual(hi)
    p, e = grid.two_prod(hi, hi)
    with np.errstate(all="ignore"):
        r = (x - p) - e
        lo = np.where(np.isfinite(hi) & (hi > 0), r / (2 * np.where(hi > 0, hi, 1.0)), 0.0)
    return hi, lo


def _rcp_vector(x: np.ndarray, fmt: FloatFormat) -> tuple[np.ndarray, np.ndarray]:
    return exact_div(np.ones_like(x), x, fmt)


def _rsq_approx(x: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(x)


SQRT = UnaryMath(np.sqrt, lambda mp, x: mp.sqrt(mp.mpf(x)), _sqrt_rational,
                 vector=_sqrt_vector)
RCP = UnaryMath(lambda x: 1.0 / x, lambda mp, x: 1 / mp.mpf(x), lambda q: 1 / q,
                vector=_rcp_vector, accurate=True)
_POSITIVE = (0.0, np.inf)
RSQ = UnaryMath(_rsq_approx, lambda mp, x: 1 / mp.sqrt(mp.mpf(x)), _rsq_rational, _rsq_hits,
                kernel_domain=_POSITIVE)
LOG2 = UnaryMath(elementary.log2, lambda mp, x: mp.log(mp.mpf(x), 2), _log2_rational,
                 _log2_hits, kernel_domain=_POSITIVE)
EXP2 = UnaryMath(elementary.exp2, lambda mp, x: mp.power(2, mp.mpf(x)), _exp2_rational,
                 _exp2_hits, series=(2.0**-20, _exp2_tiny), specials=((0.0, 1.0),),
                 kernel_domain=(-128.0, 128.0))
_BY_NAME = {"sqrt": SQRT, "rcp": RCP, "rsq": RSQ, "log": LOG2, "exp": EXP2}


def transcendental(name: str, x: np.ndarray, fmt: FloatFormat) -> tuple[np.ndarray, np.ndarray]:
    """Exact-enough (hi, lo) for rcp, rsq, log (log2), exp (2^x), sqrt on float64 values,
    by the name tests and scripts use (the engine reads the op row's ``math``)."""
    return unary_exact(_BY_NAME[name], x, fmt)
