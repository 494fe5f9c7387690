"""The unary ops' exact functions, one :class:`UnaryMath` each (the rows of
engine/optable.py point at these): the vector form (``approx`` refined near rounding
boundaries, or an own ``vector``; exact hits; series) and the scalar form (``rational``
where the value is rational, ``mp`` in an mpmath context elsewhere). The engine's vector
entry (:mod:`.vector`), its tolerance edges (finish/edges.py) and the expression layer's
scalar entry (:mod:`.scalar`) all read them from the op row.
"""

from __future__ import annotations

from fractions import Fraction
from math import isqrt

import numpy as np

from ...formats import FloatFormat
from ...numerics import elementary
from .. import grid
from ..oprow import UnaryMath
from .vector import exact_div, exact_sqrt, unary_exact

__all__ = ["SQRT", "RCP", "RSQ", "LOG2", "EXP2", "transcendental"]

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


def _rcp_vector(x: np.ndarray, fmt: FloatFormat) -> tuple[np.ndarray, np.ndarray]:
    return exact_div(np.ones_like(x), x, fmt)


def _rsq_approx(x: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(x)


SQRT = UnaryMath(np.sqrt, lambda mp, x: mp.sqrt(mp.mpf(x)), _sqrt_rational,
                 vector=exact_sqrt)
RCP = UnaryMath(lambda x: 1.0 / x, lambda mp, x: 1 / mp.mpf(x), lambda q: 1 / q,
                vector=_rcp_vector, accurate=True)
_POSITIVE = (0.0, np.inf)
RSQ = UnaryMath(_rsq_approx, lambda mp, x: 1 / mp.sqrt(mp.mpf(x)), _rsq_rational, _rsq_hits,
                kernel_domain=_POSITIVE)
LOG2 = UnaryMath(elementary.log2, lambda mp, x: mp.log(mp.mpf(x), 2), _log2_rational,
                 _log2_hits, kernel_domain=_POSITIVE)
EXP2 = UnaryMath(elementary.exp2, lambda mp, x: mp.power(2, mp.mpf(x)), _exp2_rational,
                 _exp2_hits, series=(2.0**-20, _exp2_tiny), specials=((0.0, 1.0),),
                 saturates_beyond=2.0**16,
                 kernel_domain=(-128.0, 128.0))
_BY_NAME = {"sqrt": SQRT, "rcp": RCP, "rsq": RSQ, "log": LOG2, "exp": EXP2}


def transcendental(name: str, x: np.ndarray, fmt: FloatFormat) -> tuple[np.ndarray, np.ndarray]:
    """Exact-enough (hi, lo) for rcp, rsq, log (log2), exp (2^x), sqrt on float64 values,
    by the name tests and scripts use (the engine reads the op row's ``math``)."""
    return unary_exact(_BY_NAME[name], x, fmt)
