"""Decimal text with enormous exponents encodes at once, to the same pattern as a value of
moderate exponent on the same side of every format's range (IEEE-RNE and the directed
roundings; overflow per IEEE 754 §7.4), instead of building a 10^999999999 Fraction.
Oracle: Python float() for f64, numpy float32/float16 for f32/f16."""

from __future__ import annotations

import time

import numpy as np
import pytest

from fpinspector.model import FORMATS, rounding_anatomy
from fpinspector.model.formats import encode_exact


@pytest.mark.parametrize("name", list(FORMATS))
@pytest.mark.parametrize("rnd", ["rne", "rtz", "rtp", "rtn"])
def test_huge_and_tiny_exponents_round_like_moderate_ones_IEEE_RNE(name, rnd):
    f = FORMATS[name]
    t0 = time.perf_counter()
    for sign in ("", "-"):
        for far, near in (("1e999999999", "3e399"), ("7e-999999999", "1e-399")):
            for ovf in ("ieee", "saturate"):
                got = encode_exact(f, sign + far, rnd, ovf)
                assert got == encode_exact(f, sign + near, rnd, ovf), (sign + far, rnd, ovf)
    assert time.perf_counter() - t0 < 5


@pytest.mark.parametrize("text", ["1e999999999", "-1e999999999", "1e-999999999",
                                  "-1e-999999999", "-0e-999999999"])
def test_nearest_even_matches_float_and_numpy_IEEE_RNE(text):
    x = float(text)  # Python's correctly rounded reading: inf or a signed zero
    assert int(FORMATS["f64"].encode(text)) == int(np.float64(x).view(np.uint64))
    assert int(FORMATS["f32"].encode(text)) == int(np.float32(x).view(np.uint32))
    assert int(FORMATS["f16"].encode(text)) == int(np.float16(x).view(np.uint16))


def test_anatomy_refuses_out_of_range_exponents_with_a_message():
    with pytest.raises(ValueError, match="outside -400..400"):
        rounding_anatomy("1e-999999999", "f16")
    assert rounding_anatomy("1e-300", "f16").result_bits == 0
