"""Bad inputs to the capture layer are refused with a message, never wrapped into another
pattern (a wrapped -1 is the NaN 0xFFFFFFFF; unorm8 300 would read as 44). Results that do
go through are checked against numpy float32 (CONV-ITOF, CONV-UNORM)."""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.gpu import GpuUnavailable, open_session

pytestmark = pytest.mark.gpu


def test_negative_patterns_refused_but_itof_takes_signed_ints_CONV_ITOF(gpu, path):
    one = np.array([0x3F800000], np.uint32)
    for op, ops in [("add", (np.array([-1]), one)), ("mov", (np.array([-1]),)),
                    ("utof", (np.array([-5]),))]:
        with pytest.raises(ValueError, match="negative"):
            gpu.capture(op, *ops, path=path)
    # Values exact in f32, so CONV-ITOF's rounding latitude (RNE recommended) plays no part.
    ints = np.array([-5, -(2**31), 2**24, -(2**24) - 2, 0], np.int64)
    got = gpu.capture("itof", ints, path=path)
    assert got.tolist() == ints.astype(np.float32).view(np.uint32).tolist()


@pytest.mark.parametrize("bits, src, msg", [
    ([-1], "f32", "0..0xffffffff"), ([0x1FFFF], "f16", "0..0xffff"),
    ([2**40], "f32", "0..0xffffffff"), ([0x800], "f11", "0..0x7ff"),
    ([300], "unorm8", "0..255"), ([128], "snorm8", "-128..127"),
])
def test_hardware_convert_refuses_out_of_range_sources_CONV_UNORM(gpu, bits, src, msg):
    dst = "f32" if src != "f32" else "f16"
    with pytest.raises(ValueError, match=msg):
        gpu.convert(np.array(bits), src, dst)


def test_unorm8_sampling_edges_CONV_UNORM(gpu):
    """In-range codes still convert: 0 -> 0.0, 255 -> 1.0 exactly (CONV-UNORM)."""
    got = gpu.convert(np.array([0, 255]), "unorm8", "f32")
    assert got.tolist() == [0, 0x3F800000]


def test_closed_session_says_so():
    try:
        s = open_session()
    except GpuUnavailable as exc:
        pytest.skip(f"no usable OpenGL context: {exc.message}")
    s.close()
    with pytest.raises(ValueError, match="closed"):
        s.capture("add", np.uint32(0), np.uint32(0))
