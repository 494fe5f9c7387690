"""The float32 -> f16/f11/f10 table encoder of the policy variants (d3d, ieee, mesa_rtz...).

A 512-row table indexed by a float32's sign and exponent gives a base pattern, the hidden bit
and a shift; rounding is one add-and-shift (nearest even) or a plain shift (toward zero).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..formats import FloatFormat
from .variants import Policy

__all__ = ["nan_bits", "table_encode"]

U32 = np.uint32


@lru_cache(maxsize=64)
def _tables(fmt: FloatFormat, rounding: str, overflow: str, neg_inf: str
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(base, hidden, shift, half-1) per 9-bit index sign|exponent of a float32."""
    F = fmt.frac_bits
    s0 = 23 - F
    base = np.zeros(512, np.uint32)
    hid = np.zeros(512, np.uint32)
    sh = np.full(512, 31, np.uint32)
    for idx in range(512):  # 512 rows, built once per policy
        s, E = idx >> 8, idx & 0xFF
        sgn = fmt.sign_mask if (s and fmt.signed) else 0
        if not fmt.signed and s:
            base[idx] = fmt.pos_inf if (E == 255 and neg_inf == "inf") else 0
        elif E == 255:
            base[idx] = sgn | fmt.pos_inf
        elif E == 0:
            base[idx] = sgn  # float32 zero/denormal: far below every target denormal
        elif E - 112 >= fmt.exp_max:  # >= 2^16: overflows every small format
            base[idx] = sgn | (fmt.max_finite_bits if overflow == "saturate" else fmt.pos_inf)
        elif E >= 113:
            base[idx], hid[idx], sh[idx] = sgn | ((E - 113) << F), 0x800000, s0
        else:
            base[idx], hid[idx], sh[idx] = sgn, 0x800000, min(s0 + 113 - E, 31)
    hm1 = ((np.uint32(1) << (sh - np.uint32(1))) - np.uint32(1)).astype(np.uint32)
    return base, hid, sh, hm1


def nan_bits(nan: str | int, fmt: FloatFormat, sign: np.ndarray, payload: np.ndarray) -> np.ndarray:
    """NaN result patterns by policy (payload: the source fraction aligned to 23 bits)."""
    if isinstance(nan, int):
        return np.full(sign.shape, nan, np.uint32)
    s = (sign.astype(U32) << U32(fmt.bits - 1)) if fmt.signed else np.zeros(sign.shape, U32)
    if nan == "payload":
        return s | U32(fmt.quiet_nan) | (payload >> U32(23 - fmt.frac_bits))
    return s | U32(fmt.quiet_nan)


def table_encode(u: np.ndarray, fmt: FloatFormat, pol: Policy, neg_inf: str) -> np.ndarray:
    """float32 patterns -> ``fmt`` patterns: two table look-ups, a shift and an add.

    The hidden bit is set for every row: rows where it would be wrong (float32 zero and
    denormals, INF/NaN, overflow, unsigned negatives) shift by 31, leaving 0.
    """
    base, _, sh, hm1 = _tables(fmt, pol.rounding, pol.overflow, neg_inf)
    idx = (u >> U32(23)).astype(np.intp)  # intp indices make take() about twice as fast
    mant = u & U32(0x7FFFFF)
    mant |= U32(0x800000)
    shift = sh.take(idx)
    if pol.rounding == "rtz":
        np.right_shift(mant, shift, out=mant)
    else:
        lsb = np.right_shift(mant, shift)
        lsb &= U32(1)
        mant += hm1.take(idx)
        mant += lsb
        np.right_shift(mant, shift, out=mant)
    res = base.take(idx)
    res += mant
    if pol.rounding == "rne" and pol.overflow == "saturate":  # a carry into INF saturates
        mag = res & U32(fmt.mask & ~fmt.sign_mask)
        over = (mag == U32(fmt.pos_inf)) & ((u & U32(0x7F800000)) != U32(0x7F800000))
        res = np.where(over, (res & U32(fmt.sign_mask)) | U32(fmt.max_finite_bits), res)
    nan = np.isnan(u.view(np.float32))
    if nan.any():
        res[nan] = nan_bits(pol.nan, fmt, (u[nan] >> U32(31)).astype(bool), u[nan] & U32(0x7FFFFF))
    return res.astype(fmt.dtype)
