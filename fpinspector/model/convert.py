"""Float-to-float conversions between f64, f32, f16, f11 and f10 (CONVERSIONS.md CONV-*).

``convert(bits, src, dst, variant)`` works on bit patterns, vectorized. Paths:

* float32 source -> f16/f11/f10: a 512-row table indexed by sign and exponent gives a base
  pattern, the hidden bit and a shift; rounding is one add-and-shift (nearest even) or a
  plain shift (toward zero). Vendor variants with quirks run their literal kernels
  (:mod:`fpinspector.model.variants`).
* f16/f11/f10 source: every source pattern is converted once (exactly widened to float32,
  then encoded), cached as a look-up table, and gathered.
* float64 source: :func:`fpinspector.model.formats.encode_float64` on the exact value (one
  rounding); vendor kernels, which take a C ``float``, get the value rounded to float32
  first, as the C call would.

Which rules fired for each element (``.fired``) is computed on first access.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

import numpy as np

from .convert_rules import ConversionResult
from .formats import F32, F64, FloatFormat, encode_float64, get_format
from .variants import VARIANTS, Policy, Variant, get_variant, lp_float_to_smallfloat

__all__ = ["convert", "ConversionResult", "VARIANTS", "OPTIONS", "is_widening",
           "rounding_anatomy", "Anatomy"]


def __getattr__(name: str) -> Any:
    """``rounding_anatomy``/``Anatomy`` live in :mod:`.anatomy` (which imports this module)."""
    if name in ("rounding_anatomy", "Anatomy"):
        from . import anatomy

        return getattr(anatomy, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

U32 = np.uint32
_SMALL = ("f16", "f11", "f10")

#: Conversion options and their allowed values (first = default where the variant allows).
OPTIONS: dict[str, tuple[str, ...]] = {
    "neg_inf_to_unsigned": ("zero", "inf"),  # AMBIGUOUS -INF -> f11/f10 (CONV-UNSIGNED)
    "f32_denorms": ("flush", "keep"),  # float32 denormals in f32<->f64 (dtof/ftod: either)
    "llvmpipe_denorms": ("keep", "flush"),  # CPU FTZ/DAZ while llvmpipe runs
}


def is_widening(src: FloatFormat, dst: FloatFormat) -> bool:
    """True when every value of ``src`` is exactly representable in ``dst`` (CONV-WIDEN)."""
    return (dst.exp_bits >= src.exp_bits and dst.frac_bits >= src.frac_bits
            and (dst.signed or not src.signed) and src.name != dst.name)


def _check_options(options: Mapping[str, str] | None) -> dict[str, str]:
    opts = dict(options or {})
    for k, v in opts.items():
        if k not in OPTIONS:
            raise ValueError(f"unknown conversion option {k!r}; choose from {', '.join(OPTIONS)}")
        if v not in OPTIONS[k]:
            raise ValueError(f"option {k}={v!r}: choose one of {', '.join(OPTIONS[k])}")
    return opts


# --------------------------------------------------------------------------------------
# table encoder for float32 bits -> small float (policy variants)


@lru_cache(maxsize=64)
def _tables(fmt: FloatFormat, rounding: str, overflow: str, neg_inf: str):
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


def _nan_bits(nan: str | int, fmt: FloatFormat, sign: np.ndarray, payload: np.ndarray) -> np.ndarray:
    """NaN result patterns by policy (payload: the source fraction aligned to 23 bits)."""
    if isinstance(nan, int):
        return np.full(sign.shape, nan, np.uint32)
    s = (sign.astype(U32) << U32(fmt.bits - 1)) if fmt.signed else np.zeros(sign.shape, U32)
    if nan == "payload":
        return s | U32(fmt.quiet_nan) | (payload >> U32(23 - fmt.frac_bits))
    return s | U32(fmt.quiet_nan)


def _table_encode(u: np.ndarray, fmt: FloatFormat, pol: Policy, neg_inf: str) -> np.ndarray:
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
        res[nan] = _nan_bits(pol.nan, fmt, (u[nan] >> U32(31)).astype(bool), u[nan] & U32(0x7FFFFF))
    return res.astype(fmt.dtype)


def _f32_to_small(u: np.ndarray, dst: FloatFormat, var: Variant, opts: dict) -> np.ndarray:
    pol = var.policy(dst.name)
    if var.name == "llvmpipe" and opts.get("llvmpipe_denorms") == "flush":
        return lp_float_to_smallfloat(u, dst.frac_bits, dst.signed, True).astype(dst.dtype)
    if pol.kernel is not None:
        if "neg_inf_to_unsigned" in opts and opts["neg_inf_to_unsigned"] != "zero":
            raise ValueError(f"variant {var.name!r} has a fixed -INF behaviour (-> 0)")
        return pol.kernel(u).astype(dst.dtype)
    return _table_encode(u, dst, pol, opts.get("neg_inf_to_unsigned", pol.neg_inf))


def _f64_to_small(x: np.ndarray, dst: FloatFormat, var: Variant, opts: dict) -> np.ndarray:
    pol = var.policy(dst.name)
    if pol.kernel is not None:  # the C function takes a float: (float)x rounds to nearest
        with np.errstate(over="ignore"):
            u = x.astype(np.float32).view(U32)
        return _f32_to_small(u, dst, var, opts)
    out = encode_float64(dst, x, pol.rounding, "saturate" if pol.overflow == "saturate" else "inf")
    out = out.astype(U32)
    neg_inf = opts.get("neg_inf_to_unsigned", pol.neg_inf)
    if not dst.signed and neg_inf == "inf":
        out[np.isneginf(x)] = dst.pos_inf
    nan = np.isnan(x)
    if nan.any():
        u = x[nan].view(np.uint64)
        out[nan] = _nan_bits(pol.nan, dst, (u >> np.uint64(63)).astype(bool),
                             ((u >> np.uint64(29)) & np.uint64(0x7FFFFF)).astype(U32))
    return out.astype(dst.dtype)


def _flush_f32(u: np.ndarray) -> np.ndarray:
    """F32-FTZ: float32 denormal patterns -> sign-preserved zero."""
    den = (u & U32(0x7F800000)) == 0
    return np.where(den, u & U32(0x80000000), u)


def _convert_flat(b: np.ndarray, src: FloatFormat, dst: FloatFormat, var: Variant,
                  opts: dict) -> np.ndarray:
    flush32 = opts.get("f32_denorms", var.f32_denorms) == "flush"
    if src.name == dst.name:
        return b.copy()
    if src.name in _SMALL:
        return _small_lut(src, dst, var.name, tuple(sorted(opts.items())))[b]
    if src is F32:
        u = b.astype(U32, copy=False)
        if dst is F64:
            with np.errstate(invalid="ignore"):
                w = (_flush_f32(u) if flush32 else u).view(np.float32).astype(np.float64)
            return w.view(np.uint64)
        return _f32_to_small(u, dst, var, opts)
    x = b.view(np.float64)
    if dst is F32:  # CONV-DTOF: nearest even; d3d saturates and flushes denormal results
        ovf = "saturate" if var.name == "d3d" else "ieee"
        out = encode_float64(F32, x, "rne", ovf)
        return _flush_f32(out) if flush32 else out
    return _f64_to_small(x, dst, var, opts)


@lru_cache(maxsize=128)
def _small_lut(src: FloatFormat, dst: FloatFormat, variant: str, opt_items: tuple) -> np.ndarray:
    """Result for every source pattern of a small format (exact widening to float32 first)."""
    pats = np.arange(1 << src.bits, dtype=np.uint64).astype(src.dtype)
    if src.name == "f16":
        f32 = pats.view(np.float16).astype(np.float32).view(U32)  # keeps NaN payloads
    else:
        with np.errstate(invalid="ignore"):
            f32 = src.decode(pats).astype(np.float32).view(U32)
    if dst is F64:
        with np.errstate(invalid="ignore"):
            return f32.view(np.float32).astype(np.float64).view(np.uint64)
    if dst is F32:
        return f32.copy()
    return _convert_flat(f32, F32, dst, get_variant(variant), dict(opt_items))


def convert(bits: Any, src: str | FloatFormat, dst: str | FloatFormat, variant: str = "d3d",
            *, options: Mapping[str, str] | None = None) -> ConversionResult:
    """Convert bit patterns of ``src`` into ``dst`` patterns under a named variant.

    Parameters
    ----------
    bits : int or array of int
        Source bit patterns (any shape).
    src, dst : str or FloatFormat
        ``"f64"``, ``"f32"``, ``"f16"``, ``"f11"``, ``"f10"`` (aliases accepted).
    variant : str
        A key of :data:`VARIANTS`: ``"d3d"`` (default: CONV-F2F-RTZ, CONV-F2F-SAT,
        CONV-UNSIGNED...), ``"ieee"``, ``"directxmath"``, ``"mesa"``, ``"mesa_rtz"``,
        ``"gl"``, ``"llvmpipe"``.
    options : mapping, optional
        Keys of :data:`OPTIONS`: ``neg_inf_to_unsigned`` (``"zero"``/``"inf"``, the
        AMBIGUOUS -INF case), ``f32_denorms`` (``"flush"``/``"keep"``), ``llvmpipe_denorms``.

    Returns
    -------
    ConversionResult
        ``.bits`` in ``dst``'s storage dtype (a numpy scalar for scalar input), ``.fired``
        (rule ID -> bool array), ``.rules_at(i)``, ``.explain_at(i)``.

    Examples
    --------
    >>> hex(int(convert(0x3F803000, "f32", "f16").bits))   # 1 + 3*2^-11, toward zero
    '0x3c01'
    >>> hex(int(convert(0x3F803000, "f32", "f16", "ieee").bits))
    '0x3c02'
    """
    s, d = get_format(src), get_format(dst)
    var = get_variant(variant)
    opts = _check_options(options)
    try:
        b = s.as_bits(bits)
    except TypeError as exc:
        raise ValueError(str(exc)) from None
    flat = np.ascontiguousarray(b).reshape(-1)
    out = _convert_flat(flat, s, d, var, opts).astype(d.dtype, copy=False).reshape(b.shape)
    return ConversionResult(out[()] if out.ndim == 0 else out, b, s, d, var, opts)
