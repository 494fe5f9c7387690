"""Operand words in, result patterns out: the checks and dtypes shared by every capture."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .shaders import Kernel, pack_pairs, unpack_pairs

__all__ = ["SIGNED_INPUT_OPS", "capture_words", "fill_result", "check_source", "dtype_fits",
           "operand_words", "result_array",
           "result_words"]

#: Inclusive ranges of the integer code formats the fixed-function conversions read.
CODE_RANGES = {"unorm8": (0, 255), "snorm8": (-128, 127), "srgb8": (0, 255),
               "unorm16": (0, 65535), "snorm16": (-32768, 32767),
               "rgb9e5": (0, 0xFFFFFFFF)}  # R9G9B9E5_SHAREDEXP words


def operand_words(x: Any, wide: bool, op: str, index: int, signed: bool = False) -> np.ndarray:
    """Operand bit patterns -> raw uint32/uint64 words; floats and out-of-range are errors.
    Negative numbers are two's-complement words only where the op takes signed integers
    (``signed``, itof); elsewhere -1 is no bit pattern (it would silently become a NaN).

    Why the checks look at the dtype first: a uint32 array cannot hold a pattern wider than
    32 bits, so scanning it (a whole pass per operand) is only done where the dtype allows
    values outside the words' range."""
    a = np.asarray(x)
    if a.dtype == np.bool_:
        a = a.view(np.uint8)
    if a.dtype.kind not in "iu":
        raise ValueError(
            f"{op}: operand {index} must be integer bit patterns, got dtype {a.dtype}"
        )
    width = 64 if wide else 32
    if a.size and not dtype_fits(a.dtype, width, signed):
        _check_range(a, width, op, index, signed)
    return a.astype(np.uint64 if wide else np.uint32, copy=False)


def dtype_fits(dtype: np.dtype, width: int, signed: bool = False) -> bool:
    """Does every value of ``dtype`` make a valid ``width``-bit word? Unsigned dtypes up to
    that width do; signed ones only where negative values are two's-complement words."""
    bits = dtype.itemsize * 8
    if dtype.kind == "u" or dtype == np.bool_:
        return bits <= width
    return signed and bits <= width


def _check_range(a: np.ndarray, width: int, op: str, index: int, signed: bool) -> None:
    limit = 1 << width
    if a.dtype.itemsize * 8 > width and int(a.max()) >= limit:
        raise ValueError(f"{op}: operand {index} has patterns wider than {width} bits")
    if a.dtype.kind == "i":
        low = int(a.min())
        if not signed and low < 0:
            raise ValueError(f"{op}: operand {index} has negative values; bit patterns are "
                             "non-negative (set the sign bit instead)")
        if low < -(limit >> 1):
            raise ValueError(f"{op}: operand {index} is out of range for its format")


def result_array(out: np.ndarray | None, dtype: np.dtype, shape: tuple[int, ...]
                  ) -> np.ndarray:
    """``out`` checked against the result's dtype and shape, or a fresh array."""
    if out is None:
        return np.empty(shape, dtype)
    if not isinstance(out, np.ndarray) or out.dtype != dtype or out.shape != shape \
            or not out.flags.c_contiguous or not out.flags.writeable:
        got = (f"{out.dtype} {out.shape}" if isinstance(out, np.ndarray)
               else type(out).__name__)
        raise ValueError(f"out must be a writeable C-contiguous {dtype} array of shape "
                         f"{shape}, got {got}")
    return out


def result_words(result: np.ndarray, kernel: Kernel) -> np.ndarray | None:
    """``result`` viewed as the kernel's raw output words, where they share a layout."""
    if kernel.pairs:
        if kernel.out_kind != "h2" or result.size % 2 or sys.byteorder != "little":
            return None
        return result.reshape(-1).view(np.uint32)
    size = kernel.result_dtype.itemsize  # one 32-bit (float, int, uint) or 64-bit word
    if size in (4, 8):  # (double) per element; bools and halves are converted instead
        return result.reshape(-1).view(np.uint32 if size == 4 else np.uint64)
    return None


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


#: Ops whose integer operands are signed (their range check and widening).
SIGNED_INPUT_OPS = frozenset({"itof"})


def capture_words(op: str, kernel: Kernel, operand_bits: tuple[Any, ...]
                  ) -> tuple[list[np.ndarray], tuple[int, ...], int]:
    """The operands of a capture as the kernel's input words, one flat array each (f16:
    two patterns a word), their broadcast shape and element count; ValueError for a wrong
    operand count or pattern. Shared by the GL and the WebGPU sessions."""
    if len(operand_bits) != kernel.arity:
        raise ValueError(f"{op} takes {kernel.arity} operands, got {len(operand_bits)}")
    words = [operand_words(x, w, op, i, signed=op in SIGNED_INPUT_OPS)
             for i, (x, w) in enumerate(zip(operand_bits, kernel.wide_in))]
    shaped = np.broadcast_arrays(*words)
    shape = shaped[0].shape
    flat = [np.ascontiguousarray(a).reshape(-1) for a in shaped]
    n = flat[0].shape[0]
    if kernel.pairs:  # f16: two operands per 32-bit word
        for x, a in zip(operand_bits, flat):
            if a.size and not dtype_fits(np.asarray(x).dtype, 16) and int(a.max()) > 0xFFFF:
                raise ValueError(f"{op}: f16 operands must be 16-bit patterns")
        flat = [pack_pairs(a) for a in flat]
    return flat, shape, n


def fill_result(result: np.ndarray, raw: np.ndarray, n: int, kernel: Kernel) -> np.ndarray:
    """``result`` from the kernel's raw output words (where they are no view of it)."""
    flat_out = result.reshape(-1)
    if kernel.pairs:
        flat_out[...] = unpack_pairs(raw, n, kernel.out_kind)
    elif kernel.out_kind == "bool":
        np.not_equal(raw, 0, out=flat_out)
    else:  # f16 patterns in the low half of each word
        flat_out[...] = raw
    return result
