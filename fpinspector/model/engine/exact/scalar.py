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
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeAlias

import mpmath

from .mpcontext import mp_context

__all__ = ["PREC", "Real", "exact_op", "exact_sat", "to_pair", "as_fraction"]

#: An exact value (module docstring): Fraction, mpmath.mpf, float (signed zero, INF, NaN),
#: bool (a comparison) or int (a uint slot). mpmath has no type information: to mypy its
#: mpf member is Any, so operations are checked on the other members only.
Real: TypeAlias = Fraction | float | int | mpmath.mpf

#: Working precision (bits) of irrational values.
PREC = 320
_EXP_LIMIT = 1 << 16  # |x| above this: 2^x is INF or +0 whatever float64 could hold


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


def _sqrt(a: Real) -> Real:
    if isinstance(a, float):
        return a if (a == 0 or a == math.inf) else math.nan
    if a < 0:
        return math.nan
    if isinstance(a, Fraction):
        n, d = math.isqrt(a.numerator), math.isqrt(a.denominator)
        if n * n == a.numerator and d * d == a.denominator:
            return Fraction(n, d)
    return _mp().sqrt(_mpf(a))


def _exp2(a: Real) -> Real:
    if isinstance(a, float):
        return Fraction(1) if a == 0 else (a if a != -math.inf else 0.0)
    if abs(a) > _EXP_LIMIT:
        return math.inf if a > 0 else 0.0
    if isinstance(a, Fraction) and a.denominator == 1:
        return Fraction(2) ** a.numerator
    return _mp().power(2, _mpf(a))


def _log2(a: Real) -> Real:
    if isinstance(a, float):
        return -math.inf if a == 0 else (math.inf if a == math.inf else math.nan)
    if a < 0:
        return math.nan
    if isinstance(a, Fraction):
        n, d = a.numerator, a.denominator
        if n == 1 and d & (d - 1) == 0:
            return _norm(Fraction(-(d.bit_length() - 1)))
        if d == 1 and n & (n - 1) == 0:
            return _norm(Fraction(n.bit_length() - 1))
    return _mp().log(_mpf(a), 2)


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


def _rsq(a: Real) -> Real:
    return _div(Fraction(1), _sqrt(a)) if not _zero(a) else math.copysign(math.inf, _sign(a))


def _same(a: Real) -> Real:
    """mov, f32tof16, f16tof32: the same real value."""
    return a


#: instruction -> its exact result on exact operand values
_EXACT: dict[str, Callable[..., Real]] = {
    "add": _add, "sub": lambda a, b: _add(a, _neg(b)), "mul": _mul, "div": _div,
    "mad": lambda a, b, c: _add(_mul(a, b), c), "dp2": _dot, "dp3": _dot, "dp4": _dot,
    "min": lambda a, b: _minmax(a, b, True), "max": lambda a, b: _minmax(a, b, False),
    "eq": _cmp_op(lambda c: c == 0, False), "ne": _cmp_op(lambda c: c != 0, True),
    "lt": _cmp_op(lambda c: c < 0, False), "ge": _cmp_op(lambda c: c >= 0, False),
    "movc": lambda c, a, b: a if c else b,
    "sqrt": _sqrt, "rsq": _rsq, "rcp": lambda a: _div(Fraction(1), a), "exp": _exp2,
    "log": _log2, "frc": _frc, "round_ne": lambda a: _round(a, "ne"),
    "round_ni": lambda a: _round(a, "ni"), "round_pi": lambda a: _round(a, "pi"),
    "round_z": lambda a: _round(a, "z"), "mov": _same, "f32tof16": _same, "f16tof32": _same,
}


def exact_op(op: str, args: list[Real]) -> Real:
    """The exact result of one step's operation on exact operand values."""
    fn = _EXACT.get(op)
    if fn is None:
        raise ValueError(f"no exact semantics for {op!r}")
    return fn(*args)


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
    except OverflowError:
        return math.copysign(math.inf, x), 0.0
    if not math.isfinite(hi):
        return hi, 0.0
    rest = as_fraction(x) - Fraction(hi)
    return hi, float(rest)
