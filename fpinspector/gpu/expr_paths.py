"""Run an expression shader on the compute path (SSBOs) or the fragment path (integer
textures in, several RGBA32UI colour attachments out), every step's word per element."""

from __future__ import annotations

from collections.abc import Hashable

import moderngl
import numpy as np

from .compute_path import LOCAL_SIZE, ComputePath, dispatch_groups, invocation_main
from .expr_glsl import ExprShader
from .fragment_path import FragmentPath
from .shaders import header

__all__ = ["ExprCompute", "ExprFragment", "compute_source", "fragment_source"]

_CHUNK_BYTES = 192 << 20


def compute_source(sh: ExprShader, extensions: set[str]) -> str:
    """Compute shader: element i reads words din[i*V ..], writes dout[i*W ..]."""
    v, w = sh.n_inputs, len(sh.words)
    lines = [header(430, extensions, sh.kernel) + f"layout(local_size_x = {LOCAL_SIZE}) in;"]
    if v:
        lines.append("layout(std430, binding = 0) readonly buffer In { uint din[]; };")
    lines += ["layout(std430, binding = 1) writeonly buffer Out { uint dout[]; };",
              "uniform uint u_count;"]
    step = [f"uint x{j} = din[i * {v}u + {j}u];" for j in range(v)] + list(sh.body)
    step += [f"dout[i * {w}u + {k}u] = {e};" for k, e in enumerate(sh.words)]
    return "\n".join(lines) + "\n" + invocation_main(step)


def fragment_source(sh: ExprShader, extensions: set[str], first: int, count: int) -> str:
    """Fragment shader writing words ``first .. first+count-1`` into ceil(count/4)
    RGBA32UI attachments; inputs come 4 per texel from ceil(V/4) textures."""
    v = sh.n_inputs
    nt, no = -(-v // 4), -(-count // 4)
    lines = [header(330, extensions, sh.kernel).rstrip("\n")]
    lines += [f"uniform usampler2D t{j};" for j in range(nt)]
    lines += [f"layout(location = {m}) out uvec4 o{m};" for m in range(no)]
    lines += ["void main() {", "    ivec2 p = ivec2(gl_FragCoord.xy);"]
    lines += [f"    uvec4 q{j} = texelFetch(t{j}, p, 0);" for j in range(nt)]
    lines += [f"    uint x{j} = q{j // 4}.{'xyzw'[j % 4]};" for j in range(v)]
    lines += sh.body
    words = sh.words[first:first + count] + ["0u"] * (4 * no - count)
    lines += [f"    o{m} = uvec4({', '.join(words[4 * m:4 * m + 4])});" for m in range(no)]
    return "\n".join(lines) + "\n}\n"


class ExprCompute:
    """Compute-path runner: its programs and SSBOs are the capture path's (``path``: a
    session's :class:`.compute_path.ComputePath`; one of its own on ``ctx`` when None)."""

    def __init__(self, ctx: moderngl.Context, path: ComputePath | None = None) -> None:
        self._own = path is None
        self.path = ComputePath(ctx) if path is None else path
        self.ctx = self.path.ctx
        self._keys: set[Hashable] = set()

    def run(self, key: Hashable, sh: ExprShader, words: np.ndarray, n: int) -> np.ndarray:
        """(n, W) result words from (n, V) input words."""
        path = self.path
        k = ("expr", key)
        prog = path.compiled(k, lambda: compute_source(sh, path.extensions), "expression")
        self._keys.add(k)
        v, w = sh.n_inputs, len(sh.words)
        out = np.empty((n, w), np.uint32)
        per = 4 * max(v, w, 1)
        chunk = max(LOCAL_SIZE, min(path.max_block // per, _CHUNK_BYTES // (4 * (v + w) or 4)))
        for s in range(0, n, chunk):
            e = min(n, s + chunk)
            m = e - s
            if v:
                part = np.ascontiguousarray(words[s:e])
                buf = path.buffer(0, part.nbytes)
                buf.write(part)
                buf.bind_to_storage_buffer(0, size=part.nbytes)
            obuf = path.buffer(1, m * w * 4)
            obuf.bind_to_storage_buffer(1, size=m * w * 4)
            prog["u_count"].value = m
            prog.run(*dispatch_groups(m, path.max_groups))
            self.ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)
            obuf.read_into(out[s:e], size=m * w * 4)
        return out

    def release(self) -> None:
        """Release this runner's programs (and its own path's buffers, when it has one)."""
        if self._own:
            self.path.release()
        else:
            self.path.forget(self._keys)
        self._keys.clear()


class ExprFragment:
    """Fragment-path runner: passes of up to ``4 * max_draw_buffers`` words each. Its
    programs, textures and render targets are the capture path's (``path``: a session's
    :class:`.fragment_path.FragmentPath`; one of its own on ``ctx`` with ``chunk``
    elements a pass when None)."""

    def __init__(self, ctx: moderngl.Context, chunk: int = 1 << 22,
                 path: FragmentPath | None = None) -> None:
        self._own = path is None
        self.path = FragmentPath(ctx, chunk) if path is None else path
        self.ctx = self.path.ctx
        self.width, self.rows = self.path.width, self.path.max_rows
        self.attachments = max(1, min(8, int(self.ctx.info.get("GL_MAX_DRAW_BUFFERS", 8))))
        self._keys: set[Hashable] = set()

    def _program(self, key: Hashable, sh: ExprShader, first: int, count: int
                 ) -> tuple[moderngl.Program, moderngl.VertexArray]:
        k = ("expr", key, first)
        self._keys.add(k)
        return self.path.compiled(
            k, lambda: fragment_source(sh, self.path.extensions, first, count), "expression",
            -(-sh.n_inputs // 4))

    def run(self, key: Hashable, sh: ExprShader, words: np.ndarray, n: int) -> np.ndarray:
        """(n, W) result words from (n, V) input words."""
        # moderngl remembers the last framebuffer used (ctx.fbo, and the one ctx.viewport
        # writes to); point it back at the previous one, which outlives ours
        prev, prev_mglo = self.ctx.fbo, self.ctx.mglo.fbo
        try:
            return self._run(key, sh, words, n)
        finally:
            self.ctx.fbo, self.ctx.mglo.fbo = prev, prev_mglo

    def _run(self, key: Hashable, sh: ExprShader, words: np.ndarray, n: int) -> np.ndarray:
        v, w = sh.n_inputs, len(sh.words)
        out = np.empty((n, w), np.uint32)
        per_pass = 4 * self.attachments
        cap = self.width * self.rows
        nt = -(-v // 4)
        for s in range(0, n, cap):
            e = min(n, s + cap)
            m = e - s
            rows = -(-m // self.width)
            view = (0, 0, self.width, rows)
            stage = np.zeros((rows * self.width, 4 * nt), np.uint32)
            stage[:m, :v] = words[s:e]
            for j in range(nt):
                tex = self.path.texture(j, 4)
                tex.write(np.ascontiguousarray(stage[:, 4 * j:4 * j + 4]), viewport=view)
                tex.use(j)
            for first in range(0, w, per_pass):
                count = min(per_pass, w - first)
                prog, vao = self._program(key, sh, first, count)
                n_att = -(-count // 4)
                fbo = self.path.target(4, n_att)
                fbo.use()
                self.ctx.viewport = view
                vao.render(moderngl.TRIANGLES, vertices=3)
                for a in range(n_att):
                    raw = fbo.read(viewport=view, components=4, attachment=a, dtype="u4")
                    block = np.frombuffer(raw, np.uint32).reshape(-1, 4)[:m]
                    c0 = first + 4 * a
                    c1 = min(first + count, c0 + 4)
                    out[s:e, c0:c1] = block[:, :c1 - c0]
        return out

    def release(self) -> None:
        """Release this runner's programs (and its own path's textures, when it has one)."""
        if self._own:
            self.path.release()
        else:
            self.path.forget(self._keys)
        self._keys.clear()
