"""The inspector's GPU conversion row (f32 -> f16 / f11 / f10 render targets) renders into
R11G11B10F once for both f11 (R) and f10 (B): a GL round trip less on the GPU thread per
row, which holds the GIL. The shared words give the same patterns as a render of each
conversion on its own, each decodes (DEC-* formulas written out in the test) within one
step of its format of the input (CONV-F11 / CONV-F10; or +0 for an input below the
smallest normal, where the driver keeps no denormals), and the same conversion asked twice
still renders twice.
"""

from __future__ import annotations

import numpy as np
import pytest
from gpu_oracle import structured_f32
from test_gpu_conversions import _decode_small

from fpinspector.gpu.conversion_route import convert_via_f32

pytestmark = pytest.mark.gpu


def _counted(gpu, monkeypatch) -> list[str]:
    """Count the read-backs (one per render) of the session's hardware conversions."""
    gpu.convert(np.asarray([0x3F800000], np.uint32), "f32", "f16")  # (made on first use)
    hw, calls = gpu._hw, []
    real = hw._download

    def download(fbo, surface, rows):  # type: ignore[no-untyped-def]
        calls.append(surface.name)
        return real(fbo, surface, rows)

    monkeypatch.setattr(hw, "_download", download)
    return calls


def _inputs() -> np.ndarray:
    x = structured_f32(n_random=512, arity=1)[0]
    v = x.view(np.float32)
    return x[np.isfinite(v) & (v >= 0) & (v < 65000)]  # (f11/f10 hold no sign)


def test_the_row_renders_r11g11b10f_once_for_f11_and_f10(gpu, monkeypatch) -> None:
    x = _inputs()
    calls = _counted(gpu, monkeypatch)
    row = convert_via_f32(gpu, x, "f32", ("f16", "f11", "f10"))
    assert calls == ["r16f", "r11g11b10f"]  # (f16, then f11 and f10 together)
    alone = {}
    for dst in ("f11", "f10"):
        gpu.convert(x, "f32", "f16")  # (another render between: nothing shared)
        alone[dst] = np.asarray(gpu.convert(x, "f32", dst))
    for dst in ("f11", "f10"):
        got = np.asarray(row.results[dst])
        np.testing.assert_array_equal(got, alone[dst])
        # the oracle: the pattern decodes within one step of dst of the input
        e_bits, f_bits, _ = {"f11": (5, 6, False), "f10": (5, 5, False)}[dst]
        v = x.view(np.float32).astype(np.float64)
        step = np.exp2(np.maximum(np.floor(np.log2(np.maximum(v, 2.0**-14))), -14) - f_bits)
        dec = _decode_small(got.astype(np.uint32), dst)
        # (or +0 below the smallest normal, 2^-14: Mesa's newer R11G11B10F packing keeps no
        # denormals, CONVERSIONS.md's mesa row; softpipe flushes them, llvmpipe keeps them)
        flushed = (v < 2.0**-14) & (got == 0)
        assert np.all((np.abs(dec - v) <= step) | flushed), dst


def test_the_same_conversion_asked_twice_renders_twice(gpu, monkeypatch) -> None:
    x = _inputs()[:16]
    calls = _counted(gpu, monkeypatch)
    a = gpu.convert(x, "f32", "f10")
    b = gpu.convert(x, "f32", "f10")
    np.testing.assert_array_equal(a, b)
    assert calls == ["r11g11b10f", "r11g11b10f"]
