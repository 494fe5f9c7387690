"""The width of a decimal that no type word or suffix gives: from its digits and range.

gdb and lldb print a float with 9 significant digits (``%.9g``), a double with 17 and a
``_Float16`` with 5: ``0.333333343`` is an f32, ``0.33333333333333331`` an f64, ``0.33325``
an f16; gdb 13 prints a bfloat16 lane (``v8_bfloat16``, AArch64's ``h.bf``) with 4
(``0.334``, ``9.184e-41``), a weaker cue: weighed only in gdb's output (lldb prints a
float's vector lanes with 6 digits, often 4), only where no f32/f64 print gives the decimal
back, and taken only where every decimal of the paste may be a bfloat16. A decimal is a
*candidate* of the widths whose ``%.Ng`` print it may be (see :func:`candidates`; ``0.1``
typed by hand: none). A NaN payload names a width too (``nan(0x200)``: f16's quiet bit;
``nan(0x8000000000123)``: wider than f32's fraction; ``nan(0x40)``: bfloat16's quiet bit).

Per paste: where the decimals that name one width (one candidate) all name the same, every
decimal that may be of that width, or names none, is; where they disagree (a struct of float, double and
half fields), each decimal that names its width keeps it and the rest are f32 (the default,
as before). A decimal of no candidate with more significant digits than an f32 holds (10
or more) or outside the f32 range is an f64, never rounded into f32; one beyond every
format (an x87 long double: ``1.6e-4932``, or 18+ digits that no double prints) is refused.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

import numpy as np

from ..formats import FORMATS, read_decimal
from .roles import LANE_ONLY_PRINTS, LANES, PRINTED, PRINTS

__all__ = ["decimal_widths", "int_width"]

#: the prints weighed by numpy's rounding (every width but gdb's bfloat16 lanes)
_ROUNDED = [(name, PRINTS[name]) for name in PRINTED]
#: bfloat16, weighed by :func:`_bf16_print`
_LANE_PRINT = next(iter(LANE_ONLY_PRINTS))
_MSVC_EXP = re.compile(r"e[+-]\d{3}$", re.IGNORECASE)
_PAYLOAD = re.compile(r"\(0x(?P<p>[0-9a-f_]+)\)", re.IGNORECASE)
_F32_MAX = Decimal("3.4028235677973366e38")  # (halfway to the next binade: rounds to inf)
_F32_MIN = Decimal("7.006492321624085e-46")  # half the smallest f32 denormal
_F64_MAX = Decimal("1.797693134862315808e308")
_F64_MIN = Decimal("2.4703282292062328e-324")


def _value(text: str) -> Decimal | None:
    """The decimal, exponents of any length included (``read_decimal`` clamps the ones
    beyond any rounding decision, so 1e99999999999999999999 is weighed as 1e400 is)."""
    try:
        return read_decimal(text.replace("'", ""))
    except (InvalidOperation, ValueError):
        return None


def _significant(d: Decimal) -> int:
    """Significant digits, trailing zeros left out (not ``normalize()``: it overflows the
    context for an exponent such as 1e99900000000)."""
    digits = d.as_tuple().digits
    n = len(digits)
    while n > 1 and digits[n - 1] == 0:
        n -= 1
    return n


def candidates(text: str, bf16: bool = False) -> set[str] | None:
    """The widths ``text`` may be a debugger's print of; None when ``text`` is no finite
    decimal (a NaN or an infinity: see :func:`_special`).

    A print of N (or N-1: one trailing zero dropped) significant digits that gives the
    decimal back names its width (bfloat16's 4 digits only where no f32 or f64 print does;
    with an f16 print both are candidates); only where none does, the weaker evidence
    counts: a width that holds the decimal exactly (``1.5``: all three; ``16777217``: f64), or an
    f16/f32 print shortened by its trailing zeros (``3.128324e+12``). A double's print of
    few digits counts for nothing: %.17g gives back many a short decimal (``1.4013e-45``,
    lldb's 6-digit print of a float). ``bf16``: weigh bfloat16's print too (gdb's output
    only: lldb's 6-digit vector prints of a float are often 4 digits)."""
    d = _value(text)
    if d is None or not d.is_finite():
        return None
    x = float(d)
    sig = _significant(d)
    strong, weak = set(), set()
    with np.errstate(over="ignore", under="ignore"):
        for fmt, pr in _ROUNDED:
            n = pr.digits
            v = float(pr.numpy(x)) if pr.numpy is not None else x
            if not np.isfinite(v):
                continue
            if Decimal(v) == d:  # (a value a width holds exactly names none)
                weak.add(fmt)
            elif Decimal(f"{v:.{n}g}") == d:
                if sig >= n - 1:
                    strong.add(fmt)
                elif pr.short_counts:
                    weak.add(fmt)
            elif (pr.msvc_digits and sig == pr.msvc_digits and _MSVC_EXP.search(text)
                  and Decimal(f"{v:.{pr.msvc_digits}g}") == d):
                strong.add(fmt)  # (Visual Studio's print: the CRT's 3-digit exponent)
        bf = _bf16_print(x, d, sig) if bf16 else None
    lane_bits = FORMATS[_LANE_PRINT].bits  # (f16 and bf16 may hold the same value: 0.1001
    if bf == "strong" and all(FORMATS[f].bits <= lane_bits for f in strong):  # is both
        strong.add(_LANE_PRINT)                         # prints of 0.10009765625)
    elif bf is not None:
        weak.add(_LANE_PRINT)
    return strong or weak


def _bf16_print(x: float, d: Decimal, sig: int) -> str | None:
    """Whether ``d`` is a bfloat16's value (``"weak"``) or gdb's ``%.4g`` print of one
    (``"strong"``: 3 or 4 significant digits; fewer are ``"weak"``), else None."""
    u = int(np.float32(x).view(np.uint32))  # (the f32 first: off only within 2^-24 of a
    u = (u + 0x7FFF + (u >> 16 & 1)) >> 16   # tie, far beyond 4 digits' reach), then RNE
    v = float(np.uint32(u << 16).view(np.float32))
    if not np.isfinite(v):
        return None
    if Decimal(v) == d:
        return "weak"
    if Decimal(f"{v:.4g}") == d:
        return "strong" if sig >= 3 else "weak"
    return None


def _special(text: str, bf16: bool = False) -> set[str]:
    out = _special_widths(text)
    return out if bf16 else out - {"bf16"} or {"f16", "f32", "f64"}


def _special_widths(text: str) -> set[str]:
    m = _PAYLOAD.search(text)
    if m is None:
        return {"f16", "f32", "f64", "bf16"}
    p = int(m.group("p").replace("_", ""), 16)
    if p > 0x7FFFFF:
        return {"f64"}
    if p == 0x40:  # bfloat16's quiet NaN (0x7fc0): an f32 with it is signalling
        return {"bf16"}
    if 0x40 < p <= 0x7F:
        return {"bf16", "f16", "f32", "f64"}
    if 0x200 <= p <= 0x3FF:
        return {"f16", "f32", "f64"} if p != 0x200 else {"f16"}
    if p >= 0x400000:
        return {"f32", "f64"}
    return {"f16", "f32", "f64"} if p > 0x7F else {"f16", "f32", "f64", "bf16"}


#: Most distinct decimals whose widths are weighed (a debugger's print holds a few dozen;
#: beyond, a data dump of many thousands keeps the f32 default, so a paste stays fast).
MAX_WEIGHED = 4096


def decimal_widths(texts: list[tuple[str, bool]], bf16: bool = False) -> list[str | None]:
    """The format of each decimal (``(text, is_special)``) of one paste, or None where
    the default applies. Raises ValueError (with the text) for a decimal no format holds.
    ``bf16``: the text is gdb's output, where a 4-digit print may be a bfloat16 lane; that
    width is taken only where every decimal of the paste may be one (a bfloat16 view is
    printed whole)."""
    if len(set(texts)) > MAX_WEIGHED:
        return [None] * len(texts)
    memo: dict[tuple[str, bool], set[str]] = {}
    cands: list[set[str]] = []
    for key in texts:
        if key not in memo:
            memo[key] = _weigh(*key, bf16)
        cands.append(memo[key])
    if bf16 and not all(c & LANE_ONLY_PRINTS for c in cands):
        cands = [set() if c <= LANE_ONLY_PRINTS else c - LANE_ONLY_PRINTS for c in cands]
    return _decide(cands)


def _weigh(t: str, special: bool, bf16: bool = False) -> set[str]:
    """The candidate widths of one decimal; ValueError for one no format holds."""
    if special:
        return _special(t, bf16)
    c = candidates(t, bf16)
    d = _value(t)
    if c is not None and not c and d is not None and not d.is_zero():
        a = d.copy_abs()  # (abs() rounds in the context: Overflow for 1e99900000000)
        if a > _F64_MAX or a < _F64_MIN:
            raise ValueError(f"{t} is outside every format here (an x87 long double?)")
        if _significant(d) == 21:  # gdb's and lldb's %.21Lg
            raise ValueError(f"{t} has 21 significant digits, as gdb and lldb print an x87 "
                             "long double: no format here holds it")
        if a > _F32_MAX or a < _F32_MIN or _significant(d) >= 10:
            c = {"f64"}
    return c or set()


def _decide(cands: list[set[str]]) -> list[str | None]:
    strong = {next(iter(c)) for c in cands if len(c) == 1}
    group = next(iter(strong)) if len(strong) == 1 else None
    out: list[str | None] = []
    for c in cands:
        if len(c) == 1:
            out.append(next(iter(c)))
        elif group is not None and (group in c or not c):
            out.append(group)
        elif len(c) > 1 and len(bits := {FORMATS[f].bits for f in c}) == 1:
            out.append(LANES[bits.pop()][0])  # (f16 and bf16 hold the same value, no other
            # cue: the width's pattern format, f16, as before)
        else:
            out.append(None)
    return out


def int_width(values: list[int]) -> int | None:
    """Bits of integers printed for a pattern (gdb's ``p/d``, ``x/dw``, lldb's ``-f d``):
    32 where every one fits a 32-bit word (signed or not), else 64; None beyond."""
    if all(-(1 << 31) <= v < 1 << 32 for v in values):
        return 32
    if all(-(1 << 63) <= v < 1 << 64 for v in values):
        return 64
    return None
