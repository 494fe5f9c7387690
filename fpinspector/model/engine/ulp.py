"""ULP of a result format at an exact value ``hi + lo`` (the unit of the F32-PREC /
F32-SQRT-RCP / F32-FUSED windows; re-exported as ``grid.ulp_at``) and the signed ULP error of
observed patterns: the one definition the engine's steps and the expression layer's whole
expressions both report."""

from __future__ import annotations

import math

import numpy as np

from ..formats import FloatFormat
from .masked import fill_where, padded_mask, word_indices
from .residual import is_zero_residual, zero_residual

__all__ = ["ulp_at", "ulp_at_one", "divide_by_ulp", "zero_same_specials", "ulp_error", "ulp_errors_into"]


def ulp_at(hi: np.ndarray, lo: np.ndarray, fmt: FloatFormat, *, specials: bool = True
           ) -> np.ndarray:
    """ULP of the result format at the exact value ``hi + lo``.

    Definition used everywhere in the engine: for |x| in [2^k, 2^(k+1)) the ULP is
    2^(k - frac_bits), so just below a power of two the smaller spacing applies and at
    the power of two itself the larger one; below the smallest normal (zero included)
    it is the denormal spacing 2^(minexp - frac_bits); at or beyond 2^maxexp it is the
    spacing of the top binade. NaN gives NaN.

    ``specials=False`` (for callers that divide by the ULP, like ulp_error): INF and NaN
    elements get some finite positive ULP instead (x / u is then INF / NaN all the same),
    which skips their fix-up pass (half of an exhaustive sqrt sweep is NaN).
    """
    hi = np.asarray(hi, dtype=np.float64)
    if _bits_path(fmt, hi):
        return _ulp_at_bits(hi, lo, fmt, specials)
    return _ulp_at_generic(hi, lo, fmt)


def ulp_at_one(hi: float, lo: float, fmt: FloatFormat) -> float:
    """:func:`ulp_at` of one exact value ``hi + lo``, as a Python float (the same value:
    tests/model/test_engine_grid_primitives.py). Why: a verdict or an app's figure asks
    for one ULP, where the array passes cost more than the arithmetic."""
    if hi != hi:
        return math.nan
    a = abs(hi)
    if a == 0:  # the denormal spacing
        k = fmt.minexp
    elif a == math.inf:  # frexp's exponent 0, as the array versions
        k = -1
    else:
        m, e = math.frexp(a)
        k = e - 1
        if m == 0.5 and (lo < 0 if hi > 0 else lo > 0):  # a power of two, the residual
            k -= 1  # pointing inward: the binade below
    k = min(max(k, fmt.minexp), fmt.maxexp - 1)
    return math.ldexp(1.0, k - fmt.frac_bits)


def _bits_path(fmt: FloatFormat, hi: np.ndarray) -> bool:
    """f32, f16 arrays: every ULP and its inverse are float64 normals."""
    return fmt.frac_bits - fmt.minexp <= 1022 and bool(hi.ndim)


def divide_by_ulp(x: np.ndarray, hi: np.ndarray, lo: np.ndarray, fmt: FloatFormat) -> None:
    """``x /= ulp_at(hi, lo, fmt, specials=False)`` in place, the same bits.

    Why: for f32 and f16 the ULP is a power of two whose inverse is a float64 normal, so
    multiplying by the inverse (made from the exponent field as the ULP itself is) gives
    the quotient exactly and costs a fraction of a float64 division. (Neither can reach
    the float64 denormal or overflow range: an f32 error is below 2^280 ULPs.)
    """
    hi = np.asarray(hi, dtype=np.float64)
    if _bits_path(fmt, hi):
        x *= _ulp_at_bits(hi, lo, fmt, specials=False, inverse=True)
    else:
        x /= _ulp_at_generic(hi, lo, fmt)


def _ulp_at_bits(hi: np.ndarray, lo: np.ndarray, fmt: FloatFormat, specials: bool = True,
                 inverse: bool = False) -> np.ndarray:
    """:func:`ulp_at` from the float64 exponent field: 2^(k-F) has the field E - F.

    Why: frexp/ldexp/np.where chains cost ~20 float64 passes; this is a handful of int64
    passes. The rare elements the field alone cannot settle (an exact power of two with a
    residual pointing below it; INF; NaN) are fixed on those small subsets, with the
    generic code's results (tests/model/test_engine_grid_primitives.py). ``inverse`` (with
    ``specials=False``): 1 / ULP, the field 2046 - E, for :func:`divide_by_ulp`.
    """
    assert not (inverse and specials), "an inverse ULP is only made without specials"
    F = fmt.frac_bits
    top = np.int64(0x7FF << 52)
    kmin, kmax = (fmt.minexp + 1023 - F) << 52, (fmt.maxexp - 1 + 1023 - F) << 52
    k = np.ascontiguousarray(hi).view(np.int64) & top
    special = np.flatnonzero(k == top) if specials else k[:0]
    inv = np.int64(2046 << 52)  # 2^(E-1023) -> 2^(1023-E): the field 2046 - E
    _clip_fields(k, np.int64(kmin + (F << 52)), np.int64(kmax + (F << 52)))  # E in range
    if inverse:  # the inverse's field straight from the clipped E: one pass fewer. (2046
        # + F) << 52 wraps around in int64; the difference, in range, wraps back
        np.subtract(_wrapped_int64((2046 + F) << 52), k, out=k)
    else:
        k -= np.int64(F << 52)
    out = k.view(np.float64)
    lo_b = lo if (isinstance(lo, np.ndarray) and lo.dtype == np.float64
                  and lo.shape == hi.shape) else np.broadcast_to(np.asarray(lo, np.float64),
                                                                  hi.shape)
    # just below a power of two (residual pointing inward): the binade below. Candidates
    # are exact powers of two (zero mantissa field) with a residual: rare, so a subset
    # (the residual is only read there: one pass fewer over lo).
    nz = k[:0] if is_zero_residual(lo_b) else _zero_mantissas(hi)
    if nz.size:
        nz = nz[lo_b[nz] != 0]
    if nz.size:
        h = hi[nz]
        u = h.view(np.int64)
        e = u & top
        with np.errstate(invalid="ignore"):
            below = (((u & np.int64((1 << 52) - 1)) == 0) & (e != 0) & (e != top)
                     & (lo_b[nz] * np.sign(h) < 0))
        kb = np.clip(e[below] - np.int64((F + 1) << 52), kmin, kmax)
        k[nz[below]] = inv - kb if inverse else kb
    if special.size:  # INF: frexp's exponent 0 (k = -1), as the generic code; NaN: NaN
        h = hi[special]
        inf_ulp = 2.0 ** (min(max(-1, fmt.minexp), fmt.maxexp - 1) - F)
        out[special] = np.where(np.isnan(h), np.nan, inf_ulp)
    return out


_MIN, _MAX = np.minimum.reduce, np.maximum.reduce
_MANTISSA = np.int64((1 << 52) - 1)


def _clip_fields(k: np.ndarray, lo: np.int64, hi: np.int64) -> None:
    """``np.clip(k, lo, hi, out=k)`` for exponent fields (``bits & 0x7FF << 52``): skipped
    when every field is in range already (the common case), which two float64
    reductions tell at half a clip's cost. (A field alone read as a float64 is +0, a
    power of two or +INF, in the order of the fields.)"""
    if not k.size:
        return
    kf = k.view(np.float64)
    flo, fhi = lo.view(np.float64), hi.view(np.float64)
    if _MIN(kf) >= flo and _MAX(kf) <= fhi:
        return
    np.clip(kf, flo, fhi, out=kf)  # (the same order as the fields; numpy's float64 clip
    # is faster than its int64 one: 23 against 34 us on 2^17 fields)


def _zero_mantissas(hi: np.ndarray) -> np.ndarray:
    """Indices of the float64 values with an all-zero mantissa field (powers of two,
    zeros, INF). One reduction first: the mantissa fields alone are non-negative float64
    values (+0 or denormal), so their minimum is 0 only if some field is; the index pass
    runs only then."""
    m = np.bitwise_and(np.ascontiguousarray(hi).view(np.int64), _MANTISSA)
    if not m.size or _MIN(m.view(np.float64)) > 0.0:
        return np.zeros(0, dtype=np.intp)
    return np.flatnonzero(m == 0)


def _wrapped_int64(c: int) -> np.int64:
    """``c`` as int64 arithmetic sees it (modulo 2^64)."""
    return np.int64(c - (1 << 64) if c >= 1 << 63 else c)


def _ulp_at_generic(hi: np.ndarray, lo: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    a = np.abs(hi)
    with np.errstate(invalid="ignore"):  # NaN/INF warn; NaN gives NaN below, INF is clipped
        _, e = np.frexp(a)
    k = e.astype(np.int64) - 1
    pow2 = (a > 0) & np.isfinite(a) & (np.ldexp(1.0, k.astype(np.int32)) == a)
    with np.errstate(invalid="ignore"):
        below = pow2 & (np.asarray(lo) * np.sign(hi) < 0)
    k = np.where(below, k - 1, k)
    k = np.where(a == 0, fmt.minexp, k)  # zero: the denormal spacing
    k = np.clip(k, fmt.minexp, fmt.maxexp - 1)
    out = np.ldexp(1.0, (k - fmt.frac_bits).astype(np.int32))
    return np.where(np.isnan(hi), np.nan, out)


def zero_same_specials(err: np.ndarray, hi: np.ndarray, obs: np.ndarray,
                        fmt: FloatFormat) -> None:
    """Set err to 0 where the observation is the exact INF itself or any NaN for a NaN.

    Why only NaN errors are looked at: (v - hi - lo) / u with a finite u is NaN exactly
    where hi or v is NaN or v == hi == +/-INF; among those, the zero cases are the ones
    where hi and v are both NaN or both not (then both the same INF). One isnan pass
    replaces five full-array masks; the rest runs on the NaN elements only, or on masks
    when they are many (half of an exhaustive sqrt sweep).

    The NaN elements are found by their 8-element words (:func:`.masked.word_indices`):
    a sweep chunk's few NaN errors lie in runs (the NaN operand patterns), where numpy's
    flatnonzero of the whole mask and its count cost more than the rest together.
    """
    n = err.size
    buf = padded_mask(n)
    bad = np.isnan(err, out=buf[:n])
    i = word_indices(buf)
    if i is not None:
        if i.size:
            z = np.isnan(hi[i]) == fmt.is_nan(obs[i])  # (NaN patterns: NaN values)
            err[i[z]] = 0.0
        return
    same = np.isnan(hi) == fmt.is_nan(obs)
    same &= bad
    fill_where(err, same, 0.0)  # (half of a sqrt sweep's elements: no branch per element)


def ulp_errors_into(fmt: FloatFormat, o: np.ndarray, hi: np.ndarray, lo: np.ndarray,
                    out: np.ndarray, finite: bool = False, values: np.ndarray | None = None,
                    hi32: np.ndarray | None = None) -> None:
    """Signed ULP errors of observed patterns ``o`` against the exact values hi + lo (flat
    arrays; the definition in :func:`ulp_error`), written into ``out``. ``finite``: the
    caller knows every hi is finite, so a NaN error can only come from a NaN observation
    and stays NaN (the INF/NaN pass is skipped). ``values``: ``fmt.value_view(o)`` when the
    caller has it already. ``hi32``: ``hi`` as float32 (the same values), given where the
    caller knows that ``values - hi32`` is exact in float32 (the f16 mul kernel's
    products: :func:`_errors32`)."""
    if hi.size and hi[0] != hi[0] and np.isnan(hi).all():  # exact NaN everywhere: 0 for a
        nan = fmt.is_nan(o)  # NaN observation, else NaN
        if nan.all():
            out[...] = 0.0
        else:
            np.copyto(out, np.where(nan, 0.0, np.nan))
        return
    with np.errstate(all="ignore"):
        if (hi32 is not None and values is not None and values.dtype == np.float32
                and is_zero_residual(lo) and _ulps32(fmt)):
            _errors32(fmt, values, hi32, out)
        else:
            np.copyto(out, fmt.value_view(o) if values is None else values)  # widened
            out -= hi  # (exactly)
            if not is_zero_residual(lo):
                out -= lo
            divide_by_ulp(out, hi, lo, fmt)  # by a finite ULP: INF and NaN stay
        if not finite:
            zero_same_specials(out, hi, o, fmt)


_TOP32 = np.uint32(0x7F800000)


def _ulps32(fmt: FloatFormat) -> bool:
    """Are the format's ULPs (2^(minexp-F) .. 2^(maxexp-1-F)) and their inverses all
    float32 normals? (f16, f11, f10, e5m2, e4m3; not bf16, whose smallest ULP is a float32
    denormal.)"""
    lo, hi = fmt.minexp - fmt.frac_bits, fmt.maxexp - 1 - fmt.frac_bits
    return -126 <= lo and hi <= 127 and -126 <= -hi and -lo <= 127


def _errors32(fmt: FloatFormat, values: np.ndarray, hi32: np.ndarray, out: np.ndarray
              ) -> None:
    """``out = (values - hi32) / ulp_at(hi32)`` computed in float32, the same float64
    values as the float64 passes give, at half their bytes.

    Why exact: the caller guarantees ``values - hi32`` is exact in float32 (an f16 result
    minus the f16 product it rounds: the product's 22 significant bits at most, its
    rounding's low bits; INF - finite is INF); the inverse ULP is a power of two whose
    float32 is a normal (:func:`_ulps32`), so the product is exact too (an error of at
    most half a ULP, or INF) and widens exactly. The ULP comes from hi32's exponent field
    clipped to the format's binades, as :func:`_ulp_at_bits` reads hi's (zero: the
    denormal spacing; INF and NaN: some finite ULP, as ``specials=False``). The residual
    is 0 (the caller's condition), so no power of two needs the binade below.
    Exhaustively equal to the float64 passes on every f16 x f16 product (docs/sweeps.md)."""
    F = fmt.frac_bits
    d = np.subtract(values, hi32)
    k = np.bitwise_and(hi32.view(np.uint32), _TOP32)
    kmin, kmax = np.uint32((fmt.minexp + 127) << 23), np.uint32((fmt.maxexp - 1 + 127) << 23)
    if k.size and (_MIN(k) < kmin or _MAX(k) > kmax):
        k.clip(kmin, kmax, out=k)  # (the method: one wrapper call fewer)
    np.subtract(np.uint32((254 + F) << 23), k, out=k)  # 2^(E-127) -> 2^(F-(E-127))
    d *= k.view(np.float32)
    np.copyto(out, d)


def ulp_error(obs: np.ndarray, hi: np.ndarray, lo: np.ndarray | None, fmt: FloatFormat
              ) -> np.ndarray:
    """Signed (observed - exact) / ULP of ``fmt`` at the exact value ``hi + lo`` (any
    shapes that broadcast together; ``lo`` None: 0).

    The ULP is :func:`ulp_at`'s (the denormal spacing at zero, the smaller binade just
    below a power of two). Exact INF or NaN: 0 when the observation is the same INF / any
    NaN, else +/-INF (INF exact) or NaN (NaN exact); a NaN observation of a finite exact
    value gives NaN.
    """
    o = np.asarray(obs).astype(fmt.dtype)
    h = np.asarray(hi, dtype=np.float64)
    lo_a = np.zeros(()) if lo is None else np.asarray(lo, dtype=np.float64)
    shape = np.broadcast_shapes(o.shape, h.shape, lo_a.shape)
    flat_o = np.ascontiguousarray(np.broadcast_to(o, shape)).reshape(-1)
    flat_h = np.ascontiguousarray(np.broadcast_to(h, shape)).reshape(-1)
    flat_lo = (zero_residual(flat_h) if lo is None or not lo_a.any()
               else np.ascontiguousarray(np.broadcast_to(lo_a, shape)).reshape(-1))
    out = np.empty(flat_o.size)
    ulp_errors_into(fmt, flat_o, flat_h, flat_lo, out)
    return out.reshape(shape)
