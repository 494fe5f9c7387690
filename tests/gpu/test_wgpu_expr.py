"""The expression evaluator's GPU column through WebGPU: WGSL from the same step list, each
step equal to the single-op WGSL capture of its GPU inputs, judged against the model; raw
moves through select and the source modifiers."""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.cli import main
from fpinspector.gpu.expr_capture import ExprGpu, ExprRunner
from fpinspector.gpu.expr_deviations import step_deviations
from fpinspector.gpu.expr_wgsl import expr_wgsl_source
from fpinspector.model import evaluate_expr, get_format
from fpinspector.model.expr import judge_gpu
from fpinspector.model.expr.run import operand_bits

pytestmark = pytest.mark.gpu
U32 = np.uint32
TEXTS = ["saturate(a * b + c)", "mad(a, b, -c)", "lerp(a, b, saturate(c))",
         "n * rsqrt(dot(n, n))", "a < b ? -abs(c) : b - a", "f16tof32(f32tof16(a * 0.5))",
         "sqrt(abs(a)) + floor(b) * frac(c) - round(a) + trunc(b) + ceil(c)",
         "asfloat(asuint(a)) * 2"]


def normals(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.uniform(0.25, 4.0, n) * rng.choice([-1.0, 1.0], n)
    return v.astype(np.float32).view(U32)


@pytest.fixture
def wrunner(wgpu_gpu):
    r = ExprRunner(wgpu_gpu)
    yield r
    r.close()


@pytest.mark.parametrize("text", TEXTS)
def test_each_step_equals_the_single_op_wgsl_capture(wgpu_gpu, wrunner, text):
    """Step k's word equals wgpu_gpu.capture(op) on the GPU's own inputs to step k."""
    a, b, c = normals(257, 1), normals(257, 2), normals(257, 3)
    r = evaluate_expr(text, {"a": a, "b": b, "c": c, "n": [a, b, c]})
    words = wrunner.run(r.program, r.slots)
    assert len(words) == len(r.program.steps) and all(w.shape == r.shape for w in words)
    fmt = get_format("f32")
    for k, step in enumerate(r.program.steps):
        if step.op == "movc" or step.sat:
            continue
        ins = [operand_bits(r.program, ref, r.slots, words, fmt) for ref in step.args]
        if step.op == "f16tof32":
            ins = [np.asarray(ins[0]) & U32(0xFFFF)]
        want = wgpu_gpu.capture(step.op, *ins, format="f32")
        got = words[k].astype(bool) if want.dtype == bool else words[k]
        assert np.array_equal(got, want.astype(got.dtype)), (text, k, step.op)


def test_denormal_steps_equal_numpy_ieee(wrunner):
    """Independent oracle: on lavapipe (IEEE, denormals kept) a * b + c step by step is
    numpy float32's product then sum; the judge names LAVAPIPE-NO-FTZ for the flushes."""
    if wrunner.session.info["driver"] != "lavapipe":
        pytest.skip(f"pins lavapipe's kept denormals ({wrunner.session.info['renderer']})")
    rng = np.random.default_rng(5)
    a = rng.integers(0, 0x01000000, 4096, dtype=U32)  # zeros, denormals, tiny normals
    b = np.float32(rng.uniform(0.1, 2.0, 4096)).view(U32)
    c = rng.integers(0, 0x00800000, 4096, dtype=U32) | U32(0x80000000)
    r = evaluate_expr("a * b + c", {"a": a, "b": b, "c": c})
    words = wrunner.run(r.program, r.slots)
    with np.errstate(all="ignore"):
        prod = a.view(np.float32) * b.view(np.float32)
        total = prod + c.view(np.float32)
    if wrunner.session.info["driver"] == "lavapipe":
        assert np.array_equal(words[0], prod.view(U32))
        assert np.array_equal(words[1], total.view(U32))
    judged = judge_gpu(r, words)
    renderer = wrunner.session.info["renderer"]
    flushed = np.nonzero(~np.asarray(judged.ok[0]).reshape(-1))[0]
    assert flushed.size  # some products are denormal: D3D flushes them, lavapipe does not
    named = step_deviations(r, judged, renderer, "compute", int(flushed[0]))
    assert named[0] == "LAVAPIPE-NO-FTZ" and set(named.values()) == {"LAVAPIPE-NO-FTZ"}


def test_select_and_modifiers_move_raw_bits(wrunner):
    a = np.array([0x00000001, 0x3F800000, 0xBF800000, 0x7F800000], U32)
    b = np.array([0, 0x3F800000, 0, 0x3F800000], U32)
    r = evaluate_expr("b < 0.5 ? a : -abs(a)", {"a": a, "b": b})
    w = wrunner.run(r.program, r.slots)
    assert w[-1].tolist() == [0x00000001, 0xBF800000, 0xBF800000, 0xFF800000]


def test_free_variant_writes_only_the_result(wrunner):
    a, b, c = normals(64, 7), normals(64, 8), normals(64, 9)
    r = evaluate_expr("a * b - c", {"a": a, "b": b, "c": c})
    free = wrunner.run(r.program, r.slots, variant="free")
    assert len(free) == 1 and free[0].shape == r.shape
    fused = evaluate_expr("mad(a, b, -c)", {"a": a, "b": b, "c": c}).bits
    assert np.all((free[0] == r.bits) | (free[0] == fused))
    src, words = expr_wgsl_source(r.program, precise=False)
    assert words == 1 and "bitcast<f32>(x0)" in src


def test_expr_gpu_thread_and_cli_through_webgpu(wgpu_gpu, capsys):
    """ExprGpu(api=...) (the app's expression map) and `expr --gpu --api`."""
    a = normals(100, 1)
    r = evaluate_expr("a * 2", {"a": a})
    with ExprGpu(api=wgpu_gpu.api) as g:
        assert g.info["renderer"] == wgpu_gpu.info["renderer"]
        w = g.run(r.program, r.slots)
    assert np.array_equal(w[-1], r.bits)
    assert main(["expr", "a * b", "--set", "a=0x00800000", "--set", "b=0x3F000000",
                 "--gpu", "--api", wgpu_gpu.api]) in (0, 1)
    out = capsys.readouterr().out
    assert "via Vulkan" in out or wgpu_gpu.api != "vulkan"


def test_constant_expressions_and_empty_inputs(wrunner):
    """No input slots: the shader declares no input buffer (an auto layout drops unused
    bindings); no elements: nothing is dispatched."""
    r = evaluate_expr("asfloat(0x3f800000) + 2", {})
    assert wrunner.run(r.program, [])[-1].tolist() == int(r.bits)
    r = evaluate_expr("a + 1", {"a": np.zeros(0, U32)})
    assert wrunner.run(r.program, r.slots)[0].shape == (0,)


def test_expr_gpu_follows_a_webgpu_adapter_chosen_in_the_app(wgpu_gpu):
    """The app's expression map opens ExprGpu() with no API: it follows the process-wide
    choice (the GPU menu's) when that is a WebGPU adapter."""
    from fpinspector.gpu.devices import DeviceChoice, select_device

    select_device(DeviceChoice(api=wgpu_gpu.api))
    try:
        with ExprGpu() as g:
            assert g.info["renderer"] == wgpu_gpu.info["renderer"]
    finally:
        select_device(None)


def test_expression_pipelines_and_buffers_are_the_sessions(wgpu_gpu):
    """The WGSL expression runner builds its pipelines in the session's compute runner and
    writes through its result and staging buffers (reused, not remade per chunk); closing
    it drops its own pipelines only."""
    cap = wgpu_gpu.capture_path(None)
    wgpu_gpu.capture("add", 1, 2)
    before = set(cap._pipelines)
    runner = ExprRunner(wgpu_gpu)
    a, b = normals(3000, 21), normals(3000, 22)
    r = evaluate_expr("a * b + a", {"a": a, "b": b})
    runner.run(r.program, r.slots)
    added = set(cap._pipelines) - before
    assert added and all(k[0] == "expr" for k in added)
    bufs, staging = dict(cap._buffers), cap._staging
    w = runner.run(r.program, r.slots)
    assert w[0].tolist() == r.steps[0].bits.tolist()  # (mul: correctly rounded everywhere)
    assert bufs and all(cap._buffers[k] is v for k, v in bufs.items())
    assert cap._staging is staging
    runner.close()
    assert not set(cap._pipelines) & added and before <= set(cap._pipelines)
