"""Fragment-shader capture path (GL 3.3): operands in integer textures, results rendered
into an R32UI / RG32UI target with a full-screen triangle and read back as raw words."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import cast

import moderngl
import numpy as np

from .errors import ShaderError
from .shaders import Kernel, header, kernel_function

__all__ = ["FragmentPath", "FULLSCREEN_VS"]

FULLSCREEN_VS = """#version 330
void main() {
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
"""
DEFAULT_CHUNK = 1 << 22


def fragment_source(kernel: Kernel, extensions: set[str], version: int = 330) -> str:
    """Fragment shader: texel (x, y) of every operand texture -> same texel of the target."""
    samplers = "\n".join(f"uniform usampler2D t{i};" for i in range(kernel.arity))
    loads = ", ".join(
        f"texelFetch(t{i}, p, 0).{'rg' if w else 'r'}" for i, w in enumerate(kernel.wide_in)
    )
    out_t = "uvec2" if kernel.wide_out else "uint"
    return (
        header(version, extensions, kernel)
        + samplers
        + f"\nout {out_t} frag;\n"
        + kernel_function(kernel)
        + "void main() {\n    ivec2 p = ivec2(gl_FragCoord.xy);\n"
        + f"    frag = kernel({loads});\n}}\n"
    )


class FragmentPath:
    """Runs kernels by rendering; textures and targets are reused between calls.

    Elements are laid out row-major in a ``width`` x rows rectangle; a chunk is at most
    ``chunk`` elements and never taller than the driver's maximum texture size.

    The caches are the context's for this path: the expression runner
    (:class:`.expr_paths.ExprFragment`) compiles its shaders into :meth:`compiled` and
    renders through the same :meth:`texture` s and :meth:`target` s.
    """

    name = "fragment"

    def __init__(self, ctx: moderngl.Context, chunk: int = DEFAULT_CHUNK) -> None:
        self.ctx = ctx
        self.extensions = set(ctx.extensions)
        max_tex = int(ctx.info.get("GL_MAX_TEXTURE_SIZE", 4096))
        self.width = min(4096, max_tex)
        self.max_rows = max(1, min(max_tex, chunk // self.width))
        self.chunk = self.width * self.max_rows
        self.version = 330
        self._programs: dict[Hashable, tuple[moderngl.Program, moderngl.VertexArray]] = {}
        self._textures: dict[tuple[int, int], moderngl.Texture] = {}
        self._targets: dict[tuple[int, int], moderngl.Framebuffer] = {}
        self._stage: dict[tuple[int, int], np.ndarray] = {}

    def program(self, kernel: Kernel) -> tuple[moderngl.Program, moderngl.VertexArray]:
        return self.compiled(kernel, lambda: fragment_source(kernel, self.extensions,
                                                             self.version),
                             kernel.op, kernel.arity)

    def compiled(self, key: Hashable, source: Callable[[], str], what: str, units: int
                 ) -> tuple[moderngl.Program, moderngl.VertexArray]:
        """The program (and its vertex array) cached under ``key``, compiled from
        ``source()`` on first use, its samplers ``t0..t{units-1}`` bound to units 0.."""
        cached = self._programs.get(key)
        if cached is None:
            src = source()
            try:
                prog = self.ctx.program(vertex_shader=FULLSCREEN_VS, fragment_shader=src)
            except moderngl.Error as exc:
                raise ShaderError(what, str(exc), src) from None
            for i in range(units):
                if f"t{i}" in prog:
                    cast(moderngl.Uniform, prog[f"t{i}"]).value = i
            cached = (prog, self.ctx.vertex_array(prog, []))
            self._programs[key] = cached
        return cached

    def forget(self, keys: Iterable[Hashable]) -> None:
        """Release the programs cached under ``keys`` (a closing expression runner's)."""
        for k in keys:
            cached = self._programs.pop(k, None)
            if cached is not None:
                cached[1].release()
                cached[0].release()

    def texture(self, unit: int, comps: int) -> moderngl.Texture:
        """The ``width`` x ``max_rows`` uint texture of ``comps`` channels for ``unit``."""
        key = (unit, comps)
        tex = self._textures.get(key)
        if tex is None:
            tex = self.ctx.texture((self.width, self.max_rows), comps, dtype="u4")
            tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
            self._textures[key] = tex
        return tex

    def target(self, comps: int, attachments: int = 1) -> moderngl.Framebuffer:
        """A framebuffer of ``attachments`` uint colour textures of ``comps`` channels."""
        fbo = self._targets.get((comps, attachments))
        if fbo is None:
            texs = [self.ctx.texture((self.width, self.max_rows), comps, dtype="u4")
                    for _ in range(attachments)]
            fbo = self.ctx.framebuffer(color_attachments=texs)
            self._targets[(comps, attachments)] = fbo
        return fbo

    def _staged(self, unit: int, words: np.ndarray, start: int, stop: int, rows: int
                ) -> np.ndarray:
        """Chunk of words padded to whole rows (texture writes take full rectangles)."""
        m = stop - start
        if m == rows * self.width:
            return np.ascontiguousarray(words[start:stop])
        key = (unit, words.dtype.itemsize)
        stage = self._stage.get(key)
        if stage is None or stage.shape[0] < rows * self.width:
            stage = np.zeros(self.chunk, dtype=words.dtype)
            self._stage[key] = stage
        stage[:m] = words[start:stop]
        return stage[: rows * self.width]

    def run(self, kernel: Kernel, words: list[np.ndarray], out: np.ndarray) -> None:
        """Fill ``out`` (uint32/uint64 raw result words) from flat operand word arrays."""
        prog, vao = self.program(kernel)
        comps_out = 2 if kernel.wide_out else 1
        fbo = self.target(comps_out)
        n = out.shape[0]
        for start in range(0, n, self.chunk):
            stop = min(n, start + self.chunk)
            m = stop - start
            rows = -(-m // self.width)
            view = (0, 0, self.width, rows)
            for i, w in enumerate(words):
                comps = 2 if w.dtype.itemsize == 8 else 1
                tex = self.texture(i, comps)
                tex.write(self._staged(i, w, start, stop, rows), viewport=view)
                tex.use(i)
            fbo.use()
            self.ctx.viewport = view
            vao.render(moderngl.TRIANGLES, vertices=3)
            raw = fbo.read(viewport=view, components=comps_out, dtype="u4")
            out[start:stop] = np.frombuffer(raw, dtype=out.dtype, count=m)

    def release(self) -> None:
        for prog, vao in self._programs.values():
            vao.release()
            prog.release()
        for fbo in self._targets.values():
            for t in fbo.color_attachments:
                t.release()
            fbo.release()
        for tex in self._textures.values():
            tex.release()
        self._programs.clear()
        self._textures.clear()
        self._targets.clear()
