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
  f64: the residual a - q*q is computed exactly with TwoProduct, lo = residual / 2q.
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

The bounded entry (:mod:`.bounded`, the expression layer's) reads the same computations
through the pair forms at the end of this module: an op on double-double operands
(hi + lo) with an absolute bound on its rounding error. On one-float64 operands (every lo
0, the usual first step of an expression) a pair form calls the engine's f64 computation
above (on finite values the same (hi, lo) as the double-double operation, which it
replaces there); on double-double operands it is the double-double operation of
:mod:`...numerics.eft`. rsq, mad and dp are chains of these in the bounded entry. exp and log are the exception, and why: the engine's float64 2^x and
log2 (numerics.elementary) give the same bits on every CPU, which the stored digests need,
at ~20x the cost of numpy's exp2 / log2; the bounded entry only needs a proven bound, so it
takes numpy's value with a 2^-50 relative bound (:func:`exp2_pair`, :func:`log2_pair`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...formats import F64, FloatFormat
from ...numerics.eft import U, dd_add, dd_div, dd_mul, dd_sqrt
from .. import grid
from ..oprow import UnaryMath
from ..residual import zero_residual
from .mpcontext import mp_context

__all__ = ["exact_add", "exact_sub", "exact_mul", "exact_div", "exact_sqrt", "sum_exact",
           "fused_terms", "fused_exact", "unary_exact", "refine_near_boundaries", "add_pair",
           "mul_pair", "div_pair", "sqrt_pair", "exp2_pair", "log2_pair", "row_pair", "TINY",
           "UNDERFLOW"]


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


def exact_sqrt(x: np.ndarray, fmt: FloatFormat) -> tuple[np.ndarray, np.ndarray]:
    """IEEE's root; f64: the residual a - q*q by TwoProduct, over 2q (module docstring)."""
    with np.errstate(all="ignore"):
        hi = np.sqrt(x)
    if fmt.bits != 64:
        return hi, zero_residual(hi)
    p, e = grid.two_prod(hi, hi)
    with np.errstate(all="ignore"):
        r = (x - p) - e
        lo = np.where(np.isfinite(hi) & (hi > 0), r / (2 * np.where(hi > 0, hi, 1.0)), 0.0)
    return hi, lo


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


# The pair forms: each op above on double-double operands (hi + lo), with an absolute bound
# on its own rounding error, for the bounded entry (the module docstring says why exp and
# log have a form of their own). The bounds assume no underflow in a TwoProduct: the
# bounded entry hands results below TINY to the scalar entry.

#: Below this magnitude a TwoProduct's error term (down to 2^-106 of the product) can fall
#: under float64's smallest denormal: a product's low part or a residual is then not exact,
#: and neither is a bound built on it.
TINY = 2.0 ** -960
#: absolute bound on what underflow costs a pair below TINY: each of the dozen float64
#: operations of a TwoProduct or a double-double product rounds to a multiple of 2^-1074
#: (an error below 2^-1075 each); numpy's exp2 of a denormal result is within a few
#: denormal ULPs
UNDERFLOW = 2.0 ** -1060
#: relative bound of numpy's float64 exp2 / log1p / log2 (a few ULPs): it also covers the
#: last-bit differences between CPUs; a map needs 2^-20 ULP of an f32 result (2^-43
#: relative), and a "value" element is recomputed exactly anyway (2^-50 > 2^-70)
TRANS = 2.0 ** -50
LN2 = float(np.log(2.0))


def _plain(*los: np.ndarray) -> bool:
    """Every operand is one float64 (each lo is 0 everywhere)."""
    return not any(lo.any() for lo in los)


def add_pair(ah: np.ndarray, al: np.ndarray, bh: np.ndarray, bl: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray | float]:
    """(hi, lo, bound) of a + b: on one-float64 operands :func:`exact_add`, exact (bound
    0); else the double-double sum."""
    if _plain(al, bl):
        hi, lo = exact_add(ah, bh, F64)
        return hi, lo, 0.0
    return dd_add(ah, al, bh, bl)


def mul_pair(ah: np.ndarray, al: np.ndarray, bh: np.ndarray, bl: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray | float]:
    """(hi, lo, bound) of a * b: on one-float64 operands :func:`exact_mul`'s TwoProduct,
    exact (bound 0) while |a|, |b| <= 2^995 and |a b| >= TINY; else the double-double
    product."""
    if _plain(al, bl):
        hi, lo = exact_mul(ah, bh, F64)
        return hi, lo, 0.0
    return _ieee_beyond(*dd_mul(ah, al, bh, bl), np.multiply, ah, bh)


def div_pair(ah: np.ndarray, al: np.ndarray, bh: np.ndarray, bl: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hi, lo, bound) of a / b: on one-float64 operands :func:`exact_div` (the residual
    a - q b is exact, lo = its float64 quotient by b: bound 4u|lo|, plus the 2^-98 |q| of the
    double-double division; 0 where the quotient is exact); else the double-double
    division. A quotient that is INF or NaN is IEEE's, with lo = 0."""
    if _plain(al, bl):
        shape = np.broadcast_shapes(np.shape(ah), np.shape(bh))
        hi, lo = exact_div(np.atleast_1d(ah), np.atleast_1d(bh), F64)
        hi, lo = hi.reshape(shape), lo.reshape(shape)  # (numpy gives 0-d arrays as scalars)
        with np.errstate(all="ignore"):
            err = np.where(lo == 0, 0.0, 2.0 ** -98 * np.abs(hi) + 4 * U * np.abs(lo))
        return hi, lo, err
    return _ieee_beyond(*dd_div(ah, al, bh, bl), np.divide, ah, bh)


def _ieee_beyond(hi: np.ndarray, lo: np.ndarray, err: np.ndarray,
                 op: Callable[[np.ndarray, np.ndarray], np.ndarray], ah: np.ndarray,
                 bh: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where a double-double product or quotient is INF or NaN (an operand INF or NaN, a
    division by zero, an overflow: its steps give NaN), the float64 operation's IEEE
    result, as the one-float64 form gives it (lo 0, bound 0)."""
    with np.errstate(all="ignore"):
        if np.isfinite(np.sum(hi)):  # (one read pass: every element is finite)
            return hi, lo, err
    fin = np.isfinite(hi)
    with np.errstate(all="ignore"):
        ieee = op(ah, bh)
    return np.where(fin, hi, ieee), np.where(fin, lo, 0.0), np.where(fin, err, 0.0)


def sqrt_pair(xh: np.ndarray, xl: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hi, lo, bound) of sqrt(x) for finite x > 0: on one-float64 operands
    :func:`exact_sqrt` at f64 (the residual x - q^2 is exact, lo = residual / 2q: bound
    2^-98 |q| for the Newton step's truncation plus 4u|lo|; 0 where the root is exact);
    else the double-double root."""
    if _plain(xl):
        hi, lo = exact_sqrt(np.atleast_1d(xh), F64)
        hi, lo = hi.reshape(np.shape(xh)), lo.reshape(np.shape(xh))
        with np.errstate(all="ignore"):
            err = np.where(lo == 0, 0.0, 2.0 ** -98 * np.abs(hi) + 4 * U * np.abs(lo))
        return hi, lo, err
    return dd_sqrt(xh, xl)


def exp2_pair(h: np.ndarray, lo: np.ndarray, err: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value, bound) of 2^x for x = h + lo known within ``err``: numpy's exp2 of h times
    1 + ln2 lo (bound: TRANS relative, plus the operand's lo and err through the
    derivative, with a margin); exact (bound 0) at a small integer known exactly."""
    with np.errstate(all="ignore"):
        v = np.exp2(h)
        v = v + v * (LN2 * lo)
        e = np.abs(v) * (TRANS + np.expm1(LN2 * (err + 4 * U * np.abs(lo))) * 1.01)
    exact = (err == 0) & (lo == 0) & (h == np.round(h)) & (np.abs(h) < 1000)
    return v, np.where(exact, 0.0, e)


def log2_pair(h: np.ndarray, lo: np.ndarray, low: np.ndarray, err: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """(value, bound) of log2(x) for x = h + lo known within ``err`` (``low``: the least
    |x| the bound allows): log1p near 1, else log2(h) + lo / (h ln2) (bound: TRANS
    relative, plus err through the derivative at ``low``, with a margin); IEEE's specials
    (log2 of either zero is -INF, of a negative NaN); exact at a power of two known
    exactly."""
    with np.errstate(all="ignore"):
        near1 = (h >= 0.5) & (h <= 2.0)
        v1 = np.log1p((h - 1.0) + lo) / LN2
        v2 = np.log2(h) + np.where(lo != 0, lo / (h * LN2), 0.0)  # (0/0 at a zero)
        v = np.where(near1, v1, v2)
        e = np.abs(v) * TRANS + err / (np.where(low > 0, low, 1.0) * LN2) * 1.01
    m, ex = np.frexp(h)
    pow2 = (m == 0.5) & (lo == 0) & (err == 0)
    return np.where(pow2, (ex - 1).astype(np.float64), v), np.where(pow2, 0.0, e)


def row_pair(math: UnaryMath, h: np.ndarray, lo: np.ndarray, err: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(value, bound, unsure) of a unary row's op from its row alone: its float64
    ``approx`` with the row's stated relative bound ``approx_error``, on operands known
    exactly as one float64 (``unsure`` marks the rest, and results that are INF, NaN or
    zero, for the scalar entry); the special-value table's results and the exact hits
    with bound 0."""
    with np.errstate(all="ignore"):
        v = np.asarray(math.approx(h), dtype=np.float64)
    if math.approx_error is None:  # no stated bound: nothing is vouched for
        return v, np.full(v.shape, np.inf), np.ones(v.shape, dtype=bool)
    rel = math.approx_error
    e = np.abs(v) * (rel / (1 - rel))  # the bound is stated relative to the exact value
    exact = np.zeros(v.shape, dtype=bool)
    fin = np.isfinite(h)
    if math.exact_hits is not None:
        exact |= math.exact_hits(h, fin)
    for x, r in math.specials:
        at = h == x
        v, exact = np.where(at, r, v), exact | at
    e = np.where(exact, 0.0, e)
    unsure = (lo != 0) | (err != 0) | ~(exact | (np.isfinite(v) & (v != 0)))
    return v, e, unsure
