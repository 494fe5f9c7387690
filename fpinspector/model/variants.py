"""Named float-to-small-float encoders (d3d, ieee, DirectXMath, Mesa, GL, llvmpipe) as data.

A :class:`Variant` holds one :class:`Policy` per small target format (f16, f11, f10).
Most policies are plain data (rounding, overflow, NaN pattern, -INF handling) run by the
table encoder in :mod:`fpinspector.model.convert`. Where a vendor's code has quirks a policy
cannot express, the policy names a *kernel*: a vectorized, line-by-line transcription of the
vendor's C code on float32 bit patterns (uint32 arrays), cited with repository, commit and
function. Sources are public code read through the team's code search; none is copied here,
only re-expressed with numpy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

__all__ = ["Policy", "Variant", "VARIANTS", "get_variant"]

U32 = np.uint32
Kernel = Callable[[np.ndarray], np.ndarray]


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
    ``Shift == 32`` -> no shift -> 0x020 (the upstream bug CONVERSIONS.md case 7 shows).
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
    from .formats import F16, encode_float64

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


def _mesa_uf_rne(u: np.ndarray, frac_bits: int) -> np.ndarray:
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


def _mesa_uf_trunc(u: np.ndarray, frac_bits: int) -> np.ndarray:
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
    with np.errstate(over="ignore", under="ignore"):
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


# --------------------------------------------------------------------------------------
# the table


@dataclass(frozen=True)
class Policy:
    """How one variant encodes into one small format: data for the table encoder.

    rounding: ``"rtz"`` or ``"rne"``; overflow: ``"saturate"`` (largest finite) or ``"inf"``;
    nan: ``"quiet"`` (canonical quiet NaN, sign kept where the format has one),
    ``"payload"`` (top payload bits kept, quiet bit set, sign kept) or a fixed pattern;
    neg_inf: ``"zero"`` or ``"inf"`` (unsigned targets only); kernel: a literal vendor
    algorithm on float32 bits that replaces the fields above (they then describe it).
    """

    rounding: str
    overflow: str
    nan: str | int = "quiet"
    neg_inf: str = "zero"
    kernel: Kernel | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Variant:
    """A named encoder family with its source citation (``source``) and notes (``doc``)."""

    name: str
    source: str
    doc: str
    f16: Policy
    f11: Policy
    f10: Policy
    f32_denorms: str = "keep"  # "flush": D3D treats float32 as denormal-free in conversions

    def policy(self, dst: str) -> Policy:
        """Policy for target format name ``dst`` (f16, f11 or f10)."""
        return {"f16": self.f16, "f11": self.f11, "f10": self.f10}[dst]


_RTZ_SAT = Policy("rtz", "saturate")
_RNE_INF = Policy("rne", "inf")

VARIANTS: dict[str, Variant] = {
    "d3d": Variant(
        "d3d",
        "D3D11.3 functional spec §3.2.2 (CONVERSIONS.md CONV-F2F-RTZ/SAT, CONV-UNSIGNED)",
        "Round toward zero, overflow to the largest finite value, negatives -> 0 in f11/f10, "
        "-INF -> 0 by default (AMBIGUOUS, option neg_inf_to_unsigned='inf').",
        _RTZ_SAT, _RTZ_SAT, _RTZ_SAT, f32_denorms="flush"),
    "ieee": Variant(
        "ieee",
        "IEEE 754-2008 §4.3.1/§7.4 roundTiesToEven; numpy.float16 casts",
        "Textbook encoder: round to nearest even, overflow to INF, negatives -> 0 "
        "in the unsigned formats.",
        _RNE_INF, _RNE_INF, _RNE_INF),
    "directxmath": Variant(
        "directxmath",
        "microsoft/DirectXMath Inc/DirectXPackedVector.inl @095af479: XMConvertFloatToHalf "
        "(software path), XMStoreFloat3PK",
        "RNE; f16 overflow (>= 65520) -> INF, NaN keeps sign and top payload; f11/f10 "
        "overflow -> max finite, NaN -> 0x7FF/0x3FF, negatives and -INF -> 0, f11 flushes "
        "below 2^-20, tiny f10 values hit an undefined shift (2^-46 -> 0x020).",
        Policy("rne", "inf", "payload", kernel=xm_convert_float_to_half),
        Policy("rne", "saturate", 0x7FF, kernel=xm_store_float3pk_xy),
        Policy("rne", "saturate", 0x3FF, kernel=xm_store_float3pk_z)),
    "mesa": Variant(
        "mesa",
        "Mesa src/util/half_float.c _mesa_float_to_half_slow (sailfishos-mirror/mesa "
        "@6d9cd36d); src/util/format_r11g11b10f.h RNE version (sonphantrung/mesa @5574f948)",
        "RNE, f16 overflow -> INF, f11/f10 overflow -> max finite, NaN -> 0x7C1/0x3E1, "
        "negatives and -INF -> 0; the f11/f10 normal path does not bump the exponent when "
        "rounding carries (1.9921875 -> f11 1.0), reproduced as written.",
        Policy("rne", "inf", "payload", kernel=mesa_float_to_half),
        Policy("rne", "saturate", 0x7C1, kernel=lambda u: _mesa_uf_rne(u, 6)),
        Policy("rne", "saturate", 0x3E1, kernel=lambda u: _mesa_uf_rne(u, 5))),
    "mesa_rtz": Variant(
        "mesa_rtz",
        "Mesa src/util/half_float.h _mesa_float_to_float16_rtz (vcvtps2ph $3, RTZ); "
        "older truncating src/util/format_r11g11b10f.h (karolherbst/mesa @8f1b581e)",
        "Round toward zero, f16 overflow -> 65504 (x86 F16C with imm 3; NaN quieted with "
        "sign and top payload), f11 denormals kept, f10 has no denormal branch (-> 0), "
        "NaN -> 0x7C1/0x3E1.",
        Policy("rtz", "saturate", "payload"),
        Policy("rtz", "saturate", 0x7C1, kernel=lambda u: _mesa_uf_trunc(u, 6)),
        Policy("rtz", "saturate", 0x3E1, kernel=lambda u: _mesa_uf_trunc(u, 5))),
    "gl": Variant(
        "gl",
        "OpenGL 4.6 core §2.3.4.3-§2.3.4.4 (unsigned 11/10-bit floats), EXT_packed_float",
        "f11/f10: nearest (chosen; toward zero allowed), negatives and -INF -> 0, any NaN -> "
        "a positive NaN, overflow -> max finite. f16 rounding is unspecified by GL: modelled "
        "as IEEE round to nearest even with overflow to INF.",
        _RNE_INF, Policy("rne", "saturate"), Policy("rne", "saturate")),
    "llvmpipe": Variant(
        "llvmpipe",
        "Mesa gallivm lp_bld_format_float.c lp_build_float_to_smallfloat (bminor/mesa-mesa "
        "@41c700fd); f16 modelled with has_sign=true",
        "Round toward zero (mantissa mask), overflow -> max finite, NaN -> 0x7E0/0x3F0 "
        "(0x7E00 with sign for f16), -INF -> 0 for f11/f10; target denormals kept unless "
        "option llvmpipe_denorms='flush' (CPU FTZ/DAZ).",
        Policy("rtz", "saturate", 0x7E00, kernel=lambda u: lp_float_to_smallfloat(u, 10, True)),
        Policy("rtz", "saturate", 0x7E0, kernel=lambda u: lp_float_to_smallfloat(u, 6, False)),
        Policy("rtz", "saturate", 0x3F0, kernel=lambda u: lp_float_to_smallfloat(u, 5, False))),
}


def get_variant(name: str | Variant) -> Variant:
    """Variant by name, with a clear ValueError listing the choices."""
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[str(name).lower()]
    except KeyError:
        raise ValueError(
            f"unknown conversion variant {name!r}; choose one of {', '.join(VARIANTS)}"
        ) from None
