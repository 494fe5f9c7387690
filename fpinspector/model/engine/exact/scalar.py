"""The scalar entry of the exact values: one element's exact value per instruction: Fractions for rational steps, mpmath
(PREC bits) once a square root, 2^x or log2 is irrational.

Values are Fraction (finite, nonzero, rational), mpmath.mpf (finite, nonzero, irrational to
PREC bits), float (a signed zero, an infinity or NaN) or bool. Zeros carry IEEE signs so
that ``rsq(-0)`` is -INF and ``x / -0`` has the right sign; an exact zero sum is +0 unless
every term was a zero (then IEEE's rule for the zeros' signs). Comparisons and floor-type
steps on irrational values decide at PREC bits: a contrived identity such as
``sqrt(2) * sqrt(2) == 2`` is not recognised.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from ..oprow import OpSpec, UnaryMath
from .mpcontext import mp_context

__all__ = ["PREC", "Real", "exact_op", "exact_sat", "to_pair", "as_fraction", "of_float",
           "add", "sub", "mul", "div", "fused", "unary", "frc", "of_row", "entry",
           "minimum", "maximum", "eq", "ne", "lt", "le", "gt", "ge", "round_ne", "round_ni",
           "round_pi", "round_z", "same"]

#: An exact value (module docstring): Fraction, mpmath.mpf, float (signed zero, INF, NaN),
#: bool (a comparison) or int (a uint slot). mpmath has no type information: to mypy its
#: mpf member is Any, so operations are checked on the other members only.
Real: TypeAlias = "Fraction | float | int | mpmath.mpf"
if TYPE_CHECKING:  # (mpmath itself is imported where a value needs it: mp_context)
    import mpmath

#: Working precision (bits) of irrational values.
PREC = 320


def _mp() -> Any:
    """This thread's private mpmath context at PREC bits (:mod:`.mpcontext` says why
    private)."""
    return mp_context(PREC)


def _is_mpf(x: object) -> bool:
    return hasattr(x, "_mpf_")


def _mpf(x: Real) -> mpmath.mpf:
    """x as an mpf of the PREC-bit context (an mpf already is one)."""
    if _is_mpf(x):
        return x
    mp = _mp()
    if isinstance(x, Fraction):
        return mp.mpf(x.numerator) / x.denominator
    return mp.mpf(x)


def as_fraction(x: Real) -> Fraction:
    """Exact Fraction of a finite value (an mpf is a binary number; an int a uint's bits)."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, float)):
        return Fraction(x)
    sign, man, exp, _ = x._mpf_  # (sign, mantissa, exponent, bit count); man_exp drops the sign
    return Fraction(-int(man) if sign else int(man)) * (Fraction(2) ** int(exp))


def _finite(x: Real) -> bool:
    return not isinstance(x, float) or math.isfinite(x)


def _zero(x: Real) -> bool:
    return isinstance(x, float) and x == 0


def _sign(x: Real) -> float:
    if isinstance(x, float):
        return math.copysign(1.0, x)
    return -1.0 if x < 0 else 1.0


def _f(x: Real) -> float:
    """Float stand-in keeping sign and class (magnitude only matters for INF/NaN rules)."""
    return x if isinstance(x, float) else _sign(x)


def _norm(x: Real) -> Real:
    if (isinstance(x, Fraction) or _is_mpf(x)) and x == 0:
        return 0.0
    return x


def _arith(a: Real, b: Real) -> tuple[Real, Real]:
    if _is_mpf(a) or _is_mpf(b):
        return _mpf(a), _mpf(b)
    return a, b


def _add(a: Real, b: Real) -> Real:
    if not (_finite(a) and _finite(b)):
        return _f(a) + _f(b)
    if _zero(a) and _zero(b):
        return a + b
    if _zero(a):
        return b
    if _zero(b):
        return a
    x, y = _arith(a, b)
    return _norm(x + y)


def _mul(a: Real, b: Real) -> Real:
    if not (_finite(a) and _finite(b)) or _zero(a) or _zero(b):
        return _f(a) * _f(b) if not (_finite(a) and _finite(b)) else math.copysign(0.0, _sign(a) * _sign(b))
    x, y = _arith(a, b)
    return x * y


def _div(a: Real, b: Real) -> Real:
    if not (_finite(a) and _finite(b)):
        with_nan = _f(a) / _f(b) if _f(b) != 0 else math.copysign(math.inf, _sign(a) * _sign(b))
        return with_nan if not (math.isinf(_f(a)) and math.isinf(_f(b))) else math.nan
    if _zero(b):
        return math.nan if _zero(a) else math.copysign(math.inf, _sign(a) * _sign(b))
    if _zero(a):
        return math.copysign(0.0, _sign(a) * _sign(b))
    x, y = _arith(a, b)
    return x / y


_FRACTION_ROUNDING: dict[str, Callable[[Fraction], int]] = {
    "ni": math.floor, "pi": math.ceil, "z": math.trunc, "ne": round}


def _round(a: Real, how: str) -> Real:
    if isinstance(a, float):
        return a
    if isinstance(a, Fraction):
        r = Fraction(_FRACTION_ROUNDING[how](a))
    else:
        mp = _mp()
        fn: Callable[[Real], Real] = {
            "ni": mp.floor, "pi": mp.ceil, "ne": mp.nint,
            "z": lambda v: mp.floor(v) if v > 0 else mp.ceil(v)}[how]
        r = Fraction(int(fn(a)))
    return r if r != 0 else math.copysign(0.0, _sign(a))


def _frc(a: Real) -> Real:
    if isinstance(a, float):
        return 0.0 if a == 0 else math.nan
    f = _round(a, "ni")
    return a if _zero(f) else _norm(_add(a, _neg(f)))


def _cmp(a: Real, b: Real) -> int | None:
    """-1, 0, 1, or None when a NaN is involved."""
    if (isinstance(a, float) and math.isnan(a)) or (isinstance(b, float) and math.isnan(b)):
        return None
    if not (_finite(a) and _finite(b)) or _zero(a) or _zero(b):
        x, y = float(_f(a)) if not _zero(a) else 0.0, float(_f(b)) if not _zero(b) else 0.0
        if _finite(a) and not _zero(a):
            x = _sign(a)
        if _finite(b) and not _zero(b):
            y = _sign(b)
        return (x > y) - (x < y)
    fa, fb = as_fraction(a), as_fraction(b)
    return (fa > fb) - (fa < fb)


def _minmax(a: Real, b: Real, is_min: bool) -> Real:
    c = _cmp(a, b)
    if c is None:  # F32-MINMAX-NAN: the other operand (two NaNs: NaN)
        nan_a = isinstance(a, float) and math.isnan(a)
        return b if nan_a else a
    if c == 0 and _zero(a) and _zero(b):
        return math.copysign(0.0, -1.0 if is_min else 1.0) if _sign(a) != _sign(b) else a
    return (a if c <= 0 else b) if is_min else (a if c >= 0 else b)


def _sat(a: Real) -> Real:
    below = _cmp(a, 0.0)
    if below is None or below <= 0:  # NaN (max gives the other operand), negative, zero
        return 0.0
    above = _cmp(a, Fraction(1))
    assert above is not None  # a is not NaN
    return Fraction(1) if above >= 0 else a


def _cmp_op(test: Callable[[int], bool], unordered: bool) -> Callable[[Real, Real], Real]:
    """A comparison: ``test`` on the order of a and b; ``unordered`` when a NaN is involved."""
    def run(a: Real, b: Real) -> Real:
        c = _cmp(a, b)
        return unordered if c is None else bool(test(c))
    return run


def _dot(*args: Real) -> Real:
    n = len(args) // 2
    acc = _mul(args[0], args[n])
    for i in range(1, n):
        acc = _add(acc, _mul(args[i], args[n + i]))
    return acc


def _same(a: Real) -> Real:
    """mov, f32tof16, f16tof32: the same real value."""
    return a


#: the expression instructions that have no op row (movc: a select on a condition) ->
#: their exact result on exact operand values
_EXACT: dict[str, Callable[..., Real]] = {"movc": lambda c, a, b: a if c else b}


def exact_op(op: str, args: list[Real], spec: OpSpec | None = None) -> Real:
    """The exact result of one step's operation on exact operand values: from its op row
    ``spec`` where the row has an exact function (:func:`of_row`), else by instruction."""
    fn = entry(op, spec)
    if fn is None:
        raise ValueError(f"no exact semantics for {op!r}")
    return fn(*args)


def entry(op: str, spec: OpSpec | None = None) -> Callable[..., Real] | None:
    """The scalar exact function of an instruction: its op row's (``spec``), else, for an
    expression instruction without a row (movc), its own; or None."""
    fn = _row_entry(spec) if spec is not None else None
    return fn if fn is not None else _EXACT.get(op)


def _row_entry(spec: OpSpec) -> Callable[..., Real] | None:
    """The exact function an op row carries: a unary row's ``math`` (:func:`unary`), every
    other row's ``scalar`` (arith, fused, frc, round, min/max, comparisons, mov, f32tof16,
    f16tof32); None for a row with neither (the other conversions)."""
    if spec.math is not None:
        return partial(unary, spec.math)
    return spec.scalar


def of_row(spec: OpSpec, args: Sequence[Real], mp: Any = None) -> Real:
    """The exact value of an op row's operation on exact operands (:func:`_row_entry`);
    ``mp``: the mpmath context of a unary op's irrational results (default: this thread's
    at PREC bits)."""
    if spec.math is not None:
        return unary(spec.math, args[0], mp)
    fn = _row_entry(spec)
    if fn is None:
        raise ValueError(f"{spec.name}: its row has no exact function")
    return fn(*args)


def of_float(x: float) -> Real:
    """A float64 operand as an exact value: a Fraction, or the float itself where it is a
    signed zero, an infinity or NaN (module docstring)."""
    return x if (x == 0 or not math.isfinite(x)) else Fraction(x)


def _exact_float(r: float) -> Real:
    return Fraction(r) if (r != 0 and math.isfinite(r)) else r


def unary(um: UnaryMath, a: Real, mp: Any = None) -> Real:
    """A unary op's exact value from its exact function (engine/exact/unary.py): the
    special-value table's result where it names the operand; at a zero, an infinity, NaN
    or beyond ``um.saturates_beyond``, the float64 function's (IEEE's) result; NaN outside
    the domain (the ops' domains are a sign: the float64 function at -1 or +1 says);
    else the rational value where there is one, and mpmath (``mp``, default PREC bits)."""
    if isinstance(a, float):
        for v, r in um.specials:
            if a == v:
                return _exact_float(r)
        return _exact_float(_float64_value(um, repr(a)))
    specials, limit = _exact_bounds(um)
    if isinstance(a, Fraction):  # (an mpf is irrational to PREC bits: no table names one)
        for exact_v, r in specials:
            if a == exact_v:
                return _exact_float(r)
    if limit is not None and abs(a) > limit:
        return _exact_float(_float64_value(um, repr(math.copysign(math.inf, _sign(a)))))
    if _outside_domain(um)[a > 0]:
        return math.nan
    if isinstance(a, Fraction):
        q = um.rational(a)
        if q is not None:
            return _norm(q)
    return um.mp(mp if mp is not None else _mp(), _mpf(a))


@lru_cache(maxsize=64)
def _exact_bounds(um: UnaryMath) -> tuple[tuple[tuple[Fraction, float], ...], Fraction | None]:
    """The special-value table's finite nonzero operands and ``saturates_beyond`` as
    Fractions (cached: a Fraction compared with a float converts the float every time)."""
    specials = tuple((Fraction(v), r) for v, r in um.specials if v != 0 and math.isfinite(v))
    limit = Fraction(um.saturates_beyond) if math.isfinite(um.saturates_beyond) else None
    return specials, limit


@lru_cache(maxsize=64)
def _outside_domain(um: UnaryMath) -> tuple[bool, bool]:
    """(negative operands, positive operands) give NaN: the float64 function at -1, +1."""
    return math.isnan(_float64_value(um, "-1.0")), math.isnan(_float64_value(um, "1.0"))


@lru_cache(maxsize=256)
def _float64_value(um: UnaryMath, x: str) -> float:
    """The float64 function at ``float(x)`` (a signed zero, +-INF, NaN, +-1: a handful of
    points per op, so cached; keyed by repr, as -0.0 == 0.0 share a hash)."""
    with np.errstate(all="ignore"):
        return float(um.approx(np.array([float(x)]))[0])


def add(a: Real, b: Real) -> Real:
    """a + b exactly (IEEE's signs of zero sums, INF and NaN)."""
    return _add(a, b)


def sub(a: Real, b: Real) -> Real:
    """a - b exactly."""
    return _add(a, _neg(b))


def mul(a: Real, b: Real) -> Real:
    """a * b exactly (IEEE's signed zeros, INF and NaN)."""
    return _mul(a, b)


def div(a: Real, b: Real) -> Real:
    """a / b exactly (IEEE's x / 0, 0 / 0, INF / INF)."""
    return _div(a, b)


def fused(*args: Real) -> Real:
    """A fused op's exact sum of products: three operands are a*b + c (mad), an even
    count a0..an, b0..bn is sum a_i*b_i (dpN), as engine/exact/vector.py's fused_terms."""
    if len(args) == 3:
        return _add(_mul(args[0], args[1]), args[2])
    return _dot(*args)


def frc(a: Real) -> Real:
    """a - floor(a) exactly."""
    return _frc(a)


def minimum(a: Real, b: Real) -> Real:
    """min: the lesser; one NaN gives the other operand (F32-MINMAX-NAN), -0 below +0
    (F32-MINMAX-ZERO)."""
    return _minmax(a, b, True)


def maximum(a: Real, b: Real) -> Real:
    """max: the greater; one NaN gives the other operand, +0 above -0."""
    return _minmax(a, b, False)


#: the comparisons: true or false by the exact order; a NaN operand gives false, but true
#: for ne (F32-CMPNAN); -0 equals +0 (F32-CMPZERO)
eq = _cmp_op(lambda c: c == 0, False)
ne = _cmp_op(lambda c: c != 0, True)
lt = _cmp_op(lambda c: c < 0, False)
le = _cmp_op(lambda c: c <= 0, False)
gt = _cmp_op(lambda c: c > 0, False)
ge = _cmp_op(lambda c: c >= 0, False)


def round_ne(a: Real) -> Real:
    """a rounded to an integral value, ties to even."""
    return _round(a, "ne")


def round_ni(a: Real) -> Real:
    """a rounded toward -INF (floor)."""
    return _round(a, "ni")


def round_pi(a: Real) -> Real:
    """a rounded toward +INF (ceil)."""
    return _round(a, "pi")


def round_z(a: Real) -> Real:
    """a rounded toward zero (trunc)."""
    return _round(a, "z")


def same(a: Real) -> Real:
    """mov: the operand's value, unchanged."""
    return _same(a)


def exact_sat(a: Real) -> Real:
    """The ``_sat`` result modifier on an exact value (EXPR-SAT: the clamp to [0, 1])."""
    return _sat(a)


def _neg(a: Real) -> Real:
    return -a


def to_pair(x: Real) -> tuple[float, float]:
    """(hi, lo): hi the float64 nearest to x, lo the float64 nearest to x - hi."""
    if isinstance(x, bool):
        return float(x), 0.0
    if isinstance(x, float):
        return x, 0.0
    try:
        hi = float(x)
    except OverflowError:  # (a Fraction beyond float64: copysign would convert it again)
        return (math.inf if x > 0 else -math.inf), 0.0
    if not math.isfinite(hi):
        return hi, 0.0
    rest = as_fraction(x) - Fraction(hi)
    return hi, float(rest)
