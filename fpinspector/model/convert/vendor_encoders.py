"""Vendor float32 -> small-float encoders, transcribed from their C sources with numpy.

Each function takes float32 bit patterns (uint32 array) and returns the vendor's result
patterns, quirks included, with the repository, commit and function it reproduces. The
C code is re-expressed, not copied: unsigned 32-bit wrap-around and x86 shift-count
masking are reproduced where the C relies on them.
"""

from __future__ import annotations

import numpy as np

from ..formats import F16, encode_float64

__all__ = [
    "xm_convert_float_to_half", "xm_store_float3pk_xy", "xm_store_float3pk_z",
    "mesa_float_to_half", "mesa_uf_rne", "mesa_uf_trunc", "lp_float_to_smallfloat",
]

U32 = np.uint32


def _u(x: int) -> np.uint32:
    return U32(x & 0xFFFFFFFF)


# --------------------------------------------------------------------------------------
# DirectXMath, Inc/DirectXPackedVector.inl (microsoft/DirectXMath, commit 095af479...,
# the portable _XM_NO_INTRINSICS_ paths).


def xm_convert_float_to_half(u: np.ndarray) -> np.ndarray:
    """``XMConvertFloatToHalf`` (software path): RNE, >= 65520 -> INF, NaN payload kept.

    Transcribes the ``#else`` branch: ``IValue >= 0x47800000`` gives INF or
    ``0x7C00 | 0x200 | (IValue >> 13) & 0x3FF`` for NaN; ``IValue <= 0x33000000`` gives 0;
    below ``0x38800000`` the denormal branch rounds with an explicit sticky bit; otherwise
    ``((IValue + 0xC8000000) + 0x0FFF + lsb) >> 13`` (round to nearest even, carrying into
    INF at 65520). The sign is OR-ed back in every branch, NaN included.
    """
    u = u.astype(U32, copy=False)
    sign = (u & _u(0x80000000)) >> U32(16)
    iv = u & _u(0x7FFFFFFF)
    big = iv >= _u(0x47800000)
    nan_res = _u(0x7C00) | np.where(iv > _u(0x7F800000), _u(0x200) | ((iv >> U32(13)) & _u(0x3FF)), _u(0))
    # denormal branch: Shift = 125 - (IValue >> 23); clipped where the branch is not taken
    shift = np.clip(125 - (iv >> U32(23)).astype(np.int64), 0, 31).astype(U32)
    mant = _u(0x800000) | (iv & _u(0x7FFFFF))
    res_d = mant >> np.minimum(shift + U32(1), U32(31))
    sticky = ((mant & ((U32(1) << shift) - U32(1))) != 0).astype(U32)
    res_d = res_d + ((res_d | sticky) & ((mant >> shift) & U32(1)))
    # normal branch: rebias (wraps modulo 2^32 exactly as the C unsigned arithmetic does)
    iv2 = iv + _u(0xC8000000)
    res_n = ((iv2 + _u(0x0FFF) + ((iv2 >> U32(13)) & U32(1))) >> U32(13)) & _u(0x7FFF)
    res = np.where(iv < _u(0x38800000), res_d, res_n)
    res = np.where(iv <= _u(0x33000000), _u(0), res)
    res = np.where(big, nan_res, res)
    return (res | sign).astype(np.uint16)


def _xm_3pk_channel(u: np.ndarray, frac_bits: int) -> np.ndarray:
    """One channel of ``XMStoreFloat3PK`` (X/Y: 6-bit fraction, Z: 5-bit), bugs included.

    X and Y: INF -> 0x7C0, NaN -> 0x7FF, -INF and any negative -> 0, ``I < 0x35800000``
    (below 2^-20, the smallest float11 denormal) -> 0, ``I > 0x477E0000`` -> 0x7BF, else
    ``((I + 0xFFFF + lsb) >> 17)`` after rebiasing (normals) or after a *truncating*
    pre-shift ``(0x800000 | m) >> (113 - e)`` (denormals: bits shifted out there are lost
    before the nearest-even step).
    Z: same shape with 0x3E0 / 0x3FF / 0x3DF and ``>> 18``, but the ``I < 0x36000000``
    flush sits inside the INF/NaN branch where it can never act, so tiny values reach the
    denormal pre-shift with ``Shift = 113 - e`` of 32 or more. C leaves such shifts
    undefined; x86 ``shr`` uses the count modulo 32, which this reproduces: 2^-46 has
    ``Shift == 32`` -> no shift -> 0x020 (the upstream bug docs/rules.md case 7 shows).
    """
    u = u.astype(U32, copy=False)
    sign = (u & _u(0x80000000)) != 0
    i = u & _u(0x7FFFFFFF)
    drop = 23 - frac_bits  # 17 for float11, 18 for float10
    exp_all = _u(0x1F << frac_bits)
    pos_max = _u((0x1E << frac_bits) | ((1 << frac_bits) - 1))
    limit = _u(0x477E0000 if frac_bits == 6 else 0x477C0000)
    is_infnan = (i & _u(0x7F800000)) == _u(0x7F800000)
    infnan = np.where((i & _u(0x7FFFFF)) != 0, exp_all | _u((1 << frac_bits) - 1),
                      np.where(sign, _u(0), exp_all))
    shift = ((113 - (i >> U32(23)).astype(np.int64)) & 31).astype(U32)  # x86 shr: count mod 32
    den = (_u(0x800000) | (i & _u(0x7FFFFF))) >> shift
    i2 = np.where(i < _u(0x38800000), den, i + _u(0xC8000000))
    half_m1 = _u((1 << (drop - 1)) - 1)
    rounded = ((i2 + half_m1 + ((i2 >> U32(drop)) & U32(1))) >> U32(drop)) & _u((1 << (5 + frac_bits)) - 1)
    res = np.where(i > limit, pos_max, rounded)
    flush = sign | (i < _u(0x35800000)) if frac_bits == 6 else sign
    res = np.where(flush, _u(0), res)
    res = np.where(is_infnan, infnan, res)
    return res.astype(np.uint16)


def xm_store_float3pk_xy(u: np.ndarray) -> np.ndarray:
    """``XMStoreFloat3PK`` X/Y channel (float11); see :func:`_xm_3pk_channel`."""
    return _xm_3pk_channel(u, 6)


def xm_store_float3pk_z(u: np.ndarray) -> np.ndarray:
    """``XMStoreFloat3PK`` Z channel (float10); see :func:`_xm_3pk_channel`."""
    return _xm_3pk_channel(u, 5)


# --------------------------------------------------------------------------------------
# Mesa, src/util/half_float.c and src/util/format_r11g11b10f.h


def mesa_float_to_half(u: np.ndarray) -> np.ndarray:
    """``_mesa_float_to_half_slow`` (sailfishos-mirror/mesa 6d9cd36d): RNE, NaN payload >> 13.

    Zero and float32 denormals give a signed 0; INF gives INF; NaN keeps the top 10 payload
    bits (``m = flt_m >> 13``, 1 if that is 0) and the sign; values round to nearest even
    with ``_mesa_lroundevenf``, carrying into the next binade and into INF (65520 -> INF).
    """
    u = u.astype(U32, copy=False)
    with np.errstate(invalid="ignore"):
        x = u.view(np.float32).astype(np.float64)
    e = (u >> U32(23)) & _u(0xFF)
    x = np.where(e == 0, 0.0, x)  # float32 denormal -> 0 (sign re-added below)
    out = encode_float64(F16, np.abs(x), "rne", "ieee").astype(U32)
    m = (u & _u(0x7FFFFF)) >> U32(13)
    nan = (u & _u(0x7FFFFFFF)) > _u(0x7F800000)
    out = np.where(nan, _u(0x7C00) | np.maximum(m, _u(1)), out)
    return (out | ((u >> U32(16)) & _u(0x8000))).astype(np.uint16)


def mesa_uf_rne(u: np.ndarray, frac_bits: int) -> np.ndarray:
    """Newer ``f32_to_uf11``/``f32_to_uf10`` (sonphantrung/mesa 5574f948): RNE, denormals.

    NaN -> exponent all ones | 1 (0x7C1 / 0x3E1); -INF and every negative -> 0;
    ``val > 65024.0f`` (64512 for float10) -> max finite; normals: ``m = lroundevenf(
    ldexp(val, F - exponent)) & mask`` with the exponent *not* bumped when rounding
    carries to 2^(F+1) (only an ``assert`` guards it): 1 + 127/128 -> float11 1.0. This
    is reproduced as written (release builds compile the assert out). Denormal range:
    ``lroundevenf(ldexp(val, F + 14))`` with the carry into the smallest normal handled.
    """
    u = u.astype(U32, copy=False)
    with np.errstate(invalid="ignore"):
        x = u.view(np.float32).astype(np.float64)
    sign = (u >> U32(31)) != 0
    exp = ((u >> U32(23)) & _u(0xFF)).astype(np.int64) - 127
    exp_all = 0x1F << frac_bits
    vmax = 65024.0 if frac_bits == 6 else 64512.0
    with np.errstate(invalid="ignore", over="ignore"):
        m_norm = np.rint(np.ldexp(x, (frac_bits - exp).astype(np.int32)))  # exact, then RNE
        m_norm = np.nan_to_num(m_norm).astype(np.int64) & ((1 << frac_bits) - 1)
        m_den = np.rint(np.ldexp(x, frac_bits + 14)).astype(np.int64, copy=False)
    normal = ((exp + 15) << frac_bits) | m_norm
    res = np.where(exp > -15, normal, m_den)  # m_den == 2^F is exactly UF(1, 0)
    res = np.where(x > vmax, (30 << frac_bits) | ((1 << frac_bits) - 1), res)
    res = np.where(sign, 0, res)
    infnan = np.where((u & _u(0x7FFFFF)) != 0, exp_all | 1, np.where(sign, 0, exp_all))
    res = np.where(exp == 128, infnan, res)
    return res.astype(np.uint16)


def mesa_uf_trunc(u: np.ndarray, frac_bits: int) -> np.ndarray:
    """Older ``f32_to_uf11``/``f32_to_uf10`` (karolherbst/mesa 8f1b581e): truncation.

    Normals: ``mantissa >> (23 - F)`` (round toward zero). float11 has a denormal branch
    for exponents in (-21, -15]: ``(1 << (exponent + 20)) + (mantissa >> (3 - exponent))``;
    float10 has none: everything below 2^-14 becomes 0. NaN -> 0x7C1 / 0x3E1, negatives
    and -INF -> 0, values above the max finite -> max finite.
    """
    u = u.astype(U32, copy=False)
    with np.errstate(invalid="ignore"):
        x = u.view(np.float32).astype(np.float64)
    sign = (u >> U32(31)) != 0
    exp = ((u >> U32(23)) & _u(0xFF)).astype(np.int64) - 127
    mant = (u & _u(0x7FFFFF)).astype(np.int64)
    exp_all = 0x1F << frac_bits
    vmax = 65024.0 if frac_bits == 6 else 64512.0
    res = np.where(exp > -15, ((exp + 15) << frac_bits) | (mant >> (23 - frac_bits)), 0)
    if frac_bits == 6:
        e = np.clip(exp, -20, -15)
        den = (np.int64(1) << (e + 20)) + (mant >> (3 - e))
        res = np.where((exp > -21) & (exp <= -15), den, res)
    res = np.where(x > vmax, (30 << frac_bits) | ((1 << frac_bits) - 1), res)
    res = np.where(sign, 0, res)
    infnan = np.where(mant != 0, exp_all | 1, np.where(sign, 0, exp_all))
    res = np.where(exp == 128, infnan, res)
    return res.astype(np.uint16)


# --------------------------------------------------------------------------------------
# llvmpipe: src/gallium/auxiliary/gallivm/lp_bld_format_float.c (bminor/mesa-mesa 41c700fd)


def lp_float_to_smallfloat(u: np.ndarray, frac_bits: int, has_sign: bool,
                           flush_denormals: bool = False) -> np.ndarray:
    """``lp_build_float_to_smallfloat``: truncate, rescale by a float multiply, clamp.

    Steps as generated: (unsigned) ``max(0, src)``; clear the sign and the mantissa bits
    below the target precision (round toward zero); multiply by ``2^(bias_small - 127)``
    (the product is a float32 denormal for target denormals: exact, or flushed to 0 when
    the CPU runs with FTZ/DAZ, ``flush_denormals``); ``min`` with the largest finite value;
    NaN -> exponent all ones with the top mantissa bit (0x7E0 / 0x3F0 / 0x7E00); +INF ->
    INF; unsigned -INF -> 0 (the ``max``); signed formats re-attach the sign bit.
    """
    u = u.astype(U32, copy=False)
    drop = 23 - frac_bits
    a = u & _u(0x7FFFFFFF)
    neg = (u >> U32(31)) != 0
    src = a if has_sign else np.where(neg, _u(0), a)  # max(0, src); then & roundmask
    trunc = src & _u(~((1 << drop) - 1) & 0x7FFFFFFF)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        normal = trunc.view(np.float32) * np.float32(2.0 ** (15 - 127))
    if flush_denormals:
        normal = np.where(np.abs(normal) < np.float32(2.0 ** -126), np.float32(0), normal)
    small_max = np.array([(30 << 23) | (((1 << frac_bits) - 1) << drop)], U32).view(np.float32)[0]
    normal = np.minimum(normal, small_max).view(U32)
    is_nan = a > _u(0x7F800000)
    is_inf = (a if has_sign else u) == _u(0x7F800000)
    nan_or_inf = _u(0x1F << 23) | np.where(is_nan, _u(1 << 22), _u(0))
    res = np.where(is_nan | is_inf, nan_or_inf, normal)
    res = (res & _u(((1 << (frac_bits + 5)) - 1) << drop)) >> U32(drop)
    if has_sign:
        res = res | ((u & _u(0x80000000)) >> U32(16))
    return res.astype(np.uint16)
