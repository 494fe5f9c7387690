"""The building blocks of lowering, shared by its two halves (:mod:`.lower` for operators,
:mod:`.lower_calls` for intrinsic calls): lowered values, constants, steps, source
modifiers and the coercions between integer literals, floats and uints.

:class:`ProgramBuilder` leaves :meth:`~ProgramBuilder.value` (lowering one syntax node) to
its subclass, :class:`~.lower.Lowerer`, so that the calls can lower their arguments
without this module or :mod:`.lower_calls` depending on the operators' half.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import NoReturn

import numpy as np

from ..formats import FloatFormat
from .errors import ExprError
from .intrinsics import parse_type
from .literals import float_bits
from .nodes import Node
from .program import Const, ExprType, Program, Ref, Step

__all__ = ["Value", "ProgramBuilder", "short_text"]


def short_text(bits: int, fmt: FloatFormat) -> str:
    """Shortest decimal that reads back to ``bits`` (``0.1`` for 0x3DCCCCCD), as listings
    show constants."""
    v = np.uint32(bits).view(np.float32) if fmt.bits == 32 else np.uint16(bits).view(np.float16)
    if not np.isfinite(v):
        return str(float(v))
    if v == 0 or 1e-4 <= abs(float(v)) < 1e7:
        return np.format_float_positional(v, unique=True, trim="-")
    return np.format_float_scientific(v, unique=True, trim="-")


@dataclass
class Value:
    """A lowered sub-expression: its type and one operand per component, or an integer
    literal (``type`` None, value ``lit``) whose meaning waits for its context."""

    type: ExprType | None
    refs: list[Ref]
    node: Node
    lit: int | None = None
    unsigned: bool = False

    @property
    def n(self) -> int:
        return 1 if self.type is None else self.type.n

    @property
    def literal(self) -> int:
        """The integer literal's value (only for an integer literal: ``type`` None)."""
        assert self.type is None and self.lit is not None, "not an integer literal"
        return self.lit

    def describe(self) -> str:
        return "integer literal" if self.type is None else str(self.type)


class ProgramBuilder(ABC):
    """Builds one Program: ``emit`` appends a step, ``const`` a literal; ``value(node)``
    (the subclass's) lowers a node."""

    def __init__(self, text: str, var_types: Mapping[str, ExprType | str],
                 fmt: FloatFormat) -> None:
        self.text = text
        self.fmt = fmt
        self.var_types = {k: parse_type(v) for k, v in var_types.items()}
        self.p = Program(text, fmt.name)
        self._consts: dict[tuple[int, str], int] = {}
        self.uses: list[int] = []

    @abstractmethod
    def value(self, node: Node) -> Value:
        """Lower one syntax node."""

    # -- building blocks -----------------------------------------------------------------
    def fail(self, message: str, node: Node) -> NoReturn:
        raise ExprError(message, node.pos, node.end)

    def const(self, bits: int, kind: str, text: str) -> Ref:
        key = (bits, kind)
        if key not in self._consts:
            self._consts[key] = len(self.p.consts)
            self.p.consts.append(Const(bits, kind, text))
        return Ref("const", self._consts[key], kind)

    def float_const(self, bits: int) -> Ref:
        return self.const(bits, "float", short_text(bits, self.fmt))

    def emit(self, op: str, args: list[Ref], kind: str, node: Node, comp: int | None = None,
             note: str = "") -> Ref:
        label = self.text[node.pos:node.end]
        if comp is not None:
            label += f" [.{'xyzw'[comp]}]"
        for a in args:
            if a.src == "step":
                self.uses[a.index] += 1
        self.p.steps.append(Step(op, tuple(args), kind, False, label, (node.pos, node.end), note))
        self.uses.append(0)
        return Ref("step", len(self.p.steps) - 1, kind)

    def neg(self, r: Ref) -> Ref:
        if r.src == "const" and not r.cast:
            c = self.p.consts[r.index]
            return self.float_const(c.bits ^ self.fmt.sign_mask if not r.abs
                                    else c.bits | self.fmt.sign_mask)
        return replace(r, neg=not r.neg)

    def abs(self, r: Ref) -> Ref:
        if r.src == "const" and not r.cast:
            return self.float_const(self.p.consts[r.index].bits & ~self.fmt.sign_mask)
        return replace(r, abs=True, neg=False)

    # -- coercions -----------------------------------------------------------------------
    def floats(self, v: Value, what: str) -> list[Ref]:
        """The value's components as float operands (integer literals by value)."""
        if v.type is None:
            return [self.float_const(float_bits(v.literal, self.fmt, v.node.pos, v.node.end))]
        if v.type.kind == "float":
            return v.refs
        hint = ("reinterpret its bits with asfloat(...)" if v.type.kind == "uint"
                else "pick values with ?: instead")
        self.fail(f"{what} takes float operands, got {v.type}: {hint}", v.node)

    def uints(self, v: Value, what: str) -> list[Ref]:
        """The value's components as uint operands (integer literals by their low 32 bits)."""
        if v.type is None:
            bits = v.literal & 0xFFFFFFFF
            return [self.const(bits, "uint", f"0x{bits:X}")]
        if v.type.kind == "uint":
            return v.refs
        hint = "reinterpret its bits with asuint(...)" if v.type.kind == "float" else ""
        self.fail(f"{what} takes uint operands, got {v.type}" + (f": {hint}" if hint else ""),
                  v.node)

    def size(self, values: list[Value], node: Node, what: str) -> int:
        n = max(v.n for v in values)
        for v in values:
            if v.n not in (1, n):
                shown = ", ".join(v.describe() for v in values)
                self.fail(f"{what}: operand sizes differ ({shown}); HLSL would truncate "
                          "silently, write the components you mean (.xy)", node)
        return n

    @staticmethod
    def comp(refs: list[Ref], i: int) -> Ref:
        return refs[0] if len(refs) == 1 else refs[i]

    # -- the end -------------------------------------------------------------------------
    def finish(self, v: Value) -> Program:
        """Make every result component an instruction's plain result (``mov`` otherwise)."""
        if v.type is None:  # an integer literal: the result is its float value
            t, refs = ExprType("float"), self.floats(v, "the result")
        else:
            t, refs = v.type, v.refs
        outs = []
        for i, r in enumerate(refs):
            if r.src == "step" and r.plain:
                outs.append((r.index, r.kind))
                continue
            s = self.emit("mov", [r], r.kind, v.node, i if t.n > 1 else None,
                          "result written with mov")
            outs.append((s.index, r.kind))
        self.p.outputs = outs
        self.p.type = t
        return self.p
