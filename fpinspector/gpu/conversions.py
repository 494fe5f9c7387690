"""Hardware conversions through render targets and texture sampling (fixed-function paths).

f32 -> f16 / f11 / f10 / UNORM8 / SNORM8 / sRGB8: a fragment shader writes the f32 value
into an R16F, R11F_G11F_B10F, RGBA8, RGBA8_SNORM or SRGB8_ALPHA8 target and the stored bits
are read back exactly (the packed R11G11B10 word via GL_UNSIGNED_INT_10F_11F_11F_REV).
The reverse direction uploads raw stored bits into a texture of that format and samples it
with texelFetch, writing floatBitsToUint into an R32UI target; an RGB9_E5 word (uploaded
as GL_UNSIGNED_INT_5_9_9_9_REV) samples as R, G and B into an RGBA32UI target. RGB9_E5 is
no colour-renderable format, so CONV-RGB9E5 is captured in the decode direction only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import moderngl
import numpy as np

from ..model.formats import FORMATS
from .capture_formats import PACKED_CHANNEL
from .errors import ShaderError
from .fragment_path import FULLSCREEN_VS
from .glraw import (
    GL_BYTE,
    GL_RGB,
    GL_RGBA,
    GL_SHORT,
    GL_UNSIGNED_INT_5_9_9_9_REV,
    GL_UNSIGNED_INT_10F_11F_11F_REV,
    RawGL,
    context_loader,
)

__all__ = ["HW_CONVERSIONS", "HardwareConversions", "Surface"]

GL_FRAMEBUFFER_SRGB = 0x8DB9


@dataclass(frozen=True)
class Surface:
    """A texture format we write to or sample from: GL internal format and pixel layout."""

    name: str
    comps: int
    dtype: str  # moderngl dtype used to allocate
    internal: int | None
    sampler: str  # GLSL sampler type
    word: np.dtype  # one stored pixel as numpy


SURFACES = {
    "r32ui": Surface("r32ui", 1, "u4", None, "usampler2D", np.dtype(np.uint32)),
    "r16f": Surface("r16f", 1, "f2", None, "sampler2D", np.dtype(np.uint16)),
    "r11g11b10f": Surface("r11g11b10f", 3, "f4", 0x8C3A, "sampler2D", np.dtype(np.uint32)),
    "rgba8": Surface("rgba8", 4, "f1", None, "sampler2D", np.dtype(np.uint8)),
    "rgba8_snorm": Surface("rgba8_snorm", 4, "f1", 0x8F97, "sampler2D", np.dtype(np.int8)),
    "srgb8_alpha8": Surface("srgb8_alpha8", 4, "f1", 0x8C43, "sampler2D", np.dtype(np.uint8)),
    "rgba16": Surface("rgba16", 4, "nu2", 0x805B, "sampler2D", np.dtype(np.uint16)),
    "rgba16_snorm": Surface("rgba16_snorm", 4, "ni2", 0x8F9B, "sampler2D", np.dtype(np.int16)),
    "r32f": Surface("r32f", 1, "f4", None, "sampler2D", np.dtype(np.uint32)),
    "rgb9_e5": Surface("rgb9_e5", 3, "f4", 0x8C3D, "sampler2D", np.dtype(np.uint32)),
    "rgba32ui": Surface("rgba32ui", 4, "u4", None, "usampler2D", np.dtype(np.uint32)),
}

# (src, dst, path) -> (source surface, target surface, how the target value is written)
HW_CONVERSIONS: dict[tuple[str, str, str], tuple[str, str, str]] = {
    ("f32", "f16", "render"): ("r32ui", "r16f", "vec4(v)"),
    ("f32", "f11", "render"): ("r32ui", "r11g11b10f", "vec4(v)"),
    ("f32", "f10", "render"): ("r32ui", "r11g11b10f", "vec4(v)"),
    ("f32", "unorm8", "render"): ("r32ui", "rgba8", "vec4(v)"),
    ("f32", "snorm8", "render"): ("r32ui", "rgba8_snorm", "vec4(v)"),
    ("f32", "srgb8", "render"): ("r32ui", "srgb8_alpha8", "vec4(v)"),
    ("f32", "unorm16", "render"): ("r32ui", "rgba16", "vec4(v)"),
    ("f32", "snorm16", "render"): ("r32ui", "rgba16_snorm", "vec4(v)"),
    ("f32", "f32", "render"): ("r32ui", "r32f", "vec4(v)"),  # a plain store: identity
    ("f16", "f32", "sample"): ("r16f", "r32ui", ""),
    ("f11", "f32", "sample"): ("r11g11b10f", "r32ui", ".r"),
    ("f10", "f32", "sample"): ("r11g11b10f", "r32ui", ".b"),
    ("unorm8", "f32", "sample"): ("rgba8", "r32ui", ""),
    ("snorm8", "f32", "sample"): ("rgba8_snorm", "r32ui", ""),
    ("srgb8", "f32", "sample"): ("srgb8_alpha8", "r32ui", ""),
    ("unorm16", "f32", "sample"): ("rgba16", "r32ui", ""),
    ("snorm16", "f32", "sample"): ("rgba16_snorm", "r32ui", ""),
    ("rgb9e5", "f32", "sample"): ("rgb9_e5", "rgba32ui", ".rgb"),  # R, G, B per word
}


def _fragment(src: Surface, dst: Surface, channel: str) -> str:
    if dst.name == "rgba32ui":  # every channel of the texel, raw
        return (f"#version 330\nuniform {src.sampler} t0;\nout uvec4 frag;\nvoid main() {{\n"
                "    ivec2 p = ivec2(gl_FragCoord.xy);\n"
                f"    frag = uvec4(floatBitsToUint(texelFetch(t0, p, 0){channel}), 0u);\n}}\n")
    if src.name == "r32ui":
        load = "float v = uintBitsToFloat(texelFetch(t0, p, 0).r);"
    else:
        load = f"float v = texelFetch(t0, p, 0){channel or '.r'};"
    if dst.name == "r32ui":
        out_decl, store = "out uint frag;", "frag = floatBitsToUint(v);"
    else:
        out_decl, store = "out vec4 frag;", "frag = vec4(v);"
    return (
        f"#version 330\nuniform {src.sampler} t0;\n{out_decl}\nvoid main() {{\n"
        f"    ivec2 p = ivec2(gl_FragCoord.xy);\n    {load}\n    {store}\n}}\n"
    )


def _to_pixels(src: str, dst: str, x: np.ndarray) -> np.ndarray:
    """Flat input codes -> stored pixels of the source surface (one row per element)."""
    if src == "rgb9e5":
        return x.astype(np.uint32)
    if src in PACKED_CHANNEL:  # f11 in R and G, f10 in B
        shift, spread = PACKED_CHANNEL[src]
        word = (x.astype(np.uint32) & np.uint32(FORMATS[src].mask)) * np.uint32(spread)
        return word << np.uint32(shift)
    if src in FORMATS:  # a texture of the format's own width (R32F, R16F)
        return x.astype(FORMATS[src].dtype)
    dtypes: dict[str, type[np.integer]] = {"snorm8": np.int8, "unorm16": np.uint16,
                                           "snorm16": np.int16}
    dtype = dtypes.get(src, np.uint8)
    px = np.zeros((x.shape[0], 4), dtype=dtype)
    px[:, :3] = x.astype(px.dtype)[:, None]
    px[:, 3] = np.iinfo(dtype).max
    return px


#: inputs up to this many codes keep their stored words for the next conversion (the
#: inspector's rows are one code; a map's millions are never kept)
_MEMO_MAX = 4096


class HardwareConversions:
    """Render-target / sampler conversions on one moderngl context (programs cached)."""

    def __init__(self, ctx: moderngl.Context, width: int = 1024, max_rows: int = 1024) -> None:
        self.ctx = ctx
        max_tex = int(ctx.info.get("GL_MAX_TEXTURE_SIZE", 4096))
        self.width = min(width, max_tex)
        self.max_rows = min(max_rows, max_tex)
        self.raw = RawGL(context_loader(ctx))
        self._programs: dict[tuple[str, str, str],
                             tuple[moderngl.Program, moderngl.VertexArray]] = {}
        self._textures: dict[str, moderngl.Texture] = {}
        self._fbos: dict[str, moderngl.Framebuffer] = {}
        #: the last small render's stored words, with what made them (render, input
        #: codes) and the conversion asked for: f32 -> f11 and f32 -> f10 are one render
        #: into R11G11B10F (f11 in R, f10 in B), so the inspector's conversion row, which
        #: asks for both, renders and reads back once instead of twice (each render is a GL
        #: round trip on the GPU thread, holding the GIL). Only another conversion of the
        #: same render takes them: the same conversion asked again renders again.
        self._last: tuple[tuple, tuple[str, str, str], np.ndarray] | None = None

    def paths(self, src: str, dst: str) -> list[str]:
        return [p for (s, d, p) in HW_CONVERSIONS if (s, d) == (src, dst)]

    def _surface_texture(self, name: str, role: str) -> moderngl.Texture:
        key = f"{role}:{name}"
        tex = self._textures.get(key)
        if tex is None:
            s = SURFACES[name]
            tex = self.ctx.texture((self.width, self.max_rows), s.comps, dtype=s.dtype,
                                   internal_format=s.internal)
            tex.filter = (moderngl.NEAREST, moderngl.NEAREST)
            self._textures[key] = tex
        return tex

    def _program(self, key: tuple[str, str, str]) -> tuple[moderngl.Program, moderngl.VertexArray]:
        cached = self._programs.get(key)
        if cached is None:
            src_s, dst_s, chan = HW_CONVERSIONS[key]
            fs = _fragment(SURFACES[src_s], SURFACES[dst_s], chan)
            try:
                prog = self.ctx.program(vertex_shader=FULLSCREEN_VS, fragment_shader=fs)
            except moderngl.Error as exc:
                raise ShaderError(f"convert {key[0]}->{key[1]}", str(exc), fs) from None
            cast(moderngl.Uniform, prog["t0"]).value = 0
            cached = (prog, self.ctx.vertex_array(prog, []))
            self._programs[key] = cached
        return cached

    def _upload(self, tex: moderngl.Texture, surface: Surface, px: np.ndarray, rows: int) -> None:
        view = (0, 0, self.width, rows)
        if surface.name in ("r11g11b10f", "rgba8_snorm", "rgb9_e5"):
            if not self.raw.available:
                raise ValueError(f"raw GL upload for {surface.name} is not available here")
            tex.use(0)
            typ, fmt = {"r11g11b10f": (GL_UNSIGNED_INT_10F_11F_11F_REV, GL_RGB),
                        "rgb9_e5": (GL_UNSIGNED_INT_5_9_9_9_REV, GL_RGB),
                        "rgba8_snorm": (GL_BYTE, GL_RGBA)}[surface.name]
            self.raw.tex_sub_image(self.width, rows, fmt, typ, px)
        else:
            tex.write(np.ascontiguousarray(px), viewport=view)

    def _download(self, fbo: moderngl.Framebuffer, surface: Surface, rows: int) -> np.ndarray:
        view = (0, 0, self.width, rows)
        if surface.name in ("r11g11b10f", "rgba8_snorm", "rgba16_snorm"):
            if not self.raw.available:
                raise ValueError(f"raw GL read-back for {surface.name} is not available here")
            packed = surface.name == "r11g11b10f"
            out = np.empty(self.width * rows * (1 if packed else 4), surface.word)
            fbo.use()
            typ = {"r11g11b10f": GL_UNSIGNED_INT_10F_11F_11F_REV, "rgba8_snorm": GL_BYTE,
                   "rgba16_snorm": GL_SHORT}[surface.name]
            self.raw.read_pixels(self.width, rows, GL_RGB if packed else GL_RGBA, typ, out)
            return out if packed else out.reshape(-1, 4)[:, 0]
        raw = fbo.read(viewport=view, components=surface.comps, dtype=surface.dtype)
        out = np.frombuffer(raw, dtype=surface.word)
        if surface.name == "rgba32ui":  # R, G, B of a multi-channel source
            return out.reshape(-1, 4)[:, :3]
        return out if surface.comps == 1 else out.reshape(-1, surface.comps)[:, 0]

    def run(self, x: np.ndarray, src: str, dst: str, path: str) -> np.ndarray:
        """Convert flat codes ``x`` (src patterns) and return the stored dst patterns/codes."""
        key = (src, dst, path)
        if key not in HW_CONVERSIONS:
            known = ", ".join(f"{s}->{d} ({p})" for s, d, p in HW_CONVERSIONS)
            raise ValueError(f"no hardware conversion {src}->{dst} via {path!r}; known: {known}")
        src_s, dst_s = SURFACES[HW_CONVERSIONS[key][0]], SURFACES[HW_CONVERSIONS[key][1]]
        memo = ((HW_CONVERSIONS[key], src, x.dtype.str, x.tobytes())
                if x.shape[0] <= _MEMO_MAX else None)
        last, self._last = self._last, None
        if memo is not None and last is not None and last[0] == memo and last[1] != key:
            return self._channel(dst, last[2].copy())  # (the same conversion runs again)
        prog, vao = self._program(key)
        tin = self._surface_texture(src_s.name, "in")
        fbo = self._fbos.get(dst_s.name)
        if fbo is None:
            fbo = self.ctx.framebuffer([self._surface_texture(dst_s.name, "out")])
            self._fbos[dst_s.name] = fbo
        px_all = _to_pixels(src, dst, x)
        n, chunk = x.shape[0], self.width * self.max_rows
        pieces = []
        for start in range(0, n, chunk):
            part = px_all[start:start + chunk]
            m = part.shape[0]
            rows = -(-m // self.width)
            pad = np.zeros((rows * self.width,) + part.shape[1:], part.dtype)
            pad[:m] = part
            self._upload(tin, src_s, pad, rows)
            tin.use(0)
            fbo.use()
            self.ctx.viewport = (0, 0, self.width, rows)
            srgb = dst_s.name == "srgb8_alpha8"
            if srgb:
                self.ctx.enable_direct(GL_FRAMEBUFFER_SRGB)
            vao.render(moderngl.TRIANGLES, vertices=3)
            if srgb:
                self.ctx.disable_direct(GL_FRAMEBUFFER_SRGB)
            pieces.append(self._download(fbo, dst_s, rows)[:m].copy())
        out = np.concatenate(pieces) if pieces else \
            np.empty((0, 3) if dst_s.name == "rgba32ui" else 0, dst_s.word)
        self._last = (memo, key, out.copy()) if memo is not None else None
        return self._channel(dst, out)

    @staticmethod
    def _channel(dst: str, out: np.ndarray) -> np.ndarray:
        """``dst``'s patterns from the stored words (its channel of an R11G11B10F word)."""
        if dst in PACKED_CHANNEL:
            fmt = FORMATS[dst]
            word = out >> np.uint32(PACKED_CHANNEL[dst][0])
            return (word & np.uint32(fmt.mask)).astype(fmt.dtype)
        return out

    def release(self) -> None:
        for prog, vao in self._programs.values():
            vao.release()
            prog.release()
        for obj in list(self._fbos.values()) + list(self._textures.values()):
            obj.release()
        self._programs.clear()
        self._fbos.clear()
        self._textures.clear()
        self._last = None
