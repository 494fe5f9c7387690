"""fpinspector's model: formats, conversions, the D3D rule engine and the paste parser.

Pure numpy + standard library (no Qt, no GL): usable as a Python API and from the CLI.
The subpackages, each one concept: :mod:`.formats` (the formats as data, integer code
types), :mod:`.parse` (pasted text to bit patterns), :mod:`.describe` (what a pattern says),
:mod:`.convert` (conversions between formats and to/from codes), :mod:`.engine` (the rule
engine), :mod:`.sweep` (ops over whole input ranges), :mod:`.state` (the inspector state).
"""

from .convert import (
    VARIANTS,
    ConversionResult,
    NumericResult,
    Variant,
    convert,
    decode_r11g11b10,
    decode_rgb9e5,
    dtof,
    encode_r11g11b10,
    encode_rgb9e5,
    f32_to_snorm,
    f32_to_srgb8,
    f32_to_unorm,
    ftoi,
    ftou,
    itof,
    pack_r11g11b10,
    pack_rgb9e5,
    snorm_to_f32,
    srgb8_to_f32,
    unorm_to_f32,
    unpack_r11g11b10,
    unpack_rgb9e5,
    utof,
)
from .describe import (
    Anatomy,
    ValueInfo,
    byte_dump,
    describe,
    describe_many,
    format_limits,
    rounding_anatomy,
    to_c_literal,
    ulp_distance,
    values_between,
)
from .engine import OPS, OPTIONS, RULE_SETS, Evaluation, evaluate
from .formats import CLASS_NAMES, F10, F11, F16, F32, F64, FORMATS, FloatFormat, get_format
from .parse import ParsedValue, ParseError, parse

__all__ = [
    "CLASS_NAMES", "F10", "F11", "F16", "F32", "F64", "FORMATS", "FloatFormat", "get_format",
    "ValueInfo", "byte_dump", "describe", "format_limits", "to_c_literal", "ulp_distance",
    "values_between", "ParsedValue", "ParseError", "parse", "describe_many",
    "evaluate", "Evaluation", "OPS", "RULE_SETS", "OPTIONS",
    "convert", "ConversionResult", "VARIANTS", "Variant", "rounding_anatomy", "Anatomy",
    "NumericResult", "ftoi", "ftou", "itof", "utof", "dtof", "f32_to_unorm", "unorm_to_f32",
    "f32_to_snorm", "snorm_to_f32", "f32_to_srgb8", "srgb8_to_f32",
    "pack_r11g11b10", "unpack_r11g11b10", "encode_r11g11b10", "decode_r11g11b10",
    "pack_rgb9e5", "unpack_rgb9e5", "encode_rgb9e5", "decode_rgb9e5",
]

from .expr import ExprError, evaluate_expr  # noqa: E402

__all__ += ["evaluate_expr", "ExprError"]
