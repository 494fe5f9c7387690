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

from ..model.expr.program import Program, Ref
from .shaders import Kernel, find_kernel

__all__ = ["ExprShader", "expr_shader", "requirements"]


class ExprShader:
    """The GLSL pieces of one program: ``body`` (statements reading raw input words
    ``x0..``), ``words`` (uint expressions, one per written word) and ``kernel`` (a stand-in
    carrying the extension requirements for :func:`fpinspector.gpu.shaders.header`)."""

    def __init__(self, body: list[str], words: list[str], kernel: Kernel, n_inputs: int):
        self.body, self.words, self.kernel, self.n_inputs = body, words, kernel, n_inputs


def _ref(program: Program, r: Ref) -> str:
    if r.src == "input":  # inputs and constants are raw words
        raw, base = f"x{r.index}", "uint"
    elif r.src == "const":
        raw, base = f"0x{program.consts[r.index].bits:08X}u", "uint"
    else:
        raw, base = f"s{r.index}", program.steps[r.index].kind
    base = "uint" if base == "half" else base
    want = "uint" if r.kind == "half" else r.kind
    if want == "float" and base == "uint":
        e = f"uintBitsToFloat({raw})"
    elif want == "uint" and base == "float":
        e = f"floatBitsToUint({raw})"
    else:
        e = raw
    if r.abs:
        e = f"abs({e})"
    return f"(-{e})" if r.neg else e


def _glsl_type(kind: str) -> str:
    return {"float": "float", "bool": "bool"}.get(kind, "uint")


def requirements(program: Program) -> tuple:
    """Extensions the program's kernels need (packHalf2x16 for f32tof16, ...)."""
    reqs: list = []
    for s in program.steps:
        if s.op in ("movc",):
            continue
        for r in find_kernel(s.op, "f32").requires:
            if r not in reqs:
                reqs.append(r)
    return tuple(reqs)


def expr_shader(program: Program, precise: bool = True) -> ExprShader:
    """Statements and output words for ``program`` (f32 programs only)."""
    if program.format != "f32":
        raise ValueError("GPU expression runs compute f32 expressions only")
    body = []
    for k, s in enumerate(program.steps):
        args = [_ref(program, r) for r in s.args]
        if s.op == "movc":
            cond = args[0] if s.args[0].kind == "bool" else f"({args[0]} != 0u)"
            expr = f"({cond} ? {args[1]} : {args[2]})"
        else:
            kern = find_kernel(s.op, "f32")
            args = [f"({a} & 0xFFFFu)" if kind == "f16" else a
                    for a, kind in zip(args, kern.in_kinds)]
            expr = kern.expr.format(*args)
            if kern.out_kind == "f16":
                expr = f"({expr} & 0xFFFFu)"
        if s.sat:
            expr = f"clamp({expr}, 0.0, 1.0)"
        t = _glsl_type(s.kind)
        qual = "PRECISE " if precise and t == "float" else ""
        body.append(f"    {qual}{t} s{k} = {expr};")
    idx = range(len(program.steps)) if precise else [i for i, _ in program.outputs]
    words = []
    for k in idx:
        t = _glsl_type(program.steps[k].kind)
        words.append({"float": f"floatBitsToUint(s{k})", "bool": f"(s{k} ? 1u : 0u)"}
                     .get(t, f"s{k}"))
    kernel = Kernel("expr", "f32", ("f32",), "f32", "", requirements(program), "expression")
    return ExprShader(body, words, kernel, len(program.inputs))
