"""One pattern as text: exact decimal, shortest round-trip decimal, hex float, binary.

All text is derived from exact integer arithmetic (every binary float has a finite decimal
expansion), never from float formatting, except the digits of the shortest f32/f64
strings, which are numpy's / Python's shortest round-trip digits (laid out by this
module's one notation rule).
"""

from __future__ import annotations

import math
import struct
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from typing import Any

import numpy as np

from ..formats import FloatFormat, get_format

__all__ = ["exact_decimal", "shortest_decimal", "display_decimal", "hex_float", "pattern_hex",
           "binary_text", "checked_pattern", "POSITIONAL_EXPONENTS"]

#: The decimal exponents written positionally (1e-5 up to below 1e16); scientific outside.
POSITIONAL_EXPONENTS = range(-5, 16)


def checked_pattern(bits: Any, fmt: FloatFormat) -> int:
    """``bits`` as an int, refused (ValueError) outside the format's patterns."""
    b = int(bits)
    if b < 0 or b > fmt.mask:
        raise ValueError(f"{fmt.name}: pattern 0x{b:X} is outside 0..0x{fmt.mask:X}")
    return b


def _hex_digits(fmt: FloatFormat) -> int:
    return (fmt.bits + 3) // 4


def pattern_hex(b: int, fmt: FloatFormat) -> str:
    """``0x`` and every hex digit of the pattern (``0x3F800000``, ``0x3C00``)."""
    return f"0x{b:0{_hex_digits(fmt)}X}"


def _value_of(bits: Any, f: FloatFormat) -> tuple[int, bool, Any, str]:
    """(pattern, sign, exact value, text for NaN/INF or "") shared by the decimal writers."""
    b = checked_pattern(bits, f)
    neg = bool(f.signed and (b >> (f.bits - 1)) & 1)
    v = f.exact_value(b)
    return b, neg, v, _special_text(v, neg) if isinstance(v, float) else ""


def _special_text(v: float, neg: bool) -> str:
    """How a NaN or an infinity is written ("-nan", "inf", ...); "" for a finite value."""
    if v != v:
        return "-nan" if neg else "nan"
    return ("-inf" if neg else "inf") if math.isinf(v) else ""


def exact_decimal(bits: int, fmt: str | FloatFormat) -> str:
    """The pattern's value written out in full in positional decimal (``inf``, ``nan`` too).

    Why exact: v = n / 2^k has the finite expansion n * 5^k / 10^k; integers only.
    """
    f = get_format(fmt)
    b, neg, v, special = _value_of(bits, f)
    if special:
        return special
    a = abs(v)
    k = a.denominator.bit_length() - 1  # denominator is a power of two
    digits = str(a.numerator * 5**k)
    if k:
        digits = digits.rjust(k + 1, "0")
        ip, fp = digits[:-k], digits[-k:].rstrip("0")
        text = ip + ("." + fp if fp else "")
    else:
        text = digits
    return ("-" if neg else "") + text


def shortest_decimal(bits: int, fmt: str | FloatFormat) -> str:
    """Shortest decimal that reads back (nearest-even) to the same pattern in this format.

    The digits: f32/f64 take numpy's/Python's shortest round-trip digits (Dragon4 and
    repr, the same digits in every numpy release allowed). Narrower formats search 1, 2,
    ... significant digits, trying the candidates just below and above the value (the
    rounding interval is lopsided at powers of two) against the interval of values that
    round to the pattern. The notation is one rule for every format (:func:`_written`),
    so a value reads the same whatever numpy or Python writes: numpy 2.1 and 2.4 lay out
    the same float32 digits differently (``10000000.0`` against ``1e+07``).
    """
    f = get_format(fmt)
    if f.bits >= 32:  # (an IEEE type: its value read straight from the bytes, no Fraction)
        b = checked_pattern(bits, f)
        v = struct.unpack("<d" if f.bits == 64 else "<f", b.to_bytes(f.bits // 8, "little"))[0]
        neg = bool(b >> (f.bits - 1))
        special = _special_text(v, neg)
        if special:
            return special
        if v == 0:
            return "-0.0" if neg else "0.0"
        if f.bits == 64:
            # repr is this notation already (below 1e16 an integer's shortest digits are
            # the integer), except that it writes 1e-5 up to 1e-4 scientific
            text = repr(v)
            if not text.endswith("e-05"):
                return text
            return _written(Decimal(text), Decimal(v), False)
        digits = np.format_float_scientific(np.float32(v), unique=True)
        return _written(Decimal(digits), Decimal(v), v.is_integer())
    b = checked_pattern(bits, f)
    neg = bool(f.signed and b & f.sign_mask)
    mag = b & ~f.sign_mask if f.signed else b
    if mag >= f.nan_min:
        return "-nan" if neg else "nan"
    if f.has_inf and mag == f.pos_inf:
        return "-inf" if neg else "inf"
    units = _units(mag, f)  # the value in units of 2^q, the format's smallest spacing
    if units == 0:
        return "-0.0" if neg else "0.0"
    q = f.minexp - f.frac_bits
    # the neighbours (INF's pattern read as a number is the largest finite value + 1 ULP,
    # where overflow begins: rounding to nearest goes to INF from halfway up)
    below, above = _units(mag - 1, f), _units(mag + 1, f)
    sign = -1 if neg else 1
    exact = _dyadic(sign * 2 * units, q - 1)
    lo, hi = _dyadic(sign * (units + below), q - 1), _dyadic(sign * (units + above), q - 1)
    if neg:
        lo, hi = hi, lo
    closed = b % 2 == 0  # a tie goes to the even pattern
    for p in range(1, 40):
        ctx_dn = Context(prec=p, rounding=ROUND_FLOOR)
        ctx_up = Context(prec=p, rounding=ROUND_CEILING)
        cands = {ctx_dn.plus(exact), ctx_up.plus(exact)}
        ok = [c for c in cands if lo < c < hi or closed and (c == lo or c == hi)]
        if ok:
            best = min(ok, key=lambda c: (abs(c - exact), c))
            return _written(best, exact, q >= 0 or units % (1 << -q) == 0)
    raise AssertionError("no round-trip decimal found")  # pragma: no cover


def _written(best: Decimal, exact: Decimal, integer: bool) -> str:
    """The notation of a shortest decimal, one rule for every format: positional from
    1e-5 up to below 1e16 (:data:`POSITIONAL_EXPONENTS`), scientific outside. An integer value written positionally is
    written exactly: the shortest digits padded with zeros ("65000.0" for f11 65024,
    "123456790.0" for f32 123456792) are as long as the integer and name another number."""
    if integer and best != exact and best.adjusted() in POSITIONAL_EXPONENTS:
        return str(int(exact)) + ".0"
    return _plain(best)


def _units(mag: int, f: FloatFormat) -> int:
    """The value of a non-negative pattern up to INF (read as a number) in units of
    2^(minexp - frac_bits), the smallest spacing of the format."""
    e, m = mag >> f.frac_bits, mag & f.frac_mask
    return m if e == 0 else (m | 1 << f.frac_bits) << (e - 1)


_EXACT = Context(prec=200)  # (enough digits for any f16 / f11 / f10 value: no rounding)


def _dyadic(n: int, k: int) -> Decimal:
    """n * 2^k as an exact Decimal (integers only: 2^-k = 5^k / 10^k)."""
    if k >= 0:
        return Decimal(n << k)
    return Decimal(n * 5**-k).scaleb(k, _EXACT)


def display_decimal(bits: int, fmt: str | FloatFormat, max_digits: int = 17) -> str:
    """The value as a person should read it in a table: exact when that is short.

    The shortest round-trip decimal can be a different number (f16 0x7BFF reads back from
    "65500" but is 65504); so the exact expansion is shown whenever it has at most
    ``max_digits`` significant digits, and the shortest round-trip decimal otherwise.
    """
    exact = exact_decimal(bits, fmt)
    sig = exact.lstrip("-").replace(".", "").strip("0")
    if exact.endswith(("inf", "nan")) or len(sig) > max_digits:
        return shortest_decimal(bits, fmt)
    return exact if "." in exact else exact + ".0"


def _plain(d: Decimal) -> str:
    """Decimal as short text that parses back: positional for moderate exponents, else
    scientific with at least two exponent digits, as C's printf and Python write it
    (``6e-08``, ``3.4e+38``)."""
    d = d.normalize()
    if d.adjusted() in POSITIONAL_EXPONENTS:
        s = format(d, "f")
        return s if "." in s else s + ".0"
    mantissa, _, exp = format(d, "e").partition("e")
    return f"{mantissa}e{exp[0]}{exp[1:].zfill(2)}"


def hex_float(bits: int, fmt: str | FloatFormat) -> str:
    """C99 ``%a`` text of the value in this format: ``0x1.8p+1``; denormals ``0x0.xxxp-14``."""
    f = get_format(fmt)
    b = checked_pattern(bits, f)
    neg = f.signed and (b >> (f.bits - 1)) & 1
    e = (b >> f.frac_bits) & f.exp_max
    m = b & f.frac_mask
    sign = "-" if neg else ""
    if (b & ~f.sign_mask) >= f.nan_min:
        return sign + "nan"
    if f.has_inf and e == f.exp_max:
        return sign + "inf"
    if e == 0 and m == 0:
        return sign + "0x0p+0"
    nd = (f.frac_bits + 3) // 4
    frac = f"{m << (4 * nd - f.frac_bits):0{nd}x}".rstrip("0")
    lead, exp = ("0", f.minexp) if e == 0 else ("1", e - f.bias)
    return f"{sign}0x{lead}{'.' + frac if frac else ''}p{exp:+d}"


def binary_text(b: int, f: FloatFormat) -> str:
    """Sign, exponent and fraction bits as three space-separated groups."""
    s = f"{b:0{f.bits}b}"
    parts = [s[: int(f.signed)], s[int(f.signed): int(f.signed) + f.exp_bits], s[-f.frac_bits:]]
    return " ".join(p for p in parts if p)
