"""WGSL for an expression's step list, and its runner on a WebGPU session (the expression
evaluator's GPU column through D3D12 / Vulkan / Metal).

The same step list as the GLSL version (:mod:`.expr_glsl`), each step's expression from the
same table the single-op WebGPU captures use (:data:`.wgsl_shaders.WGSL_EXPR`); operands and
constants travel as raw words (``bitcast<f32>``). WGSL has no ``precise``: the "precise"
variant writes every step's word from its own statement, but the compiler may still
contract ``a * b + c`` (the judge allows that under F32-FUSED); "free" writes only the
result.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from ..model.expr.instructions import instruction
from ..model.expr.program import Program
from .capture_formats import EXPR_FORMAT, EXPR_FORMAT_REASON
from .expr_source import Dialect, output_words, step_expressions, value_type
from .wgsl_shaders import LOCAL_SIZE, PER_INVOCATION, WGSL_EXPR

__all__ = ["expr_wgsl_source", "ExprWgsl", "wgsl_unsupported"]


def _op_expr(op: str) -> str:
    return WGSL_EXPR[(op, EXPR_FORMAT)]


WGSL = Dialect(as_float="bitcast<f32>({})", as_uint="bitcast<u32>({})",
               select="select({b}, {a}, {c})", bool_word="select(0u, 1u, {})",
               float_type="f32", bool_type="bool", uint_type="u32", op_expr=_op_expr)


def wgsl_unsupported(program: Program) -> str | None:
    """Why ``program`` has no WGSL form (None when it has)."""
    if program.format != EXPR_FORMAT:
        return EXPR_FORMAT_REASON
    for s in program.steps:
        if instruction(s.op).engine and (s.op, EXPR_FORMAT) not in WGSL_EXPR:
            return f"{s.op} has no WGSL form in fpinspector"
    return None


def expr_wgsl_source(program: Program, precise: bool = True) -> tuple[str, int]:
    """The WGSL compute shader of ``program`` and the number of words it writes per element:
    element i reads din[i*V ..], writes dout[i*W ..]."""
    why = wgsl_unsupported(program)
    if why:
        raise ValueError(why)
    body = [f"            let s{k}: {value_type(WGSL, s.kind)} = {expr};"
            for k, (s, expr) in enumerate(zip(program.steps, step_expressions(WGSL, program)))]
    words = output_words(WGSL, program, precise)
    v, w = len(program.inputs), len(words)
    lines = ["@group(0) @binding(0) var<storage, read> din: array<u32>;"] if v else []
    lines += ["@group(0) @binding(1) var<storage, read_write> dout: array<u32>;",
             f"@compute @workgroup_size({LOCAL_SIZE})",
             "fn main(@builtin(global_invocation_id) gid: vec3<u32>,",
             "        @builtin(num_workgroups) groups: vec3<u32>) {",
             f"    let count = arrayLength(&dout) / {w}u;",
             f"    let grid = groups.x * groups.y * {LOCAL_SIZE}u;",
             f"    var i = gid.y * (groups.x * {LOCAL_SIZE}u) + gid.x;",
             f"    for (var k = 0u; k < {PER_INVOCATION}u; k++) {{",
             "        if (i >= count) { return; }",
             "        {"]
    lines += [f"            let x{j} = din[i * {v}u + {j}u];" for j in range(v)]
    lines += body
    lines += [f"            dout[i * {w}u + {k}u] = {e};" for k, e in enumerate(words)]
    lines += ["        }", "        i += grid;", "    }", "}"]
    return "\n".join(lines) + "\n", w


class ExprWgsl:
    """Runs expression shaders on a :class:`.wgpu_session.WgpuSession`'s device, in its
    compute runner's caches: pipelines (keyed apart from the op kernels'), operand, result
    and staging buffers."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.wgpu = session.wgpu
        self.runner = session.capture_path(None)
        self._keys: set[Hashable] = set()

    def run(self, key: Hashable, program: Program, precise: bool, words: np.ndarray,
            n: int) -> np.ndarray:
        """(n, W) result words from (n, V) input words."""
        from .wgpu_session import group_counts

        wgpu, runner = self.wgpu, self.runner
        dev = runner.device
        k = ("expr", key)
        src, w = expr_wgsl_source(program, precise)
        pipe = runner.compiled(k, lambda: src, "expression")
        self._keys.add(k)
        layout = pipe.get_bind_group_layout(0)
        v = max(len(program.inputs), 1)  # words per element read (for the chunk size)
        out = np.empty((n, w), np.uint32)
        chunk = max(LOCAL_SIZE, min(1 << 22, runner.max_binding // (4 * max(v, w))))
        usage_in = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_DST
        usage_out = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC
        for s in range(0, n, chunk):
            e = min(n, s + chunk)
            m = e - s
            nbytes = 4 * m * w
            dout = runner._buffer(-1, nbytes, usage_out)
            entries = [{"binding": 1, "resource": {"buffer": dout, "offset": 0, "size": nbytes}}]
            if words.shape[1]:  # a constant expression has no input buffer
                part = np.ascontiguousarray(words[s:e])
                din = runner._buffer(0, part.nbytes, usage_in)
                dev.queue.write_buffer(din, 0, part)
                entries.append({"binding": 0, "resource": {"buffer": din, "offset": 0,
                                                           "size": part.nbytes}})
            staging = runner._staging_buffer(nbytes)
            enc = dev.create_command_encoder()
            cp = enc.begin_compute_pass()
            cp.set_pipeline(pipe)
            cp.set_bind_group(0, dev.create_bind_group(layout=layout, entries=entries))
            cp.dispatch_workgroups(*group_counts(m, runner.max_groups))
            cp.end()
            enc.copy_buffer_to_buffer(dout, 0, staging, 0, nbytes)
            dev.queue.submit([enc.finish()])
            staging.map_sync(wgpu.MapMode.READ, 0, nbytes)
            try:
                view = staging.read_mapped(0, nbytes, copy=False)
                np.copyto(out[s:e], np.frombuffer(view, np.uint32, m * w).reshape(m, w))
                del view
            finally:
                staging.unmap()
        return out

    def release(self) -> None:
        """Forget this runner's pipelines (the session's buffers stay)."""
        for k in self._keys:
            self.runner._pipelines.pop(k, None)
        self._keys.clear()
