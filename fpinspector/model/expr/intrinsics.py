"""The names the language knows: intrinsics (with what each lowers to) and constructors.

One table row per intrinsic: the UI completes from it, the docs table is written from it,
and :mod:`.lower` refuses every name that is not in it.
"""

from __future__ import annotations

__all__ = ["Intrinsic", "INTRINSICS", "CONSTRUCTORS", "parse_type"]

from dataclasses import dataclass

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


#: name -> its row
INTRINSICS: dict[str, Intrinsic] = {
    "mad": Intrinsic("mad(a, b, c)", "mad a, b, c", 3, "mad"),
    "dot": Intrinsic("dot(a, b) on float2/3/4", "dp2 / dp3 / dp4 (dot of scalars: mul)", 2),
    "min": Intrinsic("min(a, b)", "min a, b", 2, "min"),
    "max": Intrinsic("max(a, b)", "max a, b", 2, "max"),
    "sqrt": Intrinsic("sqrt(x)", "sqrt x", 1, "sqrt"),
    "rsqrt": Intrinsic("rsqrt(x)", "rsq x", 1, "rsq"),
    "rcp": Intrinsic("rcp(x)", "rcp x", 1, "rcp"),
    "exp2": Intrinsic("exp2(x)", "exp x (2^x)", 1, "exp"),
    "log2": Intrinsic("log2(x)", "log x (log2)", 1, "log"),
    "frac": Intrinsic("frac(x)", "frc x", 1, "frc"),
    "floor": Intrinsic("floor(x)", "round_ni x", 1, "round_ni"),
    "ceil": Intrinsic("ceil(x)", "round_pi x", 1, "round_pi"),
    "round": Intrinsic("round(x)", "round_ne x", 1, "round_ne"),
    "trunc": Intrinsic("trunc(x)", "round_z x", 1, "round_z"),
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
