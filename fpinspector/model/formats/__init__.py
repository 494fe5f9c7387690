"""Floating-point formats as data (docs/rules.md FMT-*): the format table and its encoders.

``FloatFormat`` and the five formats (f64, f32, f16, f11, f10) live in
:mod:`.float_format`; the rounding cores they call in :mod:`.encoding`; the integer code
types that some ops take (i32, u32, unorm8, ...) in :mod:`.operand_type`.
"""

from .encoding import ROUNDINGS, BitLayout, encode_exact, encode_float64, policy, read_decimal
from .float_format import (
    ALIASES,
    CLASS_NAMES,
    DENORMAL,
    F10,
    F11,
    F16,
    F32,
    F64,
    FORMATS,
    IEEE_SPECIALS,
    INFINITY,
    NAN,
    NAN_ONLY,
    NORMAL,
    ZERO,
    FloatFormat,
    as_int64,
    get_format,
)
from .operand_type import CODE_FORMATS, CodeFormat, OperandType, float_format_of, operand_format

__all__ = [
    "FloatFormat", "FORMATS", "F64", "F32", "F16", "F11", "F10", "CLASS_NAMES", "ROUNDINGS",
    "get_format", "encode_exact", "read_decimal", "encode_float64", "policy", "BitLayout",
    "ZERO", "DENORMAL", "NORMAL", "INFINITY", "NAN",
    "CodeFormat", "CODE_FORMATS", "OperandType", "operand_format", "float_format_of",
    "as_int64", "ALIASES", "IEEE_SPECIALS", "NAN_ONLY",
]
