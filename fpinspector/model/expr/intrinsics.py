"""The names the language knows: intrinsics (with what each lowers to) and constructors.

One table row per intrinsic: the UI completes from it, the docs table is written from it,
and :mod:`.lower` refuses every name that is not in it.
"""

from __future__ import annotations

__all__ = ["INTRINSICS", "CONSTRUCTORS", "UNARY_OPS", "parse_type"]

from .program import ExprType

#: name -> (signature, lowering as D3D instructions)
INTRINSICS: dict[str, tuple[str, str]] = {
    "mad": ("mad(a, b, c)", "mad a, b, c"),
    "dot": ("dot(a, b) on float2/3/4", "dp2 / dp3 / dp4 (dot of scalars: mul)"),
    "min": ("min(a, b)", "min a, b"),
    "max": ("max(a, b)", "max a, b"),
    "sqrt": ("sqrt(x)", "sqrt x"),
    "rsqrt": ("rsqrt(x)", "rsq x"),
    "rcp": ("rcp(x)", "rcp x"),
    "exp2": ("exp2(x)", "exp x (2^x)"),
    "log2": ("log2(x)", "log x (log2)"),
    "frac": ("frac(x)", "frc x"),
    "floor": ("floor(x)", "round_ni x"),
    "ceil": ("ceil(x)", "round_pi x"),
    "round": ("round(x)", "round_ne x"),
    "trunc": ("trunc(x)", "round_z x"),
    "abs": ("abs(x)", "source modifier |x| on the consuming instruction (exact)"),
    "saturate": ("saturate(x)", "_sat result modifier on the instruction that made x "
                                "(mov_sat when x is not an instruction's plain result)"),
    "lerp": ("lerp(a, b, t)", "add d, b, -a ; mad t, d, a"),
    "asfloat": ("asfloat(u)", "reinterpretation: no instruction, the bits are read as float"),
    "asuint": ("asuint(x)", "reinterpretation: no instruction, the bits are read as uint"),
    "f32tof16": ("f32tof16(x)", "f32tof16 x (result: uint holding the f16 pattern)"),
    "f16tof32": ("f16tof32(u)", "f16tof32 u (reads the low 16 bits of u)"),
}

#: vector/scalar constructors: name -> type
CONSTRUCTORS: dict[str, ExprType] = {"float": ExprType("float"), "uint": ExprType("uint")}
for _n in (1, 2, 3, 4):
    CONSTRUCTORS[f"float{_n}"] = ExprType("float", _n)
    CONSTRUCTORS[f"uint{_n}"] = ExprType("uint", _n)

#: componentwise one-operand intrinsics -> engine op
UNARY_OPS = {"sqrt": "sqrt", "rsqrt": "rsq", "rcp": "rcp", "exp2": "exp", "log2": "log",
             "frac": "frc", "floor": "round_ni", "ceil": "round_pi", "round": "round_ne",
             "trunc": "round_z"}


def parse_type(text: str | ExprType) -> ExprType:
    """``"float3"`` -> ExprType("float", 3); ValueError for anything else."""
    if isinstance(text, ExprType):
        return text
    t = CONSTRUCTORS.get(str(text).strip())
    if t is None:
        raise ValueError(f"unknown type {text!r}; use float, float2-4, uint or uint2-4")
    return t
