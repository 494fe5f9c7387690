"""Everything one bit pattern says: fields, exact decimal, shortest round trip, hex float,
neighbours, ULP, plus format limits, C/HLSL literals, byte dumps and ULP distances.

All text is derived from exact integer arithmetic (every binary float has a finite decimal
expansion), never from float formatting, except the shortest f32/f64 strings, which are
numpy's / Python's shortest round-trip reprs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from .formats import CLASS_NAMES, FloatFormat, encode_exact, get_format

__all__ = [
    "ValueInfo",
    "describe",
    "exact_decimal",
    "shortest_decimal",
    "display_decimal",
    "hex_float",
    "format_limits",
    "to_c_literal",
    "byte_dump",
    "ulp_distance",
    "values_between",
]


@dataclass(frozen=True)
class ValueInfo:
    """Description of one pattern (see :func:`describe`); ``to_dict`` gives JSON-ready data."""

    format: str
    bits: int
    hex: str
    binary: str
    class_name: str
    sign: int
    exponent_biased: int
    exponent_unbiased: int | None
    fraction: int
    value: float
    exact: str
    shortest: str
    hex_float: str
    next_up: int
    next_down: int
    ulp: float

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["class"] = d.pop("class_name")
        d["value"] = _json_float(self.value)
        d["ulp"] = _json_float(self.ulp)
        return d


def _json_float(v: float) -> float | str:
    """JSON has no inf/nan: give them as strings."""
    return v if np.isfinite(v) else repr(v)


def _one(bits: Any, fmt: FloatFormat) -> int:
    b = int(bits)
    if b < 0 or b > fmt.mask:
        raise ValueError(f"{fmt.name}: pattern 0x{b:X} is outside 0..0x{fmt.mask:X}")
    return b


def _hex_digits(fmt: FloatFormat) -> int:
    return (fmt.bits + 3) // 4


def _pattern_hex(b: int, fmt: FloatFormat) -> str:
    return f"0x{b:0{_hex_digits(fmt)}X}"


def _value_of(bits: Any, f: FloatFormat) -> tuple[int, bool, Any, str]:
    """(pattern, sign, exact value, text for NaN/INF or "") shared by the decimal writers."""
    b = _one(bits, f)
    neg = bool(f.signed and (b >> (f.bits - 1)) & 1)
    v = f.exact_value(b)
    special = ""
    if isinstance(v, float):
        special = ("-nan" if neg else "nan") if v != v else ("-inf" if v < 0 else "inf")
    return b, neg, v, special


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


def _decimal_of(v: Fraction) -> Decimal:
    """Exact Decimal of a dyadic fraction."""
    k = v.denominator.bit_length() - 1
    return Decimal(v.numerator * 5**k).scaleb(-k)


def shortest_decimal(bits: int, fmt: str | FloatFormat) -> str:
    """Shortest decimal that reads back (nearest-even) to the same pattern in this format.

    f32/f64 use numpy's/Python's shortest repr. Narrower formats search 1, 2, ...
    significant digits with the format's own exact encoder, trying the candidates just
    below and above the value (the rounding interval is lopsided at powers of two).
    """
    f = get_format(fmt)
    b, neg, v, special = _value_of(bits, f)
    if special:
        return special
    if v == 0:
        return "-0.0" if neg else "0.0"
    if f.bits == 64:
        return repr(float(v))
    if f.bits == 32:
        return str(np.float32(float(v)))
    exact = _decimal_of(v)
    for p in range(1, 40):
        ctx_dn = Context(prec=p, rounding=ROUND_FLOOR)
        ctx_up = Context(prec=p, rounding=ROUND_CEILING)
        cands = {ctx_dn.plus(exact), ctx_up.plus(exact)}
        ok = [c for c in cands if encode_exact(f, c) == b]
        if ok:
            best = min(ok, key=lambda c: (abs(c - exact), c))
            return _plain(best)
    raise AssertionError("no round-trip decimal found")  # pragma: no cover


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
    """Decimal as short text that parses back: positional for moderate exponents."""
    s = format(d.normalize(), "f") if -5 <= d.adjusted() < 16 else format(d.normalize(), "e")
    if "e" not in s and "." not in s:
        s += ".0"
    return s


def hex_float(bits: int, fmt: str | FloatFormat) -> str:
    """C99 ``%a`` text of the value in this format: ``0x1.8p+1``; denormals ``0x0.xxxp-14``."""
    f = get_format(fmt)
    b = _one(bits, f)
    neg = f.signed and (b >> (f.bits - 1)) & 1
    e = (b >> f.frac_bits) & f.exp_max
    m = b & f.frac_mask
    sign = "-" if neg else ""
    if e == f.exp_max:
        return sign + ("nan" if m else "inf")
    if e == 0 and m == 0:
        return sign + "0x0p+0"
    nd = (f.frac_bits + 3) // 4
    frac = f"{m << (4 * nd - f.frac_bits):0{nd}x}".rstrip("0")
    lead, exp = ("0", f.minexp) if e == 0 else ("1", e - f.bias)
    return f"{sign}0x{lead}{'.' + frac if frac else ''}p{exp:+d}"


def describe(bits: int, format: str | FloatFormat) -> ValueInfo:
    """Describe one pattern: class, fields, exact and shortest decimal, hex float,
    neighbours and ULP (RULES.md FMT-*, DEC-*).

    Parameters
    ----------
    bits : int
        The bit pattern.
    format : str or FloatFormat
        Its format.

    Returns
    -------
    ValueInfo

    Examples
    --------
    >>> describe(0x3F800000, "f32").hex_float
    '0x1p+0'
    """
    f = get_format(format)
    b = _one(bits, f)
    s, e, m = (int(x) for x in f.fields(b))
    cls = CLASS_NAMES[int(f.class_codes(b))]
    unb = None if cls in ("zero", "infinity", "nan") else (f.minexp if e == 0 else e - f.bias)
    return ValueInfo(
        format=f.name,
        bits=b,
        hex=_pattern_hex(b, f),
        binary=_binary(b, f),
        class_name=cls,
        sign=s,
        exponent_biased=e,
        exponent_unbiased=unb,
        fraction=m,
        value=float(f.decode(b)),
        exact=exact_decimal(b, f),
        shortest=shortest_decimal(b, f),
        hex_float=hex_float(b, f),
        next_up=int(f.next_up(b)),
        next_down=int(f.next_down(b)),
        ulp=float(f.ulp(b)),
    )


def _binary(b: int, f: FloatFormat) -> str:
    s = f"{b:0{f.bits}b}"
    parts = [s[: int(f.signed)], s[int(f.signed): int(f.signed) + f.exp_bits], s[-f.frac_bits:]]
    return " ".join(p for p in parts if p)


def format_limits(fmt: str | FloatFormat) -> dict[str, Any]:
    """Limits of a format as values and patterns (FMT-*): max finite, min normal,
    min denormal, epsilon, plus the layout."""
    f = get_format(fmt)
    one = (f.bias << f.frac_bits)
    return {
        "format": f.name,
        "bits": f.bits,
        "exp_bits": f.exp_bits,
        "frac_bits": f.frac_bits,
        "bias": f.bias,
        "signed": f.signed,
        "max_finite": f.max,
        "max_finite_bits": f.max_finite_bits,
        "min_normal": f.smallest_normal,
        "min_normal_bits": 1 << f.frac_bits,
        "min_denormal": f.smallest_subnormal,
        "min_denormal_bits": 1,
        "epsilon": f.eps,
        "one_bits": one,
        "pos_inf_bits": f.pos_inf,
        "quiet_nan_bits": f.quiet_nan,
        "max_finite_exact": exact_decimal(f.max_finite_bits, f),
        "min_denormal_exact": exact_decimal(1, f),
    }


# the literal/byte/ULP helpers live next door; re-exported here as part of this API
from .describe_bits import byte_dump, to_c_literal, ulp_distance, values_between  # noqa: E402
