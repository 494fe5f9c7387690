"""Edits of the inspector state that are more than setting a field: switching the format or
the op carries the values over (floats by the D3D conversion, codes by value), and a paste
fills the inspector and the operands A, B, C... Views write back through these."""

from __future__ import annotations

import math

import numpy as np

from ..convert import convert
from ..engine import OPS
from ..formats import FloatFormat, get_format, operand_format
from ..parse import parse
from ..parse.codes import parse_codes
from .codec import snapshot_from_string
from .inspector import InspectorState
from .snapshot import MAX_OPERANDS, STATE_PREFIX

__all__ = ["MAX_PASTE_CHARS", "carry_code", "carry_operand", "paste", "switch_format",
           "switch_op", "switch_op_format"]

#: Longest text a paste may hold: ~0.1 s of parsing, far more than any debugger dump of a
#: few values (and QLineEdit's own limit).
MAX_PASTE_CHARS = 32767


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


def paste(state: InspectorState, text: str) -> str:
    """Paste text: a state string restores the whole view; values fill the inspector and
    the operands A, B, C... (integers are codes while a code op is picked). Returns what
    happened in a few words; ValueError (state untouched) for text it cannot use."""
    if len(text) > MAX_PASTE_CHARS:  # parsing megabytes would freeze the window
        raise ValueError(
            f"too much text: {len(text):,} characters (at most {MAX_PASTE_CHARS:,}; "
            f"the inspector takes one value and the operands at most {MAX_OPERANDS})")
    if text.strip().startswith(STATE_PREFIX):
        state.restore(snapshot_from_string(text))
        return "restored the pasted state"
    codes = parse_codes(state.snapshot.op_format, text)  # itof & co: integer operands
    if codes is not None:
        return _paste_codes(state, codes)
    items = [(get_format(v.format).name, int(v.bits)) for v in parse(text)]
    if not items:
        raise ValueError("nothing to paste: no value found in the text")
    s = state.snapshot
    with state.batch():
        state.update(fmt=items[0][0], bits=items[0][1])
        if len(items) > 1:
            target = s.op_format
            spec = OPS.get(s.op)
            if len({f for f, _ in items}) == 1 and (spec is None or items[0][0] in spec.formats):
                target = items[0][0]
            ops = [carry_operand(b, f, target) for f, b in items[:MAX_OPERANDS]]
            ops += [carry_operand(b, s.op_format, target) for b in s.operands[len(ops):]]
            state.update(op_format=target, operands=ops)
    where = ("the inspector" if len(items) == 1
             else "operands " + ", ".join("ABCDEFGH"[:len(items)]))
    return f"{len(items)} value(s) into {where}"


def _paste_codes(state: InspectorState, codes: list[int]) -> str:
    if len(codes) > MAX_OPERANDS:
        raise ValueError(f"{len(codes)} codes: the operands take at most {MAX_OPERANDS}")
    ops = list(state.snapshot.operands)
    ops[:len(codes)] = codes
    state.update(operands=ops)
    return f"{len(codes)} {state.snapshot.op_format} code(s) into operands {'ABCDEFGH'[:len(codes)]}"
