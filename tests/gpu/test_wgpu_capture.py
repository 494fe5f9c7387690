"""WebGPU capture (wgpu, WGSL) on the local adapter (lavapipe through Vulkan here): raw
bits in and out, every capturable op judged by the rule engine with the driver's deviation
rows, bit-exact checks against numpy oracles, and the reasons for what cannot be captured."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from gpu_oracle import rgb9e5_every_mantissa_and_exponent, structured_f32

from fpinspector import model
from fpinspector.gpu.deviations import DEVIATIONS
from fpinspector.gpu.fidelity import F16_CLASSES, F32_CLASSES, check_fidelity, f16_summary
from fpinspector.gpu.judge import classify_conversion, classify_with_engine

pytestmark = pytest.mark.gpu

F32_OPS = sorted(op for op, spec in model.OPS.items() if "f32" in spec.formats)
F16_OPS = sorted(op for op, spec in model.OPS.items() if "f16" in spec.formats)


def _f64_cols(arity):
    """f64 operands: f32 specials crossed and random bits in the high words, random low
    words, plus f64 specials (denormals, signaling NaN) and values whose f32 is a denormal
    (CONV-DENORM: what a float(double) that keeps denormals shows)."""
    cols = structured_f32(n_random=512, arity=arity, seed=arity + 50)
    rng = np.random.default_rng(arity)
    ops64 = [(c.astype(np.uint64) << np.uint64(32)) | rng.integers(0, 2**32, c.size, np.uint64)
             for c in cols]
    specials = np.array([0, 1, 0x000FFFFFFFFFFFFF, 0x8000000000000001, 0x3FF0000000000000,
                         0x7FF0000000000000, 0x7FF8000000000000, 0x0010000000000000,
                         0x7FF0000000000001, 0x36A0000000000000, 0x3730000000000000,
                         0xB7F0000000000000, 0x37E0000000000001], np.uint64)
    return [np.concatenate([o, np.resize(specials, o.size)]) for o in ops64]


def _unexplained(gpu, op, fmt, operands):
    got = gpu.capture(op, *operands, format=fmt)
    ev = np.asarray(model.evaluate(op, *operands, format=fmt).bits)
    assert got.dtype == ev.dtype and got.shape == ev.shape
    masks = classify_with_engine(gpu.info["renderer"], "compute", op, fmt, operands, got)
    bad = masks["unexplained"]
    idx = np.nonzero(bad)[0][:4]
    return bad.sum(), [[hex(int(o[i])) for o in operands] + [hex(int(got[i]))] for i in idx]


def test_compute_path_carries_raw_bits_of_every_f32_class(wgpu_gpu):
    """Capture fidelity: the integer wire and a raw move (bitcast in, bitcast out) return
    every f32 class bit for bit (denormals, -0, NaN payloads, signaling NaNs); so does the
    r32float render target the conversions use."""
    fid = check_fidelity(wgpu_gpu)
    assert fid["compute"].wire and fid["compute"].raw_bits, fid["compute"].mismatches
    assert fid["render"].raw_bits, fid["render"].mismatches
    x = np.concatenate([np.array(v, np.uint32) for v in F32_CLASSES.values()])
    assert np.array_equal(wgpu_gpu.capture("mov", x), x)


def test_f16_raw_move_keeps_every_class(wgpu_gpu):
    """f16 pairs travel as array<vec2<f16>> memory: every class, NaN payloads included,
    comes back; odd counts (a padded pair) too."""
    if not wgpu_gpu.supports("mov", "f16"):
        pytest.skip(wgpu_gpu.unsupported_reason("mov", "f16"))
    x = np.concatenate([np.array(v, np.uint16) for v in F16_CLASSES.values()])
    assert np.array_equal(wgpu_gpu.capture("mov", x, format="f16"), x)
    assert np.array_equal(wgpu_gpu.capture("mov", x[:-1], format="f16"), x[:-1])
    compute = check_fidelity(wgpu_gpu, ("compute",))["compute"]  # what the report saves
    assert set(compute.f16_classes) == set(F16_CLASSES) and compute.raw_bits
    assert f16_summary(compute.to_dict()) == "f16 raw (every class)"


@pytest.mark.parametrize("op", F32_OPS)
def test_f32_op_allowed_by_engine_or_driver_row(wgpu_gpu, op, wgpu_behaviour):
    """F32-* / CONV-* rules: every capturable f32 op on specials crossed and random bits is
    allowed by evaluate(...) or reproduced exactly by a deviation row of this driver (on an
    adapter whose rows the project does not ship, the rest is a finding)."""
    if not wgpu_gpu.supports(op, "f32"):
        pytest.skip(wgpu_gpu.unsupported_reason(op, "f32"))
    arity = model.OPS[op].arity
    n, examples = _unexplained(wgpu_gpu, op, "f32",
                               structured_f32(n_random=2048, arity=arity, seed=arity + 40))
    wgpu_behaviour.check(n == 0, f"{op}: {n} unexplained, e.g. {examples}")


@pytest.mark.parametrize("op", F16_OPS)
def test_f16_op_allowed_by_engine_or_driver_row(wgpu_gpu, op, wgpu_behaviour):
    """F16-PREC and friends through shader-f16: unary ops on all 65,536 patterns, binary
    and ternary ops on 2^15 random operands plus every class crossed."""
    if not wgpu_gpu.supports(op, "f16"):
        pytest.skip(wgpu_gpu.unsupported_reason(op, "f16"))
    arity = model.OPS[op].arity
    if arity == 1:
        cols = [np.arange(1 << 16, dtype=np.uint16)]
    else:
        rng = np.random.default_rng(16)
        s = np.concatenate([np.array(v, np.uint16) for v in F16_CLASSES.values()])
        crossed = list(np.meshgrid(*([s] * arity), indexing="ij"))
        cols = [np.concatenate([c.ravel(), rng.integers(0, 1 << 16, 1 << 15).astype(np.uint16)])
                for c in crossed]
    n, examples = _unexplained(wgpu_gpu, op, "f16", cols)
    wgpu_behaviour.check(n == 0, f"{op}: {n} unexplained, e.g. {examples}")


def test_f32_mul_and_f16_mul_equal_independent_oracles(wgpu_gpu, wgpu_behaviour):
    """Bit-exact against oracles outside the engine: f32 mul vs numpy float32 (IEEE,
    denormals kept: lavapipe's compute path has no FTZ), f16 mul vs the exact float64
    product rounded once to float16 (NaNs compared as NaN). An adapter that flushes
    denormals (as D3D wants) differs from the f32 oracle: a finding there, not a failure."""
    rng = np.random.default_rng(7)
    a, b = (rng.integers(0, 2**32, 1 << 18, dtype=np.uint32) for _ in range(2))
    with np.errstate(all="ignore"):
        want = (a.view(np.float32) * b.view(np.float32)).view(np.uint32)
    got = wgpu_gpu.capture("mul", a, b)
    nan = np.isnan(want.view(np.float32)) & np.isnan(got.view(np.float32))
    off = np.flatnonzero(got[~nan] != want[~nan])
    wgpu_behaviour.check(off.size == 0, f"f32 mul: {off.size} differ from numpy's IEEE "
                         f"product, e.g. {[hex(int(got[~nan][i])) for i in off[:4]]}")
    if not wgpu_gpu.supports("mul", "f16"):
        return
    h, k = (rng.integers(0, 1 << 16, 1 << 16).astype(np.uint16) for _ in range(2))
    with np.errstate(all="ignore"):
        want16 = (h.view(np.float16).astype(np.float64) * k.view(np.float16).astype(np.float64)
                  ).astype(np.float16)
    got16 = wgpu_gpu.capture("mul", h, k, format="f16").view(np.float16)
    both_nan = np.isnan(want16) & np.isnan(got16)
    off16 = np.flatnonzero(got16.view(np.uint16)[~both_nan] != want16.view(np.uint16)[~both_nan])
    wgpu_behaviour.check(off16.size == 0, f"f16 mul: {off16.size} differ from the once-rounded "
                         "float64 product")


def test_results_have_the_models_dtype_and_shape(wgpu_gpu):
    """Same dtypes and broadcast shapes as evaluate(...).bits (and the GL session)."""
    a = np.array([[0x3F800000], [0x40000000]], np.uint32)
    b = np.array([0x3F800000, 0x7FC00000, 0x00000001], np.uint32)
    for op in ("add", "lt", "ftoi", "ftou", "to_f16"):
        args = (a, b) if model.OPS[op].arity == 2 else (a,)
        got = wgpu_gpu.capture(op, *args)
        ev = np.asarray(model.evaluate(op, *args).bits)
        assert (got.dtype, got.shape) == (ev.dtype, ev.shape), op
    with pytest.raises(ValueError, match="bit patterns"):
        wgpu_gpu.capture("add", np.float32([1.0]), np.float32([1.0]))


def test_conversions_through_texture_formats_judged_by_the_model(wgpu_gpu, wgpu_behaviour):
    """CONV-*: every texture-format conversion this adapter has (r16float, rg11b10ufloat,
    r8unorm / r8snorm, rgba8unorm-srgb, r16unorm / r16snorm, both directions) is allowed by
    the model or explained by a row; the rows that exist fire."""
    rng = np.random.default_rng(3)
    f32 = np.concatenate([np.concatenate([np.array(v, np.uint32) for v in F32_CLASSES.values()]),
                          rng.integers(0, 2**32, 4096, dtype=np.uint32),
                          np.float32(np.linspace(-1.5, 1.5, 4097)).view(np.uint32)])
    codes = {"f16": np.arange(1 << 16), "f11": np.arange(1 << 11), "f10": np.arange(1 << 10),
             "unorm8": np.arange(256), "srgb8": np.arange(256), "snorm8": np.arange(-128, 128),
             "unorm16": np.arange(1 << 16), "snorm16": np.arange(-(1 << 15), 1 << 15),
             "rgb9e5": rgb9e5_every_mantissa_and_exponent()[0]}
    fired = set()
    done = 0
    for src, dst, path in wgpu_gpu.conversions():
        if path not in ("render", "sample"):
            continue
        x = f32 if src == "f32" else codes[src]
        got = wgpu_gpu.convert(x, src, dst, path=path)
        masks = classify_conversion(wgpu_gpu.info["renderer"], path, src, dst, x, got)
        bad = masks["unexplained"]
        wgpu_behaviour.check(not bad.any(), f"{src}->{dst} ({path}): {int(bad.sum())} "
                             "unexplained, e.g. "
                             f"{[(hex(int(x[i])), int(got[i])) for i in np.nonzero(bad)[0][:4]]}")
        fired |= {k for k, v in masks.items() if k.startswith("LAVAPIPE") and v.any()}
        done += 1
    assert done >= 10
    rows = {d.id for d in DEVIATIONS if d.applies_to(wgpu_gpu.info["renderer"])
            and "convert" in d.ops}
    assert rows <= fired, f"rows that never fire: {rows - fired}"


def test_rgb9e5ufloat_sampled_as_three_floats_CONV_RGB9E5(wgpu_gpu):
    """CONV-RGB9E5 decode through an rgb9e5ufloat texture (textureLoad of R, G, B; WebGPU
    can sample the format, never render to it): every 9-bit mantissa at every shared
    exponent gives (0.frac) * 2^(E - 15) exactly (fractions oracle), and D3D11.3
    §19.3.2.1's example 0x999320C8 gives (6.25, 12.5, 3.125); encoding has no GPU route."""
    words, want = rgb9e5_every_mantissa_and_exponent()
    assert ("rgb9e5", "f32", "sample") in wgpu_gpu.conversions()
    got = wgpu_gpu.convert(words, "rgb9e5", "f32")
    assert got.shape == (words.size, 3) and np.array_equal(got, want)
    example = wgpu_gpu.convert(np.uint32([0x999320C8]), "rgb9e5", "f32").view(np.float32)
    assert example.tolist() == [[6.25, 12.5, 3.125]]
    with pytest.raises(ValueError, match="hardware never encodes"):
        wgpu_gpu.convert(np.uint32([0x3F800000]), "f32", "rgb9e5")


def test_every_row_of_this_driver_fires(wgpu_gpu):
    """No stale row may hide anything: each op row of the driver explains some element."""
    rows = [d for d in DEVIATIONS if d.applies_to(wgpu_gpu.info["renderer"])
            and "convert" not in d.ops]
    if not rows:
        pytest.skip(f"no deviation rows for {wgpu_gpu.info['renderer']}")
    stale = []
    for dev in rows:
        fired = False
        for op in dev.ops:
            if op not in model.OPS or dev.format not in model.OPS[op].formats \
                    or not wgpu_gpu.supports(op, dev.format):
                continue
            arity = model.OPS[op].arity
            if dev.format == "f16":
                rng = np.random.default_rng(1)
                cols = [rng.integers(0, 1 << 16, 1 << 16).astype(np.uint16)
                        for _ in range(arity)]
                if arity == 1:
                    cols = [np.arange(1 << 16, dtype=np.uint16)]
            elif dev.format == "f64":
                cols = _f64_cols(arity)
            else:
                cols = structured_f32(n_random=512, arity=arity, seed=3)
            got = wgpu_gpu.capture(op, *cols, format=dev.format)
            masks = classify_with_engine(wgpu_gpu.info["renderer"], "compute", op,
                                         dev.format, cols, got)
            if dev.id in masks and masks[dev.id].any():
                fired = True
                break
        if not fired:
            stale.append(dev.id)
    assert not stale, stale


def test_gl_rows_do_not_apply_to_lavapipe_and_back(wgpu_gpu):
    """lavapipe names its device llvmpipe: the API in the renderer keeps the rows apart."""
    r = wgpu_gpu.info["renderer"]
    if wgpu_gpu.info["driver"] != "lavapipe":
        pytest.skip(f"about lavapipe's rows ({r})")
    assert r.endswith(" via Vulkan")
    ids = {d.id for d in DEVIATIONS if d.applies_to(r) and d.api != "any"}
    assert ids and all(i.startswith(("LAVAPIPE", "WGSL")) for i in ids)
    gl = {d.id for d in DEVIATIONS if d.applies_to("llvmpipe (LLVM 15.0.6, 256 bits)")}
    assert gl and not any(i.startswith(("LAVAPIPE", "WGSL")) for i in gl)
    # the API's rows hold on any of its devices, a driver's rows only on that driver
    nvidia = {d.id for d in DEVIATIONS if d.applies_to("NVIDIA H200 via Vulkan")}
    assert {i for i in ids if i.startswith("WGSL")} <= nvidia
    assert not any(i.startswith(("LAVAPIPE", "GLSL")) for i in nvidia)
    # a property of the capture route, not of a driver: both APIs
    assert "TWO-ROUNDINGS-F64-TO-SMALL" in {d.id for d in DEVIATIONS if d.applies_to(r)} & gl


def test_what_webgpu_cannot_capture_says_why(wgpu_gpu):
    """Without wgpu's shader-f64 / shader-f16 the f64 / f16 ops name the missing feature
    (and the two-rounding f64 -> f16 route the f64 step); ops no GPU route has say so."""
    saved = set(wgpu_gpu.features)
    try:
        wgpu_gpu.features.discard("shader-f64")
        why = wgpu_gpu.unsupported_reason("add", "f64")
        assert why and "'shader-f64'" in why and "WGSL has no 64-bit float" in why
        assert "float(double)" in wgpu_gpu.unsupported_reason("to_f16", "f64")
        with pytest.raises(ValueError, match="shader-f64"):
            wgpu_gpu.capture("add", np.uint64([0]), np.uint64([0]), format="f64")
        wgpu_gpu.features.discard("shader-f16")
        assert "shader-f16" in wgpu_gpu.unsupported_reason("mul", "f16")
    finally:
        wgpu_gpu.features.clear()
        wgpu_gpu.features.update(saved)
    assert "no GPU route" in wgpu_gpu.unsupported_reason("dp2", "f16")


@pytest.mark.parametrize("op", sorted(op for op, spec in model.OPS.items()
                                      if "f64" in spec.formats))
def test_f64_op_allowed_by_engine_or_row(wgpu_gpu, op, wgpu_behaviour):
    """F64-IEEE / F64-DENORM / CONV-*: f64 through wgpu's shader-f64 (array<f64> memory),
    specials and random bits, judged like GL's f64 (the f64 -> f16/f11/f10 route by its
    two roundings, TWO-ROUNDINGS-F64-TO-SMALL)."""
    if not wgpu_gpu.supports(op, "f64"):
        pytest.skip(wgpu_gpu.unsupported_reason(op, "f64"))
    n, examples = _unexplained(wgpu_gpu, op, "f64", _f64_cols(model.OPS[op].arity))
    wgpu_behaviour.check(n == 0, f"{op}: {n} unexplained, e.g. {examples}")


def test_f64_mul_equals_numpy_and_moves_raw(wgpu_gpu):
    """Independent oracle: f64 mul equals numpy float64 bit for bit (denormals kept), and
    a raw f64 move keeps every class, signaling NaN payloads included."""
    if not wgpu_gpu.supports("mul", "f64"):
        pytest.skip(wgpu_gpu.unsupported_reason("mul", "f64"))
    rng = np.random.default_rng(64)
    a, b = (rng.integers(0, 2**64, 1 << 16, dtype=np.uint64) for _ in range(2))
    with np.errstate(all="ignore"):
        want = (a.view(np.float64) * b.view(np.float64)).view(np.uint64)
    got = wgpu_gpu.capture("mul", a, b, format="f64")
    nan = np.isnan(want.view(np.float64)) & np.isnan(got.view(np.float64))
    assert got.dtype == np.uint64 and np.array_equal(got[~nan], want[~nan])
    fid = check_fidelity(wgpu_gpu)["compute"]
    assert fid.f64_classes and all(fid.f64_classes.values()), fid.mismatches


def test_a_large_capture_is_chunked(wgpu_gpu):
    """2^24 + 3 elements with a small chunk: grid and buffer limits never show."""
    from fpinspector.gpu.wgpu_session import WgpuCompute

    n = (1 << 24) + 3
    x = np.arange(n, dtype=np.uint32)
    runner = wgpu_gpu._compute
    old = runner.chunk
    try:
        runner.chunk = 1 << 22
        got = wgpu_gpu.capture("mov", x)
    finally:
        runner.chunk = old
    assert isinstance(runner, WgpuCompute) and np.array_equal(got, x)


def test_wgpu_is_imported_only_for_a_webgpu_session():
    """Startup stays fast: the CLI, the GPU package and a GL session never import wgpu."""
    code = ("import sys, fpinspector.cli, fpinspector.gpu, fpinspector.gpu.session; "
            "print('wgpu' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip() == "False", out.stderr
