"""UNORM16 / SNORM16 targets and samplers, the f32 identity store, the two-rounding f64 ->
small-float route, and the reasons given for what cannot be captured.

Oracles: the CONV-UNORM / CONV-SNORM formulas written out in float64 (x * (2^n - 1) is exact
there for any f32 x), the input itself (identity), and hand-worked f64 cases.
"""

from __future__ import annotations

import numpy as np
import pytest
from gpu_oracle import structured_f32

from fpinspector.gpu.judge import classify_conversion, classify_with_engine

pytestmark = pytest.mark.gpu


def _f32_inputs() -> np.ndarray:
    (a,) = structured_f32(arity=1, n_random=8_000, seed=21)
    unit = np.linspace(-1.25, 1.25, 40_001).astype(np.float32).view(np.uint32)
    return np.concatenate([a, unit])


def _norm_window(x: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """CONV-UNORM / CONV-SNORM: codes within 0.6 of the clamped, scaled exact value."""
    with np.errstate(invalid="ignore"):  # signalling NaN patterns
        v = x.view(np.float32).astype(np.float64)
    nan = np.isnan(v)
    scale = 65535.0 if kind == "unorm16" else 32767.0
    lo_clamp = 0.0 if kind == "unorm16" else -1.0
    exact = np.clip(np.where(nan, 0.0, v), lo_clamp, 1.0) * scale
    return np.ceil(exact - 0.6), np.floor(exact + 0.6)


@pytest.mark.parametrize("dst", ["unorm16", "snorm16"])
def test_norm16_render_targets_CONV_UNORM_SNORM(gpu, dst, device_behaviour):
    """CONV-UNORM / CONV-SNORM (n = 16) through RGBA16 / RGBA16_SNORM targets: every code
    is within 0.6 of the exact value (formula oracle) or a named llvmpipe deviation."""
    x = _f32_inputs()
    got = gpu.convert(x, "f32", dst)
    assert got.dtype == (np.uint16 if dst == "unorm16" else np.int16)
    lo, hi = _norm_window(x, dst)
    in_window = (got >= lo) & (got <= hi)
    masks = classify_conversion(gpu.info["renderer"], "render", "f32", dst, x, got)
    bad = masks["unexplained"]
    device_behaviour.check(not bad.any(), f"{dst}: {int(bad.sum())} codes neither allowed nor "
                           f"named, e.g. {[hex(int(v)) for v in x[bad][:4]]} -> {got[bad][:4]}")
    # the formula oracle and the model agree on what is conformant (fpinspector's own judging)
    np.testing.assert_array_equal(masks["conformant"], in_window)
    half = int(gpu.convert(np.array([0x3F000000], np.uint32), "f32", dst)[0])
    want = 32768 if dst == "unorm16" else 16384  # 0.5 * (2^n - 1) + 0.5, truncated
    device_behaviour.check(half == want, f"{dst}: 0.5 stored as {half}, D3D's {want}")


@pytest.mark.parametrize("src", ["unorm16", "snorm16"])
def test_norm16_sampling_every_code_CONV_UNORM_SNORM(gpu, src, device_behaviour):
    """CONV-UNORM / CONV-SNORM decode of all 65536 codes by texelFetch: correctly rounded
    c / (2^n - 1) (float64 oracle; -32768 is -1.0), or the named c * (1/m) deviation."""
    codes = np.arange(65536) if src == "unorm16" else np.arange(-32768, 32768)
    got = gpu.convert(codes, src, "f32")
    m = 65535.0 if src == "unorm16" else 32767.0
    want = np.maximum(codes / m, -1.0).astype(np.float32).view(np.uint32)
    masks = classify_conversion(gpu.info["renderer"], "sample", src, "f32", codes, got)
    bad = masks["unexplained"]
    device_behaviour.check(not bad.any(), f"{src}: {int(bad.sum())} codes neither allowed nor "
                           f"named, e.g. {codes[bad][:6]}")
    np.testing.assert_array_equal(masks["conformant"], got == want)  # fpinspector's judging
    device_behaviour.check(got[codes == 0][0] == 0 and got[codes == codes.max()][0] == 0x3F800000,
                           f"{src}: code 0 / the top code do not decode to 0.0 / 1.0")
    lowest = codes == codes.min()  # -32768 is -1.0 (CONV-SNORM), unless a row says otherwise
    if masks["conformant"][lowest][0]:
        assert got[lowest][0] == (0 if src == "unorm16" else 0xBF800000)


def test_to_f32_from_f32_is_an_identity_store(gpu, path):
    """to_f32 on f32 (CONV rules: same format, nothing to round) through an R32F render
    target keeps every bit: denormals (no F32-FTZ on a store), NaN payloads, signs."""
    x = np.concatenate([np.arange(0, 1 << 16, dtype=np.uint32),
                        np.arange(0x807FFF00, 0x80800100, dtype=np.uint32),
                        np.array([0x7F800001, 0xFFC12345, 0x7FFFFFFF, 0x7F800000], np.uint32),
                        np.random.default_rng(3).integers(0, 2**32, 4096, dtype=np.uint32)])
    np.testing.assert_array_equal(gpu.capture("to_f32", x, format="f32", path=path), x)
    assert gpu.route("to_f32", "f32").startswith("fixed-function f32 -> f32")


def test_to_f64_from_f64_is_a_raw_move(gpu, path):
    """to_f64 on f64 (F64-DENORM: denormals kept) is a raw double move in the shader."""
    if not gpu.supports("to_f64", "f64", path=path):
        pytest.skip(gpu.unsupported_reason("to_f64", "f64", path=path))
    x = np.array([1, 0x000FFFFFFFFFFFFF, 0x8000000000000001, 0x7FF0000000000001,
                  0xFFF8000000000123, 0x3FF0000000000001], np.uint64)
    np.testing.assert_array_equal(gpu.capture("to_f64", x, format="f64", path=path), x)


def _d(v: float) -> int:
    return int(np.array([v]).view(np.uint64)[0])


# (f64 pattern, dst, what two roundings give, what D3D's single RTZ rounding gives)
TWO_STEP = [
    (_d(1 + 2**-10 - 2**-36), "f16", 0x3C01, 0x3C00),  # RNE to f32 reaches the next f16,
    (_d(1 + 2**-6 - 2**-36), "f11", 0x3C1, 0x3C0),  # RTZ alone stays below it
    (_d(1 + 2**-5 - 2**-36), "f10", 0x1E1, 0x1E0),
    (_d(1 + 2**-52), "f16", 0x3C00, 0x3C00),  # both give 1.0
    (_d(2.0**128 * (1 - 2**-40)), "f16", 0x7C00, 0x7BFF),  # > FLT_MAX: INF, not CONV-F2F-SAT
    (_d(-1.5), "f11", 0, 0),  # CONV-UNSIGNED survives both steps
]


@pytest.mark.parametrize("x, dst, hw, d3d", TWO_STEP)
def test_f64_to_small_float_two_roundings(gpu, path, x, dst, hw, d3d):
    """CONV-F2F-RTZ / CONV-F2F-SAT: f64 -> f16/f11/f10 on a GPU is float(double) then the
    f32 render target; where the first rounding crosses a boundary or overflows, the result
    differs from D3D's single rounding, and the TWO-ROUNDINGS-F64-TO-SMALL row says so."""
    a = np.array([x], np.uint64)
    op = f"to_{dst}"
    assert gpu.supports(op, "f64", path=path) and "two roundings" in gpu.route(op, "f64")
    got = gpu.capture(op, a, format="f64", path=path)
    assert int(got[0]) == hw
    masks = classify_with_engine(gpu.info["renderer"], path, op, "f64", [a], got)
    assert bool(masks["conformant"][0]) == (hw == d3d)
    if hw != d3d:
        assert masks["TWO-ROUNDINGS-F64-TO-SMALL"][0]


def test_half_float_reason_names_the_missing_extensions(gpu):
    """f16 arithmetic needs GL_AMD_gpu_shader_half_float or GL_NV_gpu_shader5: supports()
    and unsupported_reason() say exactly that; capture() raises it as a ValueError."""
    if gpu.info["half_float_arithmetic"]:
        assert gpu.supports("add", "f16") and gpu.unsupported_reason("add", "f16") is None
        return
    why = gpu.unsupported_reason("add", "f16")
    assert not gpu.supports("add", "f16")
    assert "GL_AMD_gpu_shader_half_float" in why and "GL_NV_gpu_shader5" in why
    with pytest.raises(ValueError, match="half-float shader extension"):
        gpu.capture("add", np.array([0x3C00], np.uint16), np.array([0x3C00], np.uint16),
                    format="f16")
    assert "no GPU route" in gpu.unsupported_reason("dp3", "f16")
    assert gpu.unsupported_reason("to_unorm16", "f32") is None


def test_llvmpipe_norm16_deviation_rows_fire(gpu):
    """Each UNORM16 / SNORM16 deviation row of llvmpipe explains real elements (no stale
    row hiding anything): CONV-UNORM / CONV-SNORM decode, and NaN into RGBA16_SNORM."""
    if "llvmpipe" not in gpu.info["renderer"]:
        pytest.skip("the rows checked here are llvmpipe's")
    fired = set()
    for src, codes in (("unorm16", np.arange(65536)), ("snorm16", np.arange(-32768, 32768))):
        got = gpu.convert(codes, src, "f32")
        fired |= set(classify_conversion(gpu.info["renderer"], "sample", src, "f32", codes,
                                         got))
    x = _f32_inputs()
    fired |= set(classify_conversion(gpu.info["renderer"], "render", "f32", "snorm16", x,
                                     gpu.convert(x, "f32", "snorm16")))
    assert {"LLVMPIPE-UNORM16-DECODE-RCP", "LLVMPIPE-SNORM16-DECODE-RCP",
            "LLVMPIPE-SNORM16-NAN-MINUS-ONE"} <= fired
