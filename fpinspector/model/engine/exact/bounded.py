"""The bounded vector entry of the exact values: each instruction's exact value over whole
arrays of double-double operands with a running absolute error bound per element, and a
"needs the exact path" mask (the expression layer chains them, model/expr/exact.py).

Each step maps (hi, lo, err) operands to a result. The values of +, -, *, /, mad, dp,
sqrt, rsq, rcp, exp and log are the pair forms of the vector entry (:mod:`.vector`: the
engine's own computation on one-float64 operands, double-double beyond, each with the
bound of its own rounding); this module adds the operands' bounds through each op and
decides which elements the bound does not vouch for. A unary op row that states a bound on
its float64 function (``UnaryMath.approx_error``) gets its step from the row
(:func:`.vector.row_pair`). min/max/_sat/moves are exact on the pairs. An element is marked
``bad`` (handed to the exact per-element path) when a decision depends on digits the bound
does not fix: a comparison, floor/round/frac near its threshold, a square root or log of a
value within its bound of zero, a division by a value within its bound of zero, an
overflow of the pair range, or a quotient or root below :data:`.vector.TINY` (where a
TwoProduct's error term underflows; a product or power there gets the absolute bound
:data:`.vector.UNDERFLOW` instead).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...numerics.eft import SPLIT_MAX, U
from ..oprow import OpSpec, UnaryMath
from .vector import (
    TINY,
    UNDERFLOW,
    add_pair,
    div_pair,
    exp2_pair,
    log2_pair,
    mul_pair,
    row_pair,
    sqrt_pair,
)

__all__ = ["Approx", "STEPS", "step_of", "exact_approx", "saturate"]


@dataclass
class Approx:
    """One slot over all elements: value hi + lo within ``err`` of the exact value
    (``hi`` is the value itself for bool slots), ``bad`` where that is not good enough."""

    hi: np.ndarray
    lo: np.ndarray
    err: np.ndarray
    bad: np.ndarray


def exact_approx(v: np.ndarray) -> Approx:
    z = np.zeros(v.shape)
    return Approx(v, z, z, np.zeros(v.shape, bool))



#: the bounds are sums and products of float64 values, each rounded to nearest: this factor
#: (2^-49, against at most 7 roundings of 2^-53 in one step) keeps the sum an upper bound
_UP = 1 + 2.0 ** -49


def _mag(a: Approx) -> np.ndarray:
    return np.abs(a.hi) + np.abs(a.lo)


def _tiny(hi: np.ndarray, *operands: np.ndarray) -> np.ndarray:
    """Results below TINY (zero included) of nonzero operands: a TwoProduct there may have
    lost its error term to underflow."""
    t = np.abs(hi) < TINY
    if t.any():
        for x in operands:
            t &= x != 0
    return t


def _mul(a: Approx, b: Approx) -> Approx:
    hi, lo, r = mul_pair(a.hi, a.lo, b.hi, b.lo)
    exact_in = not (a.err.any() or b.err.any())
    err = r if exact_in else (r + _mag(a) * b.err + _mag(b) * a.err + a.err * b.err) * _UP
    tiny = _tiny(hi, a.hi, b.hi)
    if tiny.any():  # a TwoProduct below TINY: its error term is off by a few denormals
        err = err + np.where(tiny, UNDERFLOW, 0.0)
    err = np.broadcast_to(err, hi.shape)
    big = (np.abs(a.hi) > SPLIT_MAX) | (np.abs(b.hi) > SPLIT_MAX)
    return Approx(hi, lo, err, a.bad | b.bad | big)


def _add(a: Approx, b: Approx) -> Approx:
    hi, lo, r = add_pair(a.hi, a.lo, b.hi, b.lo)
    err = r if not (a.err.any() or b.err.any()) else (r + a.err + b.err) * _UP
    return Approx(hi, lo, np.broadcast_to(err, hi.shape), a.bad | b.bad)


def _near_zero(a: Approx) -> np.ndarray:
    """The value might be zero or of either sign (its bound reaches zero)."""
    return (a.err > 0) & (_mag(a) <= a.err * (1 + 4 * U))


def _div(a: Approx, b: Approx) -> Approx:
    with np.errstate(all="ignore"):
        hi, lo, r = div_pair(a.hi, a.lo, b.hi, b.lo)
        err = r
        if a.err.any() or b.err.any():
            den = _mag(b) * (1 - 4 * U) - b.err
            err = (r + (a.err + np.abs(hi) * b.err) / np.where(den > 0, den, 1.0)) * _UP
    ahi = np.abs(hi)
    big = ahi > SPLIT_MAX  # a finite quotient there: the residual is not exact
    if big.any():
        big &= np.isfinite(hi)  # (INF is IEEE's: an exact zero divisor, an overflow)
    tiny = (ahi < TINY) | (np.abs(a.hi) < TINY)  # a TwoProduct of about a's size underflows
    if tiny.any():
        tiny &= a.hi != 0
    bad = a.bad | b.bad | _near_zero(b) | (np.abs(b.hi) > SPLIT_MAX) | big | tiny
    return Approx(hi, lo, err, bad)


def _sqrt(a: Approx, recip: bool) -> Approx:
    """sqrt or 1/sqrt; zeros, negatives, INF and NaN take IEEE's results."""
    special = ~(a.hi > 0) | np.isinf(a.hi)
    some = bool(special.any())
    xh = np.where(special, 1.0, a.hi) if some else a.hi
    xl = np.where(special, 0.0, a.lo) if some else a.lo
    with np.errstate(all="ignore"):
        hi, lo, r = sqrt_pair(xh, xl)
        if recip:
            one = np.ones(hi.shape)
            hi, lo, r2 = div_pair(one, np.zeros(hi.shape), hi, lo)
            r = r2 + (r * hi) * hi  # sqrt's relative error carries over to 1/sqrt
        err = r
        if a.err.any():  # the operand's own bound, through the derivative at its low end
            low = np.maximum(_mag(a) - a.err, 0.0)
            root = np.sqrt(low)
            d = 0.5 * (a.err / low) / root if recip else a.err / root  # (no x^1.5 to overflow)
            err = (err + np.where(low > 0, d, np.inf)) * _UP
    bad = a.bad | _near_zero(a) | _tiny(xh, xh)
    if some:
        with np.errstate(all="ignore"):
            ieee = 1.0 / np.sqrt(a.hi) if recip else np.sqrt(a.hi)
        hi = np.where(special, ieee, hi)
        lo = np.where(special, 0.0, lo)
        err = np.where(special, 0.0, err)
        bad = bad | (special & (a.err > 0))
    return Approx(hi, lo, np.broadcast_to(err, hi.shape), bad)


def _exp2(a: Approx) -> Approx:
    v, err = exp2_pair(a.hi, a.lo, a.err)
    ovf = ~np.isfinite(v) & np.isfinite(a.hi)
    low = (np.abs(v) < TINY) & np.isfinite(a.hi)
    if low.any():  # a denormal or zero float64 power: off by a few denormals at most
        err = err + np.where(low, UNDERFLOW, 0.0)
    return Approx(v, np.zeros(v.shape), err, a.bad | ovf)


def _log2(a: Approx) -> Approx:
    """log2(a); IEEE's specials (log2 of either zero is -INF, of a negative NaN)."""
    with np.errstate(invalid="ignore"):
        low = _mag(a) - a.err
    v, err = log2_pair(a.hi, a.lo, low, a.err)
    return Approx(v, np.zeros(v.shape), err, a.bad | _near_zero(a))


def _rint_dd(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """Nearest integer to hi + lo, ties to even."""
    f = np.floor(hi)
    whole = f == hi
    tie_lo = np.abs(lo) == 0.5
    even = np.fmod(hi, 2.0) == 0
    r_whole = hi + np.where(tie_lo, np.where(even, 0.0, np.sign(lo)), np.rint(lo))
    half = (hi - f) == 0.5
    r_half = f + np.where(lo > 0, 1.0, np.where(lo < 0, 0.0, np.fmod(f, 2.0) != 0))
    return np.where(whole, r_whole, np.where(half, r_half, np.rint(hi)))


def _round(a: Approx, fn: Callable[[np.ndarray], np.ndarray], frac: bool = False) -> Approx:
    """floor / ceil / trunc (``fn``), or frac (``frac``: a - floor(a)); the thresholds are
    the integers."""
    with np.errstate(invalid="ignore"):
        f = fn(a.hi)
        lo_part = (np.where(a.hi > 0, np.floor(a.lo), np.ceil(a.lo)) if fn is np.trunc
                   else fn(a.lo))
        r_hi = np.where(f == a.hi, f + lo_part, f)  # hi whole: lo decides
        dist = np.abs(a.hi - np.rint(a.hi) + a.lo)
    return _rounded(a, r_hi, dist, frac)


def _round_ne(a: Approx) -> Approx:
    """Nearest integer, ties to even; the thresholds are the halves."""
    with np.errstate(invalid="ignore"):
        r_hi = _rint_dd(a.hi, a.lo)
        dist = np.abs(a.hi - (np.floor(a.hi) + 0.5) + a.lo)
    return _rounded(a, r_hi, dist, False)


def _rounded(a: Approx, r_hi: np.ndarray, dist: np.ndarray, frac: bool) -> Approx:
    """The rounded value (or a minus it, ``frac``), marked risky within the bound of its
    threshold (``dist`` away)."""
    zero = np.zeros(a.hi.shape)
    risky = (a.err > 0) & (dist <= a.err * 1.01 + 4 * U * np.abs(a.hi))
    if frac:
        d = _add(a, Approx(-r_hi, zero, zero, a.bad))
        return Approx(d.hi, d.lo, d.err, a.bad | risky)
    return Approx(r_hi, zero, zero, a.bad | risky)


def _compare(test: Callable[[np.ndarray], np.ndarray], unordered: bool, a: Approx,
             b: Approx) -> Approx:
    """``test`` on the sign of a - b; ``unordered``: the result when a NaN is involved."""
    d = _add(a, Approx(-b.hi, -b.lo, b.err, b.bad))
    nan = np.isnan(a.hi) | np.isnan(b.hi)
    with np.errstate(invalid="ignore"):
        s = np.where(d.hi != 0, np.sign(d.hi), np.sign(d.lo))
        s = np.where(np.isinf(a.hi) | np.isinf(b.hi), np.sign(np.where(np.isnan(d.hi), 0.0, d.hi)), s)
    val = np.where(nan, unordered, test(s))
    risky = (d.err > 0) & (np.abs(d.hi) + np.abs(d.lo) <= d.err * (1 + 4 * U))
    return Approx(val, np.zeros(val.shape), np.zeros(val.shape), a.bad | b.bad | risky)


def _minmax(is_min: bool, a: Approx, b: Approx) -> Approx:
    na, nb = np.isnan(a.hi), np.isnan(b.hi)
    d = a.hi - b.hi
    less = (d < 0) | ((d == 0) & (a.lo < b.lo)) | ((d == 0) & (a.lo == b.lo) & np.signbit(a.hi))
    pick_a = (less if is_min else ~less) | nb
    pick_a &= ~(na & ~nb)
    return Approx(np.where(pick_a, a.hi, b.hi), np.where(pick_a, a.lo, b.lo),
                  np.maximum(a.err, b.err), a.bad | b.bad)


def _sat(a: Approx) -> Approx:
    with np.errstate(invalid="ignore"):
        hi = np.where(np.isnan(a.hi), 0.0, np.clip(a.hi, 0.0, 1.0))
        inside = (a.hi > 0) & (a.hi < 1)
    return Approx(hi, np.where(inside, a.lo, 0.0), a.err, a.bad)


def _dot(args: list[Approx]) -> Approx:
    n = len(args) // 2
    acc = _mul(args[0], args[n])
    for i in range(1, n):
        acc = _add(acc, _mul(args[i], args[n + i]))
    return acc


def _movc(c: Approx, x: Approx, y: Approx) -> Approx:
    pick = c.hi.astype(bool) if c.hi.dtype == bool else c.hi != 0
    return Approx(np.where(pick, x.hi, y.hi), np.where(pick, x.lo, y.lo),
                  np.where(pick, x.err, y.err), c.bad | np.where(pick, x.bad, y.bad))


def _rcp(a: Approx) -> Approx:
    return _div(exact_approx(np.ones(a.hi.shape)), a)


def _same(a: Approx) -> Approx:
    """mov, f32tof16, f16tof32: the same real value."""
    return a


#: instruction -> its exact value over all elements, from its operands' approximations
STEPS: dict[str, Callable[..., Approx]] = {
    "add": _add, "mul": _mul, "div": _div, "rcp": _rcp,
    "mad": lambda a, b, c: _add(_mul(a, b), c),
    "dp2": lambda *a: _dot(list(a)), "dp3": lambda *a: _dot(list(a)),
    "dp4": lambda *a: _dot(list(a)),
    "sqrt": lambda a: _sqrt(a, False), "rsq": lambda a: _sqrt(a, True),
    "exp": _exp2, "log": _log2,
    "frc": lambda a: _round(a, np.floor, frac=True), "round_ne": _round_ne,
    "round_ni": lambda a: _round(a, np.floor), "round_pi": lambda a: _round(a, np.ceil),
    "round_z": lambda a: _round(a, np.trunc),
    "eq": lambda a, b: _compare(lambda s: s == 0, False, a, b),
    "ne": lambda a, b: _compare(lambda s: s != 0, True, a, b),
    "lt": lambda a, b: _compare(lambda s: s < 0, False, a, b),
    "ge": lambda a, b: _compare(lambda s: s >= 0, False, a, b),
    "min": lambda a, b: _minmax(True, a, b), "max": lambda a, b: _minmax(False, a, b),
    "movc": _movc, "mov": _same, "f32tof16": _same, "f16tof32": _same,
}


def saturate(a: Approx) -> Approx:
    """The ``_sat`` result modifier: the clamp to [0, 1] (EXPR-SAT)."""
    return _sat(a)


def step_of(op: str, spec: OpSpec | None = None) -> Callable[..., Approx]:
    """The bounded exact function of an instruction: its own (:data:`STEPS`), or for a unary
    op row without one (a row registered at run time) :func:`_from_row` when the row
    states a bound on its float64 function, else :func:`_unbounded`. KeyError for an
    instruction with neither."""
    fn = STEPS.get(op)
    if fn is not None:
        return fn
    if spec is not None and spec.math is not None:
        um = spec.math
        if um.approx_error is not None:
            return lambda a: _from_row(um, a)
        return lambda a: _unbounded(um, a)
    raise KeyError(op)


def _from_row(um: UnaryMath, a: Approx) -> Approx:
    """A unary op from its row: its float64 value within the row's stated bound, for
    operands known exactly (:func:`.vector.row_pair`); the rest go to the scalar entry."""
    v, err, unsure = row_pair(um, a.hi, a.lo, a.err)
    return Approx(v, np.zeros(v.shape), err, a.bad | unsure)


def _unbounded(um: UnaryMath, a: Approx) -> Approx:
    """A unary op known only by its row's exact function: its float64 value with no bound,
    every element marked for the scalar entry (which reads the row: engine/exact/scalar.py)."""
    with np.errstate(all="ignore"):
        hi = np.asarray(um.approx(a.hi), dtype=np.float64)
    return Approx(hi, np.zeros(hi.shape), np.full(hi.shape, np.inf), np.ones(hi.shape, bool))
