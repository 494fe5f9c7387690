"""fpinspector's model: formats, conversions, the D3D rule engine and the paste parser.

Pure numpy + standard library (no Qt, no GL): usable as a Python API and from the CLI.
"""

from .formats import CLASS_NAMES, F10, F11, F16, F32, F64, FORMATS, FloatFormat, get_format

__all__ = ["CLASS_NAMES", "F10", "F11", "F16", "F32", "F64", "FORMATS", "FloatFormat", "get_format"]

from .describe import (  # noqa: E402
    ValueInfo, byte_dump, describe, format_limits, to_c_literal, ulp_distance, values_between,
)
from .describe_many import describe_many  # noqa: E402
from .parse import ParsedValue, ParseError, parse  # noqa: E402

__all__ += [
    "ValueInfo", "byte_dump", "describe", "format_limits", "to_c_literal", "ulp_distance",
    "values_between", "ParsedValue", "ParseError", "parse", "describe_many",
]

from .engine import OPS, OPTIONS, RULE_SETS, Evaluation, evaluate  # noqa: E402

__all__ += ["evaluate", "Evaluation", "OPS", "RULE_SETS", "OPTIONS"]

from .anatomy import Anatomy, rounding_anatomy  # noqa: E402
from .convert import VARIANTS, ConversionResult, convert  # noqa: E402
from .numeric import (  # noqa: E402
    NumericResult, dtof, f32_to_snorm, f32_to_srgb8, f32_to_unorm, ftoi, ftou, itof,
    snorm_to_f32, srgb8_to_f32, unorm_to_f32, utof,
)
from .packed import (  # noqa: E402
    decode_r11g11b10, decode_rgb9e5, encode_r11g11b10, encode_rgb9e5, pack_r11g11b10,
    pack_rgb9e5, unpack_r11g11b10, unpack_rgb9e5,
)
from .variants import Variant  # noqa: E402

__all__ += [
    "convert", "ConversionResult", "VARIANTS", "Variant", "rounding_anatomy", "Anatomy",
    "NumericResult", "ftoi", "ftou", "itof", "utof", "dtof", "f32_to_unorm", "unorm_to_f32",
    "f32_to_snorm", "snorm_to_f32", "f32_to_srgb8", "srgb8_to_f32",
    "pack_r11g11b10", "unpack_r11g11b10", "encode_r11g11b10", "decode_r11g11b10",
    "pack_rgb9e5", "unpack_rgb9e5", "encode_rgb9e5", "decode_rgb9e5",
]

from .expr import ExprError, evaluate_expr  # noqa: E402

__all__ += ["evaluate_expr", "ExprError"]
