"""Conversions (docs/rules.md CONV-*): float to float under the D3D rules and other
vendors' encoders, floats to and from integer codes, and packed 32-bit words.

:mod:`.floats` (``convert``), :mod:`.rules` (which rules fired, ``ConversionResult``),
:mod:`.table_encoder` (the float32 -> small float tables), :mod:`.variants` and
:mod:`.vendor_encoders` (the encoders side by side), :mod:`.numeric` (ftoi/itof/dtof,
UNORM/SNORM/sRGB), :mod:`.packed` (R11G11B10, R9G9B9E5).
"""

from .floats import OPTIONS, VARIANTS, convert
from .numeric import (
    NumericResult,
    dtof,
    f32_to_snorm,
    f32_to_srgb8,
    f32_to_unorm,
    ftoi,
    ftou,
    itof,
    snorm_to_f32,
    srgb8_to_f32,
    unorm_to_f32,
    utof,
)
from .packed import (
    decode_r11g11b10,
    decode_rgb9e5,
    encode_r11g11b10,
    encode_rgb9e5,
    pack_r11g11b10,
    pack_rgb9e5,
    unpack_r11g11b10,
    unpack_rgb9e5,
)
from .rules import ConversionResult, is_widening
from .variants import Variant

__all__ = [
    "convert", "ConversionResult", "VARIANTS", "OPTIONS", "Variant", "is_widening",
    "NumericResult", "ftoi", "ftou", "itof", "utof", "dtof", "f32_to_unorm", "unorm_to_f32",
    "f32_to_snorm", "snorm_to_f32", "f32_to_srgb8", "srgb8_to_f32",
    "pack_r11g11b10", "unpack_r11g11b10", "encode_r11g11b10", "decode_r11g11b10",
    "pack_rgb9e5", "unpack_rgb9e5", "encode_rgb9e5", "decode_rgb9e5",
]
