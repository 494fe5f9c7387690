"""The op table: one OpSpec per operation (name, operand count, formats, result, handler)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .ops_arith import eval_binary, eval_fused
from .ops_minmax_cmp import eval_compare, eval_minmax
from .ops_convert import conversion_specs
from .ops_unary import eval_mov, eval_unary
from .result import Parts

__all__ = ["OpSpec", "OPS"]

_ALL3 = ("f32", "f16", "f64")
_F32_F16 = ("f32", "f16")


@dataclass(frozen=True)
class OpSpec:
    """One operation: name, operand count, formats it exists in, result kind, text."""

    name: str
    arity: int
    formats: tuple[str, ...]
    result: str  # "same" (the operand format), "bool", or a format/int type name
    description: str
    handler: Callable[..., Parts] | None = None


def _spec(name: str, arity: int, formats: tuple, result: str, text: str, handler) -> OpSpec:
    return OpSpec(name, arity, formats, result, text, handler)


_ROWS = [
    ("add", 2, _ALL3, "same", "a + b", eval_binary),
    ("sub", 2, _ALL3, "same", "a - b", eval_binary),
    ("mul", 2, _ALL3, "same", "a * b", eval_binary),
    ("div", 2, _ALL3, "same", "a / b", eval_binary),
    ("mad", 3, _ALL3, "same", "a * b + c (fused)", eval_fused),
    ("dp2", 4, _F32_F16, "same", "a0*b0 + a1*b1 (operands a0 a1 b0 b1)", eval_fused),
    ("dp3", 6, _F32_F16, "same", "3-term dot product (a0..a2, b0..b2)", eval_fused),
    ("dp4", 8, _F32_F16, "same", "4-term dot product (a0..a3, b0..b3)", eval_fused),
    ("min", 2, _ALL3, "same", "minimum (minNum rules)", eval_minmax),
    ("max", 2, _ALL3, "same", "maximum (maxNum rules)", eval_minmax),
    ("sqrt", 1, _ALL3, "same", "square root", eval_unary),
    ("rsq", 1, _F32_F16, "same", "1 / sqrt(x)", eval_unary),
    ("rcp", 1, _ALL3, "same", "1 / x", eval_unary),
    ("log", 1, _F32_F16, "same", "log2(x)", eval_unary),
    ("exp", 1, _F32_F16, "same", "2^x", eval_unary),
    ("frc", 1, _F32_F16, "same", "x - round_ni(x), in [+0, 1)", eval_unary),
    ("round_ne", 1, _F32_F16, "same", "round to integral, nearest even", eval_unary),
    ("round_ni", 1, _F32_F16, "same", "round to integral toward -INF", eval_unary),
    ("round_pi", 1, _F32_F16, "same", "round to integral toward +INF", eval_unary),
    ("round_z", 1, _F32_F16, "same", "round to integral toward zero", eval_unary),
    ("mov", 1, _ALL3, "same", "raw move: keeps every bit (F32-FTZ exempt)", eval_mov),
] + [(c, 2, _ALL3, "bool", f"comparison {c}", eval_compare)
     for c in ("eq", "ne", "lt", "le", "gt", "ge")]

#: op name -> OpSpec: the math ops above, then the conversion ops (engine.ops_convert).
OPS: dict[str, OpSpec] = {r[0]: _spec(*r) for r in _ROWS}
OPS.update((s.name, s) for s in conversion_specs(OpSpec))
