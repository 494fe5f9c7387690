"""Operand words in, result patterns out: the checks and dtypes shared by every capture."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["as_result", "check_source", "operand_words"]

#: Inclusive ranges of the integer code formats the fixed-function conversions read.
CODE_RANGES = {"unorm8": (0, 255), "snorm8": (-128, 127), "srgb8": (0, 255),
               "unorm16": (0, 65535), "snorm16": (-32768, 32767)}


def operand_words(x: Any, wide: bool, op: str, index: int, signed: bool = False) -> np.ndarray:
    """Operand bit patterns -> raw uint32/uint64 words; floats and out-of-range are errors.
    Negative numbers are two's-complement words only where the op takes signed integers
    (``signed``, itof); elsewhere -1 is no bit pattern (it would silently become a NaN)."""
    a = np.asarray(x)
    if a.dtype == np.bool_:
        a = a.astype(np.uint8)
    if a.dtype.kind not in "iu":
        raise ValueError(
            f"{op}: operand {index} must be integer bit patterns, got dtype {a.dtype}"
        )
    limit = (1 << 64) if wide else (1 << 32)
    if a.size and int(a.max()) >= limit:
        raise ValueError(f"{op}: operand {index} has patterns wider than {64 if wide else 32} bits")
    if a.size and a.dtype.kind == "i" and not signed and int(a.min()) < 0:
        raise ValueError(f"{op}: operand {index} has negative values; bit patterns are "
                         "non-negative (set the sign bit instead)")
    if a.size and a.dtype.kind == "i" and int(a.min()) < -(limit >> 1):
        raise ValueError(f"{op}: operand {index} is out of range for its format")
    return a.astype(np.uint64 if wide else np.uint32, copy=False)


def as_result(out: np.ndarray, kind: str) -> np.ndarray:
    """Raw uint32/uint64 result words -> the dtype evaluate(...).bits uses for ``kind``."""
    if kind == "bool":
        return out != 0
    if kind == "i32":
        return out.view(np.int32)
    if kind == "f16":
        return out.astype(np.uint16)
    return out


def check_source(a: np.ndarray, src: str) -> None:
    """Refuse conversion inputs outside ``src``: hardware paths would wrap them silently
    (0x1FFFF read as f16 0xFFFF, unorm8 300 as 44). Float formats take patterns 0..2^bits-1."""
    from ..model.formats import FORMATS

    if a.dtype.kind not in "iu":
        raise ValueError(f"convert: input must be integer bit patterns/codes, got {a.dtype}")
    if src in FORMATS:
        lo, hi = 0, FORMATS[src].mask
    elif src in CODE_RANGES:
        lo, hi = CODE_RANGES[src]
    else:
        return
    if a.size and (int(a.min()) < lo or int(a.max()) > hi):
        what = "patterns" if src in FORMATS else "codes"
        raise ValueError(f"convert: {src} {what} must lie in {lo}..{hi:#x}" if src in FORMATS
                         else f"convert: {src} {what} must lie in {lo}..{hi}")
