"""An op added as one row (tests/_log10_row.py: log10) is captured on the GPU through the
shader built from its GLSL spelling, on both capture paths, and judged by the engine: the
GPU layer needs no change for it.

Oracle for the specials: IEEE 754 log10 (log10(+INF) = +INF, log10(+0) = -INF, log10 of a
negative number is NaN); for the other operands the GPU's log2(x) * log10(2) is within a
few ULPs of the correctly rounded log10 (two roundings and the driver's log2)."""

from __future__ import annotations

import numpy as np
import pytest
from _log10_row import log10_row

from fpinspector.model import evaluate

pytestmark = pytest.mark.gpu


def test_a_registered_op_is_captured_on_both_paths_F32_INSTR(gpu, path):
    x = np.array([0x41200000, 0x42C80000, 0x40490FDB, 0x7F000000, 0x00800000,  # 10, 100, pi,
                  0x7F800000, 0x00000000, 0xBF800000], dtype=np.uint32)  # 2^127, 2^-126
    with log10_row():
        assert gpu.unsupported_reason("log10", "f32") is None
        got = np.asarray(gpu.capture("log10", x, format="f32", path=path))
        model = np.asarray(evaluate("log10", x, rules="d3d11").bits)
    assert got.dtype == np.uint32 and got.shape == x.shape
    assert [int(v) for v in got[5:7]] == [0x7F800000, 0xFF800000]
    assert (int(got[7]) & 0x7F800000) == 0x7F800000 and int(got[7]) & 0x7FFFFF
    ulps = np.abs(got[:5].astype(np.int64) - model[:5].astype(np.int64))
    assert (ulps <= 4).all(), [hex(int(v)) for v in got[:5]]


def test_a_registered_op_is_captured_through_wgpu_from_its_wgsl_spelling(wgpu_gpu):
    """The same row on the WebGPU backend (lavapipe through Vulkan here): the compute
    shader is built from the row's WGSL spelling."""
    x = np.array([0x41200000, 0x42C80000, 0x40490FDB, 0x7F800000, 0x00000000], np.uint32)
    with log10_row():
        got = np.asarray(wgpu_gpu.capture("log10", x, format="f32"))
        model = np.asarray(evaluate("log10", x, rules="d3d11").bits)
    assert [int(v) for v in got[3:]] == [0x7F800000, 0xFF800000]
    ulps = np.abs(got[:3].astype(np.int64) - model[:3].astype(np.int64))
    assert (ulps <= 4).all(), [hex(int(v)) for v in got[:3]]
