"""Edits of the inspector state that are more than setting a field: switching the format or
the op carries the values over (floats by the D3D conversion, codes by value). Views write
back through these; pasting text is :mod:`.paste`."""

from __future__ import annotations

import math

import numpy as np

from ..convert import convert
from ..engine import OPS
from ..formats import FloatFormat, get_format, operand_format
from .inspector import InspectorState

__all__ = ["carry_code", "carry_operand", "switch_format", "switch_op", "switch_op_format"]


def carry_operand(bits: int, src: str, dst: str) -> int:
    """``bits`` of ``src`` as the ``dst`` pattern that keeps its number where it can.

    Floats go by the D3D conversion (CONV-*); integer code types by :func:`carry_code`.
    """
    s, d = operand_format(src), operand_format(dst)
    if s.name == d.name:
        return bits
    if isinstance(s, FloatFormat) and isinstance(d, FloatFormat):
        return int(np.asarray(convert(np.asarray(bits, dtype=s.dtype), s, d).bits))
    return carry_code(bits, src, dst)


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


def switch_format(state: InspectorState, fmt: str) -> None:
    """Inspect ``fmt`` instead, carrying the value over by the D3D conversion."""
    s = state.snapshot
    fmt = get_format(fmt).name
    if fmt != s.fmt:
        state.update(fmt=fmt, bits=carry_operand(s.bits, s.fmt, fmt))


def switch_op_format(state: InspectorState, fmt: str) -> None:
    """Give the op's operands in ``fmt`` (a float format or a code type), carried over."""
    s = state.snapshot
    fmt = operand_format(fmt).name
    if fmt != s.op_format:
        ops = [carry_operand(b, s.op_format, fmt) for b in s.operands]
        state.update(op_format=fmt, operands=ops)


def switch_op(state: InspectorState, op: str) -> None:
    """Pick ``op``; when it does not take the operand type shown (itof after mul), switch to
    the first type it takes (the op table's) and carry the operands over."""
    s = state.snapshot
    if op not in OPS:
        raise ValueError(f"unknown op {op!r}")
    if op == s.op:
        return
    types = OPS[op].formats
    fmt = s.op_format if s.op_format in types else types[0]
    if fmt == s.op_format:
        state.update(op=op)
        return
    ops = [carry_operand(b, s.op_format, fmt) for b in s.operands]
    state.update(op=op, op_format=fmt, operands=ops)
