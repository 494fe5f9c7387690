"""Float-to-float conversions between every pair of formats (docs/rules.md CONV-*).

``convert(bits, src, dst, variant)`` works on bit patterns, vectorized. Paths:

* float32 source -> f16/f11/f10: a 512-row table indexed by sign and exponent gives a base
  pattern, the hidden bit and a shift; rounding is one add-and-shift (nearest even) or a
  plain shift (toward zero) (:mod:`.table_encoder`). Vendor variants with quirks run their
  literal kernels (:mod:`.variants`).
* targets without a D3D conversion (bf16, FP8): the exact value (float32 widens exactly) is
  encoded from the target's widths by its variant's generic policy (one rounding).
* sources of 16 bits or fewer: every source pattern is converted once (exactly widened to float32,
  then encoded), cached as a look-up table, and gathered.
* float64 source: :func:`fpinspector.model.formats.encode_float64` on the exact value (one
  rounding); vendor kernels, which take a C ``float``, get the value rounded to float32
  first, as the C call would.

Which rules fired for each element (``.fired``) is computed on first access (:mod:`.rules`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from ..formats import F32, F64, FloatFormat, encode_float64, get_format
from .rules import ConversionResult
from .table_encoder import nan_bits, table_encode
from .variants import VARIANTS, Policy, Variant, get_variant, lp_float_to_smallfloat

__all__ = ["convert", "VARIANTS", "OPTIONS"]


U32 = np.uint32

#: Conversion options and their allowed values (first = default where the variant allows).
OPTIONS: dict[str, tuple[str, ...]] = {
    "neg_inf_to_unsigned": ("zero", "inf"),  # AMBIGUOUS -INF -> f11/f10 (CONV-UNSIGNED)
    "f32_denorms": ("flush", "keep"),  # float32 denormals in f32<->f64 (dtof/ftod: either)
    "llvmpipe_denorms": ("keep", "flush"),  # CPU FTZ/DAZ while llvmpipe runs
}


def _check_options(options: Mapping[str, str] | None) -> dict[str, str]:
    opts = dict(options or {})
    for k, v in opts.items():
        if k not in OPTIONS:
            raise ValueError(f"unknown conversion option {k!r}; choose from {', '.join(OPTIONS)}")
        if v not in OPTIONS[k]:
            raise ValueError(f"option {k}={v!r}: choose one of {', '.join(OPTIONS[k])}")
    return opts


def _generic(x: np.ndarray, dst: FloatFormat, pol: Policy) -> np.ndarray:
    """float64 values into a format D3D defines no conversion for, by its widths: one
    rounding; "clamp" (OCP SAT) also turns infinities into the largest finite value."""
    ovf = "inf" if pol.overflow == "inf" else "saturate"
    out = np.asarray(encode_float64(dst, x, pol.rounding, ovf))
    if pol.overflow == "clamp":
        inf = np.isinf(x) & ((x > 0) | dst.signed)  # (-INF into an unsigned format: 0)
        out[inf] = np.where(x[inf] < 0, dst.sign_mask, 0) | dst.max_finite_bits
    return out.astype(dst.dtype)


def _f32_to_small(u: np.ndarray, dst: FloatFormat, var: Variant, opts: dict) -> np.ndarray:
    pol = var.policy(dst)
    if not dst.d3d_conversion:
        with np.errstate(invalid="ignore"):
            return _generic(u.view(np.float32).astype(np.float64), dst, pol)
    if var.name == "llvmpipe" and opts.get("llvmpipe_denorms") == "flush":
        return lp_float_to_smallfloat(u, dst.frac_bits, dst.signed, True).astype(dst.dtype)
    if pol.kernel is not None:
        if "neg_inf_to_unsigned" in opts and opts["neg_inf_to_unsigned"] != "zero":
            raise ValueError(f"variant {var.name!r} has a fixed -INF behaviour (-> 0)")
        return pol.kernel(u).astype(dst.dtype)
    return table_encode(u, dst, pol, opts.get("neg_inf_to_unsigned", pol.neg_inf))


def _f64_to_small(x: np.ndarray, dst: FloatFormat, var: Variant, opts: dict) -> np.ndarray:
    pol = var.policy(dst)
    if not dst.d3d_conversion:
        return _generic(x, dst, pol)
    if pol.kernel is not None:  # the C function takes a float: (float)x rounds to nearest
        with np.errstate(over="ignore", invalid="ignore"):  # (a signaling NaN quiets)
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
        out[nan] = nan_bits(pol.nan, dst, (u >> np.uint64(63)).astype(bool),
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
    if src.bits <= 16:  # every pattern converted once, then gathered
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
    if src.numpy_float is not None:  # numpy's own widening keeps NaN payloads
        f32 = pats.view(src.numpy_float).astype(np.float32).view(U32)
    elif src.exp_bits == F32.exp_bits and src.has_inf:  # f32's fields, shorter: a shift
        f32 = pats.astype(U32) << U32(F32.frac_bits - src.frac_bits)
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
