"""The driver behaviours of the softpipe deviation rows, checked against plain Python
integer arithmetic (an oracle independent of numpy's float conversions)."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from fpinspector.gpu.behaviours import _x86_ftou_vector


def _f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _cvtt32(x: float) -> int:
    """cvttps2dq: truncate toward zero; NaN or outside [-2^31, 2^31) -> 0x80000000."""
    if math.isnan(x) or math.isinf(x):
        return 0x80000000
    t = math.trunc(x)
    return t & 0xFFFFFFFF if -(2**31) <= t < 2**31 else 0x80000000


def _ftou_vector(bits: int) -> int:
    """The compiler's vector float -> uint32 (SOFTPIPE-FTOU-WRAP), in integers."""
    x = _f32(bits)
    if not math.isnan(x) and x >= 2.0**31:
        return _cvtt32(x - 2.0**31) ^ 0x80000000
    return _cvtt32(x)


@pytest.mark.parametrize("value, want", [
    (-1.0, 0xFFFFFFFF), (-2.0, 0xFFFFFFFE), (-0.5, 0), (3e9, 3000000000),
    (2.0**31, 0x80000000), (2.0**32, 0), (float("inf"), 0), (float("-inf"), 0x80000000),
    (float("nan"), 0x80000000), (-3e38, 0x80000000), (4294967040.0, 4294967040),
])
def test_ftou_vector_known_values_CONV_FTOI(value, want):
    bits = int(np.array([value], np.float32).view(np.uint32)[0])
    assert _ftou_vector(bits) == want
    assert int(_x86_ftou_vector(np.array([bits], np.uint32))[0]) == want


def test_ftou_vector_matches_the_integer_oracle_on_random_patterns():
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2**32, 20000, dtype=np.uint64).astype(np.uint32)
    got = _x86_ftou_vector(bits)
    assert [int(g) for g in got] == [_ftou_vector(int(b)) for b in bits]
