"""Session plumbing: no-GL error, shader errors, bad input, shapes/dtypes, chunking."""

from __future__ import annotations

import moderngl
import numpy as np
import pytest
from gpu_oracle import f32, reference_f32

from fpinspector.gpu import GpuSession, GpuUnavailable, ShaderError, open_session
from fpinspector.gpu.shaders import Kernel

pytestmark = pytest.mark.gpu


def test_no_gl_gives_gpu_unavailable(monkeypatch):
    """No usable GL -> GpuUnavailable with a readable message, never a raw traceback."""

    def boom(*args, **kwargs):
        raise RuntimeError("no display / no EGL device")

    monkeypatch.setattr(moderngl, "create_context", boom)
    with pytest.raises(GpuUnavailable) as info:
        open_session()
    assert "No usable OpenGL context" in info.value.message
    assert "no EGL device" in info.value.message


def test_bogus_backend_gives_gpu_unavailable():
    with pytest.raises(GpuUnavailable):
        open_session(backend="no-such-backend")


def test_unknown_path_is_value_error():
    with pytest.raises(ValueError, match="path must be one of"):
        open_session(path="vulkan")


def test_shader_error_names_op_and_carries_log(gpu, path):
    bad = Kernel("broken_op", "f32", ("f32",), "f32", "no_such_function({0})")
    with gpu.ctx, pytest.raises(ShaderError) as info:
        gpu._runner(path).program(bad)
    assert info.value.op == "broken_op"
    assert "no_such_function" in info.value.log or "no_such_function" in info.value.source
    assert "broken_op" in str(info.value)


@pytest.mark.parametrize(
    "args, match",
    [
        (("add", np.array([1.0, 2.0]), np.array([1, 2])), "integer bit patterns"),
        (("add", np.array([1], np.uint32)), "takes 2 operands"),
        (("nosuchop", np.array([1], np.uint32)), "no GPU kernel"),
        (("add", np.array([1 << 40]), np.array([1])), "wider than 32 bits"),
    ],
)
def test_bad_input_is_clear_value_error(gpu, args, match):
    with pytest.raises(ValueError, match=match):
        gpu.capture(*args)


def test_shapes_broadcast_and_dtypes_follow_the_model(gpu, path):
    """Results broadcast like numpy and use evaluate's dtypes (uint32/bool/int32/uint64)."""
    a = np.array([[0x3F800000], [0x40000000]], np.uint32)
    b = np.array([0x3F800000, 0x40400000, 0x40800000], np.uint32)
    r = gpu.capture("mul", a, b, path=path)
    assert r.shape == (2, 3) and r.dtype == np.uint32
    np.testing.assert_array_equal(f32(r), f32(a) * f32(b))
    assert gpu.capture("lt", a, b, path=path).dtype == np.bool_
    assert gpu.capture("ftoi", b, path=path).dtype == np.int32
    assert gpu.capture("ftou", b, path=path).dtype == np.uint32
    assert gpu.capture("to_f16", b, path=path).dtype == np.uint16
    s = gpu.capture("add", 0x3F800000, 0x3F800000, path=path)
    assert s.shape == () and int(s) == 0x40000000
    assert gpu.capture("add", np.zeros(0, np.uint32), np.zeros(0, np.uint32)).shape == (0,)
    d = gpu.capture("add", np.uint64(0x3FF0000000000000), np.uint64(1), format="f64", path=path)
    assert d.dtype == np.uint64 and int(d) == 0x3FF0000000000000


def test_programs_are_cached(gpu, path):
    runner = gpu._runner(path)
    gpu.capture("sub", 1, 2, path=path)
    n = len(runner._programs)
    gpu.capture("sub", 3, 4, path=path)
    assert len(runner._programs) == n


def test_small_chunks_cover_every_element(gpu, path):
    """Chunking: odd sizes across many chunks (chunk forced small) lose no element."""
    small = GpuSession(gpu.ctx, path=path, owns_context=False, chunk=4096 * 3)
    try:
        rng = np.random.default_rng(11)
        for n in (1, 4095, 12289, 100_003):
            a = rng.integers(0, 2**32, n, dtype=np.uint32)
            b = rng.integers(0, 2**32, n, dtype=np.uint32)
            got = small.capture("mul", a, b, path=path)
            want = reference_f32("mul", [a, b], "ieee754")
            nan = np.isnan(f32(want))
            assert np.array_equal(np.isnan(f32(got)), nan)
            ok = (got == want) | (got == reference_f32("mul", [a, b], "d3d11"))
            assert ok[~nan].all()
    finally:
        small._paths.clear()  # shares the fixture's context and its objects


@pytest.mark.slow
def test_2_to_24_elements_all_returned(gpu, path):
    """Driver limits (65,535 work groups, texture size): a 2^24 capture returns every element.

    Uses mov-free exact op add with a unique, position-dependent input so a lost,
    duplicated or shifted chunk shows up.
    """
    n = 1 << 24
    idx = np.arange(n, dtype=np.uint32)
    a = (idx | np.uint32(0x4B000000)).astype(np.uint32)  # 2^23 + (idx mod 2^23), exact ints
    a[idx >= (1 << 23)] |= np.uint32(0x80000000)
    got = gpu.capture("add", a, np.uint32(0x3F800000), path=path)
    want = (f32(a) + np.float32(1)).view(np.uint32)
    assert got.shape == (n,)
    np.testing.assert_array_equal(got, want)
