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
from .errors import ShaderError
from .expr_source import Dialect, output_words, step_expressions, value_type
from .wgsl_shaders import LOCAL_SIZE, PER_INVOCATION, WGSL_EXPR

__all__ = ["expr_wgsl_source", "ExprWgsl", "wgsl_unsupported"]


def _op_expr(op: str) -> str:
    return WGSL_EXPR[(op, "f32")]


WGSL = Dialect(as_float="bitcast<f32>({})", as_uint="bitcast<u32>({})",
               select="select({b}, {a}, {c})", bool_word="select(0u, 1u, {})",
               float_type="f32", bool_type="bool", uint_type="u32", op_expr=_op_expr)


def wgsl_unsupported(program: Program) -> str | None:
    """Why ``program`` has no WGSL form (None when it has)."""
    if program.format != "f32":
        return "GPU expression runs compute f32 expressions only"
    for s in program.steps:
        if instruction(s.op).engine and (s.op, "f32") not in WGSL_EXPR:
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
    """Runs expression shaders on a :class:`.wgpu_session.WgpuSession`'s device; pipelines
    cached by key."""

    def __init__(self, session: Any) -> None:
        from .wgpu_session import group_counts

        self.session = session
        self.wgpu = session.wgpu
        self.device = session.device
        self._group_counts = group_counts
        limits = self.device.limits
        self.max_groups = int(limits.get("max-compute-workgroups-per-dimension", 65535))
        self.max_binding = int(limits.get("max-storage-buffer-binding-size", 1 << 27))
        self._pipelines: dict[Hashable, Any] = {}

    def _pipeline(self, key: Hashable, src: str) -> Any:
        pipe = self._pipelines.get(key)
        if pipe is None:
            try:
                module = self.device.create_shader_module(code=src)
                pipe = self.device.create_compute_pipeline(
                    layout="auto", compute={"module": module, "entry_point": "main"})
            except Exception as exc:  # wgpu's GPUValidationError carries naga's log
                raise ShaderError("expression", str(exc), src) from None
            self._pipelines[key] = pipe
        return pipe

    def run(self, key: Hashable, program: Program, precise: bool, words: np.ndarray,
            n: int) -> np.ndarray:
        """(n, W) result words from (n, V) input words."""
        wgpu, dev = self.wgpu, self.device
        src, w = expr_wgsl_source(program, precise)
        pipe = self._pipeline(key, src)
        v = max(len(program.inputs), 1)  # words per element read (for the chunk size)
        out = np.empty((n, w), np.uint32)
        chunk = max(LOCAL_SIZE, min(1 << 22, self.max_binding // (4 * max(v, w))))
        for s in range(0, n, chunk):
            e = min(n, s + chunk)
            m = e - s
            dout = dev.create_buffer(size=4 * m * w, usage=wgpu.BufferUsage.STORAGE
                                     | wgpu.BufferUsage.COPY_SRC)
            entries = [{"binding": 1, "resource": {"buffer": dout}}]
            din = None
            if words.shape[1]:  # a constant expression has no input buffer
                din = dev.create_buffer_with_data(data=np.ascontiguousarray(words[s:e]),
                                                  usage=wgpu.BufferUsage.STORAGE)
                entries.append({"binding": 0, "resource": {"buffer": din}})
            group = dev.create_bind_group(layout=pipe.get_bind_group_layout(0),
                                          entries=entries)
            enc = dev.create_command_encoder()
            cp = enc.begin_compute_pass()
            cp.set_pipeline(pipe)
            cp.set_bind_group(0, group)
            cp.dispatch_workgroups(*self._group_counts(m, self.max_groups))
            cp.end()
            dev.queue.submit([enc.finish()])
            out[s:e] = np.frombuffer(dev.queue.read_buffer(dout), np.uint32).reshape(m, w)
            if din is not None:
                din.destroy()
            dout.destroy()
        return out

    def release(self) -> None:
        self._pipelines.clear()
