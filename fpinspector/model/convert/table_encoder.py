"""The float32 -> f16/f11/f10 table encoder of the policy variants (d3d, ieee, mesa_rtz...).

A 512-row table indexed by a float32's sign and exponent gives a base pattern, the hidden bit
and a shift; rounding is one add-and-shift (nearest even) or a plain shift (toward zero).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..formats import FloatFormat
from .variants import Policy

__all__ = ["nan_bits", "table_encode", "CHUNK"]

U32 = np.uint32
#: Elements per slice of the encoder (its uint32 temporaries stay in the CPU's cache).
CHUNK = 1 << 16


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
    denormals, INF/NaN, overflow, unsigned negatives) shift by 31, leaving 0. Works in
    slices of :data:`CHUNK` elements so that the uint32 temporaries stay in the cache.
    """
    base, _, sh, hm1 = _tables(fmt, pol.rounding, pol.overflow, neg_inf)
    u = np.ascontiguousarray(u, dtype=U32).reshape(-1)
    n = u.shape[0]
    out = np.empty(n, fmt.dtype)
    size = min(n, CHUNK)
    idx = np.empty(size, np.intp)  # intp indices make take() about twice as fast
    mant, shift, tmp = (np.empty(size, U32) for _ in range(3))
    mag_mask = U32(fmt.mask & ~fmt.sign_mask)
    for start in range(0, n, CHUNK):
        uc = u[start:start + CHUNK]
        m = uc.shape[0]
        ic, mc, sc, tc = idx[:m], mant[:m], shift[:m], tmp[:m]
        np.right_shift(uc, U32(23), out=tc)
        ic[...] = tc
        np.bitwise_and(uc, U32(0x7FFFFF), out=mc)
        mc |= U32(0x800000)
        sh.take(ic, out=sc)
        if pol.rounding == "rtz":
            mc >>= sc
        else:
            np.right_shift(mc, sc, out=tc)
            tc &= U32(1)
            mc += tc
            mc += hm1.take(ic)
            mc >>= sc
        mc += base.take(ic)
        if pol.rounding == "rne" and pol.overflow == "saturate":  # a carry into INF saturates
            over = ((mc & mag_mask) == U32(fmt.pos_inf)) & \
                ((uc & U32(0x7F800000)) != U32(0x7F800000))
            mc[over] = (mc[over] & U32(fmt.sign_mask)) | U32(fmt.max_finite_bits)
        out[start:start + m] = mc
        np.bitwise_and(uc, U32(0x7FFFFFFF), out=tc)
        nan = tc > U32(0x7F800000)
        if nan.any():
            where = np.flatnonzero(nan)
            out[start + where] = nan_bits(pol.nan, fmt, (uc[where] >> U32(31)).astype(bool),
                                          uc[where] & U32(0x7FFFFF))
    return out
