"""Fragment-shader capture path (GL 3.3): operands in integer textures, results rendered
into an R32UI / RG32UI target with a full-screen triangle and read back as raw words."""

from __future__ import annotations

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
        self._programs: dict[Kernel, tuple[moderngl.Program, moderngl.VertexArray]] = {}
        self._textures: dict[tuple[int, int], moderngl.Texture] = {}
        self._targets: dict[int, moderngl.Framebuffer] = {}
        self._stage: dict[tuple[int, int], np.ndarray] = {}

    def program(self, kernel: Kernel) -> tuple[moderngl.Program, moderngl.VertexArray]:
        cached = self._programs.get(kernel)
        if cached is None:
            src = fragment_source(kernel, self.extensions, self.version)
            try:
                prog = self.ctx.program(vertex_shader=FULLSCREEN_VS, fragment_shader=src)
            except moderngl.Error as exc:
                raise ShaderError(kernel.op, str(exc), src) from None
            for i in range(kernel.arity):
                if f"t{i}" in prog:
                    cast(moderngl.Uniform, prog[f"t{i}"]).value = i
            cached = (prog, self.ctx.vertex_array(prog, []))
            self._programs[kernel] = cached
        return cached

    def _texture(self, unit: int, comps: int) -> moderngl.Texture:
        key = (unit, comps)
        tex = self._textures.get(key)
        if tex is None:
            tex = self.ctx.texture((self.width, self.max_rows), comps, dtype="u4")
            tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
            self._textures[key] = tex
        return tex

    def _target(self, comps: int) -> moderngl.Framebuffer:
        fbo = self._targets.get(comps)
        if fbo is None:
            tex = self.ctx.texture((self.width, self.max_rows), comps, dtype="u4")
            fbo = self.ctx.framebuffer(color_attachments=[tex])
            self._targets[comps] = fbo
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
        fbo = self._target(comps_out)
        n = out.shape[0]
        for start in range(0, n, self.chunk):
            stop = min(n, start + self.chunk)
            m = stop - start
            rows = -(-m // self.width)
            view = (0, 0, self.width, rows)
            for i, w in enumerate(words):
                comps = 2 if w.dtype.itemsize == 8 else 1
                tex = self._texture(i, comps)
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
        for obj in list(self._textures.values()) + list(self._targets.values()):
            obj.release()
        self._programs.clear()
        self._textures.clear()
        self._targets.clear()
