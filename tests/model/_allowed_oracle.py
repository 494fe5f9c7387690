"""An independent oracle of f32 allowed sets, written from docs/rules.md with Fractions.

Nothing here imports fpinspector. A set is a list of inclusive key intervals plus "any
NaN", where a key orders the f32 patterns by value with -0 just below +0 (positive pattern
p: key p; negative pattern: -(p & 0x7FFFFFFF) - 1), the representation AllowedSet.keys
also uses, so the two compare as data.

Readings (docs/rules.md):

- a 0.5-ULP step is round to nearest even (overflow to INF at FLT_MAX + ulp/2);
- a 1-ULP window of an exact value x holds every finite pattern within one ULP of x (the
  ULP of x's binade, 2^(k-23) for |x| in [2^k, 2^(k+1)), clamped to [2^-149, 2^104]),
  on x's side of zero, plus its two neighbours, rounded down and rounded up; INF is the
  upper neighbour only of an x beyond FLT_MAX, whose lower neighbour is FLT_MAX
  (F32-WINDOW-TOP); an exact zero allows itself only (ALLOWED-ZERO);
- F32-FTZ: a denormal result becomes the zero of its sign (strict), or may also stay
  (ftz_output=either).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable
from fractions import Fraction
from itertools import product

MAXP = 0x7F7FFFFF
INFP = 0x7F800000
SIGN = 0x80000000
MIN_NORMAL = Fraction(2) ** -126
TINY = Fraction(2) ** -149
FMAX = Fraction(struct.unpack("<f", struct.pack("<I", MAXP))[0])


def f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def bits32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def key(p: int) -> int:
    return -(p & 0x7FFFFFFF) - 1 if p & SIGN else p


def pat(k: int) -> int:
    return (SIGN | (-k - 1)) if k < 0 else k


def mag_value(m: int) -> Fraction:
    """Exact value of a non-negative finite pattern (magnitude bits)."""
    e, f = m >> 23, m & 0x7FFFFF
    if e == 0:
        return f * TINY
    return (0x800000 | f) * Fraction(2) ** (e - 150)


def _floor_mag(a: Fraction) -> int:
    """Largest finite magnitude pattern with value <= a (a >= 0): a guess from the float
    nearest a, then exact comparisons move it to the right pattern."""
    if a >= FMAX:
        return MAXP
    m = struct.unpack("<I", struct.pack("<f", float(a)))[0] & 0x7FFFFFFF
    m = min(m, MAXP)
    while m > 0 and mag_value(m) > a:
        m -= 1
    while m < MAXP and mag_value(m + 1) <= a:
        m += 1
    return m


def _ceil_mag(a: Fraction) -> int:
    """Smallest magnitude pattern with value >= a (INF beyond FLT_MAX)."""
    if a > FMAX:
        return INFP
    m = _floor_mag(a)
    return m if mag_value(m) == a else m + 1


def ulp(x: Fraction) -> Fraction:
    a = abs(x)
    if a == 0:
        return TINY
    k = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** k > a:
        k -= 1
    k = min(max(k, -126), 127)
    return Fraction(2) ** (k - 23)


def rn_mag(a: Fraction) -> int:
    """Round a >= 0 to nearest even (INF at or beyond FLT_MAX + half an ULP)."""
    if a >= FMAX + Fraction(2) ** 103:
        return INFP
    m = _floor_mag(a)
    lo = mag_value(m)
    if lo == a:
        return m
    hi = mag_value(m + 1) if m < MAXP else Fraction(2) ** 128
    if a - lo < hi - a or (a - lo == hi - a and m % 2 == 0):
        return m
    return m + 1


def signed(m: int, neg: bool) -> int:
    return m | SIGN if neg else m


def value_of(p: int) -> Fraction | float:
    """Fraction for finite patterns, +/-inf for INF, nan for NaN."""
    m = p & 0x7FFFFFFF
    if m > INFP:
        return math.nan
    if m == INFP:
        return -math.inf if p & SIGN else math.inf
    v = mag_value(m)
    return -v if p & SIGN else v


def is_den(p: int) -> bool:
    m = p & 0x7FFFFFFF
    return 0 < m < 0x800000


def flush(p: int) -> int:
    return (p & SIGN) if is_den(p) else p


def rn(x: Fraction, zero_neg: bool = False) -> int:
    """Nearest-even pattern of an exact value; an exact zero is -0 when ``zero_neg``."""
    if x == 0:
        return SIGN if zero_neg else 0
    return signed(rn_mag(abs(x)), x < 0)


def window_1ulp(x: Fraction, zero_neg: bool = False) -> list[int]:
    """The patterns a 1-ULP step may give for the exact value x (module docstring)."""
    if x == 0:
        return [SIGN if zero_neg else 0]
    neg = x < 0
    a = abs(x)
    u = ulp(a)
    lo = a - u
    out = set()
    if a <= FMAX:
        hi_m = _floor_mag(min(a + u, FMAX))
        lo_m = 0 if lo <= 0 else _ceil_mag(lo)
        out.update(range(lo_m, hi_m + 1))
        out.add(_floor_mag(a))
        out.add(_ceil_mag(a))
    else:
        out.update((MAXP, INFP))
        if lo <= FMAX:
            out.update(range(_ceil_mag(lo), MAXP + 1))
    return sorted(signed(m, neg) for m in out)


def step(x: Fraction | float, t: float, zero_neg: bool = False) -> list[int]:
    """A serial step's possible patterns (before flush) for an exact result x (Fraction,
    or +/-inf / nan)."""
    if isinstance(x, float):
        if math.isnan(x):
            return []
        return [INFP | SIGN if x < 0 else INFP]
    return [rn(x, zero_neg)] if t == 0.5 else window_1ulp(x, zero_neg)


def flushed(pats: Iterable[int], mode: str) -> set[int]:
    """F32-FTZ on results: ``strict`` (flush), ``either`` (flushed and kept), ``none``."""
    out: set[int] = set()
    for p in pats:
        if mode == "none" or not is_den(p):
            out.add(p)
        else:
            out.add(flush(p))
            if mode == "either":
                out.add(p)
    return out


def add_values(a: Fraction | float, b: Fraction | float, a_p: int, b_p: int
               ) -> tuple[Fraction | float, bool]:
    """Exact a + b of two step results and the sign of an exact zero (IEEE: -0 only for
    -0 + -0)."""
    if isinstance(a, float) or isinstance(b, float):
        fa, fb = float(a), float(b)
        if math.isnan(fa) or math.isnan(fb) or (math.isinf(fa) and math.isinf(fb) and fa != fb):
            return math.nan, False
        return (fa if math.isinf(fa) else fb), False
    s = a + b
    return s, (s == 0 and bool(a_p & SIGN) and bool(b_p & SIGN))


def mul_values(a: int, b: int) -> tuple[Fraction | float, bool]:
    """Exact product of two (flushed) operand patterns and the sign of a zero product."""
    va, vb = value_of(a), value_of(b)
    neg = bool((a ^ b) & SIGN)
    if isinstance(va, float) or isinstance(vb, float):
        fa, fb = float(va), float(vb)
        if math.isnan(fa) or math.isnan(fb):
            return math.nan, False
        if fa == 0 or fb == 0:
            return math.nan, False  # INF * 0
        return (-math.inf if neg else math.inf), False
    return va * vb, neg


def trees(items: tuple[int, ...]) -> list:
    """Every association of a commutative sum of the terms ``items``: left to right chains
    and balanced trees alike (for 4 terms: 12 chains and 3 pairings)."""
    if len(items) == 1:
        return [items[0]]
    out = []
    first, rest = items[0], items[1:]
    n = len(rest)
    for mask in range(1 << n):  # the part holding `first` and its complement (unordered)
        left = (first,) + tuple(rest[i] for i in range(n) if mask >> i & 1)
        right = tuple(rest[i] for i in range(n) if not mask >> i & 1)
        if not right:
            continue
        for lt in trees(left):
            for rt in trees(right):
                out.append((lt, rt))
    return out


def serial_results(products: list[tuple[int, int]], addends: list[int], t: float,
                   ftz: str) -> tuple[set[int], bool]:
    """Every result of every serial order of sum(a*b) + sum(c): each product and each
    partial sum one step (t ULP), flushed per ``ftz`` (strict / none); NaN if some path
    gives NaN. Operands are already flushed patterns."""
    terms: list[list[tuple[int, Fraction | float]]] = []
    nan = False
    for a, b in products:
        x, zneg = mul_values(a, b)
        if isinstance(x, float) and math.isnan(x):
            nan = True
            terms.append([])
            continue
        ps = flushed(step(x, t, zneg), ftz)
        terms.append([(p, value_of(p)) for p in ps])
    for c in addends:
        terms.append([(c, value_of(c))])

    memo: dict = {}

    def results(tree) -> set[tuple[int, Fraction | float]]:
        nonlocal nan
        if isinstance(tree, int):
            return set(terms[tree])
        k = repr(tree)
        if k in memo:
            return memo[k]
        out = set()
        for (pa, va), (pb, vb) in product(results(tree[0]), results(tree[1])):
            x, zneg = add_values(va, vb, pa, pb)
            if isinstance(x, float) and math.isnan(x):
                nan = True
                continue
            for p in flushed(step(x, t, zneg), ftz):
                out.add((p, value_of(p)))
        memo[k] = out
        return out

    final: set[int] = set()
    for tr in trees(tuple(range(len(terms)))):
        final |= {p for p, _ in results(tr)}
    return final, nan


def fused_exact(products: list[tuple[int, int]], addends: list[int]
                ) -> tuple[Fraction | float, bool]:
    """The exact sum of products and addends; an exact zero is -0 only when every term is -0."""
    total: Fraction | float = Fraction(0)
    all_neg = True
    specials = []
    for a, b in products:
        x, zneg = mul_values(a, b)
        if isinstance(x, float):
            specials.append(x)
            continue
        all_neg &= x == 0 and zneg
        total += x
    for c in addends:
        v = value_of(c)
        if isinstance(v, float):
            specials.append(v)
            continue
        all_neg &= v == 0 and bool(c & SIGN)
        total += v
    if specials:
        if any(math.isnan(s) for s in specials) or (math.inf in specials and -math.inf in specials):
            return math.nan, False
        return specials[0], False
    return total, bool(total == 0 and all_neg)


def to_keys(pats: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """Sorted merged key intervals of a set of patterns."""
    ks = sorted({key(p) for p in pats})
    out: list[list[int]] = []
    for k in ks:
        if out and k == out[-1][1] + 1:
            out[-1][1] = k
        else:
            out.append([k, k])
    return tuple((a, b) for a, b in out)


def merge(intervals: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    out: list[list[int]] = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return tuple((a, b) for a, b in out)


def value_range_keys(lo: Fraction, hi: Fraction, ftz: str) -> tuple[tuple[int, int], ...]:
    """Key intervals of the finite patterns with values in [lo, hi] (both signs), with
    F32-FTZ applied: a denormal is replaced by its zero (strict) or kept too (either);
    a zero of a sign is in where some value of that sign (or 0 itself for +0 / -0 where
    the range holds 0 and ...) is in. Used for absolute windows crossing zero."""
    iv: list[tuple[int, int]] = []
    if hi > 0:
        a = max(lo, Fraction(0))
        m0 = 0 if a == 0 else _ceil_mag(a)
        m1 = _floor_mag(hi)
        if m0 <= m1:
            iv += _flush_span(m0, m1, False, ftz)
    if lo < 0:
        a = max(-hi, Fraction(0))
        m0 = 0 if a == 0 else _ceil_mag(a)
        m1 = _floor_mag(-lo)
        if m0 <= m1:
            iv += _flush_span(m0, m1, True, ftz)
    return merge(iv)


def _flush_span(m0: int, m1: int, neg: bool, ftz: str) -> list[tuple[int, int]]:
    """Keys of magnitudes m0..m1 of one sign after the flush."""
    spans = []
    den_lo, den_hi = max(m0, 1), min(m1, 0x7FFFFF)
    has_den = den_lo <= den_hi
    parts = [(m0, m1)]
    if ftz != "none" and has_den:
        parts = [(a, b) for a, b in ((m0, min(m1, 0)), (max(m0, 0x800000), m1)) if a <= b]
        parts.append((0, 0))  # the zero the denormals flush to
        if ftz == "either":
            parts.append((den_lo, den_hi))
    for a, b in parts:
        ka, kb = key(signed(a, neg)), key(signed(b, neg))
        spans.append((min(ka, kb), max(ka, kb)))
    return spans


def _terms(op: str, ops: list[int]) -> tuple[list[tuple[int, int]], list[int]]:
    if op == "mad":
        return [(ops[0], ops[1])], [ops[2]]
    n = len(ops) // 2
    return list(zip(ops[:n], ops[n:])), []


def fused_oracle(op: str, ops: list[int], t: float, ftz: str) -> tuple[tuple[tuple[int, int], ...], bool]:
    """The allowed set of F32-FUSED from the enumerator: flushed operands (F32-FTZ on
    input), the union over every serial order, and the fused result rounded once."""
    ops = [flush(o) for o in ops]
    products, addends = _terms(op, ops)
    x, zneg = fused_exact(products, addends)
    if isinstance(x, float) and math.isnan(x):
        return (), True
    if isinstance(x, float):
        fused = [INFP | (SIGN if x < 0 else 0)]
    else:
        fused = [rn(x, zneg)]
    out = flushed(fused, "either" if ftz == "either" else "strict")
    nan = False
    for mode in (["strict", "none"] if ftz == "either" else ["strict"]):
        res, n = serial_results(products, addends, t, mode)
        out |= res
        nan |= n
    return to_keys(out), nan
