"""GLSL for an expression's step list: one typed variable per step, every step's bits out.

Operands travel as raw words (``uintBitsToFloat``), constants as their exact bits, so no
upload or literal parsing can change a value. Each step's GLSL comes from the same kernel
table the single-op captures use (:data:`fpinspector.gpu.shaders.KERNELS`): ``mad`` is
``a * b + c`` and, with ``precise``, the driver may neither fuse nor reorder what the step
list fixes. Source modifiers are ``-x`` / ``abs(x)``, ``_sat`` is ``clamp(x, 0.0, 1.0)``,
``movc`` is ``c ? a : b``.

The "free" variant drops ``precise`` and writes only the result: the driver compiles the
expression as it would in a shader (contracting ``a * b + c`` into an FMA, say).
"""

from __future__ import annotations

from ..model.expr.instructions import instruction
from ..model.expr.program import Program
from .capture_formats import EXPR_FORMAT, EXPR_FORMAT_REASON
from .expr_source import Dialect, output_words, step_expressions, value_type
from .shaders import Kernel, find_kernel

__all__ = ["ExprShader", "expr_shader", "requirements"]


class ExprShader:
    """The GLSL pieces of one program: ``body`` (statements reading raw input words
    ``x0..``), ``words`` (uint expressions, one per written word) and ``kernel`` (a stand-in
    carrying the extension requirements for :func:`fpinspector.gpu.shaders.header`)."""

    def __init__(self, body: list[str], words: list[str], kernel: Kernel, n_inputs: int):
        self.body, self.words, self.kernel, self.n_inputs = body, words, kernel, n_inputs


def _op_expr(op: str) -> str:
    return find_kernel(op, EXPR_FORMAT).expr


GLSL = Dialect(as_float="uintBitsToFloat({})", as_uint="floatBitsToUint({})",
               select="({c} ? {a} : {b})", bool_word="({} ? 1u : 0u)", float_type="float",
               bool_type="bool", uint_type="uint", op_expr=_op_expr)


def requirements(program: Program) -> tuple:
    """Extensions the program's kernels need (packHalf2x16 for f32tof16, ...)."""
    reqs: list = []
    for s in program.steps:
        if not instruction(s.op).engine:
            continue
        for r in find_kernel(s.op, EXPR_FORMAT).requires:
            if r not in reqs:
                reqs.append(r)
    return tuple(reqs)


def expr_shader(program: Program, precise: bool = True) -> ExprShader:
    """Statements and output words for ``program`` (f32 programs only)."""
    if program.format != EXPR_FORMAT:
        raise ValueError(EXPR_FORMAT_REASON)
    body = []
    for k, (s, expr) in enumerate(zip(program.steps, step_expressions(GLSL, program))):
        t = value_type(GLSL, s.kind)
        qual = "PRECISE " if precise and t == "float" else ""
        body.append(f"    {qual}{t} s{k} = {expr};")
    words = output_words(GLSL, program, precise)
    kernel = Kernel("expr", EXPR_FORMAT, (EXPR_FORMAT,), EXPR_FORMAT, "", requirements(program),
                    "expression")
    return ExprShader(body, words, kernel, len(program.inputs))
