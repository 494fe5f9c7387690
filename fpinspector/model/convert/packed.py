"""Packed 32-bit formats: R11G11B10_FLOAT (FMT-R11G11B10) and R9G9B9E5_SHAREDEXP (CONV-RGB9E5).

R11G11B10: R (float11) in bits 0-10, G (float11) in bits 11-21, B (float10) in bits 22-31.
R9G9B9E5: 9-bit mantissas R bits 0-8, G 9-17, B 18-26, shared exponent bits 27-31, bias 15,
no hidden bit: channel = mantissa / 512 * 2^(E - 15); no NaN, no INF (D3D11.3 §19.3.2 as
summarised in docs/rules.md; the encoder is the reference algorithm of
EXT_texture_shared_exponent with N = 9, B = 15, Emax = 31, rounding to nearest even).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..formats import F10, F11
from .floats import convert

__all__ = [
    "pack_r11g11b10", "unpack_r11g11b10", "encode_r11g11b10", "decode_r11g11b10",
    "pack_rgb9e5", "unpack_rgb9e5", "encode_rgb9e5", "decode_rgb9e5", "RGB9E5_MAX",
]

U32 = np.uint32
#: Largest RGB9E5 channel value: 511/512 * 2^16 = 65408.
RGB9E5_MAX = 511 / 512 * 2.0**16


def _fields(x: Any, limit: int, name: str) -> np.ndarray:
    a = np.asarray(x)
    if a.dtype.kind not in "iu":
        raise ValueError(f"{name}: field patterns must be integers, got {a.dtype}")
    if a.size and (int(a.min()) < 0 or int(a.max()) > limit):
        raise ValueError(f"{name}: field patterns must lie in 0..0x{limit:X}")
    return a.astype(U32)


def _words(word: Any) -> np.ndarray:
    w = np.asarray(word)
    if w.dtype.kind not in "iu":
        raise ValueError(f"packed words must be integers, got {w.dtype}")
    if w.size and (int(w.min()) < 0 or int(w.max()) > 0xFFFFFFFF):
        raise ValueError("packed words must lie in 0..0xFFFFFFFF")
    return w.astype(U32)


def _out(a: np.ndarray) -> Any:
    return a[()] if a.ndim == 0 else a


def pack_r11g11b10(r: Any, g: Any, b: Any) -> Any:
    """Pack float11/float11/float10 patterns into R11G11B10 words (uint32)."""
    w = _fields(r, 0x7FF, "R") | (_fields(g, 0x7FF, "G") << U32(11)) \
        | (_fields(b, 0x3FF, "B") << U32(22))
    return _out(np.asarray(w, U32))


def unpack_r11g11b10(word: Any) -> tuple[Any, Any, Any]:
    """Field patterns (R, G, B) of R11G11B10 words, as uint16."""
    w = _words(word)
    r = (w & U32(0x7FF)).astype(np.uint16)
    g = ((w >> U32(11)) & U32(0x7FF)).astype(np.uint16)
    b = (w >> U32(22)).astype(np.uint16)
    return _out(r), _out(g), _out(b)


def encode_r11g11b10(rgb_values: Any, variant: str = "d3d", *,
                     options: dict | None = None) -> Any:
    """Encode float values of shape (..., 3) into R11G11B10 words under a conversion variant.

    Values are taken exactly (float64); ``variant`` is one of ``convert.VARIANTS``
    (d3d: CONV-F2F-RTZ, CONV-F2F-SAT, CONV-UNSIGNED).
    """
    x = np.asarray(rgb_values, dtype=np.float64)
    if x.shape[-1:] != (3,):
        raise ValueError(f"rgb_values must have shape (..., 3), got {x.shape}")
    u = np.ascontiguousarray(x).view(np.uint64)
    r = convert(u[..., 0], "f64", "f11", variant, options=options).bits
    g = convert(u[..., 1], "f64", "f11", variant, options=options).bits
    b = convert(u[..., 2], "f64", "f10", variant, options=options).bits
    return pack_r11g11b10(r, g, b)


def decode_r11g11b10(word: Any) -> np.ndarray:
    """Exact channel values (float64, shape (..., 3)) of R11G11B10 words."""
    r, g, b = unpack_r11g11b10(word)
    return np.stack([F11.decode(r), F11.decode(g), F10.decode(b)], axis=-1)


def pack_rgb9e5(r: Any, g: Any, b: Any, e: Any) -> Any:
    """Pack three 9-bit mantissas and a 5-bit shared exponent into R9G9B9E5 words."""
    w = (_fields(r, 0x1FF, "R") | (_fields(g, 0x1FF, "G") << U32(9))
         | (_fields(b, 0x1FF, "B") << U32(18)) | (_fields(e, 0x1F, "E") << U32(27)))
    return _out(np.asarray(w, U32))


def unpack_rgb9e5(word: Any) -> tuple[Any, Any, Any, Any]:
    """(R, G, B mantissas, shared exponent) of R9G9B9E5 words, as uint16."""
    w = _words(word)
    parts = [((w >> U32(s)) & U32(m)).astype(np.uint16) for s, m in
             ((0, 0x1FF), (9, 0x1FF), (18, 0x1FF), (27, 0x1F))]
    return _out(parts[0]), _out(parts[1]), _out(parts[2]), _out(parts[3])


def decode_rgb9e5(word: Any) -> np.ndarray:
    """CONV-RGB9E5 decode: mantissa / 512 * 2^(E - 15) per channel, float64 (..., 3), exact."""
    r, g, b, e = (np.asarray(p, np.int64) for p in unpack_rgb9e5(word))
    scale = (e - 15 - 9).astype(np.int32)
    return np.stack([np.ldexp(m.astype(np.float64), scale) for m in (r, g, b)], axis=-1)


def encode_rgb9e5(values: Any, rounding: str = "rne") -> Any:
    """CONV-RGB9E5 reference encoder (float values (..., 3) -> words).

    Negatives and NaN -> 0, clamp to :data:`RGB9E5_MAX`, shared exponent
    ``max(-16, floor(log2(max channel))) + 16``, bumped by one when the largest mantissa
    rounds up to 512; mantissas rounded to nearest even (``rounding="rne"``, the D3D reading)
    or half up (``"half_up"``, the EXT_texture_shared_exponent sample code). All scaling is
    by powers of two, so each mantissa is rounded exactly once.
    """
    if rounding not in ("rne", "half_up"):
        raise ValueError(f"rounding must be 'rne' or 'half_up', got {rounding!r}")
    x = np.asarray(values, dtype=np.float64)
    if x.shape[-1:] != (3,):
        raise ValueError(f"values must have shape (..., 3), got {x.shape}")
    x = np.where(np.isnan(x) | (x < 0), 0.0, np.minimum(x, RGB9E5_MAX))
    mx = x.max(axis=-1)
    _, e2 = np.frexp(mx)  # mx = m * 2^e2, m in [0.5, 1): floor(log2 mx) = e2 - 1
    exp_p = np.maximum(-16, np.where(mx > 0, e2 - 1, -16)) + 16

    def rnd(v: np.ndarray) -> np.ndarray:
        return np.rint(v) if rounding == "rne" else np.floor(v + 0.5)

    maxm = rnd(np.ldexp(mx, (24 - exp_p).astype(np.int32)))
    exp = exp_p + (maxm == 512)
    m = rnd(np.ldexp(x, (24 - exp)[..., None].astype(np.int32))).astype(np.int64)
    return pack_rgb9e5(m[..., 0], m[..., 1], m[..., 2], exp.astype(np.int64))
