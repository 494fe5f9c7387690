"""The names the language knows: intrinsics (with what each lowers to) and constructors.

An intrinsic that is one instruction per component is its op row's HLSL spelling
(``OpSpec.gpu.hlsl``, e.g. ``frac({0})`` for frc): the op table is the one place that says
what ``frac`` is. The others are rows here. The UI completes from the table, and
:mod:`.lower` refuses every name that is not in it.
"""

from __future__ import annotations

__all__ = ["Intrinsic", "INTRINSICS", "CONSTRUCTORS", "parse_type"]

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..engine.oprow import OpSpec
from ..engine.optable import OPS, RowTable
from .instructions import expression_formats
from .program import ExprType


@dataclass(frozen=True)
class Intrinsic:
    """One intrinsic: how it is written, what it lowers to, and what the lowering needs."""

    #: how it is called, e.g. ``"mad(a, b, c)"``
    signature: str
    #: what it lowers to, as D3D instructions (for the docs and the completer)
    lowering: str
    #: number of arguments
    arity: int = 1
    #: the instruction a componentwise intrinsic emits per component (None: lowered by a
    #: function of its own in :mod:`.lower_calls`)
    op: str | None = None
    #: it reads or writes 32-bit patterns (asfloat, asuint, f32tof16, f16tof32)
    bits32: bool = False


#: the intrinsics lowered by functions of their own (:mod:`.lower_calls`), not one
#: instruction per component
_OWN_LOWERING: dict[str, Intrinsic] = {
    "dot": Intrinsic("dot(a, b) on float2/3/4", "dp2 / dp3 / dp4 (dot of scalars: mul)", 2),
    "abs": Intrinsic("abs(x)", "source modifier |x| on the consuming instruction (exact)"),
    "saturate": Intrinsic("saturate(x)", "_sat result modifier on the instruction that made x "
                                         "(mov_sat when x is not an instruction's plain result)"),
    "lerp": Intrinsic("lerp(a, b, t)", "add d, b, -a ; mad t, d, a", 3),
    "asfloat": Intrinsic("asfloat(u)", "reinterpretation: no instruction, the bits are read "
                                       "as float", bits32=True),
    "asuint": Intrinsic("asuint(x)", "reinterpretation: no instruction, the bits are read as "
                                     "uint", bits32=True),
    "f32tof16": Intrinsic("f32tof16(x)", "f32tof16 x (result: uint holding the f16 pattern)",
                          bits32=True),
    "f16tof32": Intrinsic("f16tof32(u)", "f16tof32 u (reads the low 16 bits of u)",
                          bits32=True),
}
_ARGS = {1: "x", 2: "a, b", 3: "a, b, c"}


def _call_name(spec: OpSpec) -> str | None:
    """The HLSL intrinsic an op row spells itself as (``frac({0})`` -> ``frac``), if it is
    one: a call of exactly its operands, in order, on floats (it takes every format
    expressions compute in), giving a float."""
    m = re.fullmatch(r"([a-z_][a-z0-9_]*)\((.*)\)", spec.gpu.hlsl)
    if not m or spec.result != "same" or not set(expression_formats()) <= set(spec.formats):
        return None
    args = ", ".join(f"{{{i}}}" for i in range(spec.arity))
    return m.group(1) if m.group(2) == args and spec.arity in _ARGS else None


def _intrinsic_rows() -> dict[str, Intrinsic]:
    """name -> its row: one per op row whose HLSL spelling is an intrinsic call, then those
    lowered by functions of their own."""
    rows = {}
    for spec in OPS.values():
        name = _call_name(spec)
        if name is not None and name not in _OWN_LOWERING:
            args = _ARGS[spec.arity]
            rows[name] = Intrinsic(f"{name}({args})", f"{spec.name} {args}", spec.arity,
                                   spec.name)
    return {**rows, **_OWN_LOWERING}


#: built again when an op row is registered: a row with an HLSL call is an intrinsic at once
INTRINSICS: Mapping[str, Intrinsic] = RowTable(_intrinsic_rows)

#: vector/scalar constructors: name -> type
CONSTRUCTORS: dict[str, ExprType] = {"float": ExprType("float"), "uint": ExprType("uint")}
for _n in (1, 2, 3, 4):
    CONSTRUCTORS[f"float{_n}"] = ExprType("float", _n)
    CONSTRUCTORS[f"uint{_n}"] = ExprType("uint", _n)

def parse_type(text: str | ExprType) -> ExprType:
    """``"float3"`` -> ExprType("float", 3); ValueError for anything else."""
    if isinstance(text, ExprType):
        return text
    t = CONSTRUCTORS.get(str(text).strip())
    if t is None:
        raise ValueError(f"unknown type {text!r}; use float, float2-4, uint or uint2-4")
    return t
