"""Every exactly-specified f32 op captured on both paths equals the D3D reference, or the
difference is explained element by element by a named driver deviation (deviations.py)."""

from __future__ import annotations

import numpy as np
import pytest
from gpu_oracle import ARITY, EXACT_F32_OPS, RESULT_FMT, ftz32, reference_f32, structured_f32

from fpinspector.gpu.deviations import explain_mismatches, host_has_avx512

pytestmark = pytest.mark.gpu


def _operands(op: str) -> list[np.ndarray]:
    ops = structured_f32(arity=ARITY.get(op, 1), seed=len(op))
    if op == "f16tof32":
        ops = [np.arange(1 << 16, dtype=np.uint32)]
    return ops


def _check(gpu, path, op, device_behaviour, fmt="f32"):
    operands = _operands(op)
    got = gpu.capture(op, *operands, format=fmt, path=path)
    model = reference_f32(op, operands, "d3d11")
    assert got.dtype == model.dtype and got.shape == model.shape
    res_fmt = RESULT_FMT.get(op, "f32")
    if op in ("min", "max"):  # F32-MINMAX-FTZ: the result may or may not be flushed;
        model = np.where(ftz32(got) == model, got, model)  # F32-MINMAX-ZERO: either zero
        zeros = ((ftz32(operands[0]) | ftz32(operands[1])) & 0x7FFFFFFF) == 0
        model = np.where(zeros & ((got & 0x7FFFFFFF) == 0), got, model)
    explained, bad = explain_mismatches(
        gpu.info["renderer"], path, op, fmt, "f16" if op in ("to_f16", "f32tof16") else res_fmt,
        operands, got, model, lambda kind: reference_f32(op, operands, "ieee754"),
    )
    idx = np.nonzero(bad)[0][:5]
    device_behaviour.check(not bad.any(), (
        f"{op} on {path}: {bad.sum()} unexplained, e.g. inputs "
        f"{[[hex(int(o[i])) for o in operands] for i in idx]} gpu "
        f"{[hex(int(v)) for v in np.asarray(got)[idx].astype(np.int64)]} model "
        f"{[hex(int(v)) for v in np.asarray(model)[idx].astype(np.int64)]}"
    ))
    return explained


@pytest.mark.parametrize("op", EXACT_F32_OPS)
def test_f32_op_matches_d3d_or_named_deviation(gpu, path, op, device_behaviour):
    """F32-FTZ, F32-NANPROP, F32-CMPNAN/CMPZERO, F32-MINMAX-NAN, CONV-FTOI, CONV-F16-INSTR:
    GPU bits == model bits, else == the behaviour of a listed deviation."""
    _check(gpu, path, op, device_behaviour)


def test_mov_keeps_every_bit_F32_FTZ_move_exemption(gpu, path):
    """F32-FTZ / F32-NANOUT: a raw move keeps denormals and NaN payloads bit for bit."""
    x = np.concatenate([np.arange(0, 1 << 16, dtype=np.uint32),
                        np.arange(0x7F800001, 0x7F810001, dtype=np.uint32),
                        np.arange(0xFF800001, 0xFF810001, dtype=np.uint32)])
    np.testing.assert_array_equal(gpu.capture("mov", x, path=path), x)


def test_llvmpipe_conversion_deviations_are_real(gpu, device_behaviour):
    """The ftoi/ftou/packHalf2x16 rows fire (the engine has no such ops yet)."""
    if "llvmpipe" not in gpu.info["renderer"]:
        pytest.skip("deviation table rows checked here are llvmpipe's")
    fired = set()
    for path in gpu.info["paths"]:
        for op in ("ftoi", "ftou", "to_f16"):
            fired |= set(_check(gpu, path, op, device_behaviour))
    ftou = ({"LLVMPIPE-FTOU-ALLONES"} if host_has_avx512()
            else {"LLVMPIPE-FTOU-INT64", "LLVMPIPE-FTOU-VECTOR"})
    assert {"LLVMPIPE-FTOI-INDEFINITE", "GLSL-PACKHALF-RNE"} | ftou <= fired


def test_compute_and_fragment_agree_on_exact_normal_results(gpu):
    """F32-PREC: for normal inputs and results both paths are correctly rounded alike."""
    if len(gpu.info["paths"]) < 2:
        pytest.skip("only one capture path")
    rng = np.random.default_rng(7)
    a = rng.uniform(-1e3, 1e3, 50_000).astype(np.float32).view(np.uint32)
    b = rng.uniform(-1e3, 1e3, 50_000).astype(np.float32).view(np.uint32)
    for op in ("add", "mul", "div"):
        np.testing.assert_array_equal(gpu.capture(op, a, b, path="compute"),
                                      gpu.capture(op, a, b, path="fragment"))
