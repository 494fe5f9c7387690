"""Carry operand patterns across an op or format switch (floats by D3D rules, codes by value)."""

from __future__ import annotations

import math

import numpy as np

from ..model.formats import CODE_FORMATS, get_format
from ..model.state import operand_kind
from . import bridge
from .code_editor import code_value

__all__ = ["carry_code", "carry_operand"]


def carry_operand(bits: int, src: str, dst: str) -> int:
    """``bits`` of ``src`` as the ``dst`` pattern that keeps its number where it can.

    Floats go by the D3D conversion (nearest even when there is no conversion model);
    integer code types by :func:`carry_code`.
    """
    if src == dst:
        return bits
    if src in CODE_FORMATS or dst in CODE_FORMATS:
        return carry_code(bits, src, dst)
    try:
        return bridge.convert_bits(bits, src, dst)
    except ValueError:  # no conversion model yet: nearest value (RNE) of the same number
        f, g = get_format(src), get_format(dst)
        return int(g.encode(f.decode(np.asarray(bits, dtype=f.dtype))))


def carry_code(bits: int, src: str, dst: str) -> int:
    """Carry an operand across an op switch that changes between floats and codes.

    Why: picking itof after mul should keep A's number where it can. A float becomes the
    nearest integer (ties to even) clamped into the code type (NaN gives 0); a code becomes
    the float pattern of its integer by the format's nearest-even encode.
    """
    from ..model.formats import FORMATS

    if src in FORMATS:
        f = get_format(src)
        value = float(f.decode(np.asarray(bits, dtype=f.dtype)))
    else:
        value = float(code_value(src, bits))
    if dst in FORMATS:
        return int(get_format(dst).encode(value))
    _, width, signed = operand_kind(dst)
    if math.isnan(value):
        return 0
    lo = -(1 << (width - 1)) if signed else 0
    hi = (1 << (width - 1)) - 1 if signed else (1 << width) - 1
    code = lo if value < lo else hi if value > hi else round(value)
    return code & ((1 << width) - 1)
