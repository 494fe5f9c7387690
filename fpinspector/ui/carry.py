"""Carry operand patterns across an op or format switch (floats by D3D rules, codes by value)."""

from __future__ import annotations

import math

import numpy as np

from ..model.formats import CodeFormat, FloatFormat, operand_format
from . import bridge

__all__ = ["carry_code", "carry_operand"]


def carry_operand(bits: int, src: str, dst: str) -> int:
    """``bits`` of ``src`` as the ``dst`` pattern that keeps its number where it can.

    Floats go by the D3D conversion; integer code types by :func:`carry_code`.
    """
    if src == dst:
        return bits
    if isinstance(operand_format(src), CodeFormat) or isinstance(operand_format(dst), CodeFormat):
        return carry_code(bits, src, dst)
    return bridge.convert_bits(bits, src, dst)


def carry_code(bits: int, src: str, dst: str) -> int:
    """Carry an operand across an op switch that changes between floats and codes.

    Why: picking itof after mul should keep A's number where it can. A float becomes the
    nearest integer (ties to even) clamped into the code type (NaN gives 0); a code becomes
    the float pattern of its integer by the format's nearest-even encode.
    """
    s, d = operand_format(src), operand_format(dst)
    if isinstance(s, FloatFormat):
        value = float(s.decode(np.asarray(bits, dtype=s.dtype)))
    else:
        value = float(s.values(bits))
    if isinstance(d, FloatFormat):
        return int(d.encode(value))
    if math.isnan(value):
        return 0
    code = d.lo if value < d.lo else d.hi if value > d.hi else round(value)
    return d.pattern(code)
