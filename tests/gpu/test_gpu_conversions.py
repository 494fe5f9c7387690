"""Hardware conversions through render targets and texture sampling (CONV-* rules).

Oracles: numpy float16 widening, the DEC-* decoding formulas for f11/f10 written out
here, the exact round trip, and the docs/rules.md disagreement cases.
"""

from __future__ import annotations

import numpy as np
import pytest
from gpu_oracle import rgb9e5_every_mantissa_and_exponent, structured_f32

from fpinspector.gpu.judge import classify_conversion

pytestmark = pytest.mark.gpu

SMALL = {"f16": (5, 10, True), "f11": (5, 6, False), "f10": (5, 5, False)}


def _decode_small(bits: np.ndarray, fmt: str) -> np.ndarray:
    """DEC-NAN/INF/NORMAL/DENORM/ZERO written out in float64 (independent of the model)."""
    e_bits, f_bits, signed = SMALL[fmt]
    b = bits.astype(np.int64)
    f = b & ((1 << f_bits) - 1)
    e = (b >> f_bits) & 31
    s = np.where(signed & ((b >> (e_bits + f_bits)) & 1 == 1), -1.0, 1.0)
    val = np.where(e == 0, f / 2.0**f_bits * 2.0**-14, (1 + f / 2.0**f_bits) * 2.0 ** (e - 15.0))
    val = np.where(e == 31, np.where(f == 0, np.inf, np.nan), val)
    return s * val


def _is_nan32(u: np.ndarray) -> np.ndarray:
    return np.isnan(u.astype(np.uint32).view(np.float32))


@pytest.mark.parametrize("fmt", sorted(SMALL))
def test_sampling_widens_every_pattern_exactly_CONV_WIDEN(gpu, fmt):
    """CONV-WIDEN: f16/f11/f10 -> f32 by texelFetch is exact for all 2^n patterns."""
    n = 1 << (16 if fmt == "f16" else (11 if fmt == "f11" else 10))
    bits = np.arange(n, dtype=np.uint32)
    got = gpu.convert(bits, fmt, "f32")
    assert got.dtype == np.uint32
    want = _decode_small(bits, fmt).astype(np.float32)
    nan = np.isnan(want)
    np.testing.assert_array_equal(_is_nan32(got), nan)
    np.testing.assert_array_equal(got[~nan], want[~nan].view(np.uint32))
    if fmt == "f16":  # unpackHalf2x16 agrees, and so does numpy's float16
        np.testing.assert_array_equal(gpu.convert(bits, "f16", "f32", path="unpack")[~nan],
                                      got[~nan])
        np16 = bits.astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)
        np.testing.assert_array_equal(got[~nan], np16[~nan])


@pytest.mark.parametrize("fmt", sorted(SMALL))
def test_render_target_round_trip_is_exact(gpu, fmt):
    """CONV-WIDEN then CONV-F2F-RTZ: every f16/f11/f10 value rendered back is unchanged."""
    n = 1 << (16 if fmt == "f16" else (11 if fmt == "f11" else 10))
    bits = np.arange(n, dtype=np.uint32)
    wide = gpu.convert(bits, fmt, "f32")
    back = gpu.convert(wide, "f32", fmt)
    assert back.dtype == np.uint16
    nan = _is_nan32(wide)
    # a driver that stores f11/f10 denormals as 0 must say so by a named deviation
    masks = classify_conversion(gpu.info["renderer"], "render", "f32", fmt, wide, back)
    assert not masks["unexplained"].any()
    exact = ~nan & masks["conformant"]
    np.testing.assert_array_equal(back[exact], bits[exact].astype(np.uint16))
    assert (exact | nan).sum() >= n - (1 << SMALL[fmt][1])  # at most the denormals differ
    e_bits, f_bits, _ = SMALL[fmt]
    exp_all = ((back[nan].astype(np.int64) >> f_bits) & 31) == 31
    assert exp_all.all() and ((back[nan] & ((1 << f_bits) - 1)) != 0).all()  # still NaN


@pytest.mark.parametrize(
    "value, dst, path, want",
    [
        (1 + 3 * 2.0**-11, "f16", "render", 0x3C01),  # case 1: RTZ (d3d) ...
        (1 + 3 * 2.0**-11, "f16", "pack", 0x3C02),  # ... vs packHalf2x16's RNE
        (65520.0, "f16", "render", 0x7BFF),  # case 2: CONV-F2F-SAT
        (1e6, "f16", "render", 0x7BFF),
        (65520.0, "f16", "pack", 0x7C00),  # packHalf2x16 overflows to INF
        (1 + 3 / 128, "f11", "render", 0x3C1),  # case 3: RTZ
        (65280.0, "f11", "render", 0x7BF),  # case 4: saturate to 65024
        (-np.inf, "f11", "render", 0),  # case 5: -INF -> 0 (CONV-UNSIGNED default)
        (-1.0, "f10", "render", 0),  # CONV-UNSIGNED
        (-0.0, "f11", "render", 0),
        (2.0**-46, "f10", "render", 0),  # case 7
        (np.inf, "f10", "render", 0x3E0),  # CONV-INF
    ],
)
def test_conversions_md_disagreement_cases(gpu, value, dst, path, want):
    """docs/rules.md 'Test cases where the sources disagree', on this GPU's hardware."""
    bits = np.array([value], np.float32).view(np.uint32)
    assert int(gpu.convert(bits, "f32", dst, path=path)[0]) == want


def test_nan_into_small_floats_stays_nan_CONV_NAN(gpu):
    """CONV-NAN (case 6): NaN stays NaN in f16/f11/f10 render targets (any NaN bits)."""
    nans = np.array([0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFFFFFFF], np.uint32)
    for dst, (_, f_bits, _) in SMALL.items():
        out = gpu.convert(nans, "f32", dst).astype(np.int64)
        assert (((out >> f_bits) & 31) == 31).all() and ((out & ((1 << f_bits) - 1)) != 0).all()


def _f32_inputs() -> np.ndarray:
    (a,) = structured_f32(arity=1, n_random=20_000, seed=9)
    grid = np.linspace(-1.5, 70_000, 20_001).astype(np.float32).view(np.uint32)
    unit = np.linspace(-1.25, 1.25, 20_001).astype(np.float32).view(np.uint32)
    return np.concatenate([a, grid, unit])


@pytest.mark.parametrize("dst", ["f16", "f11", "f10", "unorm8", "snorm8", "srgb8"])
def test_render_targets_conformant_or_named_deviation(gpu, dst, device_behaviour):
    """CONV-F2F-RTZ/SAT, CONV-UNSIGNED, CONV-UNORM/SNORM/SRGB: each stored value is what
    the model allows, or what a listed deviation of this driver says it stores."""
    x = _f32_inputs()
    got = gpu.convert(x, "f32", dst)
    masks = classify_conversion(gpu.info["renderer"], "render", "f32", dst, x, got)
    bad = masks["unexplained"]
    device_behaviour.check(not bad.any(), f"{dst}: {int(bad.sum())} stores neither allowed nor "
                           f"named, e.g. {[hex(int(v)) for v in x[bad][:5]]} -> {got[bad][:5]}")


@pytest.mark.parametrize("src", ["unorm8", "snorm8", "srgb8"])
def test_sampled_norm_codes_conformant_or_named_deviation(gpu, src, device_behaviour):
    """CONV-UNORM/SNORM/SRGB decode of every 8-bit code by texture sampling."""
    codes = np.arange(-128, 128) if src == "snorm8" else np.arange(256)
    got = gpu.convert(codes, src, "f32")
    masks = classify_conversion(gpu.info["renderer"], "sample", src, "f32", codes, got)
    bad = masks["unexplained"]
    device_behaviour.check(not bad.any(), f"{src}: {int(bad.sum())} codes neither allowed nor "
                           f"named, e.g. {codes[bad][:8]}")
    device_behaviour.check(got[codes == 0][0] == 0 and got[codes == codes.max()][0] == 0x3F800000,
                           f"{src}: code 0 / the top code do not decode to 0.0 / 1.0")


def test_rgb9e5_sampled_as_three_floats_CONV_RGB9E5(gpu, device_behaviour):
    """CONV-RGB9E5 decode through an RGB9_E5 texture (texelFetch of R, G, B): every 9-bit
    mantissa at every shared exponent gives (0.frac) * 2^(E - 15) exactly, D3D11.3
    §19.3.2.1's example 0x999320C8 gives (6.25, 12.5, 3.125); the model judges it the same,
    and the encode direction says why no GPU does it (§19.3.2.2)."""
    words, want = rgb9e5_every_mantissa_and_exponent()
    got = gpu.convert(words, "rgb9e5", "f32")
    assert got.shape == (words.size, 3) and got.dtype == np.uint32
    bad = np.any(got != want, axis=1)
    device_behaviour.check(not bad.any(), f"rgb9e5: {int(bad.sum())} words decode otherwise, "
                           f"e.g. {[hex(int(w)) for w in words[bad][:4]]} -> {got[bad][:4]}")
    masks = classify_conversion(gpu.info["renderer"], "sample", "rgb9e5", "f32", words, got)
    assert np.array_equal(masks["conformant"], got == want)
    example = gpu.convert(np.array([[0x999320C8]], np.uint32), "rgb9e5", "f32")
    device_behaviour.check(example.shape == (1, 1, 3) and example.view(np.float32).tolist()
                           == [[[6.25, 12.5, 3.125]]], f"0x999320C8 -> {example}")
    with pytest.raises(ValueError, match="hardware never encodes"):
        gpu.convert(np.array([0x3F800000]), "f32", "rgb9e5")
    with pytest.raises(ValueError, match="rgb9e5 codes must lie in 0..4294967295"):
        gpu.convert(np.array([1 << 32]), "rgb9e5", "f32")


def test_unknown_conversion_is_value_error(gpu):
    with pytest.raises(ValueError, match="no hardware conversion"):
        gpu.convert(np.array([1]), "f32", "f64")
    with pytest.raises(ValueError, match="integer bit patterns"):
        gpu.convert(np.array([1.5]), "f32", "f16")
