"""The formats the GPU layer can hold, each by the role it plays on a GPU.

A GPU has three float types a shader computes in (GLSL ``float`` / ``double`` /
``float16_t``, WGSL ``f32`` / ``f64`` / ``f16``) and a few texture formats that store
others (R16F, R11G11B10F). Which model format plays which role is data, and this is the
one place the GPU layer says it: the code elsewhere in ``gpu/`` asks for a role
(``SHADER_FLOAT``: the format expression programs compile in, render targets are written
from and texture samples read into) or reads the format's record (width, signedness,
fields), never compares a format name. What each format's texture holds comes from the
format records too (``conversion_route.SAMPLED``: the formats D3D converts into by
CONV-F2F-RTZ/SAT).
"""

from __future__ import annotations

from ..model.formats import F10, F11, F16, F32, F64

__all__ = ["SHADER_FLOAT", "SHADER_DOUBLE", "SHADER_HALF", "SHADER_PACKING", "EXPR_FORMAT",
           "EXPR_FORMAT_REASON", "REPORT_ARITH", "PACKED_CHANNEL"]

#: The format a shader computes in (GLSL ``float``, WGSL ``f32``): expression programs run
#: in it, every render target is written from it, every texture sample reads into it, and
#: a conversion on the GPU goes through it.
SHADER_FLOAT = F32.name
#: The shaders' double (GLSL ``double`` with GL_ARB_gpu_shader_fp64, wgpu's native
#: ``shader-f64``): its operands travel as 64-bit words; no texture holds it.
SHADER_DOUBLE = F64.name
#: The shaders' half (GLSL ``float16_t``, WGSL ``f16``); as one operand of a kernel, the
#: low 16 bits of a 32-bit word.
SHADER_HALF = F16.name
#: The conversions a shader instruction does (packHalf2x16 / unpackHalf2x16, WGSL
#: pack2x16float / unpack2x16float), as (src, dst, path) beside the texture conversions.
SHADER_PACKING = [(SHADER_FLOAT, SHADER_HALF, "pack"), (SHADER_HALF, SHADER_FLOAT, "unpack")]
#: The format GPU expression programs compile in (gpu/expr_*.py), and why a program in
#: another one has no GPU run.
EXPR_FORMAT = SHADER_FLOAT
EXPR_FORMAT_REASON = f"GPU expression runs compute {EXPR_FORMAT} expressions only"
#: The formats whose arithmetic the GPU report measures (gpu/expected.py predicts these).
REPORT_ARITH = (SHADER_FLOAT, SHADER_DOUBLE)
#: Formats stored as one channel of an R11G11B10F pixel: (the channel's bit offset in the
#: 32-bit word, the factor an uploaded pattern is multiplied by: f11 is written to R and
#: G, f10 to B alone).
PACKED_CHANNEL: dict[str, tuple[int, int]] = {F11.name: (0, 0x801), F10.name: (22, 1)}
