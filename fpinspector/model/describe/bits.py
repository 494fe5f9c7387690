"""Bit-level companions of :func:`fpinspector.model.describe.describe`: C/HLSL literals,
byte dumps, and distances in representable steps (ULPs) between patterns."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..formats import F32, FloatFormat, get_format
from .decimal_text import checked_pattern, hex_float, shortest_decimal

__all__ = ["to_c_literal", "byte_dump", "ulp_distance", "values_between"]


def to_c_literal(bits: int, fmt: str | FloatFormat, style: str = "asfloat") -> str:
    """Source text that produces this exact pattern.

    ``style="asfloat"``: HLSL bit cast (``asfloat(0x3f800000)``, ``asfloat16(uint16_t(0x3c00))``,
    ``asdouble(0x00000000, 0x3ff00000)``; every pattern, NaN payloads included).
    ``style="decimal"``: shortest round-trip decimal with its HLSL suffix (``1.0f``, ``1.0h``,
    ``1.0L`` for double); f11/f10 values are written as the f32 literal of the same value.
    ``style="hexfloat"``: C99 hex float (``0x1p+0f``). Non-finite values fall back to asfloat.
    """
    f = get_format(fmt)
    b = checked_pattern(bits, f)
    if style not in ("asfloat", "decimal", "hexfloat"):
        raise ValueError(f"unknown literal style {style!r}; choose asfloat, decimal or hexfloat")
    finite = int(f.class_codes(b)) < 3
    if f.numpy_float is None and (style == "asfloat" or not finite):  # f11, f10, bf16, FP8
        raise ValueError(f"{f.name} has no shader type to bit-cast into; use style='decimal'")
    if style == "asfloat" or not finite:
        if f.bits == 16:
            return f"asfloat16(uint16_t(0x{b:04x}))"
        if f.bits == 64:
            return f"asdouble(0x{b & 0xFFFFFFFF:08x}, 0x{b >> 32:08x})"
        return f"asfloat(0x{b:08x})"
    suffix = {64: "L", 32: "f", 16: "h"}.get(f.bits, "f")  # HLSL: L is double
    if f.numpy_float is None:
        suffix = "f"  # no HLSL type of its own: its value as f32 (exact)
    if style == "hexfloat":
        return hex_float(b, f) + suffix
    if f.numpy_float is None:  # exact in f32: write the f32 shortest of the same value
        return shortest_decimal(int(F32.encode(float(f.decode(b)))), F32) + "f"
    return shortest_decimal(b, f) + suffix


def byte_dump(bits: int, fmt: str | FloatFormat, order: str = "little") -> str:
    """The pattern's bytes in memory order, ``"00 00 80 3f"`` (little-endian) or big-endian."""
    f = get_format(fmt)
    b = checked_pattern(bits, f)
    if f.bits % 8:
        raise ValueError(f"{f.name} is {f.bits} bits: not a whole number of bytes")
    if order not in ("little", "big"):
        raise ValueError(f"byte order must be 'little' or 'big', not {order!r}")
    return " ".join(f"{x:02x}" for x in b.to_bytes(f.bits // 8, order))  # type: ignore[arg-type]


def _ordinal(bits: Any, f: FloatFormat) -> np.ndarray:
    """Monotonic integer position of each pattern: -0 and +0 both 0; NaN refused."""
    b = f.as_bits(bits)
    if np.any(f.is_nan(b)):
        raise ValueError("NaN has no place in the ordering of values")
    u = b.astype(np.uint64)
    mag = (u & np.uint64(f.mask & ~f.sign_mask)).astype(np.int64)
    if not f.signed:
        return mag
    neg = (u >> np.uint64(f.bits - 1)).astype(bool)
    return np.where(neg, -mag, mag)


def ulp_distance(a_bits: Any, b_bits: Any, fmt: str | FloatFormat) -> Any:
    """Signed number of representable steps from a to b (b above a: positive).

    Orders all non-NaN patterns by value over both signs (-0 and +0 are one step, 0 apart),
    so ``ulp_distance(next_down(x), x) == 1`` everywhere. Scalars give an int.
    """
    f = get_format(fmt)
    oa, ob = _ordinal(a_bits, f), _ordinal(b_bits, f)
    if f.bits == 64:  # differences can exceed int64
        d = ob.astype(object) - oa.astype(object)
    else:
        d = ob - oa
    return int(d) if np.ndim(d) == 0 else d


def values_between(a: int, b: int, fmt: str | FloatFormat, limit: int = 4096) -> np.ndarray:
    """Every pattern from a to b inclusive, in increasing value order (+0 stands for zero).

    Raises ValueError when there are more than ``limit``: ask :func:`ulp_distance` first.
    """
    f = get_format(fmt)
    oa, ob = int(_ordinal(a, f)), int(_ordinal(b, f))
    lo, hi = min(oa, ob), max(oa, ob)
    if hi - lo + 1 > limit:
        raise ValueError(f"{hi - lo + 1} values lie between; the limit is {limit}")
    o = np.arange(lo, hi + 1, dtype=np.int64)
    mag = np.abs(o).astype(np.uint64)  # f64's sign bit (2^63) does not fit in int64
    pats = np.where(o < 0, np.uint64(f.sign_mask) | mag, mag) if f.signed else mag
    return pats.astype(f.dtype)
