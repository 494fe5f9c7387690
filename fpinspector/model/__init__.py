"""fpinspector's model: formats, conversions, the D3D rule engine and the paste parser.

Pure numpy + standard library (no Qt, no GL): usable as a Python API and from the CLI.
"""

from .formats import CLASS_NAMES, F10, F11, F16, F32, F64, FORMATS, FloatFormat, get_format

__all__ = ["CLASS_NAMES", "F10", "F11", "F16", "F32", "F64", "FORMATS", "FloatFormat", "get_format"]

from .describe import (  # noqa: E402
    ValueInfo, byte_dump, describe, format_limits, to_c_literal, ulp_distance, values_between,
)
from .parse import ParsedValue, ParseError, parse  # noqa: E402

__all__ += [
    "ValueInfo", "byte_dump", "describe", "format_limits", "to_c_literal", "ulp_distance",
    "values_between", "ParsedValue", "ParseError", "parse",
]

from .engine import OPS, OPTIONS, RULE_SETS, Evaluation, evaluate  # noqa: E402

__all__ += ["evaluate", "Evaluation", "OPS", "RULE_SETS", "OPTIONS"]
