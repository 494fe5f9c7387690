"""GPU column for the code-decoding ops (from_unorm8, from_snorm8, from_srgb8, ...).

The GPU has no shader kernel for these ops: the hardware decodes codes when it samples a
UNORM/SNORM/sRGB texture, so the Operations panel asks for that conversion instead and
names the documented driver deviation (``fpinspector.gpu.deviations``, judged by ``gpu.judge.classify_conversion``) that explains a
result off the model's.
"""

from __future__ import annotations

import numpy as np

from ..model.formats import CODE_FORMATS
from .capture_formats import SHADER_FLOAT

__all__ = ["decode_note", "decode_source", "named_deviations"]

#: The capture path the hardware decode of a texture code goes through.
DECODE_PATH = "sample"


def decode_source(op: str, op_format: str) -> str | None:
    """The code type a ``from_<code>`` op decodes (captured as a GPU conversion), else None."""
    if op.startswith("from_") and op_format in CODE_FORMATS and op == f"from_{op_format}":
        return op_format
    return None


def named_deviations(renderer: str, src: str, operand: np.ndarray, got: int) -> list[str]:
    """IDs of the known deviations that give exactly the GPU's ``got`` for this decode.

    Why: a 1-ULP miss of llvmpipe's c * (1/255) is a documented driver behaviour
    (LLVMPIPE-UNORM8-DECODE-RCP), which the panel names instead of a bare NOT CONFORMANT.
    """
    from .judge import classify_conversion

    verdicts = classify_conversion(renderer, DECODE_PATH, src, SHADER_FLOAT,
                                   np.asarray(operand).reshape(1), np.asarray([got], np.uint32))
    return sorted(k for k, mask in verdicts.items()
                  if k not in ("conformant", "unexplained") and bool(np.asarray(mask).any()))


def decode_note(renderer: str, src: str, operand: np.ndarray, got: int, differs: bool,
                status: str) -> str:
    """The GPU column's note for a hardware decode: the route, and the known deviation
    that gives exactly ``got`` when it differs from the model."""
    note = f"sampled from an {src} texture (hardware decode); {status}"
    ids = named_deviations(renderer, src, operand, got) if differs else []
    return (f"known deviation {', '.join(ids)}; " if ids else "") + note
