"""Capture without waste: a caller's ``out`` array receives the result (same bits as a fresh
capture, every result kind, both paths, in and out of a child GPU process); operand dtypes
that cannot hold an out-of-range pattern skip the range scan, the others are still checked;
f16 pairs travel as the operands' own memory. Oracle: numpy float32 arithmetic."""

from __future__ import annotations

import numpy as np
import pytest
from gpu_oracle import f32

from fpinspector.gpu import GpuUnavailable
from fpinspector.gpu.child_session import ChildSession
from fpinspector.gpu.compute_path import LOCAL_SIZE, PER_INVOCATION, compute_source, group_counts
from fpinspector.gpu.operands import dtype_fits, operand_words
from fpinspector.gpu.shaders import find_kernel, pack_pairs, unpack_pairs

pytestmark = pytest.mark.gpu

RNG = np.random.default_rng(5)
A = RNG.integers(0, 2**32, 1001, dtype=np.uint32)
B = RNG.integers(0, 2**32, 1001, dtype=np.uint32)


@pytest.mark.parametrize("op, operands, fmt", [
    ("mul", (A, B), "f32"), ("lt", (A, B), "f32"), ("ftoi", (A,), "f32"),
    ("ftou", (A,), "f32"), ("to_f16", (A,), "f32"),
    ("add", (A.astype(np.uint64) << np.uint64(32) | B, B.astype(np.uint64)), "f64"),
])
def test_out_receives_the_same_result_as_a_fresh_capture(gpu, path, op, operands, fmt):
    fresh = gpu.capture(op, *operands, format=fmt, path=path)
    out = np.full(fresh.shape, 0x5A, dtype=fresh.dtype)
    got = gpu.capture(op, *operands, format=fmt, path=path, out=out)
    assert got is out
    np.testing.assert_array_equal(out, fresh)
    again = gpu.capture(op, *(o[::-1].copy() for o in operands), format=fmt, path=path, out=out)
    assert again is out  # reused: the second result overwrites the first
    np.testing.assert_array_equal(out, fresh[::-1])


def test_out_of_mul_is_numpy_float32_F32_PREC(gpu, path):
    """Normal operands with normal products: the capture equals numpy's f32 product."""
    a = (RNG.uniform(1, 2, 4097).astype(np.float32)).view(np.uint32)
    b = (RNG.uniform(-2, 2, 4097).astype(np.float32)).view(np.uint32)
    out = np.empty(4097, np.uint32)
    gpu.capture("mul", a, b, path=path, out=out)
    np.testing.assert_array_equal(out, (f32(a) * f32(b)).view(np.uint32))


@pytest.mark.parametrize("bad", [
    np.empty(1001, np.uint64), np.empty(1000, np.uint32), np.empty((7, 143), np.uint32),
    np.empty(2002, np.uint32)[::2], [0] * 1001,
])
def test_out_of_the_wrong_kind_is_a_value_error(gpu, bad):
    with pytest.raises(ValueError, match="out must be"):
        gpu.capture("mul", A, B, out=bad)


def test_out_for_a_fixed_function_conversion_is_refused(gpu):
    with pytest.raises(ValueError, match="fixed-function"):
        gpu.capture("to_f11", A, out=np.empty(A.shape, np.uint16))


def test_dtype_guarantees_decide_the_range_scan():
    """uint32 holds only 32-bit words (no scan); int64 / uint64 may not (scanned);
    signed dtypes are words only where the op takes signed integers (itof)."""
    assert dtype_fits(np.dtype(np.uint32), 32) and dtype_fits(np.dtype(np.uint16), 16)
    assert dtype_fits(np.dtype(np.uint64), 64) and not dtype_fits(np.dtype(np.uint64), 32)
    assert not dtype_fits(np.dtype(np.int32), 32) and dtype_fits(np.dtype(np.int32), 32, True)
    assert not dtype_fits(np.dtype(np.uint32), 16)
    with pytest.raises(ValueError, match="wider than 32"):
        operand_words(np.array([1 << 32], np.uint64), False, "add", 0)
    with pytest.raises(ValueError, match="negative"):
        operand_words(np.array([-1], np.int32), False, "add", 0)
    with pytest.raises(ValueError, match="out of range"):
        operand_words(np.array([-(1 << 40)], np.int64), False, "itof", 0, signed=True)
    w = operand_words(np.array([-1], np.int32), False, "itof", 0, signed=True)
    assert w.dtype == np.uint32 and int(w[0]) == 0xFFFFFFFF


def test_f16_pairs_share_the_operands_memory_and_unpack_in_order():
    h = RNG.integers(0, 1 << 16, 10, dtype=np.uint16)
    words = pack_pairs(h)
    assert np.shares_memory(words, h)
    np.testing.assert_array_equal(unpack_pairs(words, 10, "h2"), h)
    odd = pack_pairs(h[:9])
    assert odd.shape == (5,) and int(odd[4]) == int(h[8])
    np.testing.assert_array_equal(unpack_pairs(odd, 9, "h2"), h[:9])


def test_wide_f16_operands_are_still_refused(gpu):
    if not gpu.supports("add", "f16"):
        pytest.skip("no half-float shader arithmetic here")
    with pytest.raises(ValueError, match="16-bit"):
        gpu.capture("add", np.array([0x10000], np.uint32), np.array([1], np.uint32),
                    format="f16")


def test_work_groups_of_256_cover_the_elements():
    """The shader's index formula and the grid agree at the work-group size, and the grid
    launches no row of groups that would only return (2^24 elements: 32768 x 2, not
    65535 x 2)."""
    assert LOCAL_SIZE == 256
    assert f"local_size_x = {LOCAL_SIZE}" in compute_source(find_kernel("mul", "f32"), set())
    for n, limit in ((1, 65535), (256, 65535), (257, 65535), (1 << 24, 65535), (1 << 24, 300),
                     ((1 << 24) + 1, 65535)):
        gx, gy = group_counts(n, limit)
        groups = -(-n // LOCAL_SIZE)
        assert gx <= limit and gy <= limit and gx * gy >= groups
        assert gx * gy - groups < gy  # balanced rows: (almost) no group runs for nothing
    assert group_counts(1 << 24, 65535) == (32768, 2)


@pytest.mark.parametrize("n", [1, 3, 4, 5, 255, 256, 257, 1023, 1024, 1025, 4097, 25599, 25600])
def test_every_element_is_computed_once_with_several_per_invocation(gpu, monkeypatch, n):
    """Each invocation takes PER_INVOCATION elements a grid apart: at counts around the
    invocation, work-group and grid edges, on a grid forced to several rows (at most 5 x 5
    groups), every element gets its own result and nothing is written past the end.
    Oracle: x * 1.0 == x for normal f32 values (F32-IDENT)."""
    if "compute" not in gpu._paths:
        pytest.skip("no compute shaders here")
    monkeypatch.setattr(gpu._runner("compute"), "max_groups", 5)
    a = np.arange(0x3F800000, 0x3F800000 + n, dtype=np.uint32)
    one = np.full(n, 0x3F800000, np.uint32)
    out = np.full(n + 64, 0x5A5A5A5A, np.uint32)
    got = gpu.capture("mul", a, one, path="compute", out=out[:n])
    np.testing.assert_array_equal(got, a)
    assert (out[n:] == 0x5A5A5A5A).all()
    assert f"local_size_x = {LOCAL_SIZE}" in compute_source(find_kernel("mul", "f32"), set())
    assert compute_source(find_kernel("mul", "f32"), set()).count("dout[i] =") == \
        PER_INVOCATION


def test_child_process_capture_fills_out_and_matches_in_process(gpu):
    try:
        child = ChildSession()
    except GpuUnavailable as exc:
        pytest.skip(exc.message)
    try:
        for op, ops in (("mul", (A, B)), ("lt", (A, B)), ("sqrt", (A,)),
                        ("mul", (A[:, None], B[None, :7]))):
            want = gpu.capture(op, *ops)
            got = child.capture(op, *ops)
            out = np.zeros_like(want)
            assert child.capture(op, *ops, out=out) is out
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(out, want)
        with pytest.raises(ValueError, match="out must be"):
            child.capture("mul", A, B, out=np.empty(3, np.uint32))
        np.testing.assert_array_equal(child.capture("to_f11", A[:64]), gpu.capture("to_f11", A[:64]))
    finally:
        child.close()
