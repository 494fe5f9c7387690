"""What drivers do instead of the D3D rules, as functions: each deviation's ``behaviour``
name (fpinspector/gpu/deviations.py) maps to numpy code that recomputes the driver's result,
and ``same_result`` compares results the way the rules do (any NaN matches any NaN)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..model.formats import FORMATS

__all__ = ["behaviour_bits", "same_result"]


def _f32(bits: np.ndarray) -> np.ndarray:
    return np.asarray(bits, np.uint32).view(np.float32)


def _x86_ftoi(x: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        t = np.trunc(_f32(x).astype(np.float64))
        ok = (t >= -(2.0**31)) & (t < 2.0**31)
    return np.where(ok, np.where(ok, t, 0).astype(np.int64), -(2**31)).astype(np.int32)


def _x86_ftou(x: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        t = np.trunc(_f32(x).astype(np.float64))
        ok = (t >= 0) & (t < 2.0**32)
    return np.where(ok, np.where(ok, t, 0).astype(np.int64), 0xFFFFFFFF).astype(np.uint32)


def _x86_ftou_vector(x: np.ndarray) -> np.ndarray:
    """float -> uint32 as compilers vectorise it: x >= 2^31 converts x - 2^31 (exact in
    float32 there) with cvttps2dq and flips the top bit; anything else converts as int32."""
    f = _f32(x)
    with np.errstate(invalid="ignore"):
        big = f >= np.float32(2.0**31)
        low = _x86_ftoi(np.where(big, (f - np.float32(2.0**31)), f).view(np.uint32))
    words = low.view(np.uint32)
    return np.where(big, words ^ np.uint32(0x80000000), words).astype(np.uint32)


def _x86_ftou_vector_or(x: np.ndarray) -> np.ndarray:
    """As :func:`_x86_ftou_vector`, with the top bit set (or) instead of flipped: an
    out-of-range x - 2^31 (0x80000000) stays 0x80000000."""
    f = _f32(x)
    with np.errstate(invalid="ignore"):
        big = f >= np.float32(2.0**31)
        low = _x86_ftoi(np.where(big, (f - np.float32(2.0**31)), f).view(np.uint32))
    words = low.view(np.uint32)
    return np.where(big, words | np.uint32(0x80000000), words).astype(np.uint32)


def _x86_ftou_int64(x: np.ndarray) -> np.ndarray:
    """The low 32 bits of the 64-bit truncating conversion (cvttss2si with a 64-bit
    destination): outside [-2^63, 2^63) and NaN it gives 0x8000000000000000, so 0."""
    with np.errstate(invalid="ignore"):
        t = np.trunc(_f32(x).astype(np.float64))
        ok = (t >= -(2.0**63)) & (t < 2.0**63)
        v = np.where(ok, np.where(ok, t, 0).astype(np.int64), np.int64(-(2**63)))
    return (v.view(np.uint64) & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def _rne_f16(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        h = _f32(x).astype(np.float16).view(np.uint16)
    nan = np.isnan(_f32(x))
    sign = ((np.asarray(x, np.uint32) >> np.uint32(16)) & np.uint32(0x8000)).astype(np.uint16)
    return np.where(nan, sign | np.uint16(0x7FFF), h)


def _flush_min_normal(model: np.ndarray) -> np.ndarray:
    m = np.asarray(model, np.uint32)
    tiny = (m & np.uint32(0x7FFFFFFF)) == np.uint32(0x00800000)
    return np.where(tiny, m & np.uint32(0x80000000), m)


def _f64_ftz(bits: np.ndarray) -> np.ndarray:
    b = np.asarray(bits, np.uint64)
    den = ((b >> np.uint64(52)) & np.uint64(0x7FF)) == 0
    return np.where(den, b & np.uint64(1 << 63), b)


def _operand_floats(bits: np.ndarray, model_bits: np.ndarray) -> tuple[np.ndarray, Any]:
    """An f32 or f16 operand as floats of its width (by the result's dtype), and 1.0."""
    if np.asarray(model_bits).dtype == np.uint16:
        return np.asarray(bits, np.uint16).view(np.float16), np.float16(1)
    return _f32(bits), np.float32(1)


def _clamp_convert(bits: np.ndarray, lo: float, hi: float, nan: int, dtype: Any) -> np.ndarray:
    """WGSL's float -> integer conversion (naga: clamp to the floats nearest the integer
    range, then truncate); NaN survives the clamp and converts to ``nan``."""
    with np.errstate(invalid="ignore"):
        x = _f32(bits).astype(np.float64)
    isnan = np.isnan(x)
    t = np.trunc(np.clip(np.where(isnan, 0.0, x), lo, hi)).astype(np.int64)
    return np.where(isnan, nan, t).astype(dtype)


def _either_nan(operands: list[np.ndarray], model_bits: np.ndarray) -> np.ndarray:
    if len(operands) and np.asarray(operands[0]).dtype == np.uint16:
        nan = [np.isnan(np.asarray(o, np.uint16).view(np.float16)) for o in operands]
    elif len(operands) and np.asarray(operands[0]).dtype == np.uint64:
        nan = [np.isnan(np.asarray(o, np.uint64).view(np.float64)) for o in operands]
    else:
        nan = [np.isnan(_f32(o)) for o in operands]
    return np.logical_or.reduce(nan)


def behaviour_bits(dev: Any, operands: list[np.ndarray], model_bits: np.ndarray,
                   reference: Callable[[str], np.ndarray] | None = None) -> np.ndarray | None:
    """What the driver gives under ``dev``, element-wise.

    ``reference(kind)`` supplies results that need a full op evaluator: "ieee754" (the
    op with denormals kept) or "f64_ftz_ieee" (IEEE on flushed f64 inputs). Returns None
    when such a reference is needed but not supplied.
    """
    kind = dev.behaviour
    if kind == "x86_ftoi":
        return _x86_ftoi(operands[0])
    if kind == "x86_ftou":
        return _x86_ftou(operands[0])
    if kind == "x86_ftou_vector":
        return _x86_ftou_vector(operands[0])
    if kind == "x86_ftou_vector_or":
        return _x86_ftou_vector_or(operands[0])
    if kind == "x86_ftou_int64":
        return _x86_ftou_int64(operands[0])
    if kind == "rne_f16":
        out = _rne_f16(operands[0])
        return out.astype(np.uint32) if model_bits.dtype == np.uint32 else out
    if kind in ("numpy_dtof", "numpy_dtof_ftz"):
        d = np.asarray(operands[0], np.uint64)
        if kind == "numpy_dtof_ftz":
            d = _f64_ftz(d)
        with np.errstate(all="ignore"):
            r = d.view(np.float64).astype(np.float32).view(np.uint32)
        if kind == "numpy_dtof_ftz":
            den = ((r & np.uint32(0x7F800000)) == 0) & ((r & np.uint32(0x007FFFFF)) != 0)
            r = np.where(den, r & np.uint32(0x80000000), r)
        return r
    if kind == "rsq_two_roundings":
        x, one = _operand_floats(operands[0], model_bits)
        with np.errstate(all="ignore"):
            return (one / np.sqrt(x)).view(model_bits.dtype)
    if kind == "frc_sub_floor":
        x, _ = _operand_floats(operands[0], model_bits)
        with np.errstate(all="ignore"):
            r = (x - np.floor(x)).view(model_bits.dtype)
        return r
    if kind == "clamp_ftoi":
        return _clamp_convert(operands[0], -(2.0**31), 2.0**31 - 128, -(2**31), np.int32)
    if kind == "clamp_ftou":
        return _clamp_convert(operands[0], 0.0, 2.0**32 - 256, 0, np.uint32)
    if kind == "exp2_via_f32":
        with np.errstate(all="ignore"):
            x = np.asarray(operands[0], np.uint16).view(np.float16).astype(np.float32)
            return np.exp2(x).astype(np.float16).view(np.uint16)
    if kind == "ne_ordered":
        return np.asarray(model_bits, bool) & ~_either_nan(operands, model_bits)
    if kind == "exp_negative_denormal_below_one":
        x = np.asarray(operands[0], np.uint32)
        neg_den = (x > np.uint32(0x80000000)) & (x < np.uint32(0x80800000))
        return np.where(neg_den, np.uint32(0x3F7FFFFF), np.asarray(model_bits, np.uint32))
    if kind == "denormal_input_any":
        return None
    if kind == "flush_min_normal":
        return _flush_min_normal(model_bits)
    if reference is None:
        return None
    if kind == "ieee754":
        return reference("ieee754")
    if kind == "f64_ftz":
        return _f64_ftz(reference("f64_ftz_ieee"))
    raise ValueError(f"unknown deviation behaviour {kind!r}")


def same_result(got: np.ndarray, want: np.ndarray, fmt: str) -> np.ndarray:
    """Element-wise equality of result patterns where any NaN matches any NaN (F32-NANOUT)."""
    got, want = np.asarray(got), np.asarray(want)
    eq = got == want
    if got.dtype == np.bool_ or fmt not in _NAN_FIELDS:
        return eq
    return eq | (_is_nan(got, fmt) & _is_nan(want, fmt))


#: (exponent mask, fraction mask) of the IEEE-style float formats: NaN is all-ones exponent,
#: fraction not zero. f11 / f10 too: CONV-NAN compares "is NaN", not payloads (0x7C1 is as
#: much a NaN as 0x7E0).
_NAN_FIELDS = {n: (f.exp_max << f.frac_bits, f.frac_mask) for n, f in FORMATS.items()
               if f.has_inf}


def _is_nan(bits: np.ndarray, fmt: str) -> np.ndarray:
    e, f = _NAN_FIELDS[fmt]
    b = bits.astype(np.uint64)
    return ((b & np.uint64(e)) == np.uint64(e)) & ((b & np.uint64(f)) != 0)
