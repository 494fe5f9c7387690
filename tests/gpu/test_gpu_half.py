"""f16 arithmetic kernels (GL_AMD_gpu_shader_half_float / GL_NV_gpu_shader5).

llvmpipe has neither extension, so the generated GLSL is checked two ways: as text (the
extension line, float16_t / f16vec2 types, two operands per uint), and compiled and run on
llvmpipe with the test-only EMULATE_HALF macros (float16_t -> float, packFloat2x16 ->
packHalf2x16). The emulated kernels compute in f32 and round once to f16, exactly what numpy
float16 arithmetic does, so numpy is the oracle for the code and for the bit plumbing.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from fpinspector.gpu import GpuSession
from fpinspector.gpu.compute_path import compute_source
from fpinspector.gpu.fragment_path import fragment_source
from fpinspector.gpu.shaders import (
    HALF_OPS,
    KERNELS,
    missing_requirements,
    pack_pairs,
    unpack_pairs,
)

pytestmark = pytest.mark.gpu

AMD, NV = "GL_AMD_gpu_shader_half_float", "GL_NV_gpu_shader5"
CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
       "gt": np.greater, "ge": np.greater_equal}
F32 = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
       "mad": lambda a, b, c: a * b + c, "min": np.minimum, "max": np.maximum,
       "sqrt": np.sqrt, "rsq": lambda a: np.float32(1) / np.sqrt(a),
       "rcp": lambda a: np.float32(1) / a, "log": np.log2, "exp": np.exp2,
       "frc": lambda a: a - np.floor(a), "round_ne": np.rint, "round_ni": np.floor,
       "round_pi": np.ceil, "round_z": np.trunc, "mov": lambda a: a}
APPROX = ("rsq", "rcp", "div", "log", "exp")  # llvmpipe's f32 versions are not all exact


def test_pack_pairs_layout_matches_packFloat2x16():
    """packFloat2x16: component x in bits 0-15, y in 16-31 (struct '<HH' -> '<I' oracle)."""
    h = np.array([0x3C00, 0xC000, 0x7C01, 0x0001, 0xFFFF], np.uint16)
    words = pack_pairs(h)
    want = [struct.unpack("<I", struct.pack("<HH", 0x3C00, 0xC000))[0],
            struct.unpack("<I", struct.pack("<HH", 0x7C01, 0x0001))[0],
            struct.unpack("<I", struct.pack("<HH", 0xFFFF, 0))[0]]
    assert words.tolist() == want
    np.testing.assert_array_equal(unpack_pairs(words, 5, "h2"), h)
    assert unpack_pairs(np.array([0x10000, 1], np.uint32), 3, "b2").tolist() == [False, True,
                                                                                True]


@pytest.mark.parametrize("op", HALF_OPS)
def test_generated_glsl_uses_the_extension_and_packed_operands(op):
    """Each f16 kernel: one #extension line for whichever extension the driver has,
    f16vec2 operands unpacked from uint words, results packed back (or bvec2 bits)."""
    k = KERNELS[(op, "f16")]
    for exts, name in (({AMD}, AMD), ({NV}, NV), ({AMD, NV}, None)):
        for src in (compute_source(k, exts), fragment_source(k, exts)):
            lines = [ln for ln in src.splitlines() if ln.startswith("#extension")]
            half = [ln for ln in lines if AMD in ln or NV in ln]
            assert len(half) == 1 and (name is None or name in half[0]), lines
            assert "#define float16_t" not in src
            for i in range(k.arity):
                assert f"f16vec2 v{i} = unpackFloat2x16(x{i});" in src
            if op in CMP:
                assert "bvec2 r = " in src and "0x10000u" in src
            else:
                assert "PRECISE f16vec2 r = " in src and "return packFloat2x16(r);" in src
    assert missing_requirements(k, 430, set()) == [f"{AMD} or {NV}"]
    assert missing_requirements(k, 430, {NV}) == []


@pytest.fixture(scope="module")
def emulated(gpu):
    s = GpuSession(gpu.ctx, owns_context=False, emulate_half=True)
    yield s
    s.close()


def _f16_operands(arity: int, n: int = 3000, seed: int = 0) -> list[np.ndarray]:
    specials = np.array([0, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3800, 0x7BFF,
                         0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x3555, 0x4248, 0xC100], np.uint16)
    grid = np.meshgrid(*([specials] * arity), indexing="ij")
    rng = np.random.default_rng(seed)
    return [np.concatenate([g.reshape(-1), rng.integers(0, 1 << 16, n, dtype=np.uint16)])
            for g in grid]


def _oracle(op: str, operands: list[np.ndarray]) -> np.ndarray:
    x = [o.view(np.float16).astype(np.float32) for o in operands]
    with np.errstate(all="ignore"):
        if op in CMP:
            return CMP[op](*x)
        return F32[op](*x).astype(np.float16).view(np.uint16)


def _ordered(h: np.ndarray) -> np.ndarray:
    v = h.astype(np.int32)
    return np.where(v & 0x8000, -(v & 0x7FFF), v)


@pytest.mark.parametrize("op", HALF_OPS)
def test_emulated_kernels_compile_and_match_numpy_float16(emulated, path, op):
    """The generated shader compiles and runs (emulated); every element lands in its own
    slot: bits equal numpy float16 (f32 op, one rounding), NaN for NaN; transcendental
    and division results within 1 f16 ULP (llvmpipe's f32 approximations)."""
    k = KERNELS[(op, "f16")]
    operands = _f16_operands(k.arity, seed=k.arity)
    got = emulated.capture(op, *operands, format="f16", path=path)
    want = _oracle(op, operands)
    assert got.shape == want.shape and got.dtype == want.dtype
    if op in CMP:
        np.testing.assert_array_equal(got, want)
        return
    nan_in = np.zeros(got.shape, bool)
    for o in operands:
        nan_in |= np.isnan(o.view(np.float16))
    nan = np.isnan(want.view(np.float16))
    if op in ("min", "max"):  # GLSL leaves min/max with a NaN operand undefined, and
        nan, keep = nan & ~nan_in, ~nan_in  # which zero min(+0, -0) gives (F32-MINMAX-ZERO)
        zeros = np.ones(got.shape, bool)
        for o in operands:
            zeros &= (o & 0x7FFF) == 0
        keep &= ~zeros
        assert ((got[zeros] & 0x7FFF) == 0).all()
    else:
        keep = np.ones(got.shape, bool)
    np.testing.assert_array_equal(np.isnan(got.view(np.float16))[nan], True)
    ok = keep & ~nan
    if op in APPROX:
        finite = ok & np.isfinite(want.view(np.float16))
        assert (np.abs(_ordered(got[finite]) - _ordered(want[finite])) <= 1).all()
        np.testing.assert_array_equal(got[ok & ~finite], want[ok & ~finite])
    else:
        np.testing.assert_array_equal(got[ok], want[ok])


def test_emulated_plumbing_odd_sizes_and_broadcast(emulated, path):
    """Two-per-word packing loses or swaps nothing: all 65536 patterns through mov in odd
    slices, and broadcasting shapes like numpy."""
    x = np.arange(1 << 16, dtype=np.uint16)
    finite = ~np.isnan(x.view(np.float16))
    for n in (1, 3, 4097, 1 << 16):
        got = emulated.capture("mov", x[:n], format="f16", path=path)
        np.testing.assert_array_equal(got[finite[:n]], x[:n][finite[:n]])
    a = np.array([[0x3C00], [0x4000], [0xC200]], np.uint16)
    b = np.array([0x3C00, 0x3800, 0x0001, 0x7BFF, 0x8000], np.uint16)
    got = emulated.capture("mul", a, b, format="f16", path=path)
    assert got.shape == (3, 5)
    np.testing.assert_array_equal(got, _oracle("mul", list(np.broadcast_arrays(a, b))))
    with pytest.raises(ValueError, match="16-bit patterns"):
        emulated.capture("add", np.array([1 << 16]), np.array([0]), format="f16", path=path)
