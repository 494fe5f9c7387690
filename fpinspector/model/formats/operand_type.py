"""Operand types: what an op takes, a float format or an integer code (i32, unorm8, ...).

The rule engine's conversion ops take integer values (int32, uint32, UNORM/SNORM/sRGB
codes), not float patterns. A :class:`CodeFormat` describes one such type the way a
:class:`FloatFormat` describes a float (name, width, storage dtype, range), so the state,
the op table, sweep axes and the CLI handle both kinds alike (:data:`OperandType`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..reading import excerpt
from .float_format import F32, FloatFormat, get_format

__all__ = ["CodeFormat", "CODE_FORMATS", "OperandType", "operand_format", "float_format_of"]


@dataclass(frozen=True)
class CodeFormat:
    """An integer operand type: codes ``lo..hi`` stored as ``dtype``.

    ``bits`` is the code width, so "every code" is ``2**bits`` samples, like "every
    pattern" of a float format. Codes are the integer values themselves (negative for
    signed types), which is what the engine's conversion ops take.
    """

    name: str
    bits: int
    signed: bool
    dtype: np.dtype

    @property
    def lo(self) -> int:
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def hi(self) -> int:
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1

    @property
    def mask(self) -> int:
        return (1 << self.bits) - 1

    def pattern(self, value: int) -> int:
        """The ``bits``-wide pattern of a code: a signed type's negative codes in two's
        complement (-1 -> 0xFFFFFFFF for i32); ValueError outside ``lo..mask``."""
        v = int(value)
        if not (self.lo if self.signed else 0) <= v <= self.mask:
            raise ValueError(f"{self.name}: {value} is not a code or a {self.bits}-bit pattern")
        return v & self.mask

    def values(self, patterns: Any) -> np.ndarray:
        """The codes (negative for signed types) of ``bits``-wide patterns, as ``dtype``:
        what the engine's conversion ops and the GPU take."""
        p = np.asarray(patterns, dtype=np.int64) & self.mask
        if self.signed:
            p = np.where(p >> (self.bits - 1) != 0, p - (1 << self.bits), p)
        return p.astype(self.dtype)


def _code(name: str, bits: int, signed: bool) -> CodeFormat:
    return CodeFormat(name, bits, signed, np.dtype(f"{'i' if signed else 'u'}{max(bits, 8) // 8}"))


#: Integer operand types of the engine's ops, by the names OPS[...].formats uses.
CODE_FORMATS: dict[str, CodeFormat] = {
    c.name: c
    for c in (
        _code("i32", 32, True), _code("u32", 32, False),
        _code("unorm8", 8, False), _code("unorm16", 16, False),
        _code("snorm8", 8, True), _code("snorm16", 16, True),
        _code("srgb8", 8, False), _code("u8", 8, False), _code("u16", 16, False),
    )
}


#: An op's operand or result type: a float format or an integer code type.
OperandType = FloatFormat | CodeFormat


def float_format_of(t: str | OperandType) -> FloatFormat:
    """The float format an op on ``t`` operands computes in: ``t`` itself, or f32 for an
    integer code type (D3D converts every code to and from float32: itof, UNORM8 decode...).
    It is the ``format=`` that ``evaluate`` and the GPU capture take."""
    f = operand_format(t)
    return f if isinstance(f, FloatFormat) else F32


def operand_format(fmt: str | OperandType) -> OperandType:
    """A float format (via ``get_format``) or an integer code type, by name.

    Raises ``ValueError`` naming both kinds when ``fmt`` is neither.
    """
    if isinstance(fmt, (FloatFormat, CodeFormat)):
        return fmt
    name = str(fmt).strip().lower()
    if name in CODE_FORMATS:
        return CODE_FORMATS[name]
    try:
        return get_format(name)
    except (KeyError, ValueError):
        raise ValueError(f"unknown operand format {excerpt(fmt, 40)}: a float format or one of "
                         f"{', '.join(CODE_FORMATS)}") from None
