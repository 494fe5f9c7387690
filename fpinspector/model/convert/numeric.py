"""Float <-> integer / UNORM / SNORM / sRGB conversions and dtof (CONV-FTOI ... CONV-DTOF).

Every function is vectorized and returns a :class:`NumericResult`: the model result, the
exact (float64) value it approximates, the inclusive window ``lo..hi`` of conformant
results (integer codes, or float32 patterns ordered by value), and which rules fired.
Float inputs are float32 bit patterns; conversions are math operations, so float32
denormal inputs are flushed first (F32-FTZ). Sources: D3D11.3 functional spec §3.2.2,
§3.2.3 and §22 as summarised in docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..formats import F32, FloatFormat, encode_exact
from ..numerics.elementary import power
from .floats import convert

__all__ = [
    "NumericResult", "ftoi", "ftou", "itof", "utof", "dtof",
    "f32_to_unorm", "unorm_to_f32", "f32_to_snorm", "snorm_to_f32",
    "f32_to_srgb8", "srgb8_to_f32",
]

U32 = np.uint32


@dataclass
class NumericResult:
    """Model result, exact value, conformant window and fired rules of a numeric conversion.

    ``bits``: integer codes (ftoi/ftou/UNORM/SNORM/sRGB) or float32 patterns (uint32);
    ``exact``: float64 value of the infinitely precise result (for display);
    ``lo``/``hi``: inclusive window of allowed results, same kind as ``bits`` (float32
    patterns of the smallest and largest allowed value); ``fired``: rule ID -> bool mask;
    ``fmt``: the float format of the patterns (None: integer codes).
    """

    bits: Any
    exact: Any
    lo: Any
    hi: Any
    fired: dict[str, np.ndarray]
    fmt: FloatFormat | None = None

    def allowed(self, observed: Any) -> np.ndarray:
        """Whether observed results lie in the window (float32 patterns compared by value)."""
        o = np.asarray(observed)
        fmt = self.fmt
        if fmt is not None:  # patterns compared by value (decoded: -0 == +0, NaN nowhere)
            with np.errstate(invalid="ignore"):
                v, lo, hi = (fmt.decode(np.asarray(a).astype(fmt.dtype))
                             for a in (o, self.lo, self.hi))
            return (v >= lo) & (v <= hi)
        return (o >= np.asarray(self.lo)) & (o <= np.asarray(self.hi))


def _sc(a: np.ndarray) -> Any:
    return a[()] if a.ndim == 0 else a


def _result(bits: Any, exact: Any, lo: Any, hi: Any, fired: dict[str, Any],
            fmt: FloatFormat | None = None) -> NumericResult:
    shape = np.shape(bits)
    fired = {k: np.broadcast_to(v, shape).copy() for k, v in fired.items() if np.any(v)}
    return NumericResult(_sc(np.asarray(bits)), _sc(np.asarray(exact)), _sc(np.asarray(lo)),
                         _sc(np.asarray(hi)), fired, fmt)


def _f32_in(bits: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(value after F32-FTZ, nan mask, denormal mask, raw patterns) of float32 patterns."""
    try:
        u = F32.as_bits(bits).astype(U32)
    except TypeError as exc:
        raise ValueError(str(exc)) from None
    den = ((u & U32(0x7F800000)) == 0) & ((u & U32(0x7FFFFF)) != 0)
    u2 = np.where(den, u & U32(0x80000000), u)
    with np.errstate(invalid="ignore"):
        x = u2.view(np.float32).astype(np.float64)
    return x, np.isnan(x), den, u


def _ints(values: Any, lo: int, hi: int, what: str) -> np.ndarray:
    a = np.asarray(values)
    if a.dtype.kind not in "iuO" or a.dtype == bool:
        raise ValueError(f"{what}: expected integers, got {a.dtype}")
    if a.size and (int(a.min()) < lo or int(a.max()) > hi):
        raise ValueError(f"{what}: values must lie in {lo}..{hi}")
    return a.astype(np.int64)


def _bits_of(n: int) -> None:
    if not isinstance(n, (int, np.integer)) or not 1 <= int(n) <= 24:
        raise ValueError(f"bit count n must be an integer in 1..24, got {n!r}")


# ------------------------------------------------------------------------------ float <-> int


def _ftoint(bits: Any, lo: float, hi: float, dtype: type[np.integer], rule: str
            ) -> NumericResult:
    x, nan, den, _ = _f32_in(bits)
    exact = np.where(nan, 0.0, np.clip(x, lo, hi))
    out = np.trunc(exact).astype(dtype)
    fired = {rule: ~nan, "CONV-NAN": nan, "F32-FTZ": den}
    return _result(out, np.where(nan, np.nan, x), out, out, fired)


def ftoi(bits: Any) -> NumericResult:
    """CONV-FTOI: float32 -> int32, toward zero, clamped to [-2147483648.999, 2147483647.999],
    NaN -> 0."""
    return _ftoint(bits, -2147483648.999, 2147483647.999, np.int32, "CONV-FTOI")


def ftou(bits: Any) -> NumericResult:
    """CONV-FTOI (ftou): float32 -> uint32, toward zero, clamped to [0, 4294967295.999], NaN -> 0."""
    return _ftoint(bits, 0.0, 4294967295.999, np.uint32, "CONV-FTOI")


def _f32_window(exact: np.ndarray, near: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """float32 patterns below/above an exact value, given its nearest float32 ``near``."""
    nf = near.view(np.float32)
    up = np.nextafter(nf, np.float32(np.inf))
    dn = np.nextafter(nf, np.float32(-np.inf))
    nv = nf.astype(np.float64)
    lo = np.where(nv > exact, dn, nf)
    hi = np.where(nv < exact, up, nf)
    return lo.view(U32), hi.view(U32)


def _itof(values: np.ndarray) -> NumericResult:
    exact = values.astype(np.float64)  # every 32-bit integer is exact in float64
    near = exact.astype(np.float32).view(U32)  # one rounding: nearest even
    lo, hi = _f32_window(exact, near)
    return _result(near, exact, lo, hi, {"CONV-ITOF": np.ones(exact.shape, bool)}, F32)


def itof(values: Any) -> NumericResult:
    """CONV-ITOF: int32 -> float32; nearest even is the model, either neighbour conforms."""
    return _itof(_ints(values, -2**31, 2**31 - 1, "itof"))


def utof(values: Any) -> NumericResult:
    """CONV-ITOF (utof): uint32 -> float32; nearest even, either neighbour conforms."""
    return _itof(_ints(values, 0, 2**32 - 1, "utof"))


def dtof(bits: Any) -> NumericResult:
    """CONV-DTOF: float64 -> float32, nearest even (the d3d conversion); no tolerance."""
    r = convert(bits, "f64", "f32", "d3d")
    with np.errstate(invalid="ignore"):
        exact = np.asarray(r.src_bits, np.uint64).view(np.float64)
    fired = dict(r.fired)
    fired.setdefault("CONV-DTOF", np.zeros(np.shape(r.bits), bool))
    return _result(r.bits, exact, r.bits, r.bits, fired, F32)


# ------------------------------------------------------------------------------ norm formats


def _code_dtype(n: int, signed: bool) -> type[np.integer]:
    if n <= 8:
        return np.int8 if signed else np.uint8
    if n <= 16:
        return np.int16 if signed else np.uint16
    return np.int32 if signed else np.uint32


def _window(exact: np.ndarray, cmin: int, cmax: int) -> tuple[np.ndarray, np.ndarray]:
    """Codes within 0.6 of the exact value (CONV-UNORM/SNORM/SRGB tolerance).

    ``exact`` is a dyadic float64 (float32 times an integer); its distance from c +/- 0.6
    is at least 1/(5*2^40) whenever it could matter, far above float64 rounding here.
    """
    lo = np.clip(np.ceil(exact - 0.6), cmin, cmax)
    hi = np.clip(np.floor(exact + 0.6), cmin, cmax)
    return lo, hi


def f32_to_unorm(bits: Any, n: int) -> NumericResult:
    """CONV-UNORM float -> UNORM n: NaN -> 0, clamp [0, 1], * (2^n - 1), + 0.5, truncate."""
    _bits_of(n)
    x, nan, den, _ = _f32_in(bits)
    scale = float((1 << n) - 1)
    exact = np.where(nan, 0.0, np.clip(x, 0.0, 1.0)) * scale
    dt = _code_dtype(n, False)
    lo, hi = _window(exact, 0, (1 << n) - 1)
    out = np.floor(exact + 0.5)
    fired = {"CONV-UNORM": np.ones(x.shape, bool), "CONV-NAN": nan, "F32-FTZ": den}
    return _result(out.astype(dt), exact, lo.astype(dt), hi.astype(dt), fired)


def f32_to_snorm(bits: Any, n: int) -> NumericResult:
    """CONV-SNORM float -> SNORM n: NaN -> 0, clamp [-1, 1], * (2^(n-1) - 1), +/- 0.5, truncate."""
    _bits_of(n)
    if n < 2:
        raise ValueError("SNORM needs at least 2 bits")
    x, nan, den, _ = _f32_in(bits)
    m = (1 << (n - 1)) - 1
    exact = np.where(nan, 0.0, np.clip(x, -1.0, 1.0)) * float(m)
    dt = _code_dtype(n, True)
    lo, hi = _window(exact, -m, m)
    out = np.trunc(exact + np.copysign(0.5, exact))
    fired = {"CONV-SNORM": np.ones(x.shape, bool), "CONV-NAN": nan, "F32-FTZ": den}
    return _result(out.astype(dt), exact, lo.astype(dt), hi.astype(dt), fired)


def _div_to_f32(num: np.ndarray, den: int) -> np.ndarray:
    """float32 patterns of num/den correctly rounded (float64 division, midpoints redone)."""
    q = num.astype(np.float64) / float(den)
    out = q.astype(np.float32).view(U32).copy()
    low = q.view(np.uint64) & np.uint64((1 << 29) - 1)  # bits below float32 precision
    tie = (low == np.uint64(1 << 28)) & (q != 0)  # double rounding could be wrong here only
    for i in np.flatnonzero(tie):  # rare: exact rounding of the few possible midpoints
        out.flat[i] = encode_exact(F32, Fraction(int(num.flat[i]), den), "rne")
    return out


def unorm_to_f32(code: Any, n: int, method: str = "divide") -> NumericResult:
    """CONV-UNORM UNORM n -> float: c / (2^n - 1) correctly rounded (``method="divide"``).

    ``method="reciprocal"`` computes ``float(c) * float(1 / (2^n - 1))`` in float32, as
    DirectXMath's loaders do: docs/rules.md case 8 (126 UNORM8 codes differ). The window
    is the correctly rounded value only.
    """
    _bits_of(n)
    d = (1 << n) - 1
    c = _ints(code, 0, d, "UNORM code")
    if method == "divide":
        out = _div_to_f32(c, d)
    elif method == "reciprocal":
        out = (c.astype(np.float32) * np.float32(1.0 / d)).view(U32)
    else:
        raise ValueError(f"method must be 'divide' or 'reciprocal', got {method!r}")
    ref = _div_to_f32(c, d)
    fired = {"CONV-UNORM": np.ones(c.shape, bool)}
    return _result(out, c / float(d), ref, ref, fired, F32)


def snorm_to_f32(code: Any, n: int) -> NumericResult:
    """CONV-SNORM SNORM n -> float: -2^(n-1) -> -1.0, else c / (2^(n-1) - 1) correctly rounded."""
    _bits_of(n)
    m = (1 << (n - 1)) - 1
    c = _ints(code, -m - 1, m, "SNORM code")
    mag = _div_to_f32(np.minimum(np.abs(c), m), m)
    out = np.where(c < 0, mag | U32(0x80000000), mag)
    fired = {"CONV-SNORM": np.ones(c.shape, bool)}
    return _result(out, np.maximum(c / float(m), -1.0), out, out, fired, F32)


def _srgb_encode(c: np.ndarray) -> np.ndarray:
    """The sRGB curve in float64 (``power``, not ``np.power``: the same bits on every CPU)."""
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * power(c, 1 / 2.4) - 0.055)


def _srgb_decode(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, power((np.maximum(c, 0) + 0.055) / 1.055, 2.4))


def f32_to_srgb8(bits: Any) -> NumericResult:
    """CONV-SRGB linear float -> sRGB8: NaN -> 0, clamp [0, 1], the sRGB curve, * 255, + 0.5,
    truncate; window 0.6 ULP (curve evaluated in float64: ~1e-16 relative)."""
    x, nan, den, _ = _f32_in(bits)
    c = np.where(nan, 0.0, np.clip(x, 0.0, 1.0))
    exact = _srgb_encode(c) * 255.0
    lo, hi = _window(exact, 0, 255)
    out = np.floor(exact + 0.5)
    fired = {"CONV-SRGB": np.ones(x.shape, bool), "CONV-NAN": nan, "F32-FTZ": den}
    return _result(out.astype(np.uint8), exact, lo.astype(np.uint8), hi.astype(np.uint8), fired)


def srgb8_to_f32(code: Any) -> NumericResult:
    """CONV-SRGB sRGB8 -> linear float: the inverse curve, nearest float32; window 0.5 ULP on
    the sRGB side (every float32 whose sRGB value is within half a code); 0 and 1 exact."""
    c = _ints(code, 0, 255, "sRGB8 code")
    exact = _srgb_decode(c / 255.0)
    near = exact.astype(np.float32).view(U32)
    lo_v = _srgb_decode((c - 0.5) / 255.0)
    hi_v = _srgb_decode(np.minimum(c + 0.5, 255.0) / 255.0)
    lo = lo_v.astype(np.float32)  # smallest float32 >= lo_v
    lo = np.where(lo.astype(np.float64) < lo_v, np.nextafter(lo, np.float32(np.inf)), lo)
    hi = hi_v.astype(np.float32)  # largest float32 <= hi_v
    hi = np.where(hi.astype(np.float64) > hi_v, np.nextafter(hi, np.float32(-np.inf)), hi)
    edge = (c == 0) | (c == 255)
    lo = np.where(edge, near.view(np.float32), lo).astype(np.float32).view(U32)
    hi = np.where(edge, near.view(np.float32), hi).astype(np.float32).view(U32)
    return _result(near, exact, lo, hi, {"CONV-SRGB": np.ones(c.shape, bool)}, F32)
