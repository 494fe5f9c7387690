"""Exact values as float64 pairs, and rounding them onto a format's grid of patterns.

The engine represents an exact result as ``hi + lo`` where ``hi`` is float64 and ``lo``
is the residual (exact for sums and products computed with the error-free transforms
below, sign-exact elsewhere). That is enough to round correctly, to find the two grid
neighbours of the exact value and to measure errors in ULPs (see :func:`ulp_at`).
"""

from __future__ import annotations

import functools

import numpy as np

from ..formats import NORMAL, FloatFormat, encode_float64
from ..numerics.eft import two_prod, two_sum  # noqa: F401  (re-exported)
from .ulp import _ulp_at_generic, divide_by_ulp, ulp_at  # noqa: F401  (re-exported)

__all__ = [
    "two_sum",
    "two_prod",
    "div_residual_narrow",
    "to_key",
    "from_key",
    "rne",
    "floor_pat",
    "ceil_pat",
    "flush_pat",
    "is_den",
    "is_den_one",
    "is_normal",
    "is_normal_one",
    "all_nan",
    "round_f16",
    "values",
    "ulp_at",
    "divide_by_ulp",
    "window_keys",
]

_LOW24 = np.int64(~((1 << 24) - 1))


def div_residual_narrow(a: np.ndarray, q: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The exact residual ``a - q*b`` of a float64 quotient ``q`` of values ``a``, ``b``
    with at most 24 significant bits (f32, f16 values), as a new array (NaN where ``q`` is
    not finite).

    Why not :func:`two_prod`: cutting the low 24 bits off q's significand gives
    ``h1`` (29 bits) and ``h2 = q - h1`` (24 bits), so ``h1*b`` and ``h2*b`` are exact
    float64 products, ``a - h1*b`` is exact (it is ``h2*b + r``, a number on the grid of
    those products and below 2^25 of its spacing), and so is the last difference ``r``,
    the same number two_prod's error term gives: six passes instead of eleven, with no
    INF/NaN fix-up (tests/model/test_engine_grid_primitives.py checks it with Fractions).
    """
    q = np.asarray(q, dtype=np.float64)
    h1 = np.empty(q.shape)  # (an array also for one element: the steps below write into it)
    np.bitwise_and(q.view(np.int64), _LOW24, out=h1.view(np.int64))
    with np.errstate(invalid="ignore", over="ignore"):
        h2 = np.subtract(q, h1)
        h1 *= b
        np.subtract(a, h1, out=h1)
        h2 *= b
        h1 -= h2
    return h1


def _native(fmt: FloatFormat) -> tuple | None:
    """(unsigned, signed) storage dtypes when keys can be made with one xor (f16/f32/f64)."""
    if not fmt.signed or (fmt.bits, fmt.exp_bits) not in ((16, 5), (32, 8), (64, 11)):
        return None
    return {16: (np.uint16, np.int16), 32: (np.uint32, np.int32), 64: (np.uint64, np.int64)}[
        fmt.bits]


def _xor_key(s: np.ndarray, bits: int) -> np.ndarray:
    """Sign-magnitude <-> ordered key in the signed storage type: an involution.

    Why: for a negative pattern 1|m read as signed, ``x ^ (2^(B-1) - 1)`` is ``-m - 1``,
    so one arithmetic shift, one and and one xor replace the uint64 widening and where.
    """
    t = s >> (bits - 1)
    t &= s.dtype.type((1 << (bits - 1)) - 1)
    t ^= s
    return t


def to_key(pat: np.ndarray | int, fmt: FloatFormat) -> np.ndarray:
    """Map patterns to int64 keys ordered like their values, with -0 just below +0."""
    nat = _native(fmt)
    if nat is not None:
        s = np.asarray(pat).astype(nat[0], copy=False).view(nat[1])
        return _xor_key(s, fmt.bits).astype(np.int64, copy=False)
    return _to_key_generic(pat, fmt)


def _to_key_generic(pat: np.ndarray | int, fmt: FloatFormat) -> np.ndarray:
    p = np.asarray(pat).astype(np.uint64)
    mag = (p & np.uint64(fmt.mask & ~fmt.sign_mask)).astype(np.int64)
    if not fmt.signed:
        return mag
    neg = (p >> np.uint64(fmt.bits - 1)) == 1
    return np.where(neg, -mag - 1, mag)


def from_key(key: np.ndarray | int, fmt: FloatFormat) -> np.ndarray:
    """Inverse of :func:`to_key`."""
    nat = _native(fmt)
    if nat is not None:
        s = np.asarray(key, dtype=np.int64).astype(nat[1])
        return _xor_key(s, fmt.bits).view(nat[0])
    return _from_key_generic(key, fmt)


def _from_key_generic(key: np.ndarray | int, fmt: FloatFormat) -> np.ndarray:
    k = np.asarray(key, dtype=np.int64)
    neg = k < 0
    mag = np.where(neg, -k - 1, k).astype(np.uint64)
    out = np.where(neg, mag | np.uint64(fmt.sign_mask), mag)
    return out.astype(fmt.dtype)


@functools.cache
def pattern_of(value: float, fmt: FloatFormat) -> int:
    """The pattern of a constant (1.0, 2^126, ...) in ``fmt``, encoded once per format.

    Why: the finisher asks for the same few constants in every chunk, and a general
    encode of a single value costs a few dozen microseconds."""
    return int(fmt.encode(value))


@functools.cache
def values32(fmt: FloatFormat) -> np.ndarray | None:
    """Every pattern's value as float32, for a format of 16 bits or fewer whose values are
    all float32 values (widened, each is bit for bit ``fmt.decode``'s float64, NaNs and
    their signs included); else None.

    Why: a table decode (``take``) of such patterns moves half the bytes through a table
    half the size (256 KiB for f16, against 512), and the engine's f16 kernels read the
    same table for the operands, so the result's decode finds it in the cache. Callers
    compare the values with float64 ones or copy them into float64 arrays: both widen
    exactly."""
    if fmt.bits > 16:
        return None
    with np.errstate(invalid="ignore"):
        wide = fmt.decode(np.arange(1 << fmt.bits, dtype=np.uint64).astype(fmt.dtype))
        narrow = wide.astype(np.float32)
    if not np.array_equal(narrow.astype(np.float64).view(np.uint64), wide.view(np.uint64)):
        return None
    narrow.flags.writeable = False
    return narrow


def is_normal(pat: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Normal patterns (exponent field 1..max-1), given in ``fmt``'s storage dtype.

    Why: with the sign shifted out, ``(p << 1) - (1 << (F+1))`` wraps below
    ``(max - 1) << (F+1)`` exactly for those: three storage-width passes, not five.
    """
    dt = fmt.dtype.type
    if fmt.signed and (fmt.bits != 8 * fmt.dtype.itemsize or not fmt.has_inf):
        return fmt.class_codes(pat) == NORMAL  # (the shift trick needs the sign on top)
    if not fmt.signed:
        e = (pat >> dt(fmt.frac_bits)) & dt(fmt.exp_max)
        return (e != 0) & (e != dt(fmt.exp_max))
    shift = fmt.frac_bits + 1
    t = np.left_shift(pat, dt(1))
    t -= dt(1 << shift)
    return t < dt((fmt.exp_max - 1) << shift)


def is_normal_one(pat: int, fmt: FloatFormat) -> bool:
    """:func:`is_normal` of one pattern given as a Python int (an app's one element).

    Why: a test of one element's exponent field in Python costs a tenth of numpy's calls
    on one-element arrays. Formats without INF keep normals in their top exponent field
    too: the array version decides for them."""
    if fmt.signed and not fmt.has_inf:
        return bool(is_normal(np.array([pat], dtype=fmt.dtype), fmt)[0])
    return ((pat >> fmt.frac_bits) & fmt.exp_max) not in (0, fmt.exp_max)


def is_den_one(pat: int, fmt: FloatFormat) -> bool:
    """:func:`is_den` of one pattern given as a Python int (an app's one element): its
    magnitude in 1 .. 2^frac_bits - 1."""
    mag = pat & (fmt.mask & ~fmt.sign_mask) if fmt.signed else pat
    return 0 < mag < 1 << fmt.frac_bits


def all_nan(pat: np.ndarray, fmt: FloatFormat) -> bool:
    """Is every pattern a NaN? (False for none.) The first one is looked at first: a chunk
    of numbers, the usual one, costs no pass here."""
    return bool(pat.size) and bool(fmt.is_nan(pat[:1])[0]) and bool(fmt.is_nan(pat).all())


def is_den(pat: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Denormal patterns (same as ``fmt.is_denormal``) in two storage-width passes.

    Why: ``(p << 1) - 1`` wraps zero to the top, so one unsigned compare finds
    0 < magnitude < 2^frac_bits without widening to uint64.
    """
    p = np.asarray(pat)
    if p.dtype != fmt.dtype or fmt.bits not in (16, 32, 64) or not fmt.signed:
        return fmt.is_denormal(p)
    dt = fmt.dtype.type
    t = p << dt(1)
    t -= dt(1)
    return t < dt((1 << (fmt.frac_bits + 1)) - 1)


def values(pat: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """float64 values of patterns (exact)."""
    return fmt.decode(np.asarray(pat).astype(fmt.dtype))


def representable(x: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Is each float64 ``x`` a value of ``fmt`` (INF included, NaN never)?

    The same answer as ``values(rne(x, 0), fmt) == x``, in a few whole-array passes for
    f16/f32/f64: an f16 value is a float32 whose bits below f16's precision are zero."""
    x = np.asarray(x, dtype=np.float64)
    t = fmt.numpy_float  # numpy's own type of the format, if any
    if t == np.float64:
        return x == x
    if t == np.float32 or t == np.float16:
        with np.errstate(all="ignore"):
            x32 = x.astype(np.float32)
            ok = x32 == x
            if t == np.float16:  # (numpy's casts to float16 are slow where inexact)
                m = np.abs(x32)
                # normal f16 range: the 13 float32 fraction bits below f16's are zero
                low = m.view(np.uint32) & np.uint32(0x1FFF)
                normal = (low == 0) & (m >= np.float32(2.0**-14)) & (m <= np.float32(65504.0))
                # below: a multiple of 2^-24, the smallest denormal (scaling is exact)
                s = m * np.float32(2.0**24)
                small = (np.rint(s) == s) & (m < np.float32(2.0**-14))
                ok &= normal | small | np.isinf(m)
        return ok
    return values(rne(x, np.zeros_like(x), fmt), fmt) == x


def flush_pat(pat: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """F32-FTZ: denormal patterns become the zero of the same sign."""
    p = np.asarray(pat).astype(fmt.dtype)
    den = is_den(p, fmt)
    return np.where(den, p & fmt.dtype.type(fmt.sign_mask), p)


def _encode(x: np.ndarray, fmt: FloatFormat, rnd: str, ovf: str) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if fmt.bits == 64:  # every float64 is on the f64 grid: no rounding in any direction
        return np.ascontiguousarray(x).view(np.uint64).copy()
    with np.errstate(all="ignore"):  # F32-NOEXC: casts may underflow/overflow by design
        if fmt.bits == 16 and fmt.exp_bits == 5 and rnd == "rne" and ovf == "ieee" and x.ndim:
            return round_f16(x)
        if fmt.bits == 32 and rnd in ("rtn", "rtp") and ovf == "inf":
            return _directed_f32(x, rnd == "rtp")
        return encode_float64(fmt, x.reshape(-1), rnd, ovf).reshape(x.shape)


def round_f16(hi: np.ndarray) -> np.ndarray:
    """RNE f16 patterns of float64 values, as formats.encode_float64 gives, in integer
    passes over the float64 bits.

    Why: numpy's double -> half cast is a scalar loop (about 5 ns an element, 70 ns where
    it over/underflows); this is a dozen vectorised passes. Normal range: add the RNE
    bias below the 11th significant bit of the float64 pattern and shift: the carry moves
    into the exponent by itself, the exponent is rebiased (1023 -> 15), and everything
    from 65520 (the midpoint above the max) up becomes INF by a clamp. Below 2^-14:
    rint(|x| * 2^24) (exact scaling, ties to even; 1024 is the smallest normal's pattern).
    NaN: the canonical quiet NaN with its sign (as formats.encode_float64).
    """
    hi = np.asarray(hi, dtype=np.float64)
    m = np.abs(hi)
    u = m.view(np.int64)
    t = u >> np.int64(42)
    t &= np.int64(1)  # the last kept bit: ties go to even
    t += np.int64((1 << 41) - 1)
    t += u
    t >>= np.int64(42)
    t -= np.int64(1008 << 10)  # (E << 10 | top 10 fraction bits), E rebiased 1023 -> 15
    np.minimum(t, np.int64(0x7C00), out=t)  # overflow and INF
    small = m < 2.0**-14
    if small.any():
        i = np.flatnonzero(small)
        t[i] = np.rint(m[i] * 2.0**24).astype(np.int64)
    bits = t.astype(np.uint16)
    sign = (hi.view(np.uint64) >> np.uint64(48)).astype(np.uint16)
    sign &= np.uint16(0x8000)
    bits |= sign
    nan = np.isnan(hi)
    if nan.any():  # canonical quiet NaN, sign kept (as formats.encode_float64)
        np.putmask(bits, nan, np.uint16(0x7E00) | sign)
    return bits


def round_f16_f32(x: np.ndarray) -> np.ndarray:
    """:func:`round_f16` of float32 values, in 32-bit integer passes (the same patterns).

    Why: a product of two f16 values is exact in float32 (22 significant bits, exponents
    from -48 to 32), and 32-bit passes move half the bytes of :func:`round_f16`'s 64-bit
    ones. Normal range: the RNE bias below the 11th significant bit, the carry into the
    exponent, rebias 127 -> 15, clamp to INF. Below 2^-14: ``|x| + 0.5`` in float32 rounds
    to nearest even at 2^-24, the f16 denormal spacing, so its pattern minus 0.5's is
    the f16 pattern (1024: the smallest normal). NaN: the canonical quiet NaN, sign kept.
    """
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    m = np.bitwise_and(u, np.uint32(0x7FFFFFFF))
    t = np.right_shift(m, np.uint32(13))
    t &= np.uint32(1)  # the last kept bit: ties go to even
    t += m
    t += np.uint32((0xFFF - (112 << 23)) % (1 << 32))  # bias, and exponent 127 -> 15
    t >>= np.uint32(13)
    np.minimum(t, np.uint32(0x7C00), out=t)  # overflow and INF (below 2^-14: wrapped, redone)
    small = m < np.uint32(113 << 23)
    nan = m > np.uint32(0x7F800000)
    if small.any():  # (m's buffer is reused from here on: only the masks are left of it)
        f = m.view(np.float32)
        with np.errstate(invalid="ignore"):  # (signalling NaNs: redone below)
            np.add(f, np.float32(0.5), out=f)
        m -= np.uint32(0x3F000000)
        np.copyto(t, m, where=small)
    if nan.any():  # canonical quiet NaN (as formats.encode_float64); the sign is set below
        np.copyto(t, np.uint32(0x7E00), where=nan)
    np.right_shift(u, np.uint32(16), out=m)
    m &= np.uint32(0x8000)
    t |= m
    return t.astype(np.uint16)


def _directed_f32(x: np.ndarray, up: bool) -> np.ndarray:
    """float64 -> f32 pattern rounded down (up) with INF as the grid point 2^128.

    Why: the float32 cast rounds to nearest (denormals kept, values >= max + ulp/2 to INF);
    one nextafter toward the wanted side fixes the direction, an order of magnitude faster
    than the generic integer encoder.
    """
    r = x.astype(np.float32)
    back = r.astype(np.float64)
    if up:
        step = back < x
        r = np.where(step, np.nextafter(r, np.float32(np.inf)), r)
    else:
        step = back > x
        r = np.where(step, np.nextafter(r, np.float32(-np.inf)), r)
        r = np.where(x >= 2.0**128, np.float32(np.inf), r)
    if up:
        r = np.where(x <= -(2.0**128), np.float32(-np.inf), r)
    return np.ascontiguousarray(r).view(np.uint32)


def _top(fmt: FloatFormat) -> float:
    """2^maxexp: where the grid places INF when it counts neighbours."""
    return float(2.0**fmt.maxexp)


def rne(hi: np.ndarray, lo: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Correctly rounded (nearest, ties to even) pattern of ``hi + lo``.

    Why the residual matters: ``hi`` alone may sit exactly on a midpoint of the target
    grid while the exact value does not; ``lo`` then decides the direction.
    """
    hi = np.asarray(hi, dtype=np.float64)
    pat = _encode(hi, fmt, "rne", "ieee")
    if fmt.bits == 64:
        return pat  # hi is already RN64(exact) by construction
    need = (np.asarray(lo) != 0) & np.isfinite(hi)
    if fmt.signed and fmt.exp_bits in (5, 8) and hi.ndim and need.any():
        need &= _maybe_midpoint(hi, fmt)
    if need.any():
        idx = np.nonzero(need)
        h = hi[idx]
        lo_s = np.broadcast_to(lo, hi.shape)[idx]
        dn = _encode(h, fmt, "rtn", "inf")
        up = _encode(h, fmt, "rtp", "inf")
        top = _top(fmt)
        vd = np.clip(values(dn, fmt), -top, top)
        vu = np.clip(values(up, fmt), -top, top)
        mid = (dn != up) & ((h - vd) == (vu - h))
        fixed = np.where(lo_s > 0, up, dn)
        sub = pat[idx]
        sub[mid] = fixed[mid]
        pat[idx] = sub
    return pat


def _maybe_midpoint(hi: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Where ``hi`` may be a midpoint of the f16/f32 grid (a superset of the true ones).

    Why: only a float64 exactly halfway between two neighbours needs the residual to
    round; in the normal range that is "the 52 - F low mantissa bits are 10...0". Values
    below the smallest normal or at/above 2^maxexp are always included (left to the
    generic neighbour test).
    """
    sh = 52 - fmt.frac_bits
    u = hi.view(np.int64)
    mid = (u & np.int64((1 << sh) - 1)) == np.int64(1 << (sh - 1))
    a = u & np.int64(0x7FFFFFFFFFFFFFFF)
    mid |= a < np.int64((1023 + fmt.minexp) << 52)
    mid |= a >= np.int64((1023 + fmt.maxexp) << 52)
    return mid


def floor_pat(hi: np.ndarray, lo: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Largest pattern whose value is <= hi + lo (INF counts as the grid point 2^maxexp)."""
    hi = np.asarray(hi, dtype=np.float64)
    pat = _encode(hi, fmt, "rtn", "inf")
    on_grid = values(pat, fmt) == hi
    step = on_grid & (np.asarray(lo) < 0)
    if step.any():
        pat = np.where(step, fmt.next_down(pat), pat).astype(fmt.dtype)
    return pat


def ceil_pat(hi: np.ndarray, lo: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Smallest pattern whose value is >= hi + lo (INF counts as the grid point 2^maxexp)."""
    hi = np.asarray(hi, dtype=np.float64)
    pat = _encode(hi, fmt, "rtp", "inf")
    on_grid = values(pat, fmt) == hi
    step = on_grid & (np.asarray(lo) > 0)
    if step.any():
        pat = np.where(step, fmt.next_up(pat), pat).astype(fmt.dtype)
    return pat


def window_keys(
    lo_hi: np.ndarray, lo_lo: np.ndarray, hi_hi: np.ndarray, hi_lo: np.ndarray, fmt: FloatFormat
) -> tuple[np.ndarray, np.ndarray]:
    """Keys of the patterns whose values lie in the exact interval [L, H].

    A zero at either end admits both zeros (the interval is about values, and -0 == +0).
    """
    lo_p = ceil_pat(lo_hi, lo_lo, fmt)
    hi_p = floor_pat(hi_hi, hi_lo, fmt)
    klo = to_key(lo_p, fmt)
    khi = to_key(hi_p, fmt)
    zero_mask = fmt.mask & ~fmt.sign_mask
    lo_zero = (lo_p.astype(np.uint64) & np.uint64(zero_mask)) == 0
    hi_zero = (hi_p.astype(np.uint64) & np.uint64(zero_mask)) == 0
    if fmt.signed:
        klo = np.where(lo_zero, -1, klo)
        khi = np.where(hi_zero, 0, khi)
    return klo, khi
