"""Hardware conversions through WebGPU texture formats: render targets and texture loads.

f32 -> small formats: a fragment shader reads the raw f32 word from a storage buffer
(``bitcast<f32>``) and writes it into a target of the format (``r16float``,
``rg11b10ufloat``, ``r8unorm``, ``r8snorm``, ``rgba8unorm-srgb``, ``r16unorm``,
``r16snorm``, ``r32float``); the stored texels are copied back as raw bytes. The reverse
uploads raw stored bits into a texture of the format and a compute shader ``textureLoad``s
it, returning ``bitcast<u32>`` of the value (of R, G and B for ``rgb9e5ufloat``, which
WebGPU can sample but never render to: CONV-RGB9E5 is decoded only). A format the adapter cannot render to or
sample (``r8snorm`` targets and the 16-bit norm formats need adapter-specific features) is
listed with the reason, never emulated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model.formats import FORMATS as FLOAT_FORMATS

__all__ = ["WGPU_CONVERSIONS", "TexFormat", "TextureConversions", "conversion_dtype",
           "conversion_requirement"]

#: texels per row of the conversion textures (WebGPU guarantees 8192 per dimension)
WIDTH = 4096
ROWS = 4096


@dataclass(frozen=True)
class TexFormat:
    """A WebGPU texture format and how one texel's bytes read as numpy."""

    name: str
    texel: np.dtype  # one texel's storage (uint32 for rg11b10ufloat, 4 x uint8 for rgba8)
    comps: int  # numpy elements per texel
    feature: str | None = None  # wgpu feature needed to create it at all


FORMATS = {
    "r32float": TexFormat("r32float", np.dtype(np.uint32), 1),
    "r16float": TexFormat("r16float", np.dtype(np.uint16), 1),
    "rg11b10ufloat": TexFormat("rg11b10ufloat", np.dtype(np.uint32), 1),
    "r8unorm": TexFormat("r8unorm", np.dtype(np.uint8), 1),
    "r8snorm": TexFormat("r8snorm", np.dtype(np.int8), 1),
    "rgba8unorm-srgb": TexFormat("rgba8unorm-srgb", np.dtype(np.uint8), 4),
    "r16unorm": TexFormat("r16unorm", np.dtype(np.uint16), 1, "texture-format16bit-norm"),
    "r16snorm": TexFormat("r16snorm", np.dtype(np.int16), 1, "texture-format16bit-norm"),
    "rgb9e5ufloat": TexFormat("rgb9e5ufloat", np.dtype(np.uint32), 1),
}

#: (src, dst, path) -> (texture format, bit shift of the value in a texel's word, width)
WGPU_CONVERSIONS: dict[tuple[str, str, str], tuple[str, int]] = {
    ("f32", "f32", "render"): ("r32float", 0),
    ("f32", "f16", "render"): ("r16float", 0),
    ("f32", "f11", "render"): ("rg11b10ufloat", 0),  # R: bits 0-10
    ("f32", "f10", "render"): ("rg11b10ufloat", 22),  # B: bits 22-31
    ("f32", "unorm8", "render"): ("r8unorm", 0),
    ("f32", "snorm8", "render"): ("r8snorm", 0),
    ("f32", "srgb8", "render"): ("rgba8unorm-srgb", 0),
    ("f32", "unorm16", "render"): ("r16unorm", 0),
    ("f32", "snorm16", "render"): ("r16snorm", 0),
    ("f16", "f32", "sample"): ("r16float", 0),
    ("f11", "f32", "sample"): ("rg11b10ufloat", 0),
    ("f10", "f32", "sample"): ("rg11b10ufloat", 22),
    ("unorm8", "f32", "sample"): ("r8unorm", 0),
    ("snorm8", "f32", "sample"): ("r8snorm", 0),
    ("srgb8", "f32", "sample"): ("rgba8unorm-srgb", 0),
    ("unorm16", "f32", "sample"): ("r16unorm", 0),
    ("snorm16", "f32", "sample"): ("r16snorm", 0),
    ("rgb9e5", "f32", "sample"): ("rgb9e5ufloat", 0),  # R, G, B: three f32 per word
}

_VS = """
@vertex
fn vs(@builtin(vertex_index) k: u32) -> @builtin(position) vec4<f32> {
    let xy = vec2<f32>(f32((k << 1u) & 2u), f32(k & 2u));
    return vec4<f32>(xy * 2.0 - 1.0, 0.0, 1.0);
}
"""
_FS = f"""
@group(0) @binding(0) var<storage, read> src: array<u32>;
@fragment
fn fs(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {{
    let i = min(u32(pos.y) * {WIDTH}u + u32(pos.x), arrayLength(&src) - 1u);
    let v = bitcast<f32>(src[i]);
    return vec4<f32>(v, v, v, v);
}}
"""
_LOAD = f"""
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> dout: array<u32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {{
    let i = gid.y * (groups.x * 256u) + gid.x;
    if (i >= arrayLength(&dout) / NCHAN) {{ return; }}
    let t = textureLoad(tex, vec2<u32>(i % {WIDTH}u, i / {WIDTH}u), 0);
    STORE
}}
"""
#: how the load shader stores a texel: one channel, or R, G, B as three words
_STORE = {"r": "dout[i] = bitcast<u32>(t.r);", "b": "dout[i] = bitcast<u32>(t.b);",
          "rgb": "let o = 3u * i; dout[o] = bitcast<u32>(t.r); "
                 "dout[o + 1u] = bitcast<u32>(t.g); dout[o + 2u] = bitcast<u32>(t.b);"}


def conversion_requirement(fmt: TexFormat, how: str, features: set[str]) -> str | None:
    """Why ``fmt`` cannot be used ``how`` ("render" / "sample") here, or None."""
    if fmt.feature and fmt.feature not in features:
        return f"the {fmt.name} format needs wgpu's {fmt.feature!r} feature, absent here"
    if how == "render" and fmt.name == "rg11b10ufloat" \
            and "rg11b10ufloat-renderable" not in features:
        return "rendering into rg11b10ufloat needs the 'rg11b10ufloat-renderable' feature"
    if how == "render" and fmt.name in ("r8snorm", "r16snorm", "r16unorm") \
            and "texture-adapter-specific-format-features" not in features:
        return (f"{fmt.name} is no render target in core WebGPU (the adapter-specific "
                "format features would allow it; absent here)")
    return None


class TextureConversions:
    """Render-target and texture-load conversions on one wgpu device; pipelines cached."""

    def __init__(self, wgpu: Any, device: Any) -> None:
        self.wgpu = wgpu
        self.device = device
        self._render: dict[str, Any] = {}
        self._load: dict[str, Any] = {}
        self._modules: dict[str, Any] = {}

    def _module(self, code: str) -> Any:
        mod = self._modules.get(code)
        if mod is None:
            mod = self.device.create_shader_module(code=code)
            self._modules[code] = mod
        return mod

    def run(self, codes: np.ndarray, src: str, dst: str, path: str) -> np.ndarray:
        """Flat input patterns / codes -> flat output patterns / codes (module docstring)."""
        fmt_name, shift = WGPU_CONVERSIONS[(src, dst, path)]
        fmt = FORMATS[fmt_name]
        n = codes.shape[0]
        out_dtype = conversion_dtype(dst)
        out = np.empty((n, 3) if fmt_name == "rgb9e5ufloat" else n, out_dtype)
        chunk = WIDTH * ROWS
        for start in range(0, n, chunk):
            part = codes[start:start + chunk]
            if path == "render":
                out[start:start + part.shape[0]] = self._render_part(part, fmt, shift, dst)
            else:
                out[start:start + part.shape[0]] = self._load_part(part, fmt, shift, src)
        return out

    def _texture(self, fmt: TexFormat, rows: int, usage: int) -> Any:
        return self.device.create_texture(size=(WIDTH, rows, 1), format=fmt.name, usage=usage)

    def _render_part(self, words: np.ndarray, fmt: TexFormat, shift: int, dst: str
                     ) -> np.ndarray:
        wgpu, dev = self.wgpu, self.device
        n = words.shape[0]
        rows = -(-n // WIDTH)
        pipe = self._render.get(fmt.name)
        if pipe is None:
            pipe = dev.create_render_pipeline(
                layout="auto",
                vertex={"module": self._module(_VS), "entry_point": "vs"},
                fragment={"module": self._module(_FS), "entry_point": "fs",
                          "targets": [{"format": fmt.name}]},
                primitive={"topology": "triangle-list"},
            )
            self._render[fmt.name] = pipe
        src = dev.create_buffer_with_data(data=np.ascontiguousarray(words, np.uint32),
                                          usage=wgpu.BufferUsage.STORAGE)
        tex = self._texture(fmt, rows, wgpu.TextureUsage.RENDER_ATTACHMENT
                            | wgpu.TextureUsage.COPY_SRC)
        group = dev.create_bind_group(layout=pipe.get_bind_group_layout(0),
                                      entries=[{"binding": 0, "resource": {"buffer": src}}])
        enc = dev.create_command_encoder()
        rp = enc.begin_render_pass(color_attachments=[{
            "view": tex.create_view(), "load_op": "clear", "store_op": "store",
            "clear_value": (0, 0, 0, 0)}])
        rp.set_pipeline(pipe)
        rp.set_bind_group(0, group)
        rp.draw(3)
        rp.end()
        dev.queue.submit([enc.finish()])
        size = fmt.texel.itemsize * fmt.comps
        data = dev.queue.read_texture({"texture": tex}, {"bytes_per_row": WIDTH * size},
                                      (WIDTH, rows, 1))
        texels = np.frombuffer(data, fmt.texel).reshape(-1, fmt.comps)[:n, 0]
        tex.destroy()
        src.destroy()
        if fmt.name == "rg11b10ufloat":
            return ((texels >> np.uint32(shift)) & np.uint32(FLOAT_FORMATS[dst].mask)).astype(
                FLOAT_FORMATS[dst].dtype)
        return texels.astype(conversion_dtype(dst))

    def _load_part(self, codes: np.ndarray, fmt: TexFormat, shift: int, src: str
                   ) -> np.ndarray:
        wgpu, dev = self.wgpu, self.device
        n = codes.shape[0]
        rows = -(-n // WIDTH)
        texels = np.zeros((WIDTH * rows, fmt.comps), fmt.texel)
        if fmt.name == "rg11b10ufloat":
            texels[:n, 0] = codes.astype(np.uint32) << np.uint32(shift)
        else:
            texels[:n, 0] = codes.astype(fmt.texel)
        if fmt.comps == 4:
            texels[:, 3] = 255
        tex = self._texture(fmt, rows, wgpu.TextureUsage.TEXTURE_BINDING
                            | wgpu.TextureUsage.COPY_DST)
        size = fmt.texel.itemsize * fmt.comps
        dev.queue.write_texture({"texture": tex}, texels, {"bytes_per_row": WIDTH * size},
                                (WIDTH, rows, 1))
        channel = "rgb" if fmt.name == "rgb9e5ufloat" else "b" if shift == 22 else "r"
        k = len(channel)
        pipe = self._load.get(channel)
        if pipe is None:
            code = _LOAD.replace("STORE", _STORE[channel]).replace("NCHAN", f"{k}u")
            pipe = dev.create_compute_pipeline(
                layout="auto", compute={"module": self._module(code), "entry_point": "main"})
            self._load[channel] = pipe
        out = dev.create_buffer(size=4 * k * n, usage=wgpu.BufferUsage.STORAGE
                                | wgpu.BufferUsage.COPY_SRC)
        group = dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
            {"binding": 0, "resource": tex.create_view()},
            {"binding": 1, "resource": {"buffer": out}}])
        enc = dev.create_command_encoder()
        cp = enc.begin_compute_pass()
        cp.set_pipeline(pipe)
        cp.set_bind_group(0, group)
        groups = -(-n // 256)
        gy = -(-groups // 65535)
        cp.dispatch_workgroups(-(-groups // gy), gy)
        cp.end()
        dev.queue.submit([enc.finish()])
        result = np.frombuffer(dev.queue.read_buffer(out), np.uint32).copy()
        if k > 1:
            result = result.reshape(n, k)
        tex.destroy()
        out.destroy()
        return result

    def release(self) -> None:
        self._render.clear()
        self._load.clear()
        self._modules.clear()


def conversion_dtype(dst: str) -> np.dtype:
    if dst in FLOAT_FORMATS:  # a float format: its patterns' storage type
        return FLOAT_FORMATS[dst].dtype
    return np.dtype({"unorm8": np.uint8, "srgb8": np.uint8, "snorm8": np.int8,
                     "unorm16": np.uint16, "snorm16": np.int16}[dst])
