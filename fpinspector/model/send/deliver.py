"""A received message into the inspector state: the same filling as a paste, one undo step.

Why through the paste's filling (``state/paste.py``): a value sent from gdb is a paste
whose text was the exact bits, so it lands where a paste would (the first lane inspected,
the lanes as the operands A, B, C...), is one ``InspectorState.batch()`` (one event, one
undo step, one History entry) and its message says which value became which operand. A
message with a target puts its lanes at that operand (or only into the inspector).
"""

from __future__ import annotations

from ..engine import OPS
from ..state import InspectorState
from ..state.edits import carry_operand, switch_op, switch_op_format
from ..state.paste import Reading, operand_letters, readings
from ..state.paste import _fill as fill_reading
from ..state.paste import _value as value_text
from ..state.snapshot import MAX_OPERANDS
from .message import FLOAT_FORMATS, INTEGER_FORMATS, PACKED_FORMATS, Message, origin_text

__all__ = ["deliver"]


def deliver(state: InspectorState, m: Message) -> str:
    """Put the message's lanes into ``state`` (one undo step) and say what became what,
    starting with where it came from (:func:`~.message.origin_text`). ValueError, with the
    state untouched, when the value cannot go where it was sent."""
    origin = origin_text(m)
    if m.format in PACKED_FORMATS:
        return _packed(state, m, origin)
    if m.format in INTEGER_FORMATS:
        return _codes(state, m, origin)
    assert m.format in FLOAT_FORMATS
    items = tuple((m.format, v) for v in m.lanes)
    if m.to is None:
        head = "read as "
        text = fill_reading(state, Reading("sent", "", items))
        return origin + text[len(head):] if text.startswith(head) else f"{origin}: {text}"
    if m.to == "inspector":
        state.update(fmt=m.format, bits=m.lanes[0])
        return (f"{origin}: {value_text(m.format, m.lanes[0])} into the inspector (operands "
                f"unchanged)" + _unused(m.format, m.lanes[1:]))
    return _to_operand(state, m, origin)


def _unused(fmt: str, rest: tuple[int, ...] | list[int]) -> str:
    if not rest:
        return ""
    shown = ", ".join(value_text(fmt, b) for b in rest[:4]) + (" …" if len(rest) > 4 else "")
    return f"; not used: {shown}"


def _to_operand(state: InspectorState, m: Message, origin: str) -> str:
    """Lanes from operand ``m.to`` on, in the op's operand format (the lanes' own when
    the op takes it, as a paste does); the inspector is left as it was."""
    s = state.snapshot
    spec = OPS.get(s.op)
    arity = spec.arity if spec else 2
    start = "ABC".index(m.to or "A")
    if start >= arity:
        raise ValueError(f"{s.op} takes {arity} operand{'s' if arity > 1 else ''}: "
                         f"there is no {m.to}")
    target = m.format if spec is None or m.format in spec.formats else s.op_format
    n = min(len(m.lanes), arity - start)
    with state.batch():
        if target != s.op_format:
            switch_op_format(state, target)
        ops = list(state.snapshot.operands)
        for i in range(n):
            ops[start + i] = carry_operand(m.lanes[i], m.format, target)
        state.update(operands=ops)
    names = operand_letters(s.op, arity)
    snap = state.snapshot
    used = ", ".join(f"{names[start + i]} = {value_text(target, snap.operands[start + i])}"
                     for i in range(n))
    return f"{origin}: {used}" + _unused(m.format, m.lanes[n:])


def _packed(state: InspectorState, m: Message, origin: str) -> str:
    """A packed word (R11G11B10, RGB9E5): the word view and its first channel, as a
    paste of the tagged word does; the words after the first are not used."""
    tag = "R11G11B10" if m.format == "r11g11b10" else "RGB9E5"
    reading = readings(f"{tag} 0x{m.lanes[0]:08X}")[0]  # the bits in hex: exact
    text = fill_reading(state, reading)
    more = len(m.lanes) - 1
    tail = f"; {more} more word{'s' if more > 1 else ''} not used" if more else ""
    return f"{origin}: {text}{tail}"


def _codes(state: InspectorState, m: Message, origin: str) -> str:
    """Integer codes are the operands of an op that takes them (itof for i32, ...): the
    op picked when it does, else the first op of the table that does."""
    s = state.snapshot
    op = s.op if s.op in OPS and m.format in OPS[s.op].formats else next(
        (name for name, spec in OPS.items() if m.format in spec.formats), None)
    if op is None:
        raise ValueError(f"no op takes {m.format} codes")
    arity = OPS[op].arity
    start = "ABC".index(m.to) if m.to in ("A", "B", "C") else 0
    if start >= arity:
        raise ValueError(f"{op} takes {arity} operand{'s' if arity > 1 else ''}: "
                         f"there is no {m.to}")
    n = min(len(m.lanes), arity - start, MAX_OPERANDS - start)
    with state.batch():
        switch_op(state, op)
        switch_op_format(state, m.format)
        ops = list(state.snapshot.operands)
        ops[start:start + n] = m.lanes[:n]
        state.update(operands=ops)
    names = operand_letters(op, arity)
    used = ", ".join(f"{names[start + i]} = {value_text(m.format, m.lanes[i])}"
                     for i in range(n))
    picked = "" if op == s.op else f" (op {op}, which takes {m.format})"
    return f"{origin}: {used}{picked}" + _unused(m.format, m.lanes[n:])
