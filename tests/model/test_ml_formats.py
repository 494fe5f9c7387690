"""bf16 and the OCP FP8 formats (FMT-BF16, FMT-E5M2, FMT-E4M3), exhaustively, against
``ml_dtypes`` (Google's implementation of the same types, written by nobody here) and, for
the roundings and saturation modes ml_dtypes does not have, against an oracle in this file
(its own decoder from the widths, ``fractions.Fraction`` for every rounding decision).

ml_dtypes casts round to nearest even without saturating (E4M3: overflow and INF -> NaN),
and from float64 it rounds through float32 first (1 + 2^-4 + 2^-30 -> E4M3 1.0, a double
rounding): so it is the reference for float32 and float16 inputs only; float64 inputs are
checked against the oracle.
"""

from __future__ import annotations

import bisect
import math
from fractions import Fraction

import numpy as np
import pytest

from fpinspector.model import convert, get_format, parse

ml_dtypes = pytest.importorskip("ml_dtypes")

#: name -> (rule ID, exponent bits, fraction bits, INF/NaN encoding, the ml_dtypes type)
SPECS = {
    "bf16": ("FMT-BF16", 8, 7, "ieee", ml_dtypes.bfloat16),
    "e5m2": ("FMT-E5M2", 5, 2, "ieee", ml_dtypes.float8_e5m2),
    "e4m3": ("FMT-E4M3", 4, 3, "fn", ml_dtypes.float8_e4m3fn),
}
NAMES = list(SPECS)


class Oracle:
    """The format's finite values from its widths alone, and every rounding by Fraction."""

    def __init__(self, name: str) -> None:
        _, e, f, specials, _ = SPECS[name]
        self.e, self.f, self.fn = e, f, specials == "fn"
        bias = (1 << (e - 1)) - 1
        top = (1 << (e + f)) - (1 if self.fn else (1 << f))  # first magnitude past the max
        self.vals = [self._value(m, bias) for m in range(top + 1)]  # [top]: the next step
        self.floats = [float(v) for v in self.vals]
        self.max_bits = top - 1
        self.sign = 1 << (e + f)
        self.nan = (1 << (e + f)) - 1 if self.fn else top | (1 << (f - 1))
        self.inf = None if self.fn else top

    def _value(self, m: int, bias: int) -> Fraction:
        ef, fr = m >> self.f, m & ((1 << self.f) - 1)
        if ef == 0:
            return Fraction(fr, 1 << self.f) * Fraction(2) ** (1 - bias)
        return Fraction((1 << self.f) + fr, 1 << self.f) * Fraction(2) ** (ef - bias)

    def encode(self, x: float, rnd: str, overflow: str) -> int | None:
        """The pattern of ``x`` (None: a NaN); overflow "ieee" (IEEE 754 §7.4), "inf"
        (INF, or NaN without INF), "saturate" (largest finite; INF stays INF: D3D) or
        "clamp" (OCP SAT: INF too becomes the largest finite value)."""
        if math.isnan(x):
            return None
        neg = math.copysign(1.0, x) < 0
        s = self.sign if neg else 0
        if math.isinf(x):
            if overflow == "clamp":
                return s | self.max_bits
            return None if self.fn else s | self.inf
        a = Fraction(abs(x))
        i = bisect.bisect_right(self.floats, float(a)) - 1
        if self.vals[i] == a or i == len(self.vals) - 1:  # (past the next step: overflow)
            m = i
        else:
            lo, hi = self.vals[i], self.vals[i + 1]
            up = {"rtz": False, "rtp": not neg, "rtn": neg,
                  "rne": a - lo > hi - a or (a - lo == hi - a and i % 2 == 1)}[rnd]
            m = i + 1 if up else i
        if m <= self.max_bits:
            return s | m
        to_inf = {"inf": True, "saturate": False, "clamp": False,
                  "ieee": rnd == "rne" or (rnd == "rtp" and not neg) or (rnd == "rtn" and neg)
                  }[overflow]
        if not to_inf:
            return s | self.max_bits
        return None if self.fn else s | self.inf


def _all(name: str) -> np.ndarray:
    fmt = get_format(name)
    return np.arange(1 << fmt.bits, dtype=np.uint64).astype(fmt.dtype)


def _raw(name: str) -> type:
    """The unsigned type of ml_dtypes' storage (the model stores 8-bit patterns in uint16)."""
    return np.uint8 if get_format(name).bits == 8 else np.uint16


def _ml_view(name: str, pats: np.ndarray) -> np.ndarray:
    return pats.astype(_raw(name)).view(SPECS[name][4])


def _ml_bits(name: str, values: np.ndarray) -> np.ndarray:
    """ml_dtypes values of the format as the model's patterns."""
    return values.view(_raw(name)).astype(get_format(name).dtype)


def _f32_sample(name: str) -> np.ndarray:
    """Every float32 exponent with the mantissas that decide a rounding into ``name``:
    zero, one, all ones, the tie of the target's last bit and its neighbours, the
    target's own grid points; both signs; the specials; 20,000 random patterns."""
    f = SPECS[name][2]
    half = 1 << (22 - f)
    mants = {0, 1, 2, (1 << 23) - 1, half, half - 1, half + 1, 3 * half, 3 * half - 1,
             3 * half + 1, 2 * half, (1 << 23) - half, (1 << 23) - half - 1}
    rows = [(s << 31) | (e << 23) | m for s in (0, 1) for e in range(256) for m in mants]
    rng = np.random.default_rng(37)
    rand = rng.integers(0, 1 << 32, 20_000, dtype=np.uint64)
    return np.concatenate([np.asarray(rows, np.uint64), rand]).astype(np.uint32)


def _same(got: np.ndarray, want: list[int | None], fmt_name: str) -> None:
    fmt = get_format(fmt_name)
    got = np.asarray(got).astype(np.int64)
    isnan = np.asarray(fmt.is_nan(np.asarray(got).astype(fmt.dtype)))
    bad = [(i, int(g), w) for i, (g, w, n) in enumerate(zip(got, want, isnan))
           if (w is None and not n) or (w is not None and g != w)]
    assert not bad, f"{len(bad)} differ, first (index, got, want): {bad[:5]}"


@pytest.mark.parametrize("name", NAMES)
def test_decode_every_pattern_value_and_class(name: str) -> None:
    """FMT-BF16/FMT-E5M2/FMT-E4M3 and DEC-*: the value and class of every pattern are
    ml_dtypes' (NaN where it says NaN; zero, denormal, normal by its smallest normal)."""
    fmt, pats = get_format(name), _all(name)
    want = _ml_view(name, pats).astype(np.float64)
    got = fmt.decode(pats)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(got[~nan], want[~nan])
    assert np.array_equal(np.signbit(got[~nan]), np.signbit(want[~nan]))
    tiny = float(ml_dtypes.finfo(SPECS[name][4]).smallest_normal)
    a = np.abs(want)
    cls = np.select([nan, np.isinf(want), a == 0, a < tiny], ["nan", "infinity", "zero",
                                                             "denormal"], "normal")
    assert np.array_equal(fmt.classify(pats), cls)
    assert fmt.max == float(ml_dtypes.finfo(SPECS[name][4]).max)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dst", ["f32", "f64", "f16"])
def test_every_pattern_converts_out_as_ml_dtypes(name: str, dst: str) -> None:
    """CONV-WIDEN (f32, f64: exact) and ROUND-NEAREST (f16, ieee variant): every pattern
    converts to ml_dtypes' cast; NaN stays NaN."""
    pats = _all(name)
    np_t = {"f32": np.float32, "f64": np.float64, "f16": np.float16}[dst]
    want = _ml_view(name, pats).astype(np_t).view(get_format(dst).dtype)
    for variant in ("ieee", "d3d") if dst != "f16" else ("ieee",):
        got = np.asarray(convert(pats, name, dst, variant).bits)
        d = get_format(dst)
        nan = np.asarray(d.is_nan(want))
        assert np.array_equal(np.asarray(d.is_nan(got)), nan)
        assert np.array_equal(got[~nan], want[~nan]), variant


@pytest.mark.parametrize("name", NAMES)
def test_every_pattern_into_f16_by_d3d_rtz_sat(name: str) -> None:
    """CONV-F2F-RTZ, CONV-F2F-SAT: into f16 by the d3d variant, toward zero, a finite value
    too large saturates, INF stays INF (oracle: Fraction, f16's widths)."""
    pats = _all(name)
    x = get_format(name).decode(pats)
    f16 = _f16_oracle()
    want = [f16.encode(float(v), "rtz", "saturate") for v in x]
    _same(convert(pats, name, "f16", "d3d").bits, want, "f16")


def _f16_oracle() -> Oracle:
    SPECS.setdefault("f16", ("FMT-F16", 5, 10, "ieee", np.float16))
    return Oracle("f16")


@pytest.mark.parametrize("name", NAMES)
def test_every_f16_and_an_f32_sample_convert_in_as_ml_dtypes(name: str) -> None:
    """ROUND-NEAREST into the format (ieee and d3d variants: D3D defines no conversion into
    it): every f16 pattern and the float32 sample round as ml_dtypes' casts."""
    t = SPECS[name][4]
    f16 = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    f32 = _f32_sample(name)
    for src, pats, np_t in (("f16", f16, np.float16), ("f32", f32, np.float32)):
        want = _ml_bits(name, pats.view(np_t).astype(t))
        for variant in ("ieee", "d3d"):
            got = np.asarray(convert(pats, src, name, variant).bits)
            fmt = get_format(name)
            nan = np.asarray(fmt.is_nan(want))
            assert np.array_equal(np.asarray(fmt.is_nan(got)), nan), (src, variant)
            assert np.array_equal(got[~nan], want[~nan]), (src, variant)


MODES = {"rtz": ("rtz", "inf"), "rne_sat": ("rne", "clamp"), "rtz_sat": ("rtz", "clamp"),
         "ieee": ("rne", "inf")}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("mode", list(MODES))
def test_rtz_and_saturation_modes_against_the_fraction_oracle(name: str, mode: str) -> None:
    """OCP SAT (rne_sat, rtz_sat: out of range and INF -> the largest finite value) and
    non-SAT (rtz, ieee: INF; E4M3: NaN), from f32, f64 and f16, every rounding by Fraction."""
    oracle = Oracle(name)
    rnd, ovf = MODES[mode]
    rng = np.random.default_rng(41)
    with np.errstate(invalid="ignore"):  # (signalling NaNs of the sample quiet)
        near = _f32_sample(name)[:6000].view(np.float32).astype(np.float64) * (1 + 2.0 ** -30)
    f64 = np.concatenate([
        near,  # beside every f32 tie: one rounding, not two
        rng.standard_normal(3000) * 2.0 ** rng.integers(-140, 140, 3000),
        [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e300, -1e-300]])
    for src, pats in (("f32", _f32_sample(name)[::3]),
                      ("f16", np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)),
                      ("f64", f64.view(np.uint64))):
        x = get_format(src).decode(pats)
        want = [oracle.encode(float(v), rnd, ovf) for v in x]
        _same(convert(pats, src, name, mode).bits, want, name)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("rounding", ["rne", "rtz", "rtn", "rtp"])
def test_encode_every_rounding(name: str, rounding: str) -> None:
    """IEEE-RNE and the directed roundings of FloatFormat.encode (IEEE 754 §4.3, overflow
    by §7.4; E4M3's INF is its NaN), array and exact-scalar paths, against the oracle."""
    oracle, fmt = Oracle(name), get_format(name)
    with np.errstate(invalid="ignore"):
        x = _f32_sample(name)[::2].view(np.float32).astype(np.float64)
    want = [oracle.encode(float(v), rounding, "ieee") for v in x]
    _same(fmt.encode(x, rounding=rounding), want, name)
    for v, w in list(zip(x, want))[::97]:
        if np.isfinite(v):
            got = fmt.encode(Fraction(float(v)), rounding=rounding)
            assert (w is None and fmt.is_nan(got)) or got == w, (v, got, w)


@pytest.mark.parametrize("name", NAMES)
def test_paste_names_the_format(name: str) -> None:
    """FMT-*: a pasted tag of the format's name reads the pattern in that format."""
    fmt = get_format(name)
    one = fmt.encode(1.0)
    digits = (fmt.bits + 3) // 4
    (v,) = parse(f"{name} 0x{int(one):0{digits}x}")
    assert (v.format, v.bits) == (name, int(one))
