"""Encoder variants: docs/rules.md "Test cases where the sources disagree", every variant.

Expected patterns are worked out by hand from each cited source (DirectXMath
XMConvertFloatToHalf / XMStoreFloat3PK, Mesa half_float.c and both format_r11g11b10f.h
versions, lp_build_float_to_smallfloat, OpenGL 4.6 §2.3.4), not produced by the code.
"""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.model.convert import VARIANTS, convert


def f32(v: float) -> int:
    return int(np.array(v, np.float32).view(np.uint32))


ALL = ("d3d", "ieee", "directxmath", "mesa", "mesa_rtz", "gl", "llvmpipe")
RTZ = {"d3d", "mesa_rtz", "llvmpipe"}

# case -> (input f32 value, target, {variant: expected pattern})
CASES = {
    "1: 1+3*2^-11 -> f16": (1 + 3 * 2**-11, "f16",
                            {v: 0x3C01 if v in RTZ else 0x3C02 for v in ALL}),
    "2a: 65520 -> f16": (65520.0, "f16", {v: 0x7BFF if v in RTZ else 0x7C00 for v in ALL}),
    "2b: 1e6 -> f16": (1e6, "f16", {v: 0x7BFF if v in RTZ else 0x7C00 for v in ALL}),
    "3: 1+3/128 -> f11": (1 + 3 / 128, "f11", {v: 0x3C1 if v in RTZ else 0x3C2 for v in ALL}),
    "4: 65280 -> f11": (65280.0, "f11", {v: 0x7C0 if v == "ieee" else 0x7BF for v in ALL}),
    "5: -INF -> f11": (-np.inf, "f11", {v: 0 for v in ALL}),
    "6: NaN -> f11": (np.nan, "f11", {"d3d": 0x7E0, "ieee": 0x7E0, "directxmath": 0x7FF,
                                      "mesa": 0x7C1, "mesa_rtz": 0x7C1, "gl": 0x7E0,
                                      "llvmpipe": 0x7E0}),
    "6b: NaN -> f10": (np.nan, "f10", {"d3d": 0x3F0, "ieee": 0x3F0, "directxmath": 0x3FF,
                                       "mesa": 0x3E1, "mesa_rtz": 0x3E1, "gl": 0x3F0,
                                       "llvmpipe": 0x3F0}),
    "7: 2^-46 -> f10": (2.0**-46, "f10", {v: 0x020 if v == "directxmath" else 0 for v in ALL}),
}


def test_every_variant_is_covered_and_cited():
    """Every named variant exists, cites a source and documents its behaviour."""
    assert set(VARIANTS) == set(ALL)
    for v in VARIANTS.values():
        assert v.source and v.doc and v.name in ALL


@pytest.mark.parametrize("variant", ALL)
@pytest.mark.parametrize("case", sorted(CASES))
def test_disagreement_cases(case, variant):
    """docs/rules.md cases 1-7 (case 8 is in test_numeric) for every variant."""
    value, dst, expect = CASES[case]
    got = int(convert(f32(value), "f32", dst, variant).bits)
    assert got == expect[variant], f"{variant}: 0x{got:X} != 0x{expect[variant]:X}"


@pytest.mark.parametrize("variant", ALL)
def test_case6_all_nan_patterns_are_nan(variant):
    """CONV-NAN, case 6: every variant gives *a* NaN in f11 and f10 (bits differ)."""
    for dst, inf in (("f11", 0x7C0), ("f10", 0x3E0)):
        for nan in (0x7FC00000, 0xFFC00000, 0x7F800001):
            assert int(convert(nan, "f32", dst, variant).bits) > inf


def test_case5_d3d_option_inf():
    """Case 5, CONV-UNSIGNED AMBIGUOUS: the other reading of D3D keeps +INF."""
    r = convert(f32(-np.inf), "f32", "f11", options={"neg_inf_to_unsigned": "inf"})
    assert int(r.bits) == 0x7C0


def test_case7_directxmath_bug_is_flagged_and_explained():
    """Case 7: DirectXMath's 0x020 for 2^-46 is reported as VARIANT-QUIRK, with the doc."""
    r = convert(np.array([f32(2.0**-46), f32(2.0**-47), f32(2.0**-78)], np.uint32),
                "f32", "f10", "directxmath")
    # x86 shr takes the count mod 32: 2^-46 -> shift 0, 2^-47 -> shift 1, 2^-78 -> shift 0
    assert r.bits.tolist() == [0x020, 0x010, 0x020]
    assert r.fired["VARIANT-QUIRK"].all()
    assert any("0x000" in s for s in r.explain_at(0))


def test_directxmath_f11_flushes_below_2_pow_minus_20():
    """XMStoreFloat3PK X/Y: I < 0x35800000 -> 0, where RNE would give the min denormal."""
    v = f32(0.75 * 2.0**-20)
    assert int(convert(v, "f32", "f11", "directxmath").bits) == 0
    assert int(convert(v, "f32", "f11", "ieee").bits) == 1


def test_directxmath_f11_denormal_presshift_truncates():
    """XMStoreFloat3PK: the denormal pre-shift drops bits before rounding (sticky lost)."""
    # 2^-15 * (1 + 2^-6 + 2^-23): Shift = 1 drops the last mantissa bit, leaving a tie
    v = f32(2.0**-15 * (1 + 2**-6 + 2**-23))
    assert int(convert(v, "f32", "f11", "directxmath").bits) == 0x20  # tie -> even
    assert int(convert(v, "f32", "f11", "ieee").bits) == 0x21  # true nearest


def test_directxmath_and_mesa_half_nan_payloads():
    """XMConvertFloatToHalf: NaN -> 0x7E00 | top payload | sign; Mesa keeps a signaling
    NaN signaling (m = payload >> 13, or 1)."""
    assert int(convert(0x7F800001, "f32", "f16", "directxmath").bits) == 0x7E00
    assert int(convert(0xFFA00000, "f32", "f16", "directxmath").bits) == 0xFF00
    assert int(convert(0x7F800001, "f32", "f16", "mesa").bits) == 0x7C01
    assert int(convert(0xFFA00000, "f32", "f16", "mesa").bits) == 0xFD00


def test_mesa_rne_header_carry_quirk():
    """Newer Mesa f32_to_uf11: 1 + 127/128 rounds the mantissa to 128 and masks it to 0
    without bumping the exponent (guarded only by an assert): 1.0, not 2.0."""
    r = convert(f32(1 + 127 / 128), "f32", "f11", "mesa")
    assert int(r.bits) == 0x3C0
    assert int(convert(f32(1 + 127 / 128), "f32", "f11", "ieee").bits) == 0x400
    assert "VARIANT-QUIRK" in r.rules_at(0)


def test_mesa_old_header_float10_has_no_denormals():
    """Older Mesa f32_to_uf10: exponents <= -15 give 0 (f11 keeps its denormal branch)."""
    v = f32(2.0**-16)
    assert int(convert(v, "f32", "f10", "mesa_rtz").bits) == 0
    assert int(convert(v, "f32", "f11", "mesa_rtz").bits) == 16


def test_llvmpipe_denormal_option_and_signed_half():
    """llvmpipe: f11 denormals survive the float multiply unless the CPU flushes (option);
    f16 keeps the sign of NaN and of -INF."""
    v = f32(2.0**-16)
    assert int(convert(v, "f32", "f11", "llvmpipe").bits) == 16
    r = convert(v, "f32", "f11", "llvmpipe", options={"llvmpipe_denorms": "flush"})
    assert int(r.bits) == 0
    assert int(convert(0xFFC00000, "f32", "f16", "llvmpipe").bits) == 0xFE00
    assert int(convert(f32(-np.inf), "f32", "f16", "llvmpipe").bits) == 0xFC00


def test_vendor_variant_from_f64_rounds_to_float_first():
    """A C function taking ``float`` sees (float)x: 1 + 3*2^-11 + 2^-40 becomes 1 + 3*2^-11
    first. d3d converts the exact f64 value once (CONV-F2F-RTZ)."""
    x = np.array([1 + 3 * 2**-11 + 2**-40]).view(np.uint64)
    assert int(convert(x, "f64", "f16", "directxmath").bits[0]) == 0x3C02
    assert int(convert(x, "f64", "f16", "d3d").bits[0]) == 0x3C01
