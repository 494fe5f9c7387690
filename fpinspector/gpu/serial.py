"""Unfused serial evaluation of mad / dp2-4 in numpy, as the GLSL source spells them.

F32-FUSED allows a fused op to be as inaccurate as the worst serial order of its unfused
steps, so a GPU result equal to one serial evaluation (each step rounded, flushed where
the path flushes) is conformant whatever window the engine computes for it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model.formats import FloatFormat, get_format
from .capture_formats import SHADER_FLOAT

__all__ = ["serial_unfused"]


def _types(fmt: str) -> tuple[Any, Any, int, int]:
    """The format's pattern and numpy float types, its exponent field and its sign bit."""
    rec = get_format(fmt)
    if rec.numpy_float is None:
        raise ValueError(f"serial_unfused: numpy has no {fmt} arithmetic")
    return (rec.dtype.type, rec.numpy_float.type, rec.exp_max << rec.frac_bits,
            rec.sign_mask)


def _sums_exact_in_float64(rec: FloatFormat) -> bool:
    """float64 holds every product and every sum of two of the format's values exactly
    (f16: products of 22 significant bits, sums from 2^-24 to below 2^17), so a step
    computed in float64 and rounded once to the format is correctly rounded."""
    return (2 * (rec.frac_bits + 1) <= 53
            and rec.maxexp + 1 - (rec.minexp - rec.frac_bits) <= 53)


def _flush(bits: np.ndarray, fmt: str) -> np.ndarray:
    ut, _, emask, smask = _types(fmt)
    b = np.asarray(bits, ut)
    den = ((b & ut(emask)) == 0) & ((b & ~ut(smask | emask)) != 0)
    return np.where(den, b & ut(smask), b)


def serial_unfused(op: str, operands: list[np.ndarray], fmt: str = SHADER_FLOAT,
                   flush: bool | str = True) -> np.ndarray:
    """Bits of ``a*b + c`` (mad) or ``((a0*b0 + a1*b1) + a2*b2) + ...`` (dpN), step by step.

    ``flush`` applies F32-FTZ to the inputs and to every step's result; ``"before"``
    flushes a step whose exact value is below the smallest normal *before* rounding
    (x86 FTZ's tininess test; f32 only: the step is recomputed in float64).
    """
    ut, ft, _, _ = _types(fmt)
    rec = get_format(fmt)
    fl = (lambda b: _flush(b, fmt)) if flush else (lambda b: np.asarray(b, ut))
    x = [fl(o).view(ft) for o in np.broadcast_arrays(*[np.asarray(o, ut) for o in operands])]
    # "before": the tininess test of a format D3D flushes (F32-FTZ: f32 alone)
    before = flush == "before" and bool(rec.flush_under)
    if _sums_exact_in_float64(rec):  # steps in float64 (exact), rounded once each
        x = [v.astype(np.float64) for v in x]

    def step(v: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            if before:  # v is a float64 (exact product / sum of two float32)
                tiny = np.abs(v) < rec.smallest_normal
                v = np.where(tiny, np.copysign(0.0, v), v).astype(ft)
            return fl(np.asarray(v, ft).view(ut)).view(ft)

    with np.errstate(all="ignore"):
        if before:
            x = [v.astype(np.float64) for v in x]
        if len(x) == 3:  # a * b + c (mad, mad_fma)
            prod = step(x[0] * x[1])
            return step((prod.astype(np.float64) if before else prod) + x[2]).view(ut)
        if len(x) in (4, 6, 8):  # a0..an, b0..bn (dpN)
            n = len(x) // 2
            wide = (lambda v: v.astype(np.float64)) if before else (lambda v: v)
            acc = step(x[0] * x[n])
            for i in range(1, n):
                acc = step(wide(acc) + wide(step(x[i] * x[n + i])))
            return acc.view(ut)
    raise ValueError(f"serial_unfused: {op!r} is not a fused op")


def _ulp32(mag: np.ndarray) -> np.ndarray:
    """ULP of float32 at magnitude ``mag`` (float64), denormal spacing at the bottom."""
    with np.errstate(all="ignore"):
        e = np.floor(np.log2(np.maximum(mag, 2.0**-126)))
        return np.exp2(np.maximum(e - 23, -149))


def within_fused_bound(op: str, operands: list[np.ndarray], got: np.ndarray) -> np.ndarray:
    """F32-FUSED without FTZ: |got - exact| <= 0.5 ULP per step in *any* serial order.

    Every partial result of any order is at most sum(|a_i * b_i|) in magnitude, so
    (2n - 1) steps of 0.5 ULP at that magnitude bound every order's error. Only finite
    results are judged here (non-finite ones must match a serial evaluation exactly).
    """
    with np.errstate(all="ignore"):
        x = [np.asarray(o, np.uint32).view(np.float32).astype(np.float64) for o in operands]
        if len(x) == 3:  # a * b + c (mad, mad_fma)
            prods, addends, steps = [x[0] * x[1]], [x[2]], 2
        else:  # a0..an, b0..bn (dpN)
            n = len(x) // 2
            prods, addends, steps = [x[i] * x[n + i] for i in range(n)], [], 2 * n - 1
        terms = prods + addends
        exact = np.sum(terms, axis=0)
        bound = 0.5 * steps * _ulp32(np.sum(np.abs(terms), axis=0))
        g = np.asarray(got, np.uint32).view(np.float32).astype(np.float64)
        return np.isfinite(exact) & np.isfinite(g) & (np.abs(g - exact) <= bound)
