"""Floating-point formats as data (docs/rules.md FMT-*), vectorized decode/classify/fields/encode.

Every format here is one record: its widths, how it encodes INF and NaN, and what the rest
of the code needs to know of it (its D3D conversion policy, whether D3D defines arithmetic
in it, which rule sets flush its denormals, its names). Nothing is special-cased by name.
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
    "ALIASES",
    "IEEE_SPECIALS",
    "NAN_ONLY",
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


#: ``FloatFormat.specials``: the all-ones exponent is INF (fraction 0) or NaN (IEEE 754).
IEEE_SPECIALS = "ieee"
#: ``FloatFormat.specials``: no INF; the one NaN per sign has exponent and fraction all ones,
#: every other all-ones-exponent pattern is a normal number (OCP FP8 E4M3, "E4M3FN").
NAN_ONLY = "finite-nan-only"


@dataclass(frozen=True)
class FloatFormat:
    """A binary floating-point format: its widths and what the code needs to know of it.

    Encoding: ``[sign] exponent fraction`` from the top bit down; exponent bias
    ``2**(exp_bits-1) - 1``; the all-zeros exponent is zero or a denormal
    ``2**(1-bias) * f / 2**frac_bits``. ``specials`` says what the all-ones exponent holds:
    IEEE INF/NaN, or (``NAN_ONLY``) normal numbers but for the all-ones pattern, the NaN.
    Unsigned formats (f11, f10) have no sign bit: their only infinity is +INF.

    ``d3d_conversion`` is D3D's policy for a conversion into the format (``"exact"``:
    f64 holds every value; ``"dtof"``: CONV-DTOF; ``"rtz_sat"``: CONV-F2F-RTZ/SAT;
    ``""``: D3D defines none and the format's own IEEE-style rounding stands in).
    ``d3d_arith``: D3D defines arithmetic in the format (ops under d3d10/d3d11).
    ``flush_under``: the rule sets under which math ops flush its denormals (F32-FTZ).
    ``d3d_div_route``: D3D lets a divide in the format be the two-step x * rcp(y) (F32-DIV;
    whether a rule set takes it is ``RuleSet.div_route``). ``denorm_rule``: the rule that
    says D3D keeps its denormals in arithmetic (fired under the D3D rule sets).
    ``minmax_nan_rule``: the rule of min/max with one NaN operand; ``minmax_snan_option``:
    the option that makes a signalling NaN operand give NaN under D3D too (IEEE-MINMAX).
    ``aliases``: other names the parser and :func:`get_format` accept. ``rule_id`` names
    the format's row of docs/rules.md; where engine/rules.py has no row for it, the
    ``description`` and ``rule_source`` make one.
    """

    name: str
    exp_bits: int
    frac_bits: int
    signed: bool = True
    rule_id: str = ""
    description: str = field(default="", compare=False)
    specials: str = IEEE_SPECIALS
    d3d_conversion: str = ""
    d3d_arith: bool = False
    flush_under: tuple[str, ...] = ()
    d3d_div_route: bool = False
    denorm_rule: str = ""
    minmax_nan_rule: str = "F32-MINMAX-NAN"
    minmax_snan_option: str = ""
    aliases: tuple[str, ...] = field(default=(), compare=False)
    rule_source: str = field(default="docs/rules.md", compare=False)

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
        return self.top_exp - self.bias + 1

    # -- special patterns ---------------------------------------------------------
    @cached_property
    def has_inf(self) -> bool:
        """The format has infinities (every IEEE-style format; not OCP E4M3)."""
        return self.specials == IEEE_SPECIALS

    @cached_property
    def nan_only_from_nan(self) -> bool:
        """A NaN result means the exact result is NaN: rounding a finite value gives a
        number or an INF, never a NaN. False where an overflow rounds to the NaN (no INF:
        OCP E4M3), so a NaN there may stand for a finite exact value."""
        return self.has_inf

    @cached_property
    def pos_inf(self) -> int:
        """+INF; in a format without INF the pattern just above the largest finite value
        (its NaN): what a value that overflows without saturating encodes to, either way."""
        if self.has_inf:
            return self.exp_max << self.frac_bits
        return self.mask & ~self.sign_mask

    @cached_property
    def neg_inf(self) -> int | None:
        return self.sign_mask | self.pos_inf if self.signed else None

    @cached_property
    def nan_min(self) -> int:
        """The smallest NaN magnitude: a pattern with the sign cleared is NaN from here up."""
        return self.pos_inf + 1 if self.has_inf else self.pos_inf

    @cached_property
    def quiet_nan(self) -> int:
        """The canonical positive quiet NaN (top fraction bit set; the all-ones pattern
        where that is the only NaN)."""
        if not self.has_inf:
            return self.nan_min
        return self.pos_inf | (1 << (self.frac_bits - 1))

    @cached_property
    def top_exp(self) -> int:
        """The biased exponent of the top binade of finite values."""
        return self.exp_max - 1 if self.has_inf else self.exp_max

    @cached_property
    def overflow_value(self) -> float:
        """The value a pattern of magnitude :attr:`pos_inf` would have as a normal number:
        2^maxexp for IEEE-style formats; the encoders round to it, then to INF or NaN."""
        if self.has_inf:
            return 2.0 ** (self.bias + 1)
        return (2.0 - 2.0 ** -self.frac_bits) * 2.0 ** (self.exp_max - self.bias)

    @cached_property
    def numpy_float(self) -> np.dtype | None:
        """numpy's own float type with exactly these bits (f16, f32, f64), else None."""
        for t in (np.float16, np.float32, np.float64):
            fi = np.finfo(t)
            if (self.signed and self.has_inf and fi.nexp == self.exp_bits
                    and fi.nmant == self.frac_bits):
                return np.dtype(t)
        return None

    def flushes(self, rules: str) -> bool:
        """Math ops flush this format's denormals under rule set ``rules`` (F32-FTZ)."""
        return rules in self.flush_under

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
        out += mag >= dt(self.pos_inf)  # infinity (or, without INF, its NaN: counted twice)
        out += mag >= dt(self.nan_min)
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
        if self.bits >= 32:  # one pass: numpy's isnan of the IEEE type (quietly, on
            return np.isnan(self.value_view(b))  # signalling NaNs too)
        return self._magnitude(b) >= self.dtype.type(self.nan_min)

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
        if self.has_inf:
            val = np.where(ef == self.exp_max, np.where(f == 0, np.inf, np.nan), val)
        else:
            val = np.where((ef == self.exp_max) & (f == self.frac_mask), np.nan, val)
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
        if (b & ~self.sign_mask) >= self.nan_min:
            return float("nan")
        if self.has_inf and e == self.exp_max:
            return float("-inf") if s else float("inf")
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
        top = self.pos_inf if self.has_inf else self.max_finite_bits  # INF, or the max finite
        out = np.where(s == 1, np.where(mag == 0, 1, b - 1), np.where(mag >= top, b, b + 1))
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
            top = self.pos_inf if self.has_inf else self.max_finite_bits
            neg_step = np.where(mag >= top, b, b + 1)
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
        ee = np.minimum(ee, self.top_exp)
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


_D3D_RULE_SETS = ("d3d11", "d3d10")  # the rule sets of engine/rules.py RULE_SETS that flush

F64 = FloatFormat("f64", 11, 52, True, "FMT-F64", "IEEE binary64; denormals kept (F64-DENORM)",
                  d3d_conversion="exact", d3d_arith=True, denorm_rule="F64-DENORM",
                  minmax_nan_rule="F64-MINMAX-NAN", minmax_snan_option="f64_minmax_snan",
                  aliases=("float64", "double", "fp64"))
F32 = FloatFormat("f32", 8, 23, True, "FMT-F32",
                  "IEEE binary32; math ops flush denormals (F32-FTZ)",
                  d3d_conversion="dtof", d3d_arith=True, flush_under=_D3D_RULE_SETS,
                  d3d_div_route=True,
                  aliases=("float32", "float", "fp32", "single"))
F16 = FloatFormat("f16", 5, 10, True, "FMT-F16", "IEEE binary16; denormals kept (F16-DENORM)",
                  d3d_conversion="rtz_sat", d3d_arith=True, denorm_rule="F16-DENORM",
                  aliases=("float16", "half", "fp16"))
F11 = FloatFormat("f11", 5, 6, False, "FMT-F11", "unsigned; R and G of R11G11B10_FLOAT",
                  d3d_conversion="rtz_sat", denorm_rule="F11-DENORM", aliases=("float11", "fp11"))
F10 = FloatFormat("f10", 5, 5, False, "FMT-F10", "unsigned; B of R11G11B10_FLOAT",
                  d3d_conversion="rtz_sat", denorm_rule="F11-DENORM", aliases=("float10", "fp10"))
BF16 = FloatFormat("bf16", 8, 7, True, "FMT-BF16",
                   "bfloat16: sign, 8 exponent bits (bias 127), 7 fraction bits, IEEE-style INF "
                   "and NaN, denormals kept; the top half of a float32; no D3D arithmetic",
                   aliases=("bfloat16", "bfloat"),
                   rule_source="docs/rules.md; Google Cloud TPU bfloat16 definition")
E5M2 = FloatFormat("e5m2", 5, 2, True, "FMT-E5M2",
                   "OCP FP8 E5M2: sign, 5 exponent bits (bias 15), 2 fraction bits, IEEE-style "
                   "INF and NaN, denormals kept, max 57344; no D3D arithmetic",
                   aliases=("float8_e5m2", "fp8_e5m2"),
                   rule_source="docs/rules.md; OCP 8-bit Floating Point Specification (OFP8) rev 1.0")
E4M3 = FloatFormat("e4m3", 4, 3, True, "FMT-E4M3",
                   "OCP FP8 E4M3 (E4M3FN): sign, 4 exponent bits (bias 7), 3 fraction bits, no "
                   "INF, NaN only S.1111.111, denormals kept, max 448; no D3D arithmetic",
                   specials=NAN_ONLY, aliases=("float8_e4m3fn", "fp8_e4m3", "e4m3fn"),
                   rule_source="docs/rules.md; OCP 8-bit Floating Point Specification (OFP8) rev 1.0")

#: name -> format, widest first (then the formats D3D defines no arithmetic for).
FORMATS: dict[str, FloatFormat] = {f.name: f for f in (F64, F32, F16, F11, F10, BF16, E5M2,
                                                       E4M3)}

#: alias -> format name: every other name of every format (the parser reads this too).
ALIASES: dict[str, str] = {a: f.name for f in FORMATS.values() for a in f.aliases}


def get_format(name: str | FloatFormat) -> FloatFormat:
    """Format by name or alias (``"f32"``, ``"float"``, ``"half"``...), with a clear error."""
    if isinstance(name, FloatFormat):
        return name
    if type(name) is str and name in FORMATS:  # an exact name: the common case, asked
        return FORMATS[name]  # about a hundred times per edit in the app
    key = ALIASES.get(str(name).lower(), str(name).lower())
    try:
        return FORMATS[key]
    except KeyError:
        raise ValueError(
            f"unknown format {excerpt(name, 40)}; choose one of {', '.join(FORMATS)}"
        ) from None
