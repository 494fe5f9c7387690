"""An expression's step list as shader statements, in any shading language: what the GLSL
(:mod:`.expr_glsl`) and WGSL (:mod:`.expr_wgsl`) sources share.

Both read inputs and constants as raw words and reinterpret them where a float is wanted,
apply the source modifiers as ``-x`` / ``abs(x)``, take each step's expression from the
kernel table of their language (the same one the single-op captures use), mask halves to
their low 16 bits, write ``_sat`` as ``clamp(x, 0.0, 1.0)`` and a selecting step (``movc``)
as the language's select; they differ only in spelling, which a :class:`Dialect` holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..model.expr.instructions import instruction
from ..model.expr.program import Program, Ref
from .capture_formats import EXPR_FORMAT, SHADER_HALF
from .shaders import find_kernel

__all__ = ["Dialect", "step_expressions", "output_words", "value_type"]


@dataclass(frozen=True)
class Dialect:
    """How one shading language spells what an expression shader needs."""

    #: uint word -> float, e.g. ``"uintBitsToFloat({})"``
    as_float: str
    #: float -> uint word
    as_uint: str
    #: ``{c}`` ? ``{a}`` : ``{b}``
    select: str
    #: bool -> uint word (1u / 0u)
    bool_word: str
    #: the type of a float, a bool and a uint value
    float_type: str
    bool_type: str
    uint_type: str
    #: the expression template of an engine op on f32 operands (``"{0} * {1}"``)
    op_expr: Callable[[str], str]


def value_type(d: Dialect, kind: str) -> str:
    """The language's type of a step of ``kind`` (halves and uints are uint words)."""
    return {"float": d.float_type, "bool": d.bool_type}.get(kind, d.uint_type)


def _ref(d: Dialect, program: Program, r: Ref) -> str:
    if r.src == "input":  # inputs and constants are raw words
        raw, base = f"x{r.index}", "uint"
    elif r.src == "const":
        raw, base = f"0x{program.consts[r.index].bits:08X}u", "uint"
    else:
        raw, base = f"s{r.index}", program.steps[r.index].kind
    base = "uint" if base == "half" else base
    want = "uint" if r.kind == "half" else r.kind
    if want == "float" and base == "uint":
        e = d.as_float.format(raw)
    elif want == "uint" and base == "float":
        e = d.as_uint.format(raw)
    else:
        e = raw
    if r.abs:
        e = f"abs({e})"
    return f"(-{e})" if r.neg else e


def step_expressions(d: Dialect, program: Program) -> list[str]:
    """One expression per step, reading ``x0..`` (input words) and ``s0..`` (steps)."""
    out = []
    for s in program.steps:
        args = [_ref(d, program, r) for r in s.args]
        if instruction(s.op).selects:
            cond = args[0] if s.args[0].kind == "bool" else f"({args[0]} != 0u)"
            expr = d.select.format(c=cond, a=args[1], b=args[2])
        else:
            kern = find_kernel(s.op, EXPR_FORMAT)
            args = [f"({a} & 0xFFFFu)" if kind == SHADER_HALF else a
                    for a, kind in zip(args, kern.in_kinds)]
            expr = d.op_expr(s.op).format(*args)
            if kern.out_kind == SHADER_HALF:
                expr = f"({expr} & 0xFFFFu)"
        if s.sat:
            expr = f"clamp({expr}, 0.0, 1.0)"
        out.append(expr)
    return out


def output_words(d: Dialect, program: Program, precise: bool) -> list[str]:
    """The uint words written per element: every step's ("precise") or the result's."""
    idx = range(len(program.steps)) if precise else [i for i, _ in program.outputs]
    words = []
    for k in idx:
        t = value_type(d, program.steps[k].kind)
        words.append({d.float_type: d.as_uint.format(f"s{k}"),
                      d.bool_type: d.bool_word.format(f"s{k}")}.get(t, f"s{k}"))
    return words
