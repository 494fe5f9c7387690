"""WGSL generation per op for the WebGPU capture backend (D3D12, Vulkan, Metal through wgpu).

The ops, operand kinds and result dtypes are the GLSL table's (:data:`.shaders.KERNELS`):
only the expression differs, the op row's WGSL spelling (engine/optable.py). Operands arrive as raw 32-bit words and are reinterpreted with
``bitcast<f32>`` (``bitcast<vec2<f16>>`` for two f16 operands in one word); results leave
the same way, so no upload or read-back can flush, quiet or round anything.

f64 is no WGSL type in the WebGPU spec; wgpu-native adds it as the native ``shader-f64``
feature, and f64 operands travel the same way as f16 pairs: as ``array<f64>`` memory
(naga types ``bitcast<f64>(vec2<u32>)`` as ``vec2<f32>``, so nothing is bitcast). WGSL has no
way to forbid contracting ``a * b + c`` (no ``precise``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..model.engine.optable import OPS, RowTable
from .shaders import Kernel

__all__ = ["WGSL_EXPR", "F64_REASON", "LOCAL_SIZE", "PER_INVOCATION", "compute_source",
           "kernel_function", "wgsl_expr", "needs_f16", "needs_f64"]

#: Invocations per work group and elements per invocation (a grid-stride loop), as on the
#: GL compute path: Mesa's software drivers pay a fixed cost per invocation.
LOCAL_SIZE = 256
PER_INVOCATION = 4

# WGSL type and load expression (from raw u32 word x) per operand kind
_LOAD = {
    "f32": ("f32", "bitcast<f32>({x})"),
    "i32": ("i32", "bitcast<i32>({x})"),
    "u32": ("u32", "{x}"),
    "f16": ("u32", "({x} & 0xFFFFu)"),
    "h2": ("vec2<f16>", "{x}"),  # read from an array<vec2<f16>>: a plain memory load
    "f64": ("f64", "{x}"),  # read from an array<f64>: a plain memory load
}
#: element type of the storage array of each kind: f16 pairs are declared as vec2<f16>
#: (naga types bitcast<vec2<f16>>(u32) as f32, so the pairs are never bitcast from a word)
_WORD = {"h2": "vec2<f16>", "f64": "f64"}
# store expression (to raw u32 word) per result kind
_STORE = {
    "f32": "bitcast<u32>({r})",
    "bool": "select(0u, 1u, {r})",
    "i32": "bitcast<u32>({r})",
    "u32": "{r}",
    "f16": "({r} & 0xFFFFu)",
    "h2": "{r}",
    "f64": "{r}",
    "b2": "(select(0u, 1u, {r}.x) | select(0u, 0x10000u, {r}.y))",
}


#: each shader format's 1.0 literal
_ONE = {"f32": "1.0", "f16": "vec2<f16>(1.0h)", "f64": "f64(1.0)"}


def _table() -> dict[tuple[str, str], str]:
    """Every op row's WGSL spelling, then the shader-only kernels (fma() beside mad, and
    the conversions a shader does)."""
    t: dict[tuple[str, str], str] = {
        (spec.name, fmt): spec.gpu.wgsl.replace("{one}", _ONE[fmt])
        for spec in OPS.values() for fmt in spec.gpu.wgsl_formats}
    for fmt in ("f32", "f64"):
        t[("mad_fma", fmt)] = "fma({0}, {1}, {2})"
    for op in ("dtof", "to_f32"):
        t[(op, "f64")] = "f32({0})"
    t[("to_f64", "f32")] = "f64({0})"
    t[("to_f64", "f64")] = "{0}"
    t[("ftoi", "f32")] = "i32({0})"
    t[("ftou", "f32")] = "u32({0})"
    for fmt in ("f32", "i32"):
        t[("itof", fmt)] = "f32({0})"
    for fmt in ("f32", "u32"):
        t[("utof", fmt)] = "f32({0})"
    for op in ("f32tof16", "to_f16"):
        t[(op, "f32")] = "pack2x16float(vec2<f32>({0}, 0.0))"
    for op, fmt in (("f16tof32", "f16"), ("f16tof32", "f32"), ("to_f32", "f16")):
        t[(op, fmt)] = "unpack2x16float({0}).x"
    return t


#: (op, format) -> WGSL expression over {0}, {1}, ... (the operands after loading)
WGSL_EXPR: Mapping[tuple[str, str], str] = RowTable(_table)
#: why an f64 kernel cannot run on an adapter without wgpu's native shader-f64 feature
F64_REASON = ("f64 ops need wgpu's native 'shader-f64' feature (WebGPU's WGSL has no 64-bit "
              "float type; wgpu-native adds it where the driver has doubles); {where} does "
              "not offer it, so f64 is captured through GL only")
#: the GLSL construct the report shows, where the WGSL one differs in meaning (the op
#: rows' ``wgsl_note``)
ROUTE_NOTES: Mapping[str, str] = RowTable(
    lambda: {name: spec.gpu.wgsl_note for name, spec in OPS.items() if spec.gpu.wgsl_note})


def wgsl_expr(kernel: Kernel) -> str | None:
    """The WGSL expression of ``kernel``; the integer pass-through of the fidelity check
    (op "wire") too."""
    if kernel.op == "wire" and kernel.in_kinds == ("u32",) and kernel.out_kind == "u32":
        return "{0}"
    return WGSL_EXPR.get((kernel.op, kernel.format))


def needs_f16(kernel: Kernel) -> bool:
    return "h2" in kernel.in_kinds or kernel.out_kind in ("h2", "b2")


def needs_f64(kernel: Kernel) -> bool:
    return any(kernel.wide_in) or kernel.wide_out


def kernel_function(kernel: Kernel) -> str:
    """WGSL ``fn kernel(x0: u32, ...) -> u32`` taking and returning raw words (f16 pairs as
    ``vec2<f16>`` straight from and to memory)."""
    expr = wgsl_expr(kernel)
    if expr is None:
        raise ValueError(f"no WGSL kernel for {kernel.op} on {kernel.format}")
    params = ", ".join(f"x{i}: {_WORD.get(k, 'u32')}" for i, k in enumerate(kernel.in_kinds))
    body = []
    for i, kind in enumerate(kernel.in_kinds):
        wtype, load = _LOAD[kind]
        body.append(f"    let v{i}: {wtype} = {load.format(x=f'x{i}')};")
    r = expr.format(*(f"v{i}" for i in range(kernel.arity)))
    body.append(f"    let r = {r};")
    body.append(f"    return {_STORE[kernel.out_kind].format(r='r')};")
    ret = _WORD.get(kernel.out_kind, "u32")
    return f"fn kernel({params}) -> {ret} {{\n" + "\n".join(body) + "\n}\n"


def compute_source(kernel: Kernel) -> str:
    """Full WGSL compute shader: bindings 0..n-1 read operand words, binding n receives
    results; each invocation takes :data:`PER_INVOCATION` elements a grid apart (dispatch
    with :func:`.wgpu_session.group_counts`)."""
    n = kernel.arity
    lines = ["enable f16;"] if needs_f16(kernel) else []
    lines += [f"@group(0) @binding({i}) var<storage, read> d{i}: array<{_WORD.get(k, 'u32')}>;"
              for i, k in enumerate(kernel.in_kinds)]
    lines.append(f"@group(0) @binding({n}) var<storage, read_write> dout: "
                 f"array<{_WORD.get(kernel.out_kind, 'u32')}>;")
    args = ", ".join(f"d{i}[i]" for i in range(n))
    main = (
        f"@compute @workgroup_size({LOCAL_SIZE})\n"
        "fn main(@builtin(global_invocation_id) gid: vec3<u32>,\n"
        "        @builtin(num_workgroups) groups: vec3<u32>) {\n"
        "    let count = arrayLength(&dout);\n"
        f"    let grid = groups.x * groups.y * {LOCAL_SIZE}u;\n"
        f"    var i = gid.y * (groups.x * {LOCAL_SIZE}u) + gid.x;\n"
        f"    for (var k = 0u; k < {PER_INVOCATION}u; k++) {{\n"
        "        if (i >= count) { return; }\n"
        f"        dout[i] = kernel({args});\n"
        "        i += grid;\n"
        "    }\n"
        "}\n"
    )
    return "\n".join(lines) + "\n" + kernel_function(kernel) + main
