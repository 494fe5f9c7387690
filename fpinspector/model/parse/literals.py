"""Number literals -> bit patterns for the parser, each rounded exactly once (nearest-even).

Decimal text goes through Python's correctly rounded ``float()`` first (vectorized encode
from the exact float64), and only values where that shortcut could double-round fall back
to the exact :func:`fpinspector.model.formats.encode_exact`. Why the shortcut is exact: the
float64 nearest to a decimal can only round differently from the decimal itself in a
narrower format if it lands exactly on a midpoint of that format (every midpoint of a
narrower format is a float64), or in the overflow region; both cases are detected.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np

from ..formats import FloatFormat, encode_exact, encode_float64, read_decimal

__all__ = ["encode_decimals", "hexfloat_fraction", "encode_fraction", "special_bits"]

# decimal exponents beyond these saturate every format here (f64 max ~1.8e308,
# half its smallest denormal ~2.5e-324), so larger ones are clamped before exact math
_DEC_CLAMP_HI = 400
_DEC_CLAMP_LO = -400
_BIN_CLAMP = 1200


def _clean(text: str) -> str:
    return text.replace("_", "").replace("'", "")


def _exact_decimal(fmt: FloatFormat, text: str) -> int:
    d = read_decimal(text)
    if d.is_zero():
        return fmt.sign_mask if (d.is_signed() and fmt.signed) else 0
    adj = d.adjusted()
    if adj > _DEC_CLAMP_HI:
        d = Decimal(f"{'-' if d.is_signed() else ''}1e{_DEC_CLAMP_HI + 1}")
    elif adj < _DEC_CLAMP_LO:
        d = Decimal(f"{'-' if d.is_signed() else ''}1e{_DEC_CLAMP_LO - 1}")
    return int(encode_exact(fmt, d, "rne", "ieee"))


def encode_decimals(texts: list[str], fmt: FloatFormat) -> list[int]:
    """Patterns of decimal literals (``"1.0"``, ``"-2.5e-3"``) in ``fmt``, rounded once (RNE)."""
    if not texts:
        return []
    clean = [_clean(t) for t in texts]
    x = np.array([float(t) for t in clean], dtype=np.float64)
    if fmt.bits == 64:
        return [int(v) for v in x.view(np.uint64)]
    pats = encode_float64(fmt, x, "rne", "ieee").astype(np.uint64)
    a = np.abs(x)
    lo = encode_float64(fmt, a, "rtz", "saturate").astype(np.uint64)
    hi = np.minimum(lo + np.uint64(1), np.uint64(fmt.max_finite_bits))
    with np.errstate(invalid="ignore", over="ignore"):
        mid = (fmt.decode(lo) + fmt.decode(hi)) / 2.0
    risky = (mid == a) | ~(a < fmt.max)
    if not fmt.signed:
        risky &= x > 0  # negatives become 0 whatever the rounding
    out = [int(v) for v in pats]
    for i in np.flatnonzero(risky):
        out[i] = _exact_decimal(fmt, clean[i])
    return out


def hexfloat_fraction(text: str) -> tuple[Fraction, bool]:
    """Exact value of a C99 hex float (``0x1.8p+1``) as (magnitude, negative)."""
    t = _clean(text).lower()
    neg = t.startswith("-")
    t = t.lstrip("+-")[2:]
    mant, _, exp = t.partition("p")
    ip, _, fp = mant.partition(".")
    m = int((ip + fp) or "0", 16)
    e = int(exp) - 4 * len(fp)
    if m:
        top = m.bit_length() + e  # value lies in [2^(top-1), 2^top)
        if top > _BIN_CLAMP:
            return Fraction(2) ** _BIN_CLAMP, neg
        if top < -_BIN_CLAMP:
            return Fraction(1, 2**_BIN_CLAMP), neg
    return Fraction(m) * Fraction(2) ** e, neg


def encode_fraction(fmt: FloatFormat, mag: Fraction, neg: bool) -> int:
    """Pattern of an exact value (sign given apart so that -0 survives), rounded once (RNE)."""
    if mag == 0:
        return fmt.sign_mask if (neg and fmt.signed) else 0
    return int(encode_exact(fmt, -mag if neg else mag, "rne", "ieee"))


def special_bits(text: str, fmt: FloatFormat) -> tuple[int, str]:
    """Pattern for inf/nan spellings (``-inf``, ``1.#IND``, ``nan(ind)``...) and a note."""
    t = text.lower()
    neg = t.startswith("-")
    sign = fmt.sign_mask if (neg and fmt.signed) else 0
    if "inf" in t and "ind" not in t:
        if neg and not fmt.signed:
            return 0, f"-INF becomes 0 in unsigned {fmt.name} (CONV-UNSIGNED)"
        return sign | fmt.pos_inf, ""
    if "snan" in t:
        return sign | fmt.pos_inf | 1, ""
    if "(0x" in t:  # gdb's nan(0x400000): the fraction field (payload), checked by the lexer
        payload = int(t[t.index("(0x") + 3:].rstrip(")").replace("_", ""), 16)
        if 0 < payload <= fmt.frac_mask:
            return sign | fmt.pos_inf | payload, ""
        return sign | fmt.quiet_nan, f"NaN payload 0x{payload:X} does not fit {fmt.name}"
    return sign | fmt.quiet_nan, ""
