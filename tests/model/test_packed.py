"""Packed formats: FMT-R11G11B10 layout and CONV-RGB9E5 against Fraction oracles."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fpinspector.model.convert.packed import (
    RGB9E5_MAX,
    decode_r11g11b10,
    decode_rgb9e5,
    encode_r11g11b10,
    encode_rgb9e5,
    pack_r11g11b10,
    pack_rgb9e5,
    unpack_r11g11b10,
    unpack_rgb9e5,
)


def test_fmt_r11g11b10_layout_exhaustive():
    """FMT-R11G11B10: R bits 0-10, G 11-21, B 22-31; every field pattern round-trips."""
    r = np.arange(2048)
    g = (r * 7 + 3) % 2048
    b = np.resize(np.arange(1024), 2048)
    w = pack_r11g11b10(r, g, b)
    np.testing.assert_array_equal(w, r | (g << 11) | (b << 22))  # the layout, by hand
    rr, gg, bb = unpack_r11g11b10(w)
    np.testing.assert_array_equal(rr, r)
    np.testing.assert_array_equal(gg, g)
    np.testing.assert_array_equal(bb, b)
    assert pack_r11g11b10(0x7FF, 0, 0) == 0x7FF and pack_r11g11b10(0, 0, 0x3FF) == 0xFFC00000


def test_r11g11b10_decode_matches_fraction_oracle_exhaustive():
    """DEC-* on packed words: every float11 value in R and G, every float10 value in B."""
    def dec(p: int, f_bits: int) -> float:
        e, f = p >> f_bits, p & ((1 << f_bits) - 1)
        if e == 31:
            return float("nan") if f else float("inf")
        q = Fraction(f, 1 << f_bits) if e == 0 else 1 + Fraction(f, 1 << f_bits)
        return float(q * Fraction(2) ** (max(e, 1) - 15))

    r = np.arange(2048)
    b = np.resize(np.arange(1024), 2048)
    vals = decode_r11g11b10(pack_r11g11b10(r, r[::-1], b))
    ref = np.array([[dec(int(x), 6), dec(int(y), 6), dec(int(z), 5)]
                    for x, y, z in zip(r, r[::-1], b)])
    np.testing.assert_array_equal(vals, ref)


def test_encode_r11g11b10_uses_d3d_conversion_rules():
    """CONV-F2F-RTZ, CONV-UNSIGNED, CONV-F2F-SAT per channel; variants pass through."""
    w = encode_r11g11b10([[1 + 3 / 128, -2.0, 1e9]])
    assert [int(a[0]) for a in unpack_r11g11b10(w)] == [0x3C1, 0, 0x3DF]
    w2 = encode_r11g11b10([[1 + 3 / 128, 0.0, 2.0**-46]], "directxmath")
    assert [int(a[0]) for a in unpack_r11g11b10(w2)] == [0x3C2, 0, 0x020]


def test_rgb9e5_layout_and_decode_exhaustive():
    """CONV-RGB9E5 decode: mantissa/512 * 2^(E-15) for every mantissa and exponent."""
    m = np.arange(512)
    for e in range(32):
        w = pack_rgb9e5(m, m[::-1], (m * 5) % 512, np.full(512, e))
        np.testing.assert_array_equal(w, m | (m[::-1] << 9) | (((m * 5) % 512) << 18) | (e << 27))
        assert [np.asarray(p).tolist() for p in unpack_rgb9e5(w)] == \
            [m.tolist(), m[::-1].tolist(), ((m * 5) % 512).tolist(), [e] * 512]
        got = decode_rgb9e5(w)
        for c, ms in enumerate((m, m[::-1], (m * 5) % 512)):  # R, G, B
            ref = [float(Fraction(int(k), 512) * Fraction(2) ** (e - 15)) for k in ms]
            np.testing.assert_array_equal(got[:, c], ref)


def rgb9e5_oracle(rgb: list[float]) -> tuple[int, int, int, int]:
    """Fraction oracle: smallest exponent whose nearest-even max mantissa fits in 9 bits."""
    def rne(q: Fraction) -> int:
        n, r = divmod(q.numerator, q.denominator)
        rem = Fraction(r, q.denominator)
        return n + (rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1))

    top = Fraction(RGB9E5_MAX)
    xs = [Fraction(0) if (v != v or v < 0) else top if v == float("inf")
          else min(Fraction(v), top) for v in rgb]
    mx = max(xs)
    for e in range(32):
        if rne(mx / Fraction(2) ** (e - 24)) <= 511:
            return tuple(rne(x / Fraction(2) ** (e - 24)) for x in xs) + (e,)
    raise AssertionError("unreachable: 65408 fits with e = 31")


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, width=32)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(finite, st.sampled_from([0.0, 65408.0, 65472.0, 2.0**-24,
                                                    511 * 2.0**-24, 2.0**-16, float("nan"),
                                                    float("inf"), -float("inf")])),
                min_size=3, max_size=3))
def test_conv_rgb9e5_encode_matches_fraction_oracle(rgb):
    """CONV-RGB9E5 encode: negatives/NaN -> 0, clamp 65408, shared exponent, RNE."""
    w = encode_rgb9e5([rgb])
    got = tuple(int(np.asarray(p)[0]) for p in unpack_rgb9e5(w))
    assert got == rgb9e5_oracle(rgb)


def test_conv_rgb9e5_encode_exhaustive_on_mantissas_and_exponents():
    """CONV-RGB9E5 encode (D3D11.3 §19.3.2.2: the shared exponent is the largest channel's,
    mantissas to nearest even): every 9-bit mantissa at every exponent, and the values a
    quarter, a half (ties) and three quarters of a unit above it, in the largest channel
    and at the same scale in the other two. Oracle: integers in units of 2^-26 (every
    such value is a whole number of them), the smallest exponent whose rounded largest
    mantissa fits 9 bits (no floats, no frexp)."""
    m = np.arange(512, dtype=np.int64)
    rows = []
    for e in range(32):
        for q in range(4):  # quarter units: 4 * 2^(e - 24) * 2^26 / 4 = 2^(e + 2) each
            rows.append(np.stack([(4 * m + q) << e, (4 * m[::-1] + 3 - q) << e,
                                  (4 * ((m * 5) % 512) + 2) << e], -1))
    units = np.concatenate(rows)  # values in units of 2^-26, shape (65536, 3)
    units = np.minimum(units, units[:, :1])  # R is the largest channel
    clamped = np.minimum(units, 511 << 33)  # 65408 = 511 * 2^7 = (511 << 33) units
    got = np.stack([np.asarray(p) for p in unpack_rgb9e5(
        encode_rgb9e5(np.ldexp(units.astype(np.float64), -26)))], -1)

    def rne(x: np.ndarray, shift: int) -> np.ndarray:  # round x / 2^shift to nearest even
        q, r = x >> shift, x & ((1 << shift) - 1)
        half = 1 << (shift - 1)
        return q + ((r > half) | ((r == half) & (q % 2 == 1)))

    want = np.zeros((units.shape[0], 4), np.int64)
    todo = np.ones(units.shape[0], bool)
    for e in range(32):  # mantissa unit at exponent e: 2^(e - 24) = 2^(e + 2) units
        fits = todo & (rne(clamped[:, 0], e + 2) <= 511)
        want[fits, :3] = np.stack([rne(clamped[fits, c], e + 2) for c in range(3)], -1)
        want[fits, 3] = e
        todo &= ~fits
    assert not todo.any()
    assert (want[:, 3] == 31).any() and (want[:, 3] == 0).any() and (clamped != units).any()
    np.testing.assert_array_equal(got, want)


def test_conv_rgb9e5_exponent_bump_and_ties():
    """CONV-RGB9E5: 511.5 * 2^-9 rounds to 512 -> exponent + 1; ties go to even."""
    x = 511.5 / 512  # max mantissa 511.5 at E = 15 rounds to 512: E becomes 16
    r, _, _, e = unpack_rgb9e5(encode_rgb9e5([x, 0.0, 0.0]))
    assert (int(r), int(e)) == (256, 16)
    r, g, _, e = unpack_rgb9e5(encode_rgb9e5([1.0, 2.5 / 256, 0.0]))  # g = 2.5 units: tie
    assert (int(r), int(g), int(e)) == (256, 2, 16)
    _, g2, _, _ = unpack_rgb9e5(encode_rgb9e5([1.0, 2.5 / 256, 0.0], rounding="half_up"))
    assert int(g2) == 3


@pytest.mark.parametrize("call", [
    lambda: pack_r11g11b10(0x800, 0, 0),
    lambda: pack_rgb9e5(0, 0, 0, 32),
    lambda: unpack_rgb9e5(-1),
    lambda: encode_rgb9e5([1.0, 2.0]),
    lambda: encode_r11g11b10([[1.0, 2.0]]),
    lambda: encode_rgb9e5([1.0, 2.0, 3.0], rounding="up"),
])
def test_bad_input_value_error(call):
    """Bad input gives a ValueError with a message."""
    with pytest.raises(ValueError):
        call()
