"""The inspector's immutable snapshot: every field a view shows, validated as one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.rules import RULE_SETS
from ..formats import FORMATS, CodeFormat, get_format, operand_format
from ..reading import excerpt

__all__ = ["Snapshot", "MAX_OPERANDS", "STATE_PREFIX", "OP_FIELDS"]

#: Most operands any op takes (dp4: a0..a3, b0..b3).
MAX_OPERANDS = 8
#: Prefix of the compact state string (:meth:`InspectorState.to_string`).
STATE_PREFIX = "fpi1;"
#: The fields an evaluation of the op depends on (views of the op listen to these).
OP_FIELDS = frozenset({"op", "op_format", "rule_set", "operands", "options"})
_OP_RE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_OPTION_RE = re.compile(r"^[a-z][a-z0-9_]{0,63}(=[A-Za-z0-9_.+-]{1,32})?$")


@dataclass(frozen=True)
class Snapshot:
    """One immutable view of the inspector: everything needed to redraw every panel.

    Attributes
    ----------
    fmt, bits : the inspected value (format name and bit pattern).
    word : a 32-bit word shown reinterpreted (f32, R11G11B10, R9G9B9E5, two f16).
    op, op_format, rule_set : the operation panel's pickers.
    operands : ``MAX_OPERANDS`` bit patterns in ``op_format`` (A, B, C, ...); for an integer
        code format (i32, unorm8, ...) the code's two's-complement pattern of its width.
    options : the AMBIGUOUS switches (docs/rules.md) set away from their default, as sorted
        ``"name=value"`` strings (a bare ``"name"`` means ``name=True``).
    """

    fmt: str = "f32"
    bits: int = 0x3F800000
    word: int = 0x3F800000
    op: str = "mul"
    op_format: str = "f32"
    rule_set: str = "d3d11"
    operands: tuple[int, ...] = (0x00000001, 0x3F800000) + (0,) * (MAX_OPERANDS - 2)
    options: tuple[str, ...] = ()

    def validated(self) -> Snapshot:
        """Return a normalised copy or raise ValueError naming the bad field."""
        fmt = get_format(self.fmt).name
        op_type = operand_format(self.op_format)
        signed = isinstance(op_type, CodeFormat) and op_type.signed
        bits = _pattern(self.bits, FORMATS[fmt].bits, "bits")
        word = _pattern(self.word, 32, "word")
        if not isinstance(self.op, str) or not _OP_RE.match(self.op):
            raise ValueError(f"invalid op name {excerpt(self.op, 40)}")
        if self.rule_set not in RULE_SETS:
            raise ValueError(
                f"unknown rule set {excerpt(self.rule_set, 40)}; choose one of {', '.join(RULE_SETS)}"
            )
        ops = tuple(self.operands)
        if len(ops) > MAX_OPERANDS:
            raise ValueError(f"at most {MAX_OPERANDS} operands, got {len(ops)}")
        ops = tuple(_operand(v, op_type.bits, signed, f"operand {i}") for i, v in enumerate(ops))
        ops = ops + (0,) * (MAX_OPERANDS - len(ops))
        opts = tuple(sorted(set(self.options)))
        for o in opts:
            if not isinstance(o, str) or not _OPTION_RE.match(o):
                raise ValueError(f"invalid option name {excerpt(o, 40)}")
        return Snapshot(fmt, bits, word, self.op, op_type.name, self.rule_set, ops, opts)


def _operand(value: Any, width: int, signed: bool, what: str) -> int:
    """A pattern of ``width`` bits; a signed code may also be given as its negative value."""
    if signed and isinstance(value, (int, np.integer)) and not isinstance(value, bool) \
            and -(1 << (width - 1)) <= int(value) < 0:
        return int(value) & ((1 << width) - 1)
    return _pattern(value, width, what)


def _pattern(value: Any, width: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            if isinstance(value, np.integer):
                value = int(value)
            else:
                raise TypeError
        except TypeError:
            raise ValueError(f"{what}: expected an integer bit pattern, got {excerpt(value, 40)}"
                             ) from None
    if value < 0 or value >> width:
        raise ValueError(f"{what}: 0x{value:X} does not fit in {width} bits")
    return int(value)
