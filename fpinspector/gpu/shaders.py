"""GLSL generation per op: one kernel per (op, format), from the op row's GLSL spelling
(engine/optable.py), turned into a kernel function.

Operands arrive as raw bit patterns (``uint`` or ``uvec2`` for 64-bit) and are
reinterpreted with ``uintBitsToFloat`` / ``packDouble2x32``; results leave the same way, so
no float upload or read-back can flush, quiet or round anything behind our back.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..model.engine.optable import OPS, OpSpec, RowTable

__all__ = ["Kernel", "KERNELS", "RESULT_DTYPES", "find_kernel", "kernel_function", "header",
           "HALF", "EMULATE_HALF", "HALF_OPS", "pack_pairs", "unpack_pairs"]

# GLSL type, load expression (from raw word x) for each operand kind.
_LOAD = {
    "f32": ("float", "uintBitsToFloat({x})"),
    "f64": ("double", "packDouble2x32({x})"),
    "i32": ("int", "int({x})"),
    "u32": ("uint", "{x}"),
    "f16": ("uint", "({x} & 0xFFFFu)"),
    "h2": ("f16vec2", "unpackFloat2x16({x})"),  # two f16 operands packed in one uint
}
# GLSL type of the result variable, store expression (to raw word) for each result kind.
_STORE = {
    "f32": ("float", "floatBitsToUint({r})"),
    "f64": ("double", "unpackDouble2x32({r})"),
    "bool": ("bool", "({r} ? 1u : 0u)"),
    "i32": ("int", "uint({r})"),
    "u32": ("uint", "{r}"),
    "f16": ("uint", "({r} & 0xFFFFu)"),
    "h2": ("f16vec2", "packFloat2x16({r})"),
    "b2": ("bvec2", "(({r}.x ? 1u : 0u) | ({r}.y ? 0x10000u : 0u))"),
}
RESULT_DTYPES: dict[str, np.dtype] = {
    "f32": np.dtype(np.uint32),
    "f64": np.dtype(np.uint64),
    "f16": np.dtype(np.uint16),
    "bool": np.dtype(np.bool_),
    "i32": np.dtype(np.int32),
    "u32": np.dtype(np.uint32),
    "h2": np.dtype(np.uint16),
    "b2": np.dtype(np.bool_),
}

# (extension, GLSL version where it became core)
FP64 = ("GL_ARB_gpu_shader_fp64", 400)
SHADER5 = ("GL_ARB_gpu_shader5", 400)
PACKING = ("GL_ARB_shading_language_packing", 420)
#: f16 shader arithmetic: either extension gives float16_t / f16vec2 and packFloat2x16
HALF = ("GL_AMD_gpu_shader_half_float|GL_NV_gpu_shader5", 10000)
#: pseudo-extension (tests only): build f16 kernels with float16_t defined as float, i.e.
#: f32 arithmetic rounded by packHalf2x16 -- checks code and packing, never f16 hardware
EMULATE_HALF = "FPINSPECTOR_EMULATE_HALF_AS_F32"
_EMULATION = ("#define float16_t float\n#define f16vec2 vec2\n"
              "#define packFloat2x16 packHalf2x16\n#define unpackFloat2x16 unpackHalf2x16\n")
@dataclass(frozen=True)
class Kernel:
    """One op in one operand format, as a GLSL expression over ``{0}``, ``{1}``, ...

    ``glsl`` is the GLSL construct users see in reports ("a * b + c (precise)", "fma()").
    """

    op: str
    format: str
    in_kinds: tuple[str, ...]
    out_kind: str
    expr: str
    requires: tuple[tuple[str, int], ...] = ()
    glsl: str = ""

    @property
    def arity(self) -> int:
        return len(self.in_kinds)

    @property
    def wide_in(self) -> tuple[bool, ...]:
        """Per operand: a 64-bit word (``uvec2`` in GLSL, a double)."""
        return tuple(RESULT_DTYPES[k].itemsize == 8 for k in self.in_kinds)

    @property
    def pairs(self) -> bool:
        """Two elements per 32-bit word (f16 arithmetic): the session packs and unpacks."""
        return self.out_kind in ("h2", "b2")

    @property
    def wide_out(self) -> bool:
        return self.result_dtype.itemsize == 8

    @property
    def result_dtype(self) -> np.dtype:
        return RESULT_DTYPES[self.out_kind]


#: per shader format: the kinds its operands load as, its requirements, its 1.0 literal
_GLSL_FORMATS = {"f32": ("f32", (), "1.0"), "f64": ("f64", (FP64,), "1.0LF"),
                 "f16": ("h2", (HALF,), "float16_t(1.0)")}


def _row_kernel(spec: OpSpec, fmt: str) -> Kernel:
    """The kernel of one op row in one format, from its GLSL spelling: f16 runs on f16vec2
    pairs (a comparison as a bvec2 of the two lanes)."""
    kind, req, one = _GLSL_FORMATS[fmt]
    sp = spec.gpu
    expr = sp.glsl.replace("{one}", one)
    out = kind
    if spec.result == "bool":
        out = "b2" if kind == "h2" else "bool"
        if kind == "h2":
            lanes = [expr.format(*(f"{{{i}}}.{c}" for i in range(spec.arity))) for c in "xy"]
            expr = f"bvec2({lanes[0]}, {lanes[1]})"
    shown = (sp.shown_f16 if kind == "h2" else sp.shown) or expr
    return Kernel(spec.name, fmt, (kind,) * spec.arity, out, expr, req, shown)


def _table() -> dict[tuple[str, str], Kernel]:
    """Every op row's kernels (its GLSL spelling), then the shader-only kernels: fma()
    beside mad, and the conversions a shader does (the others: gpu/routes.py)."""
    rows = [_row_kernel(spec, fmt) for spec in OPS.values() for fmt in spec.gpu.glsl_formats]

    def add(op: str, fmt: str, kinds: tuple[str, ...], out: str, expr: str,
            req: tuple[tuple[str, int], ...] = (), glsl: str | None = None) -> None:
        rows.append(Kernel(op, fmt, tuple(kinds), out, expr, tuple(req), glsl or expr))

    for fmt, req in (("f32", ()), ("f64", (FP64,))):
        add("mad_fma", fmt, (fmt,) * 3, fmt, "fma({0}, {1}, {2})", req + (SHADER5,),
            "fma(a, b, c)")
    add("ftoi", "f32", ("f32",), "i32", "int({0})")
    add("ftou", "f32", ("f32",), "u32", "uint({0})")
    for fmt in ("f32", "i32"):  # the engine names the operand format ("i32"); accept both
        add("itof", fmt, ("i32",), "f32", "float({0})")
    for fmt in ("f32", "u32"):
        add("utof", fmt, ("u32",), "f32", "float({0})")
    add("f32tof16", "f32", ("f32",), "f16", "packHalf2x16(vec2({0}, 0.0))", (PACKING,))
    add("to_f16", "f32", ("f32",), "f16", "packHalf2x16(vec2({0}, 0.0))", (PACKING,))
    for fmt in ("f16", "f32"):
        add("f16tof32", fmt, ("f16",), "f32", "unpackHalf2x16({0}).x", (PACKING,))
    add("to_f32", "f16", ("f16",), "f32", "unpackHalf2x16({0}).x", (PACKING,))
    add("to_f64", "f32", ("f32",), "f64", "double({0})", (FP64,))
    add("dtof", "f64", ("f64",), "f32", "float({0})", (FP64,))
    add("to_f32", "f64", ("f64",), "f32", "float({0})", (FP64,))
    add("to_f64", "f64", ("f64",), "f64", "{0}", (FP64,), "assignment (raw move)")
    return {(k.op, k.format): k for k in rows}


KERNELS: Mapping[tuple[str, str], Kernel] = RowTable(_table)
#: the ops with an f16 arithmetic kernel (f16vec2 pairs) at import
HALF_OPS = tuple(k.op for k in KERNELS.values() if k.in_kinds[0] == "h2")


def find_kernel(op: str, fmt: str) -> Kernel:
    """The kernel for ``op`` on ``fmt`` operands, or a ValueError naming what exists."""
    try:
        return KERNELS[(op, fmt)]
    except KeyError:
        ops = sorted({o for o, f in KERNELS if f == fmt})
        raise ValueError(
            f"no GPU kernel for op {op!r} in format {fmt!r}; available for {fmt}: "
            f"{', '.join(ops) or 'none'}"
        ) from None


def header(version: int, extensions: set[str], kernel: Kernel) -> str:
    """``#version`` line plus the extensions and the PRECISE macro the kernel needs."""
    lines = [f"#version {version}"]
    enabled: set[str] = set()
    emulate = HALF in kernel.requires and EMULATE_HALF in extensions
    reqs = kernel.requires + ((PACKING,) if emulate else ()) + (SHADER5,)
    for alternatives, core in reqs:
        present = [e for e in alternatives.split("|") if e in extensions]
        if version < core and present and not enabled & set(present):
            lines.append(f"#extension {present[0]} : enable")
            enabled.add(present[0])
    has_precise = version >= 400 or SHADER5[0] in enabled
    lines.append("#define PRECISE precise" if has_precise else "#define PRECISE")
    return "\n".join(lines) + "\n" + (_EMULATION if emulate else "")


def missing_requirements(kernel: Kernel, version: int, extensions: set[str]) -> list[str]:
    """Extensions the kernel needs that neither the GLSL version nor the driver provide."""
    out = []
    for alternatives, core in kernel.requires:
        names = alternatives.split("|")
        if alternatives == HALF[0] and EMULATE_HALF in extensions:
            continue
        if version < core and not any(e in extensions for e in names):
            out.append(" or ".join(names))
    return out


def kernel_function(kernel: Kernel) -> str:
    """GLSL ``kernel(x0, x1, ...)`` taking and returning raw words (uint / uvec2)."""
    word = lambda wide: "uvec2" if wide else "uint"  # noqa: E731
    params = ", ".join(f"{word(w)} x{i}" for i, w in enumerate(kernel.wide_in))
    body = []
    for i, kind in enumerate(kernel.in_kinds):
        gtype, load = _LOAD[kind]
        body.append(f"    {gtype} v{i} = {load.format(x=f'x{i}')};")
    rtype, store = _STORE[kernel.out_kind]
    qual = "PRECISE " if rtype in ("float", "double", "f16vec2") else ""
    expr = kernel.expr.format(*(f"v{i}" for i in range(kernel.arity)))
    body.append(f"    {qual}{rtype} r = {expr};")
    body.append(f"    return {store.format(r='r')};")
    return f"{word(kernel.wide_out)} kernel({params}) {{\n" + "\n".join(body) + "\n}\n"


def pack_pairs(halves: np.ndarray) -> np.ndarray:
    """Flat f16 patterns -> uint32 words, element 2i in the low and 2i+1 in the high half
    (the layout packFloat2x16 / unpackFloat2x16 use); an odd count is padded with 0.

    On a little-endian host the words are the uint16 patterns' own memory: no pass over
    the data unless it must be narrowed to uint16 or padded."""
    h = np.ascontiguousarray(halves, dtype=np.uint16).reshape(-1)
    if h.shape[0] % 2:
        h = np.concatenate([h, np.zeros(1, np.uint16)])
    if _LITTLE:
        return h.view(np.uint32)
    w = h.astype(np.uint32)
    return w[0::2] | (w[1::2] << np.uint32(16))


def unpack_pairs(words: np.ndarray, n: int, kind: str) -> np.ndarray:
    """uint32 result words of a pair kernel -> ``n`` f16 patterns (uint16) or bools
    (a view of ``words`` for f16 patterns on a little-endian host)."""
    w = np.ascontiguousarray(words, dtype=np.uint32).reshape(-1)
    if _LITTLE:
        halves = w.view(np.uint16)[:n]
    else:
        halves = np.empty(2 * w.shape[0], np.uint16)
        halves[0::2], halves[1::2] = w & np.uint32(0xFFFF), w >> np.uint32(16)
        halves = halves[:n]
    return (halves != 0) if kind == "b2" else halves


_LITTLE = sys.byteorder == "little"
