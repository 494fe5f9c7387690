"""Independent scalar oracles for the engine tests: Fraction arithmetic and struct packing.

Nothing here imports fpinspector: the oracles are written from docs/rules.md directly.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

F32_MIN_NORMAL = 2.0**-126
F32_MAX = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]

#: f32 special values: zeros, denormals at both ends, min/max normal, ones, INF, NaNs
#: (quiet and signaling, several payloads, both signs).
F32_SPECIALS = [
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF,
    0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000,
    0x3FC00000, 0xC0400000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,
    0x7F800001, 0xFFBFFFFF, 0x7FA00000,
]


def f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def bits32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def is_nan32(bits: int) -> bool:
    return (bits & 0x7FFFFFFF) > 0x7F800000


def is_snan32(bits: int) -> bool:
    return is_nan32(bits) and not bits & 0x00400000


def flush(x: float) -> float:
    """F32-FTZ on one value: a denormal becomes the zero of its sign."""
    if x != 0 and abs(x) < F32_MIN_NORMAL:
        return math.copysign(0.0, x)
    return x


def round_f32(q: Fraction | float) -> float:
    """Round an exact value to f32, nearest even, by comparing exact distances (no casts)."""
    if isinstance(q, float):
        if math.isnan(q) or math.isinf(q) or q == 0:
            return q  # specials and signed zeros pass through
        q = Fraction(q)
    if q == 0:
        return 0.0
    sign = -1.0 if q < 0 else 1.0
    a = abs(q)
    # magnitude patterns form an ordered grid; binary search the largest <= a
    lo, hi = 0, 0x7F800000
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if Fraction(f32(mid)) <= a:
            lo = mid
        else:
            hi = mid
    below = Fraction(f32(lo))
    above = Fraction(f32(lo + 1)) if lo + 1 < 0x7F800000 else Fraction(2) ** 128
    if a == below:
        return sign * float(below)
    d_lo, d_hi = a - below, above - a
    pick_hi = d_hi < d_lo or (d_hi == d_lo and lo % 2 == 1)
    if pick_hi:
        return sign * (math.inf if lo + 1 >= 0x7F800000 else float(above))
    return sign * float(below)


def exact_binary(op: str, a: float, b: float) -> Fraction | float:
    """Exact a op b for finite a, b as a Fraction; IEEE specials as floats."""
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if math.isinf(a) or math.isinf(b) or (op == "div" and b == 0):
        with_inf = {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b}
        if op in with_inf:
            try:
                return with_inf[op]()
            except (OverflowError, ValueError):
                return math.nan
        if b == 0:
            return math.nan if a == 0 else math.copysign(math.inf, a) * math.copysign(1.0, b)
        if math.isinf(a) and math.isinf(b):
            return math.nan
        if math.isinf(b):
            return math.copysign(0.0, a) * math.copysign(1.0, b)
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    fa, fb = Fraction(a), Fraction(b)
    r = {"add": fa + fb, "sub": fa - fb, "mul": fa * fb, "div": fa / fb if b else None}[op]
    if r == 0:
        # IEEE zero signs: computed in float (exact for a zero result)
        zero = {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
                "div": lambda: a / b}
        return zero[op]()
    return r


def d3d_binary_bits(op: str, ab: int, bb: int, flush_on: bool = True) -> int | None:
    """Model result pattern of an f32 binary arithmetic op (None means any NaN)."""
    a, b = f32(ab), f32(bb)
    if flush_on:
        a, b = flush(a), flush(b)
    r = exact_binary(op, a, b)
    v = round_f32(r)
    if math.isnan(v):
        return None
    if flush_on:
        v = flush(v)
    return bits32(v)


def minmax_bits(op: str, ab: int, bb: int, rules: str) -> set[int] | None:
    """Allowed result patterns of min/max (None: any NaN), written from docs/rules.md."""
    a, b = f32(ab), f32(bb)
    d3d = rules != "ieee754"
    if rules == "ieee754" and (is_snan32(ab) or is_snan32(bb)):
        return None
    if is_nan32(ab) and is_nan32(bb):
        return None
    fa, fb = (flush(a), flush(b)) if d3d else (a, b)

    def forms(x_bits: int, fx: float) -> set[int]:
        return {x_bits, bits32(fx)}  # F32-MINMAX-FTZ: flushed or not

    if is_nan32(ab):
        return forms(bb, fb)
    if is_nan32(bb):
        return forms(ab, fa)
    if fa == fb:
        out = forms(ab, fa) | forms(bb, fb)
        if fa == 0 and math.copysign(1, fa) != math.copysign(1, fb):
            out |= {0x00000000, 0x80000000}  # F32-MINMAX-ZERO: either zero
        return out
    pick_a = (fa < fb) if op == "min" else (fa > fb)
    return forms(ab, fa) if pick_a else forms(bb, fb)
