"""Encoding cores: exact-input values to bit patterns of any float format, one rounding.

Beside the format table (float_format.py): the float64 array encoder (numpy's cast for f32
to nearest, :mod:`.array_encoding` for everything else, and the integer-arithmetic reference
they are tested against) and the exact scalar encoder for Fraction/Decimal/int/decimal-text
inputs. All follow IEEE 754 §4.3 roundings and §7.4 overflow, with a "saturate" policy for
the D3D conversions (CONV-F2F-SAT).
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from .array_encoding import encode_array

__all__ = ["ROUNDINGS", "BitLayout", "encode_float64", "encode_float64_integer", "encode_exact",
           "read_decimal",
           "policy"]


class BitLayout(Protocol):
    """What the encoders need of a format: its widths and special patterns.

    :class:`~fpinspector.model.formats.FloatFormat` is one; the encoders take any object
    with these attributes, so this module does not import the format table (which calls it).
    """

    @property
    def bits(self) -> int: ...
    @property
    def exp_bits(self) -> int: ...
    @property
    def frac_bits(self) -> int: ...
    @property
    def signed(self) -> bool: ...
    @property
    def bias(self) -> int: ...
    @property
    def minexp(self) -> int: ...
    @property
    def dtype(self) -> np.dtype: ...
    @property
    def mask(self) -> int: ...
    @property
    def sign_mask(self) -> int: ...
    @property
    def pos_inf(self) -> int: ...
    @property
    def quiet_nan(self) -> int: ...
    @property
    def max_finite_bits(self) -> int: ...

#: Rounding directions understood by :meth:`FloatFormat.encode`.
ROUNDINGS = ("rne", "rtz", "rtn", "rtp")

def policy(variant: str, rounding: str | None, overflow: str | None) -> tuple[str, str]:
    table = {
        "ieee": ("rne", "ieee"),
        "rne": ("rne", "ieee"),
        "rtz": ("rtz", "ieee"),
        "rtn": ("rtn", "ieee"),
        "rtp": ("rtp", "ieee"),
        "rtz_sat": ("rtz", "saturate"),
        "rne_sat": ("rne", "saturate"),
    }
    if variant not in table:
        raise ValueError(
            f"unknown encode variant {variant!r}; choose one of {', '.join(table)} "
            "(vendor encoders: fpinspector.model.convert)"
        )
    rnd, ovf = table[variant]
    rnd = rounding or rnd
    ovf = overflow or ovf
    if rnd not in ROUNDINGS:
        raise ValueError(f"unknown rounding {rnd!r}; choose one of {', '.join(ROUNDINGS)}")
    if ovf not in ("ieee", "inf", "saturate"):
        raise ValueError(f"unknown overflow policy {ovf!r}")
    return rnd, ovf


def _round_increment(rnd: str, neg: np.ndarray, lsb: Any, rem: Any, halfway: Any
                     ) -> np.ndarray:
    """Whether to add one unit to the truncated magnitude (rem: bits shifted out)."""
    inexact = rem != 0
    if rnd == "rne":
        return (rem > halfway) | ((rem == halfway) & (lsb == 1))
    if rnd == "rtz":
        return np.zeros_like(inexact)
    if rnd == "rtp":
        return inexact & ~neg
    return inexact & neg  # rtn


def _overflow_to_inf(rnd: str, ovf: str, neg: np.ndarray) -> np.ndarray:
    """Per element: does an overflowing finite value become INF (else max finite)?"""
    if ovf == "inf":
        return np.ones_like(neg)
    if ovf == "saturate":
        return np.zeros_like(neg)
    # IEEE 754 §7.4: nearest -> INF; toward zero -> max; directed -> depends on sign
    if rnd == "rne":
        return np.ones_like(neg)
    if rnd == "rtz":
        return np.zeros_like(neg)
    if rnd == "rtp":
        return ~neg
    return neg


def encode_float64(fmt: BitLayout, x: np.ndarray, rnd: str = "rne", ovf: str = "ieee") -> np.ndarray:
    """Vectorized exact-input encoder: float64 values -> patterns of ``fmt``, one rounding.

    f64 is a copy; f32 to nearest is numpy's float64 -> float32 cast (one SIMD pass); every
    other case is :func:`.array_encoding.encode_array` (the FPU rounds to the target grid).
    Both give exactly :func:`encode_float64_integer`'s patterns (the tests compare them).
    """
    if fmt.bits == 64:  # every float64 is an f64 value: no rounding in any direction
        return np.ascontiguousarray(x, dtype=np.float64).view(np.uint64).copy()
    if fmt.bits == 32 and fmt.exp_bits == 8 and rnd == "rne":
        # numpy's float64 -> float32 cast rounds the double once, nearest-even, with
        # denormals and overflow to INF; "saturate" steps an overflowed INF back to the max
        with np.errstate(over="ignore", invalid="ignore"):
            out = np.asarray(x, dtype=np.float64).astype(np.float32).view(fmt.dtype)
        u32 = fmt.dtype.type
        if ovf == "saturate":
            over = ((out & u32(fmt.mask & ~fmt.sign_mask)) == u32(fmt.pos_inf)) & np.isfinite(x)
            out = np.where(over, out - u32(1), out)
        nan = np.isnan(x)
        if nan.any():  # canonical quiet NaN, sign kept, as the integer encoder does
            out[nan] = (out[nan] & u32(fmt.sign_mask)) | u32(fmt.quiet_nan)
        return out
    return encode_array(fmt, x, rnd, ovf)


def encode_float64_integer(fmt: BitLayout, x: np.ndarray, rnd: str = "rne", ovf: str = "ieee"
                           ) -> np.ndarray:
    """The reference float64 encoder, all in integer arithmetic on the float64 fields
    (IEEE 754 §4.3 roundings, §7.4 overflow): what :func:`encode_float64`'s fast paths are
    tested against. Slow (~25 whole-array int64 passes); no hot path calls it."""
    if fmt.bits == 64:
        return np.ascontiguousarray(x, dtype=np.float64).view(np.uint64).copy()
    u = np.ascontiguousarray(x, dtype=np.float64).view(np.uint64)
    neg = (u >> np.uint64(63)).astype(bool)
    E = ((u >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
    M = u & np.uint64((1 << 52) - 1)
    is_nan = (E == 0x7FF) & (M != 0)
    is_inf = (E == 0x7FF) & (M == 0)
    is_zero = (E == 0) & (M == 0)
    # value = m * 2^e2 with m < 2^53
    m = np.where(E == 0, M, M | np.uint64(1 << 52))
    e2 = np.where(E == 0, -1074, E - 1075)
    # unbiased exponent of the leading bit (float64 denormals lie far below every target)
    k = np.where(E == 0, -1075, E - 1023)
    F = fmt.frac_bits
    kk = np.maximum(k, fmt.minexp)
    shift = (kk - F) - e2  # >= 0 for every target narrower than float64
    big = shift >= 63
    sh = np.clip(shift, 0, 63).astype(np.uint64)
    n = m >> sh
    one = np.uint64(1)
    rem = m & ((one << sh) - one)
    halfway = np.where(sh > 0, one << (sh - one), np.uint64(0))
    # shifts of 63+ leave n = 0 and everything sticky: below half of the smallest quantum
    rem = np.where(big, one, rem)
    halfway = np.where(big, np.uint64(1 << 62), halfway)
    n = np.where(big, np.uint64(0), n)
    inc = _round_increment(rnd, neg, n & one, rem, halfway)
    n = n + inc.astype(np.uint64)
    pat = ((kk + fmt.bias - 1).astype(np.int64) << F) + n.astype(np.int64)
    over = pat >= fmt.pos_inf
    to_inf = _overflow_to_inf(rnd, ovf, neg)
    pat = np.where(over, np.where(to_inf, fmt.pos_inf, fmt.max_finite_bits), pat)
    pat = np.where(is_zero, 0, pat)
    pat = np.where(is_inf, fmt.pos_inf, pat)
    pat = np.where(is_nan, fmt.quiet_nan, pat)  # NaN -> canonical quiet NaN, sign kept
    if fmt.signed:
        pat = np.where(neg, pat | fmt.sign_mask, pat)
    else:
        pat = np.where(neg & ~is_nan, 0, pat)  # unsigned: negatives (and -INF) -> 0
    return pat.astype(fmt.dtype)


#: Decimal exponents beyond which every format's rounding is already decided: above 10^400
#: every format overflows (f64 max ~1.8e308), below 10^-400 every nonzero value lies under
#: half the smallest f64 denormal (~2.5e-324). Such inputs are replaced by a stand-in with
#: the same rounding (2^1100 or 2^-1200, same sign) instead of building a 10^999999999
#: Fraction, which would hang (an "1e999999999" operand froze the CLI).
_DEC_EXP_LIMIT = 400
_HUGE = Fraction(2) ** 1100
_TINY = Fraction(1, 2**1200)


_DECIMAL = re.compile(r"\s*([+-]?)((?:\d[\d_]*)?\.?[\d_]*)(?:[eE]([+-]?)(\d[\d_]*))?\s*\Z")
#: Exponent digits beyond which the exponent is clamped: 10^8 keeps every input of the
#: parser's size (at most 2^20 digits) far outside -400..400, where rounding is decided.
_EXP_DIGITS = 8


def read_decimal(text: str) -> Decimal:
    """Decimal text (``"-1.5e-3"``, ``"1_000"``) as a ``Decimal``; ``ValueError`` when it is
    not one (``"1e"``, ``"abc"``). Exponents of any length read: one beyond 10^8 is clamped
    to +/-10^8, which rounds every format the same way (overflow, or underflow to zero),
    where ``Decimal`` itself raises InvalidOperation past its own limit."""
    m = _DECIMAL.match(text)
    if not m or not any(c.isdigit() for c in m.group(2)) or "__" in text:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise ValueError(f"not a decimal number: {shown!r}")
    sign, mant, esign, exp = m.groups()
    e = exp.replace("_", "").lstrip("0") if exp else ""
    if len(e) > _EXP_DIGITS:
        e = "1" + "0" * _EXP_DIGITS
    return Decimal(f"{sign}{mant.replace('_', '')}e{esign or ''}{e or '0'}")


def _decimal_fraction(d: Decimal) -> Fraction:
    if d and d.adjusted() > _DEC_EXP_LIMIT:
        return -_HUGE if d < 0 else _HUGE
    if d and d.adjusted() < -_DEC_EXP_LIMIT:
        return -_TINY if d < 0 else _TINY
    return Fraction(d)


def _to_fraction(v: Fraction | Decimal | int | str) -> Fraction | float:
    if isinstance(v, str):
        t = v.strip().lower()
        if t in ("inf", "+inf", "infinity", "+infinity"):
            return float("inf")
        if t in ("-inf", "-infinity"):
            return float("-inf")
        if t in ("nan", "+nan", "-nan"):
            return float("nan")
        if len(t) > 100_000:
            raise ValueError(f"decimal text of {len(t)} characters is too long (limit 100000)")
        return _decimal_fraction(read_decimal(t))
    if isinstance(v, Decimal):
        if v.is_nan():
            return float("nan")
        if v.is_infinite():
            return float("-inf") if v < 0 else float("inf")
        return _decimal_fraction(v)
    return Fraction(v)


def encode_exact(fmt: BitLayout, value: Any, rnd: str = "rne", ovf: str = "ieee") -> int:
    """Scalar encoder for exact inputs (Fraction, Decimal, int, decimal text): rounds once."""
    q = _to_fraction(value)
    if isinstance(q, float):
        if q != q:
            return fmt.quiet_nan
        neg = q < 0
        if neg and not fmt.signed:
            return 0
        return (fmt.sign_mask if neg else 0) | fmt.pos_inf
    neg = q < 0
    is_neg_zero = isinstance(value, Decimal) and value.is_signed() and q == 0
    if isinstance(value, str) and value.strip().startswith("-") and q == 0:
        is_neg_zero = True
    if neg and not fmt.signed:
        return 0
    a = -q if neg else q
    sign = fmt.sign_mask if (neg or is_neg_zero) else 0
    if a == 0:
        return sign
    # k = floor(log2 a)
    k = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** k > a:
        k -= 1
    elif Fraction(2) ** (k + 1) <= a:
        k += 1
    kk = max(k, fmt.minexp)
    scaled = a / Fraction(2) ** (kk - fmt.frac_bits)
    n, r = divmod(scaled.numerator, scaled.denominator)
    rem = Fraction(r, scaled.denominator)
    if rnd == "rne":
        up = rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n & 1)
    elif rnd == "rtz":
        up = False
    elif rnd == "rtp":
        up = rem != 0 and not neg
    else:
        up = rem != 0 and neg
    n += int(up)
    pat = ((kk + fmt.bias - 1) << fmt.frac_bits) + n
    if pat >= fmt.pos_inf:
        to_inf = bool(_overflow_to_inf(rnd, ovf, np.array([neg]))[0])
        pat = fmt.pos_inf if to_inf else fmt.max_finite_bits
    return sign | pat
