"""Known, documented deviations of drivers from the D3D rules, as data.

Each row says which driver (renderer regex), capture path, ops and formats it covers,
which docs/rules.md rule is not honoured, and *what the driver does instead*
(``behaviour``): a tests and reports can recompute that alternative and check that a
mismatch with the model is explained by it exactly, never waved through.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .behaviours import _f64_ftz, _flush_min_normal, behaviour_bits, same_result  # noqa: F401

__all__ = ["API_DEVIATIONS", "Deviation", "DEVIATIONS", "SOFTPIPE_DEVIATIONS", "applicable",
           "behaviour_bits", "explain_mismatches", "LAVAPIPE_DEVIATIONS", "renderer_api", "same_result"]

F32_MATH = ("add", "sub", "mul", "div", "mad", "mad_fma", "dp2", "dp3", "dp4", "min", "max",
            "eq", "ne", "lt", "le", "gt", "ge", "sqrt", "rsq", "rcp", "log", "exp", "frc",
            "round_ne", "round_ni", "round_pi", "round_z", "to_f64")
F64_MATH = ("add", "sub", "mul", "div", "mad", "mad_fma", "min", "max", "eq", "ne", "lt",
            "le", "gt", "ge", "sqrt", "rsq", "rcp", "frc", "round_ne", "round_ni", "round_pi",
            "round_z")


@dataclass(frozen=True)
class Deviation:
    """One driver behaviour that differs from the D3D rules (see module docstring)."""

    id: str
    #: a regex on the renderer string; "" for every renderer of the API (a row of the
    #: shading language or of the capture route, not of one driver)
    renderer: str
    paths: tuple[str, ...]
    format: str
    ops: tuple[str, ...]
    rules: tuple[str, ...]
    summary: str
    behaviour: str
    #: the API the driver is measured through: "gl" (moderngl) or a WebGPU API ("vulkan",
    #: "d3d12", "metal"): lavapipe names itself llvmpipe too, so the API tells them apart;
    #: "any" for a property of a capture route, not of a driver
    api: str = "gl"
    #: the host CPU the row holds on, for software drivers whose code LLVM compiles for the
    #: CPU it runs on: "" (any), "avx512" or "no-avx512" (:func:`host_has_avx512`)
    host: str = ""

    def applies_to(self, renderer: str) -> bool:
        """Is this a row of the driver that ``renderer`` (a session's info) names, on this
        host CPU?"""
        return (self.api in ("any", renderer_api(renderer))
                and (not self.host or (self.host == "avx512") == host_has_avx512())
                and bool(re.search(self.renderer, renderer)))

    def matches(self, renderer: str, path: str, op: str, fmt: str) -> bool:
        return (self.applies_to(renderer) and path in self.paths
                and op in self.ops and fmt == self.format)


def host_has_avx512() -> bool:
    """Whether this CPU has AVX-512 F and VL (as numpy's own CPU dispatch sees it: the same
    test on every OS). Why it matters: llvmpipe compiles shaders for the host CPU, and LLVM
    turns a float -> uint32 conversion into vcvttps2udq where AVX-512 exists and into a
    signed-conversion sequence where it does not; they give different out-of-range results
    (LLVMPIPE-FTOU-ALLONES; LLVMPIPE-FTOU-INT64 and LLVMPIPE-FTOU-VECTOR)."""
    import importlib

    try:
        umath = importlib.import_module("numpy._core._multiarray_umath")
    except ImportError:  # numpy < 2
        umath = importlib.import_module("numpy.core._multiarray_umath")
    features = getattr(umath, "__cpu_features__", {})
    return bool(features.get("AVX512F")) and bool(features.get("AVX512_SKX"))


def renderer_api(renderer: str) -> str:
    """The API a session's renderer string names: WebGPU sessions end in " via Vulkan" /
    " via D3D12" / " via Metal" (wgpu's own adapter summary); anything else is GL."""
    m = re.search(r" via (Vulkan|D3D12|Metal)$", renderer or "")
    return m.group(1).lower() if m else "gl"


DEVIATIONS: tuple[Deviation, ...] = (
    Deviation(
        "LLVMPIPE-COMPUTE-NO-FTZ", "llvmpipe", ("compute",), "f32", F32_MATH,
        ("F32-FTZ", "F32-MINMAX-FTZ"),
        "llvmpipe compute shaders run with denormals enabled (no DAZ/FTZ in MXCSR): f32 "
        "denormals are read and produced as denormals, i.e. IEEE 754 behaviour.",
        "ieee754",
    ),
    Deviation(
        "LLVMPIPE-FRAGMENT-FTZ-BEFORE-ROUNDING", "llvmpipe", ("fragment",), "f32",
        ("mul", "mad", "mad_fma", "div", "dp2", "dp3", "dp4", "rcp", "rsq"),
        ("F32-FTZ",),
        "llvmpipe fragment shaders flush with x86 FTZ, which detects tininess before "
        "rounding: a result just below 2^-126 that rounds up to the smallest normal is "
        "flushed to zero instead.",
        "flush_min_normal",
    ),
    Deviation(
        "LLVMPIPE-FRAGMENT-F64-FTZ", "llvmpipe", ("fragment",), "f64", F64_MATH,
        ("F64-DENORM",),
        "llvmpipe fragment shaders also flush f64 denormals on input and output (MXCSR "
        "DAZ/FTZ applies to doubles), where D3D requires f64 denormals to be kept.",
        "f64_ftz",
    ),
    Deviation(
        "LLVMPIPE-COMPUTE-EXP-DENORM", "llvmpipe", ("compute",), "f32", ("exp",),
        ("F32-FTZ", "F32-INSTR"),
        "with denormals enabled (compute), exp2 of a negative denormal gives 1 - 2^-24 "
        "(0x3F7FFFFF) instead of exactly 1.0 (the input flushed to zero, and 2^0 is exact).",
        "exp_negative_denormal_below_one",
    ),
    Deviation(
        "LLVMPIPE-COMPUTE-DENORM-TRANSCENDENTALS", "llvmpipe", ("compute",), "f32",
        ("log", "rsq"),
        ("F32-FTZ", "F32-INSTR"),
        "with denormals enabled (compute), log2 and inversesqrt of a denormal input use "
        "approximations built for normal inputs: log2 gives a value in [-127, -126) instead "
        "of -INF (flushed) or log2(x) (IEEE), rsq is off by more than 2^-21 relative.",
        "denormal_input_any",
    ),
    Deviation(
        "LLVMPIPE-UNORM8-DECODE-RCP", "llvmpipe", ("sample",), "unorm8->f32", ("convert",),
        ("CONV-UNORM",),
        "sampling an RGBA8 texture computes c * (1/255) in float32 instead of the correctly "
        "rounded c / 255 (126 of the 256 codes differ by 1 ULP; docs/rules.md case 8).",
        "unorm_mul_rcp",
    ),
    Deviation(
        "LLVMPIPE-SNORM8-DECODE-RCP", "llvmpipe", ("sample",), "snorm8->f32", ("convert",),
        ("CONV-SNORM",),
        "sampling an RGBA8_SNORM texture computes max(c * (1/127), -1) in float32 instead "
        "of the correctly rounded c / 127.",
        "snorm_mul_rcp",
    ),
    Deviation(
        "LLVMPIPE-SNORM8-MINUS-128", "llvmpipe", ("render",), "f32->snorm8", ("convert",),
        ("CONV-SNORM",),
        "rendering into an RGBA8_SNORM target stores -128 (0x80) for NaN (instead of 0) "
        "and for values below -1 (instead of clamping to -1.0 = -127).",
        "snorm_nan_min",
    ),
    Deviation(
        "LLVMPIPE-UNORM16-DECODE-RCP", "llvmpipe", ("sample",), "unorm16->f32", ("convert",),
        ("CONV-UNORM",),
        "sampling an RGBA16 texture computes c * (1/65535) in float32 instead of the "
        "correctly rounded c / 65535 (512 of the 65536 codes differ by 1 ULP).",
        "unorm16_mul_rcp",
    ),
    Deviation(
        "LLVMPIPE-SNORM16-DECODE-RCP", "llvmpipe", ("sample",), "snorm16->f32", ("convert",),
        ("CONV-SNORM",),
        "sampling an RGBA16_SNORM texture computes max(c * (1/32767), -1) in float32 "
        "instead of the correctly rounded c / 32767.",
        "snorm16_mul_rcp",
    ),
    Deviation(
        "LLVMPIPE-SNORM16-NAN-MINUS-ONE", "llvmpipe", ("render",), "f32->snorm16",
        ("convert",), ("CONV-SNORM",),
        "rendering NaN into an RGBA16_SNORM target stores -32767 (-1.0) instead of 0.",
        "snorm16_nan_min",
    ),
    Deviation(
        "TWO-ROUNDINGS-F64-TO-SMALL", "", ("compute", "fragment"), "f64",
        ("to_f16", "to_f11", "to_f10"), ("CONV-F2F-RTZ", "CONV-F2F-SAT"),
        "not a driver bug but the only hardware route: no GPU stores an f64 into an f16 / "
        "f11 / f10 surface, so the capture is float(double) in a shader (rounded to nearest "
        "even, D3D-saturating or overflowing to INF) and then the f32 render target (RTZ): "
        "two roundings where D3D rounds once toward zero.",
        "two_rounding", "any",
    ),
    Deviation(
        "LLVMPIPE-SRGB8-ENCODE-0.66", "llvmpipe", ("render",), "f32->srgb8", ("convert",),
        ("CONV-SRGB",),
        "the linear -> sRGB encode of SRGB8_ALPHA8 targets is a polynomial approximation "
        "whose error reaches about 0.65 code units (the rule allows 0.6).",
        "srgb_encode_bound",
    ),
    Deviation(
        "LLVMPIPE-FTOI-INDEFINITE", "llvmpipe", ("compute", "fragment"), "f32", ("ftoi",),
        ("CONV-FTOI",),
        "int(x) is x86 cvttps2dq: NaN and values outside [-2^31, 2^31) give 0x80000000 "
        "(the 'integer indefinite') instead of clamping and NaN -> 0.",
        "x86_ftoi",
    ),
    Deviation(
        "LLVMPIPE-FTOU-ALLONES", "llvmpipe", ("compute", "fragment"), "f32", ("ftou",),
        ("CONV-FTOI",),
        "on a CPU with AVX-512, uint(x) is vcvttps2udq: 0xFFFFFFFF for NaN and for any value "
        "whose truncation is outside [0, 2^32) (negatives included) instead of clamping and "
        "NaN -> 0.",
        "x86_ftou", host="avx512",
    ),
    Deviation(
        "LLVMPIPE-FTOU-INT64", "llvmpipe", ("compute",), "f32", ("ftou",), ("CONV-FTOI",),
        "on a CPU without AVX-512, the compute path's uint(x) is the low 32 bits of the "
        "64-bit truncating conversion (cvttss2si): -2 gives 0xFFFFFFFE, 2^32 + 512 gives 512, "
        "NaN and anything outside [-2^63, 2^63) 0, instead of clamping to [0, 2^32 - 1] and "
        "NaN -> 0.",
        "x86_ftou_int64", host="no-avx512",
    ),
    Deviation(
        "LLVMPIPE-FTOU-VECTOR", "llvmpipe", ("fragment",), "f32", ("ftou",), ("CONV-FTOI",),
        "on a CPU without AVX-512, the fragment path's uint(x) is LLVM's vector float -> "
        "uint32: x >= 2^31 converts x - 2^31 as int32 and sets the top bit, anything else "
        "converts as int32; so -2 gives 0xFFFFFFFE, NaN, very negative values and 2^32 and "
        "above 0x80000000, instead of clamping to [0, 2^32 - 1] and NaN -> 0.",
        "x86_ftou_vector_or", host="no-avx512",
    ),
)


SOFTPIPE_DEVIATIONS: tuple[Deviation, ...] = (
    Deviation(
        "SOFTPIPE-NO-FTZ", "softpipe", ("fragment",), "f32", F32_MATH,
        ("F32-FTZ", "F32-MINMAX-FTZ"),
        "softpipe interprets shaders in C with the host's default floating-point state: f32 "
        "denormals are read and produced as denormals (IEEE 754), never flushed.",
        "ieee754",
    ),
    Deviation(
        "SOFTPIPE-RSQ-TWO-ROUNDINGS", "softpipe", ("fragment",), "f32", ("rsq",),
        ("F32-FTZ", "F32-INSTR"),
        "inversesqrt(x) is 1 / sqrt(x) with two float32 roundings: inside rsq's tolerance "
        "for normal inputs, and about 1 ULP from the IEEE result for the denormal inputs it "
        "does not flush (D3D flushes them and gives INF).",
        "rsq_two_roundings",
    ),
    Deviation(
        "SOFTPIPE-FTOI-INDEFINITE", "softpipe", ("fragment",), "f32", ("ftoi",),
        ("CONV-FTOI",),
        "int(x) is the x86 truncating conversion: NaN and values outside [-2^31, 2^31) give "
        "0x80000000 instead of clamping and NaN -> 0.",
        "x86_ftoi",
    ),
    Deviation(
        "SOFTPIPE-FTOU-WRAP", "softpipe", ("fragment",), "f32", ("ftou",), ("CONV-FTOI",),
        "uint(x) is the compiler's vector float -> uint32: x >= 2^31 converts x - 2^31 and "
        "sets the top bit, anything else converts as int32; so -1 gives 0xFFFFFFFF, -2 "
        "0xFFFFFFFE, NaN and very negative values 0x80000000, 2^32 and above 0, instead of "
        "clamping to [0, 2^32 - 1] and NaN -> 0.",
        "x86_ftou_vector",
    ),
    Deviation(
        "SOFTPIPE-SMALLFLOAT-DENORM-FLUSH", "softpipe", ("render",), "f32->f11",
        ("convert",), ("CONV-DENORM",),
        "rendering into R11F_G11F_B10F stores 0 where the f11 / f10 result is a denormal "
        "(Mesa's util_format packer has no denormals); D3D keeps them.",
        "smallfloat_flush",
    ),
    Deviation(
        "SOFTPIPE-SMALLFLOAT-DENORM-FLUSH", "softpipe", ("render",), "f32->f10",
        ("convert",), ("CONV-DENORM",),
        "rendering into R11F_G11F_B10F stores 0 where the f11 / f10 result is a denormal "
        "(Mesa's util_format packer has no denormals); D3D keeps them.",
        "smallfloat_flush",
    ),
    Deviation(
        "SOFTPIPE-UNORM8-DECODE-RCP", "softpipe", ("sample",), "unorm8->f32", ("convert",),
        ("CONV-UNORM",),
        "sampling an RGBA8 texture computes c * (1/255) in float32 instead of the correctly "
        "rounded c / 255 (126 of the 256 codes differ by 1 ULP).",
        "unorm_mul_rcp",
    ),
    Deviation(
        "SOFTPIPE-UNORM16-DECODE-RCP", "softpipe", ("sample",), "unorm16->f32", ("convert",),
        ("CONV-UNORM",),
        "sampling an RGBA16 texture computes c * (1/65535) in float32 instead of the "
        "correctly rounded c / 65535.",
        "unorm16_mul_rcp",
    ),
    Deviation(
        "SOFTPIPE-SNORM8-DECODE-NO-CLAMP", "softpipe", ("sample",), "snorm8->f32",
        ("convert",), ("CONV-SNORM",),
        "sampling an RGBA8_SNORM texture computes c * (1/127) in float32 without clamping: "
        "code -128 decodes to -1.0078740 instead of -1.0, and 16 codes are 1 ULP off.",
        "snorm_mul_rcp_noclamp",
    ),
    Deviation(
        "SOFTPIPE-SNORM16-DECODE-NO-CLAMP", "softpipe", ("sample",), "snorm16->f32",
        ("convert",), ("CONV-SNORM",),
        "sampling an RGBA16_SNORM texture computes c * (1/32767) in float32 without "
        "clamping: code -32768 decodes to -1.0000305 instead of -1.0.",
        "snorm16_mul_rcp_noclamp",
    ),
    Deviation(
        "SOFTPIPE-SNORM8-NAN-MINUS-ONE", "softpipe", ("render",), "f32->snorm8",
        ("convert",), ("CONV-SNORM",),
        "rendering NaN into an RGBA8_SNORM target stores -127 (-1.0) instead of 0.",
        "snorm8_nan_min",
    ),
    Deviation(
        "SOFTPIPE-SNORM16-NAN-MINUS-ONE", "softpipe", ("render",), "f32->snorm16",
        ("convert",), ("CONV-SNORM",),
        "rendering NaN into an RGBA16_SNORM target stores -32767 (-1.0) instead of 0.",
        "snorm16_nan_min",
    ),
)
#: lavapipe (Mesa 22.3, Vulkan) through WebGPU (wgpu; WGSL compiled by naga for Vulkan):
#: Mesa's Vulkan driver on the same gallivm code as llvmpipe, so it names its device
#: "llvmpipe" too; ``api="vulkan"`` keeps these rows apart from llvmpipe's GL rows.
LAVAPIPE_DEVIATIONS: tuple[Deviation, ...] = (
    Deviation(
        "LAVAPIPE-NO-FTZ", "llvmpipe", ("compute",), "f32", F32_MATH,
        ("F32-FTZ", "F32-MINMAX-FTZ"),
        "lavapipe compute shaders keep f32 denormals (Vulkan's default float controls on "
        "x86 without DAZ/FTZ): denormals are read and produced, IEEE 754 behaviour.",
        "ieee754", "vulkan",
    ),
    Deviation(
        "LAVAPIPE-DENORM-TRANSCENDENTALS", "llvmpipe", ("compute",), "f32", ("log", "rsq"),
        ("F32-FTZ", "F32-INSTR"),
        "log2 and inverseSqrt of a denormal input use approximations built for normal "
        "inputs (as llvmpipe's compute path): log2(2^-149) is -127 instead of -INF or -149.",
        "denormal_input_any", "vulkan",
    ),
    Deviation(
        "LAVAPIPE-EXP-DENORM", "llvmpipe", ("compute",), "f32", ("exp",),
        ("F32-FTZ", "F32-INSTR"),
        "exp2 of a negative denormal (kept, not flushed) gives 1 - 2^-24 (0x3F7FFFFF) instead "
        "of exactly 1.0 (the input flushed to zero, and 2^0 is exact).",
        "exp_negative_denormal_below_one", "vulkan",
    ),
    Deviation(
        "LAVAPIPE-SNORM8-MINUS-128", "llvmpipe", ("render",), "f32->snorm8", ("convert",),
        ("CONV-SNORM",),
        "rendering into an r8snorm target stores -128 for NaN (instead of 0) and for values "
        "below -1 (instead of -127).",
        "snorm_nan_min", "vulkan",
    ),
    Deviation(
        "LAVAPIPE-SNORM16-NAN-MINUS-ONE", "llvmpipe", ("render",), "f32->snorm16",
        ("convert",), ("CONV-SNORM",),
        "rendering NaN into an r16snorm target stores -32767 (-1.0) instead of 0.",
        "snorm16_nan_min", "vulkan",
    ),
    Deviation(
        "LAVAPIPE-UNORM8-DECODE-RCP", "llvmpipe", ("sample",), "unorm8->f32", ("convert",),
        ("CONV-UNORM",),
        "textureLoad of an r8unorm texture computes c * (1/255) in float32 instead of the "
        "correctly rounded c / 255 (as llvmpipe's GL sampler).",
        "unorm_mul_rcp", "vulkan",
    ),
    Deviation(
        "LAVAPIPE-SNORM8-DECODE-RCP", "llvmpipe", ("sample",), "snorm8->f32", ("convert",),
        ("CONV-SNORM",),
        "textureLoad of an r8snorm texture computes max(c * (1/127), -1) in float32 instead of the "
        "correctly rounded c / 127 (as llvmpipe's GL sampler).",
        "snorm_mul_rcp", "vulkan",
    ),
    Deviation(
        "LAVAPIPE-UNORM16-DECODE-RCP", "llvmpipe", ("sample",), "unorm16->f32", ("convert",),
        ("CONV-UNORM",),
        "textureLoad of an r16unorm texture computes c * (1/65535) in float32 instead of the "
        "correctly rounded c / 65535 (as llvmpipe's GL sampler).",
        "unorm16_mul_rcp", "vulkan",
    ),
    Deviation(
        "LAVAPIPE-SNORM16-DECODE-RCP", "llvmpipe", ("sample",), "snorm16->f32", ("convert",),
        ("CONV-SNORM",),
        "textureLoad of an r16snorm texture computes max(c * (1/32767), -1) in float32 instead of the "
        "correctly rounded c / 32767 (as llvmpipe's GL sampler).",
        "snorm16_mul_rcp", "vulkan",
    ),
    Deviation(
        "LAVAPIPE-SRGB8-ENCODE-0.66", "llvmpipe", ("render",), "f32->srgb8", ("convert",),
        ("CONV-SRGB",),
        "the linear -> sRGB encode of rgba8unorm-srgb targets is llvmpipe's polynomial "
        "approximation, error up to about 0.65 code units (the rule allows 0.6).",
        "srgb_encode_bound", "vulkan",
    ),
    Deviation(
        "LAVAPIPE-F16-RSQ-TWO-ROUNDINGS", "llvmpipe", ("compute",), "f16", ("rsq",),
        ("F16-PREC",),
        "f16 inverseSqrt(x) (shader-f16) is 1 / sqrt(x) in two f16 roundings, up to 1 ULP "
        "off the correctly rounded result.",
        "rsq_two_roundings", "vulkan",
    ),
    Deviation(
        "LAVAPIPE-F16-EXP-TWO-ROUNDINGS", "llvmpipe", ("compute",), "f16", ("exp",),
        ("F16-PREC",),
        "f16 exp2(x) (shader-f16) is exp2 in f32 rounded to f16: two roundings, off by 1 ULP "
        "where the f32 result lands on an f16 halfway point (x = 0x11C5 gives 0x3C00).",
        "exp2_via_f32", "vulkan",
    ),
)

#: Rows of an API, not of a driver: what the shading language (GLSL) or wgpu's WGSL
#: compiler for Vulkan makes every device do, measured on more than one driver (Mesa's
#: llvmpipe / softpipe / lavapipe and NVIDIA's 580 driver on an H200, 2026-11-27).
API_DEVIATIONS: tuple[Deviation, ...] = (
    Deviation(
        "GLSL-FRC-ONE", "", ("compute", "fragment"), "f32", ("frc",), ("F32-INSTR",),
        "GLSL defines fract(x) as x - floor(x), in one rounding: for tiny negative x it gives "
        "exactly 1.0, outside frc's [+0, 1) range (llvmpipe, softpipe, NVIDIA).",
        "frc_sub_floor",
    ),
    Deviation(
        "GLSL-PACKHALF-RNE", "", ("compute", "fragment"), "f32", ("to_f16", "f32tof16"),
        ("CONV-F2F-RTZ", "CONV-F2F-SAT"),
        "packHalf2x16 rounds to nearest even and overflows to INF (GLSL leaves the rounding "
        "unspecified; llvmpipe, softpipe, NVIDIA); Mesa turns NaN into 0x7FFF with its sign "
        "kept.",
        "rne_f16",
    ),
    Deviation(
        "WGSL-FRC-ONE", "", ("compute",), "f32", ("frc",), ("F32-INSTR",),
        "WGSL defines fract(x) as x - floor(x), in one rounding: for tiny negative x "
        "(denormals included where the device keeps them) it gives exactly 1.0, outside "
        "frc's [+0, 1) range (lavapipe, NVIDIA).",
        "frc_sub_floor", "vulkan",
    ),
    Deviation(
        "WGSL-F16-FRC-ONE", "", ("compute",), "f16", ("frc",), ("F32-INSTR",),
        "f16 fract(x) (shader-f16) is x - floor(x) in one f16 rounding: tiny negative x "
        "gives exactly 1.0 (lavapipe, NVIDIA).",
        "frc_sub_floor", "vulkan",
    ),
    Deviation(
        "WGSL-NE-ORDERED", "", ("compute",), "f32", ("ne",), ("F32-CMPNAN",),
        "a != b compiled from WGSL for Vulkan is an ordered not-equal: false when an operand "
        "is NaN, where ne is true for unordered operands (lavapipe, NVIDIA).",
        "ne_ordered", "vulkan",
    ),
    Deviation(
        "WGSL-F16-NE-ORDERED", "", ("compute",), "f16", ("ne",), ("F32-CMPNAN",),
        "f16 a != b (shader-f16) is false when an operand is NaN, as for f32 (lavapipe, "
        "NVIDIA).",
        "ne_ordered", "vulkan",
    ),
    Deviation(
        "WGSL-F64-NE-ORDERED", "", ("compute",), "f64", ("ne",), ("F64-IEEE",),
        "f64 a != b (shader-f64) is false when an operand is NaN, as for f32 (lavapipe, "
        "NVIDIA).",
        "ne_ordered", "vulkan",
    ),
    Deviation(
        "WGSL-FTOI-CLAMP", "", ("compute",), "f32", ("ftoi",), ("CONV-FTOI",),
        "WGSL i32(x) clamps to the floats nearest the i32 range first: values from 2^31 up "
        "(and +INF) give 0x7FFFFF80 (2^31 - 128) instead of 0x7FFFFFFF, NaN gives "
        "0x80000000 instead of 0 (lavapipe, NVIDIA).",
        "clamp_ftoi", "vulkan",
    ),
    Deviation(
        "WGSL-FTOU-CLAMP", "", ("compute",), "f32", ("ftou",), ("CONV-FTOI",),
        "WGSL u32(x) clamps to [0, 2^32 - 256] first: values from 2^32 up (and +INF) give "
        "0xFFFFFF00 instead of 0xFFFFFFFF (lavapipe, NVIDIA).",
        "clamp_ftou", "vulkan",
    ),
    Deviation(
        "WGSL-PACK2X16FLOAT-RNE", "", ("compute",), "f32", ("to_f16", "f32tof16"),
        ("CONV-F2F-RTZ", "CONV-F2F-SAT"),
        "WGSL pack2x16float rounds to nearest even and overflows to INF (lavapipe, NVIDIA; "
        "the r16float render target is D3D-exact on both).",
        "rne_f16", "vulkan",
    ),
)
DEVIATIONS = DEVIATIONS + SOFTPIPE_DEVIATIONS + LAVAPIPE_DEVIATIONS + API_DEVIATIONS


def applicable(renderer: str, path: str, op: str, fmt: str) -> list[Deviation]:
    """Deviations that may explain a mismatch for this driver, path, op and format."""
    return [d for d in DEVIATIONS if d.matches(renderer, path, op, fmt)]


def explain_mismatches(renderer: str, path: str, op: str, fmt: str, result_fmt: str,
                       operands: list[np.ndarray], got: np.ndarray, model_bits: np.ndarray,
                       reference: Callable[[str], np.ndarray] | None = None,
                       ) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Split GPU/model mismatches into those each deviation explains and the rest.

    Returns ``({deviation id: mask of elements it explains}, unexplained mask)``; an
    element counts as explained only if the deviation's behaviour gives exactly the
    GPU's result (NaN matching any NaN) there.
    """
    unexplained = ~same_result(got, model_bits, result_fmt)
    explained: dict[str, np.ndarray] = {}
    for dev in applicable(renderer, path, op, fmt):
        if not unexplained.any():
            break
        alt = behaviour_bits(dev, operands, model_bits, reference)
        if alt is None:
            continue
        hit = unexplained & same_result(got, np.broadcast_to(alt, got.shape), result_fmt)
        if hit.any():
            explained[dev.id] = hit
            unexplained = unexplained & ~hit
    return explained, unexplained
