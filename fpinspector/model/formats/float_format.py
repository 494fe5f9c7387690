"""Floating-point formats as data (docs/rules.md FMT-*), vectorized decode/classify/fields/encode.

Every format here is described by its widths alone; nothing is special-cased by name.
Bit patterns are numpy unsigned integer arrays (or Python ints); values are float64,
which holds every value of every format here exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from ..reading import excerpt
from .encoding import ROUNDINGS, encode_exact, encode_float64, policy

__all__ = [
    "FloatFormat",
    "FORMATS",
    "F64",
    "F32",
    "F16",
    "F11",
    "F10",
    "CLASS_NAMES",
    "ROUNDINGS",
    "get_format",
    "as_int64",
]

#: Class codes returned by :meth:`FloatFormat.class_codes`; index into this tuple for the name.
CLASS_NAMES = ("zero", "denormal", "normal", "infinity", "nan")
ZERO, DENORMAL, NORMAL, INFINITY, NAN = range(5)



def as_int64(pattern: int) -> np.int64:
    """A pattern of up to 64 bits as the int64 with the same bits (two's complement).

    The neighbour and value-key arithmetic works in int64; f64's sign bit (2**63) does not
    fit a signed 64-bit integer as a Python int, and numpy >= 2.5 refuses to wrap it.
    """
    return np.uint64(pattern).astype(np.int64)


def _storage_dtype(bits: int) -> np.dtype:
    if bits <= 16:
        return np.dtype(np.uint16)
    if bits <= 32:
        return np.dtype(np.uint32)
    return np.dtype(np.uint64)


@dataclass(frozen=True)
class FloatFormat:
    """A binary floating-point format with IEEE-style encoding.

    Encoding: ``[sign] exponent fraction`` from the top bit down; exponent bias
    ``2**(exp_bits-1) - 1``; the all-ones exponent is infinity (fraction 0) or NaN;
    the all-zeros exponent is zero or a denormal ``2**(1-bias) * f / 2**frac_bits``.
    Unsigned formats (f11, f10) have no sign bit: their only infinity is +INF.
    """

    name: str
    exp_bits: int
    frac_bits: int
    signed: bool = True
    rule_id: str = ""
    description: str = field(default="", compare=False)

    # -- layout. Cached: derived from the frozen fields, and read about 150 times in one
    # scalar evaluation (as properties they were computed again on every read) ----------
    @cached_property
    def bits(self) -> int:
        """Total width in bits."""
        return int(self.signed) + self.exp_bits + self.frac_bits

    @cached_property
    def nexp(self) -> int:
        return self.exp_bits

    @cached_property
    def nmant(self) -> int:
        return self.frac_bits

    @cached_property
    def bias(self) -> int:
        return (1 << (self.exp_bits - 1)) - 1

    @cached_property
    def dtype(self) -> np.dtype:
        """numpy dtype used to store bit patterns of this format."""
        return _storage_dtype(self.bits)

    @cached_property
    def exp_max(self) -> int:
        """The all-ones biased exponent (INF/NaN)."""
        return (1 << self.exp_bits) - 1

    @cached_property
    def frac_mask(self) -> int:
        return (1 << self.frac_bits) - 1

    @cached_property
    def sign_mask(self) -> int:
        return (1 << (self.bits - 1)) if self.signed else 0

    @cached_property
    def mask(self) -> int:
        return (1 << self.bits) - 1

    @cached_property
    def minexp(self) -> int:
        """Unbiased exponent of the smallest normal number."""
        return 1 - self.bias

    @cached_property
    def maxexp(self) -> int:
        """numpy.finfo's maxexp: the first power of two that overflows."""
        return self.bias + 1

    # -- special patterns ---------------------------------------------------------
    @cached_property
    def pos_inf(self) -> int:
        return self.exp_max << self.frac_bits

    @cached_property
    def neg_inf(self) -> int | None:
        return self.sign_mask | self.pos_inf if self.signed else None

    @cached_property
    def quiet_nan(self) -> int:
        """The canonical positive quiet NaN (top fraction bit set)."""
        return self.pos_inf | (1 << (self.frac_bits - 1))

    @cached_property
    def max_finite_bits(self) -> int:
        return self.pos_inf - 1

    @cached_property
    def neg_zero(self) -> int | None:
        return self.sign_mask if self.signed else None

    # -- limits, exact ------------------------------------------------------------
    @cached_property
    def max(self) -> float:
        """Largest finite value."""
        return float(self.exact_value(self.max_finite_bits))

    @cached_property
    def smallest_normal(self) -> float:
        return float(self.exact_value(1 << self.frac_bits))

    @cached_property
    def smallest_subnormal(self) -> float:
        return float(self.exact_value(1))

    @cached_property
    def eps(self) -> float:
        """Distance from 1.0 to the next larger value."""
        return 2.0 ** -self.frac_bits

    @cached_property
    def _table(self) -> np.ndarray | None:
        """float64 value of every pattern, for formats of 16 bits or fewer."""
        if self.bits > 16:
            return None
        pats = np.arange(1 << self.bits, dtype=np.uint64)
        return self._decode_arith(pats)

    # -- bit fields ---------------------------------------------------------------
    def as_bits(self, bits: Any) -> np.ndarray:
        """Bit patterns as this format's storage dtype; refuses patterns wider than the format."""
        if type(bits) is int:  # one Python int (the scalar paths, ~a dozen per describe):
            # the checks below without an array reduction each
            if bits < 0:
                raise ValueError(f"{self.name}: bit patterns must be non-negative")
            if bits > self.mask:
                raise ValueError(f"{self.name}: pattern 0x{bits:X} is wider than {self.bits} bits")
            return np.asarray(bits, dtype=self.dtype)
        arr = np.asarray(bits)
        if arr.dtype == self.dtype and self.bits == 8 * arr.dtype.itemsize:
            return arr  # every value of the storage type is a pattern: no range scan
        if arr.dtype.kind == "O" or arr.dtype.kind == "i" or arr.dtype.kind == "u":
            if arr.dtype.kind in "iO":
                if arr.size and (np.min(arr) < 0):
                    raise ValueError(f"{self.name}: bit patterns must be non-negative")
            if arr.size and int(np.max(arr)) > self.mask:
                raise ValueError(
                    f"{self.name}: pattern 0x{int(np.max(arr)):X} is wider than {self.bits} bits"
                )
            return arr.astype(self.dtype, copy=False)
        raise TypeError(f"{self.name}: bit patterns must be integers, got {arr.dtype}")

    def fields(self, bits: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(sign, biased exponent, fraction) arrays; sign is 0 for unsigned formats."""
        b = self.as_bits(bits).astype(np.uint64)
        frac = b & np.uint64(self.frac_mask)
        exp = (b >> np.uint64(self.frac_bits)) & np.uint64(self.exp_max)
        if self.signed:
            sign = b >> np.uint64(self.bits - 1)
        else:
            sign = np.zeros_like(b)
        return sign, exp, frac

    def compose(self, sign: Any, exp: Any, frac: Any) -> np.ndarray:
        """Inverse of :meth:`fields`."""
        s = np.asarray(sign, dtype=np.uint64)
        e = np.asarray(exp, dtype=np.uint64)
        f = np.asarray(frac, dtype=np.uint64)
        if np.any(e > self.exp_max) or np.any(f > self.frac_mask) or np.any(s > 1):
            raise ValueError(f"{self.name}: field out of range")
        if not self.signed and np.any(s):
            raise ValueError(f"{self.name} has no sign bit")
        out = (e << np.uint64(self.frac_bits)) | f
        if self.signed:
            out |= s << np.uint64(self.bits - 1)
        return out.astype(self.dtype)

    def class_codes(self, bits: Any) -> np.ndarray:
        """int8 class codes (index into CLASS_NAMES): the fast form of :meth:`classify`."""
        mag = self._magnitude(bits)
        dt = self.dtype.type
        # ZERO..NAN are ordered by magnitude: count the thresholds each pattern reaches
        out = (mag != 0).view(np.int8)
        out += mag >= dt(1 << self.frac_bits)
        out += mag >= dt(self.pos_inf)
        out += mag > dt(self.pos_inf)
        return out

    def _magnitude(self, bits: Any) -> np.ndarray:
        """Patterns with the sign bit cleared, in the storage dtype (one pass, no widening)."""
        b = self.as_bits(bits)
        if not self.signed:
            return b
        return b & self.dtype.type(self.mask & ~self.sign_mask)

    def classify(self, bits: Any) -> np.ndarray:
        """Class name of each pattern: zero, denormal, normal, infinity, nan."""
        return np.asarray(CLASS_NAMES, dtype="<U8")[self.class_codes(bits)]

    def is_nan(self, bits: Any) -> np.ndarray:
        """NaN patterns (exponent field all ones, fraction not 0)."""
        b = self.as_bits(bits)
        if self.bits in (32, 64):  # one pass: numpy's isnan of the IEEE type (quietly, on
            return np.isnan(self.value_view(b))  # signalling NaNs too)
        return self._magnitude(b) > self.dtype.type(self.pos_inf)

    def is_denormal(self, bits: Any) -> np.ndarray:
        """Nonzero patterns below the smallest normal (exponent field 0, fraction not 0)."""
        mag = self._magnitude(bits)
        out = mag != 0
        out &= mag < self.dtype.type(1 << self.frac_bits)
        return out

    # -- decoding -------------------------------------------------------------------
    def _decode_arith(self, b: np.ndarray) -> np.ndarray:
        s, e, f = self.fields(b)
        ef = e.astype(np.int64)
        mant = f.astype(np.float64) / float(1 << self.frac_bits)
        normal = np.ldexp(1.0 + mant, (ef - self.bias).astype(np.int32))
        denorm = np.ldexp(mant, np.int32(self.minexp))
        val = np.where(ef == 0, denorm, normal)
        val = np.where(ef == self.exp_max, np.where(f == 0, np.inf, np.nan), val)
        return np.where(s == 1, -val, val)

    def decode(self, bits: Any) -> np.ndarray:
        """Exact value of each pattern as float64 (NaN for NaN patterns; DEC-* rules)."""
        b = self.as_bits(bits)
        if self.bits == 64:
            return b.view(np.float64).copy()
        if self.bits == 32:
            with np.errstate(invalid="ignore"):  # signalling NaNs quiet silently
                return b.view(np.float32).astype(np.float64)
        table = self._table
        assert table is not None  # every format here is 64, 32 or at most 16 bits wide
        return np.take(table, b)  # (a third faster than table[b] on 2^17 patterns)

    def value_view(self, bits: Any) -> np.ndarray:
        """The patterns as a numpy float array with the values of :meth:`decode`: a view
        for f32 and f64 (numpy has those types), else the decoded float64 copy.

        Why: ``np.copyto(out, view)`` widens each f32 element exactly into a float64
        array the caller already has, without decode's own float64 temporary.
        """
        b = self.as_bits(bits)
        if self.bits == 64:
            return b.view(np.float64)
        if self.bits == 32:
            return b.view(np.float32)
        return self.decode(b)

    def exact_value(self, bits: int) -> Fraction | float:
        """Exact value of one pattern as a Fraction (float inf/nan for the specials)."""
        b = int(bits)
        if b < 0 or b > self.mask:
            raise ValueError(f"{self.name}: pattern 0x{b:X} out of range")
        s = (b >> (self.bits - 1)) & 1 if self.signed else 0
        e = (b >> self.frac_bits) & self.exp_max
        f = b & self.frac_mask
        if e == self.exp_max:
            return float("nan") if f else (float("-inf") if s else float("inf"))
        if e == 0:
            v = Fraction(f, 1 << self.frac_bits) * Fraction(2) ** self.minexp
        else:
            v = Fraction((1 << self.frac_bits) + f, 1 << self.frac_bits) * Fraction(2) ** (
                e - self.bias
            )
        return -v if s else v

    # -- encoding -------------------------------------------------------------------
    def encode(
        self,
        values: Any,
        variant: str = "ieee",
        *,
        rounding: str | None = None,
        overflow: str | None = None,
    ) -> np.ndarray | int:
        """Nearest pattern for real values: round-to-nearest-even by default.

        ``values`` is a float64-compatible array (exact: every float64 is an exact
        input) or one exact scalar (``Fraction``, ``Decimal``, ``int``, ``str`` decimal),
        which is rounded exactly once. ``variant`` names a rounding policy:
        ``"ieee"``/``"rne"`` (nearest-even, overflow to INF), ``"rtz"``, ``"rtn"``,
        ``"rtp"`` (directed, overflow to INF where the direction allows it) and
        ``"rtz_sat"`` (toward zero, overflow to the largest finite value). ``rounding``
        and ``overflow`` (``"inf"``, ``"saturate"`` or ``"ieee"``) override it.
        Negative values in unsigned formats encode as 0.
        Encoder variants of other vendors live in :mod:`fpinspector.model.convert`.
        """
        rnd, ovf = policy(variant, rounding, overflow)
        if isinstance(values, (Fraction, Decimal, str)) or (
            isinstance(values, int) and not isinstance(values, bool)
        ):
            return encode_exact(self, values, rnd, ovf)
        x = np.asarray(values, dtype=np.float64)
        out = encode_float64(self, x.reshape(-1), rnd, ovf).reshape(x.shape)
        return out[()] if out.ndim == 0 else out

    # -- neighbours -----------------------------------------------------------------
    def next_up(self, bits: Any) -> np.ndarray:
        """Next pattern toward +INF (NaN stays; +INF stays; -0 and +0 both go to +min denormal)."""
        b = self.as_bits(bits).astype(np.int64)
        s = (b >> (self.bits - 1)) & 1 if self.signed else np.zeros_like(b)
        mag = b & (self.mask & ~self.sign_mask)
        out = np.where(s == 1, np.where(mag == 0, 1, b - 1), np.where(mag >= self.pos_inf, b, b + 1))
        neg_min = (s == 1) & (mag == 1)
        out = np.where(neg_min, as_int64(self.sign_mask), out)  # -min denormal -> -0
        out = np.where(self.is_nan(bits), b, out)
        return out.astype(self.dtype)

    def next_down(self, bits: Any) -> np.ndarray:
        """Next pattern toward -INF (unsigned formats stop at 0)."""
        b = self.as_bits(bits).astype(np.int64)
        s = (b >> (self.bits - 1)) & 1 if self.signed else np.zeros_like(b)
        mag = b & (self.mask & ~self.sign_mask)
        if self.signed:
            neg_step = np.where(mag >= self.pos_inf, b, b + 1)
            pos_step = np.where(mag == 0, as_int64(self.sign_mask | 1), b - 1)
            out = np.where(s == 1, neg_step, pos_step)
        else:
            out = np.where(mag == 0, 0, b - 1)
        out = np.where(self.is_nan(bits), b, out)
        return out.astype(self.dtype)

    def ulp(self, bits: Any) -> np.ndarray:
        """ULP at the value: the gap to the next pattern away from zero (2^(e-bias-F)).

        Zero and denormals have the denormal spacing; INF and the largest finite value have
        the spacing of the top binade; NaN gives NaN.
        """
        _, e, _ = self.fields(bits)
        ee = np.maximum(e.astype(np.int64), 1)
        ee = np.minimum(ee, self.exp_max - 1)
        out = np.ldexp(1.0, (ee - self.bias - self.frac_bits).astype(np.int32))
        return np.where(self.is_nan(bits), np.nan, out)

    def finfo_table(self) -> str:
        """numpy.finfo-like readable table of the format's limits."""
        rows = [
            ("bits", self.bits),
            ("exponent bits", self.exp_bits),
            ("fraction bits", self.frac_bits),
            ("bias", self.bias),
            ("signed", self.signed),
            ("max finite", float.hex(self.max) + f" = {self.max!r}"),
            ("min normal", float.hex(self.smallest_normal) + f" = {self.smallest_normal!r}"),
            (
                "min denormal",
                float.hex(self.smallest_subnormal) + f" = {self.smallest_subnormal!r}",
            ),
            ("epsilon", float.hex(self.eps) + f" = {self.eps!r}"),
        ]
        w = max(len(k) for k, _ in rows)
        return "\n".join(f"{k:<{w}}  {v}" for k, v in [("format", self.name)] + rows)

    def __str__(self) -> str:
        return self.finfo_table()


def _make(name: str, e: int, f: int, signed: bool, rule: str, desc: str) -> FloatFormat:
    return FloatFormat(name, e, f, signed, rule, desc)


F64 = _make("f64", 11, 52, True, "FMT-F64", "IEEE binary64; denormals kept (F64-DENORM)")
F32 = _make("f32", 8, 23, True, "FMT-F32", "IEEE binary32; math ops flush denormals (F32-FTZ)")
F16 = _make("f16", 5, 10, True, "FMT-F16", "IEEE binary16; denormals kept (F16-DENORM)")
F11 = _make("f11", 5, 6, False, "FMT-F11", "unsigned; R and G of R11G11B10_FLOAT")
F10 = _make("f10", 5, 5, False, "FMT-F10", "unsigned; B of R11G11B10_FLOAT")

#: name -> format, widest first.
FORMATS: dict[str, FloatFormat] = {f.name: f for f in (F64, F32, F16, F11, F10)}

_ALIASES = {
    "float64": "f64", "double": "f64", "fp64": "f64",
    "float32": "f32", "float": "f32", "fp32": "f32", "single": "f32",
    "float16": "f16", "half": "f16", "fp16": "f16",
    "float11": "f11", "fp11": "f11", "float10": "f10", "fp10": "f10",
}


def get_format(name: str | FloatFormat) -> FloatFormat:
    """Format by name or alias (``"f32"``, ``"float"``, ``"half"``...), with a clear error."""
    if isinstance(name, FloatFormat):
        return name
    if type(name) is str and name in FORMATS:  # an exact name: the common case, asked
        return FORMATS[name]  # about a hundred times per edit in the app
    key = _ALIASES.get(str(name).lower(), str(name).lower())
    try:
        return FORMATS[key]
    except KeyError:
        raise ValueError(
            f"unknown format {excerpt(name, 40)}; choose one of {', '.join(FORMATS)}"
        ) from None
