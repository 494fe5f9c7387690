"""How each (op, format) reaches the GPU, and, when it cannot, why (text the UI can show).

Three routes: a shader kernel (shaders.KERNELS), a fixed-function conversion through a
render target or texture sampling (``CONVERSION_OPS``), or two steps for f64 into the small
floats (``TWO_STEP_OPS``): no GPU stores an f64 into an f16 / f11 / f10 surface, so the only
hardware path is ``float(double)`` in a shader followed by the f32 render target -- two
roundings where D3D's conversion has one. That route is captured, but labelled as such.
"""

from __future__ import annotations

from .capture_formats import SHADER_FLOAT
from .shaders import HALF, KERNELS, missing_requirements

__all__ = ["CONVERSION_OPS", "TWO_STEP_OPS", "HALF_FLOAT_EXTENSIONS", "route", "reason",
           "CONVERSION_CHANNELS", "RGB9E5_ENCODE_REASON", "conversion_shape", "no_gpu_encoder"]

HALF_FLOAT_EXTENSIONS = tuple(HALF[0].split("|"))
#: rule-engine conversion ops captured through render targets / texture sampling:
#: (op, operand format) -> (src, dst, hardware path)
CONVERSION_OPS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("to_f11", "f32"): ("f32", "f11", "render"),
    ("to_f10", "f32"): ("f32", "f10", "render"),
    ("to_f32", "f32"): ("f32", "f32", "render"),  # R32F target: a plain store, identity
    ("to_f32", "f11"): ("f11", "f32", "sample"),
    ("to_f32", "f10"): ("f10", "f32", "sample"),
    ("to_unorm8", "f32"): ("f32", "unorm8", "render"),
    ("to_snorm8", "f32"): ("f32", "snorm8", "render"),
    ("to_unorm16", "f32"): ("f32", "unorm16", "render"),
    ("to_snorm16", "f32"): ("f32", "snorm16", "render"),
    ("to_srgb8", "f32"): ("f32", "srgb8", "render"),
    ("from_unorm8", "unorm8"): ("unorm8", "f32", "sample"),
    ("from_snorm8", "snorm8"): ("snorm8", "f32", "sample"),
    ("from_unorm16", "unorm16"): ("unorm16", "f32", "sample"),
    ("from_snorm16", "snorm16"): ("snorm16", "f32", "sample"),
    ("from_srgb8", "srgb8"): ("srgb8", "f32", "sample"),
}
#: f64 -> small float: float(double) on the capture path, then the f32 render target
TWO_STEP_OPS: dict[tuple[str, str], str] = {
    ("to_f16", "f64"): "f16", ("to_f11", "f64"): "f11", ("to_f10", "f64"): "f10",
}
_TARGET = {"f16": "R16F", "f11": "R11F_G11F_B10F", "f10": "R11F_G11F_B10F"}
#: Conversion sources whose one stored word holds several channels: the result has one
#: value per channel (a trailing axis). R9G9B9E5 samples as R, G, B (CONV-RGB9E5).
CONVERSION_CHANNELS = {"rgb9e5": 3}
RGB9E5_ENCODE_REASON = (
    "f32 -> rgb9e5: no GPU route: D3D11.3 §19.3.2.2 says hardware never encodes "
    "R9G9B9E5_SHAREDEXP (it cannot be a render target in D3D, WebGPU's rgb9e5ufloat or GL's "
    "RGB9_E5); the model's encode_rgb9e5 is the reference software encoder (CONV-RGB9E5)")


def conversion_shape(shape: tuple[int, ...], src: str) -> tuple[int, ...]:
    """The shape of a conversion's result for inputs of ``shape`` from ``src``."""
    k = CONVERSION_CHANNELS.get(src)
    return shape + (k,) if k else shape


def no_gpu_encoder(src: str, dst: str) -> str | None:
    """Why no GPU converts ``src`` -> ``dst`` although the reverse is captured, or None."""
    return RGB9E5_ENCODE_REASON if (src, dst) == (SHADER_FLOAT, "rgb9e5") else None


def route(op: str, fmt: str) -> str:
    """One line saying how ``op`` on ``fmt`` is captured (for reports and tooltips)."""
    if (op, fmt) in CONVERSION_OPS:
        src, dst, how = CONVERSION_OPS[(op, fmt)]
        kind = "render target" if how == "render" else "texture sampling"
        return f"fixed-function {src} -> {dst} ({kind})"
    if (op, fmt) in TWO_STEP_OPS:
        dst = TWO_STEP_OPS[(op, fmt)]
        return (f"two roundings: float(double) in a shader, then the f32 -> {dst} "
                f"{_TARGET[dst]} render target (D3D rounds f64 -> {dst} once)")
    kernel = KERNELS.get((op, fmt))
    return f"shader: {kernel.glsl}" if kernel else "none"


def reason(op: str, fmt: str, version: int, extensions: set[str], renderer: str) -> str | None:
    """Why ``op`` on ``fmt`` cannot be captured on a runner with this GLSL ``version`` and
    ``extensions`` (None when it can). Names exactly what is missing."""
    if (op, fmt) in CONVERSION_OPS:
        return None
    if (op, fmt) in TWO_STEP_OPS:
        why = reason(f"to_{SHADER_FLOAT}", fmt, version, extensions, renderer)
        return None if why is None else f"{op} ({fmt}) goes through float(double): {why}"
    kernel = KERNELS.get((op, fmt))
    if kernel is None:
        return (f"fpinspector has no GPU route for {op} on {fmt} operands (no shader "
                "instruction or fixed-function conversion does it; the model evaluates it)")
    missing = missing_requirements(kernel, version, extensions)
    if not missing:
        return None
    if HALF in kernel.requires:
        return (f"f16 arithmetic ({op}) needs a half-float shader extension "
                f"({' or '.join(HALF_FLOAT_EXTENSIONS)}: float16_t, f16vec2); {renderer} has "
                "neither, so f16 arithmetic is evaluated by the model only")
    return f"{op} ({fmt}) needs {', '.join(missing)}, absent on {renderer}"
