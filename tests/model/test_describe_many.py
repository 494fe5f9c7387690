"""describe_many (the vectorized describe behind `fpinspector decode` on big pastes) against
independent oracles: numpy float16 for every f16 pattern, Python struct/float for f32/f64,
the docs/rules.md formula with fractions for every f11/f10 pattern (FMT-*, DEC-*)."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import numpy as np
import pytest

from fpinspector.model import FORMATS, describe
from fpinspector.model.describe import describe_many


def _formula(b: int, exp_bits: int, frac_bits: int, bias: int) -> Fraction | None:
    """docs/rules.md FMT-F11/F10 value of an unsigned pattern; None for INF/NaN."""
    e, m = b >> frac_bits, b & ((1 << frac_bits) - 1)
    if e == (1 << exp_bits) - 1:
        return None
    if e == 0:
        return Fraction(m, 1 << frac_bits) * Fraction(2) ** (1 - bias)
    return (1 + Fraction(m, 1 << frac_bits)) * Fraction(2) ** (e - bias)


@pytest.mark.slow
def test_f16_patterns_match_numpy_float16_FMT_F16_DEC_CLASSES():
    """Every 7th pattern plus every denormal and the top binade (shortest-decimal search makes
    all 65536 cost ~6 s; decode itself is exhaustively tested in test_formats)."""
    b = np.unique(np.concatenate([np.arange(0, 1 << 16, 7), np.arange(0, 0x400),
                                  np.arange(0x7800, 0x8400), np.arange(0xF800, 1 << 16)]))
    b = b.astype(np.uint16)
    infos = describe_many(b, "f16")
    h = b.view(np.float16).astype(np.float64)
    for i, info in enumerate(infos):
        v = h[i]
        if math.isnan(v):
            assert info.class_name == "nan" and math.isnan(info.value)
            continue
        assert info.value == v
        want = ("infinity" if math.isinf(v) else "zero" if v == 0 else
                "denormal" if abs(v) < 2.0**-14 else "normal")
        assert info.class_name == want
        if math.isfinite(v) and int(b[i]) & 0x7FFF != 0x7BFF:
            assert FORMATS["f16"].decode(info.next_up) == np.nextafter(
                np.float16(v), np.float16(np.inf)).astype(np.float64)


@pytest.mark.parametrize("name", ["f11", "f10"])
def test_every_f11_f10_pattern_exact_value_FMT_F11_FMT_F10(name):
    f = FORMATS[name]
    infos = describe_many(np.arange(1 << f.bits), name)
    for b, info in enumerate(infos):
        want = _formula(b, f.exp_bits, f.frac_bits, f.bias)
        if want is None:
            assert info.class_name in ("infinity", "nan")
        else:
            assert Fraction(info.exact) == want and info.value == float(want)


def test_f32_f64_sample_matches_struct_and_describe_FMT_F32_FMT_F64():
    rng = np.random.default_rng(4)
    for name, code, n in (("f32", "<I", 32), ("f64", "<Q", 64)):
        bits = rng.integers(0, 2**63, 600, dtype=np.uint64) * np.uint64(2) + np.uint64(1) \
            if n == 64 else rng.integers(0, 2**32, 600, dtype=np.uint64)
        bits = [int(x) for x in bits] + [0, 1, (1 << n) - 1, 1 << (n - 1)] + [int(bits[0])]
        infos = describe_many(bits, name)
        assert infos[-1] is infos[0]  # repeated patterns share one ValueInfo
        for b, info in zip(bits, infos):
            v = struct.unpack("<f" if n == 32 else "<d", struct.pack(code, b))[0]
            assert repr(info) == repr(describe(b, name))
            if math.isfinite(v):
                assert info.value == v and Fraction(info.exact) == Fraction(v)


def test_bad_patterns_are_refused():
    with pytest.raises(ValueError, match="outside"):
        describe_many([0x10000], "f16")
    with pytest.raises(ValueError, match="outside"):
        describe_many([-1], "f32")
    assert describe_many([], "f32") == []
