"""The op table: one OpSpec per operation (name, operand count, formats, result, family).

The family says which computation (engine/compute.py) and which allowed-set shape
(engine/finish/) an op has; the tolerance comes from engine/tolerances.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..formats import OperandType, operand_format

__all__ = ["OpSpec", "OPS", "FAMILIES"]

_ALL3 = ("f32", "f16", "f64")
_F32_F16 = ("f32", "f16")

#: Op families: how the exact value and the allowed set are formed.
FAMILIES = ("arith", "fused", "unary", "round", "frc", "select", "compare", "mov",
            "conversion")


@dataclass(frozen=True)
class OpSpec:
    """One operation: name, operand count, formats it exists in, result kind, text.

    ``result``: "same" (the operand format), "bool", or a format / integer-code name.
    ``handler``: conversion ops only (engine/conversions.py builds their evaluation).
    """

    name: str
    arity: int
    formats: tuple[str, ...]
    result: str
    description: str
    family: str
    handler: Callable[..., Any] | None = None

    @property
    def operand_types(self) -> tuple[OperandType, ...]:
        """The types the op takes (``formats`` resolved): float formats, or integer code
        types (i32, u32, unorm8, snorm16, srgb8, ...) for itof, from_unorm8 and the like."""
        return tuple(operand_format(f) for f in self.formats)

    def operand_type(self, fmt: str | OperandType) -> OperandType:
        """The operand type when ``fmt`` is asked for: ``fmt`` itself when the op takes it,
        else the op's only type (itof takes i32 codes whatever is asked); ValueError when the
        op takes several types and ``fmt`` is none of them."""
        want = operand_format(fmt)
        if want.name in self.formats:
            return want
        if len(self.formats) == 1:
            return operand_format(self.formats[0])
        raise ValueError(f"{self.name} takes {', '.join(self.formats)} operands, not {want.name}")


_ROWS = [
    ("add", 2, _ALL3, "same", "a + b", "arith"),
    ("sub", 2, _ALL3, "same", "a - b", "arith"),
    ("mul", 2, _ALL3, "same", "a * b", "arith"),
    ("div", 2, _ALL3, "same", "a / b", "arith"),
    ("mad", 3, _ALL3, "same", "a * b + c (fused)", "fused"),
    ("dp2", 4, _F32_F16, "same", "a0*b0 + a1*b1 (operands a0 a1 b0 b1)", "fused"),
    ("dp3", 6, _F32_F16, "same", "3-term dot product (a0..a2, b0..b2)", "fused"),
    ("dp4", 8, _F32_F16, "same", "4-term dot product (a0..a3, b0..b3)", "fused"),
    ("min", 2, _ALL3, "same", "minimum (minNum rules)", "select"),
    ("max", 2, _ALL3, "same", "maximum (maxNum rules)", "select"),
    ("sqrt", 1, _ALL3, "same", "square root", "unary"),
    ("rsq", 1, _F32_F16, "same", "1 / sqrt(x)", "unary"),
    ("rcp", 1, _ALL3, "same", "1 / x", "unary"),
    ("log", 1, _F32_F16, "same", "log2(x)", "unary"),
    ("exp", 1, _F32_F16, "same", "2^x", "unary"),
    ("frc", 1, _F32_F16, "same", "x - round_ni(x), in [+0, 1)", "frc"),
    ("round_ne", 1, _F32_F16, "same", "round to integral, nearest even", "round"),
    ("round_ni", 1, _F32_F16, "same", "round to integral toward -INF", "round"),
    ("round_pi", 1, _F32_F16, "same", "round to integral toward +INF", "round"),
    ("round_z", 1, _F32_F16, "same", "round to integral toward zero", "round"),
    ("mov", 1, _ALL3, "same", "raw move: keeps every bit (F32-FTZ exempt)", "mov"),
] + [(c, 2, _ALL3, "bool", f"comparison {c}", "compare")
     for c in ("eq", "ne", "lt", "le", "gt", "ge")]


def _conversion_specs() -> list[OpSpec]:
    from .conversions import conversion_rows

    return [OpSpec(name, 1, formats, result, text, "conversion", handler)
            for name, formats, result, text, handler in conversion_rows()]


#: op name -> OpSpec: the math ops above, then the conversion ops (engine/conversions.py).
OPS: dict[str, OpSpec] = {r[0]: OpSpec(*r) for r in _ROWS}
OPS.update((s.name, s) for s in _conversion_specs())
