"""fpinspector's model: formats, conversions, the D3D rule engine and the paste parser.

Pure numpy + standard library (no Qt, no GL): usable as a Python API and from the CLI.
"""

from .formats import CLASS_NAMES, F10, F11, F16, F32, F64, FORMATS, FloatFormat, get_format

__all__ = ["CLASS_NAMES", "F10", "F11", "F16", "F32", "F64", "FORMATS", "FloatFormat", "get_format"]
