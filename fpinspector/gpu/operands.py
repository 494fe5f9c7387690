"""Operand words in, result patterns out: the checks and dtypes shared by every capture."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["operand_words", "as_result"]


def operand_words(x: Any, wide: bool, op: str, index: int) -> np.ndarray:
    """Operand bit patterns -> raw uint32/uint64 words; floats and out-of-range are errors."""
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
