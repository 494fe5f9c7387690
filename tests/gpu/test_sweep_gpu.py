"""GPU sweeps: chunks fed to llvmpipe give what per-element captures give.

Oracles: numpy float32 arithmetic (IEEE 754, denormals kept) and the session's own
per-element capture on sampled cells (the sweep adapter must not change what the GPU says).
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from fpinspector import model
from fpinspector.gpu import GpuUnavailable
from fpinspector.gpu.sweep_capture import GpuCapture, gpu_only_stage
from fpinspector.model.sweep import Axis, GridDomain, UnaryDomain, run_sweep

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def cap():
    try:
        c = GpuCapture()
    except GpuUnavailable as exc:
        pytest.skip(exc.message)
    yield c
    c.close()


def test_grid_sweep_equals_per_element_capture_on_sampled_cells(cap):
    """Sampled cells of a mul map equal single-element captures (and IEEE mul away from
    denormals, operands and results: F32-PREC d3d11 correct rounding; a denormal operand
    may be flushed, F32-FTZ, as D3D wants and llvmpipe's compute path does not)."""
    g = GridDomain(Axis.log("f32", 1e-38, 1e38, 96), Axis.linear("f32", -3.0, 3.0, 77))
    res = run_sweep(g, gpu_only_stage(cap, "mul", "f32"), result_format="f32", chunk_size=1000)
    rng = np.random.default_rng(0)
    for k in rng.integers(0, g.size, 25):
        a, b = res.operands_at(int(k))
        one = cap("mul", np.array([a], np.uint32), np.array([b], np.uint32), format="f32")
        assert int(res.columns["gpu"][k]) == int(one[0])
    a, b = g.operands(0, g.size)
    with np.errstate(all="ignore"):
        ieee = (a.view(np.float32) * b.view(np.float32))
    tiny = np.float32(2.0**-126)
    normal = ((np.abs(ieee) >= tiny) & (np.abs(a.view(np.float32)) >= tiny)
              & (np.abs(b.view(np.float32)) >= tiny))
    assert normal.sum() > 0.9 * g.size * 76 / 77  # (all but b = 0 and the denormal a)
    assert np.array_equal(res.columns["gpu"][normal], ieee.view(np.uint32)[normal])


def test_capture_from_other_threads_uses_one_gl_thread(cap):
    """The runner's prefetch thread and a second caller thread both get answers."""
    dom = UnaryDomain(Axis.bit_range("f32", 0x3F800000, 0x3F800000 + 4999))
    out = {}

    def work():
        out["r"] = run_sweep(dom, gpu_only_stage(cap, "sqrt", "f32"), result_format="f32",
                             chunk_size=777)

    t = threading.Thread(target=work)
    t.start()
    t.join(30)
    r = out["r"]
    assert r.complete
    x = dom.operands(0, dom.size)[0].view(np.float32).astype(np.float64)
    # F32-SQRT-RCP: within 1 ULP of the exact root
    got = r.columns["gpu"].view(np.float32).astype(np.float64)
    ulp = np.spacing(np.sqrt(x).astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(got - np.sqrt(x)) <= ulp)


def test_model_and_gpu_stage_matches_per_element_evaluate(cap):
    """With the rule engine: every column equals per-element evaluate/capture on samples."""
    from fpinspector.gpu.sweep_capture import make_stage

    g = GridDomain(Axis.log("f32", 1e-40, 1e3, 40), Axis.log("f32", 1e-3, 1e3, 30))
    res = run_sweep(g, make_stage("mul", "f32", "d3d11", gpu=cap), result_format="f32",
                    chunk_size=333)
    rng = np.random.default_rng(1)
    for k in rng.integers(0, g.size, 20):
        a, b = (np.array([x], np.uint32) for x in res.operands_at(int(k)))
        ev = model.evaluate("mul", a, b, format="f32", rules="d3d11")
        g1 = cap("mul", a, b, format="f32")
        assert int(res.columns["model"][k]) == int(np.asarray(ev.bits).reshape(-1)[0])
        assert int(res.columns["gpu"][k]) == int(g1[0])
        assert bool(res.columns["ok_gpu"][k]) == bool(np.asarray(ev.allowed(g1)).reshape(-1)[0])
        np.testing.assert_equal(res.columns["err_gpu"][k],
                                np.asarray(ev.ulp_error(g1), float).reshape(-1)[0])


def test_cli_gpu_sweep_writes_files_and_exit_code_follows_verdicts(cap, tmp_path, capsys):
    """`fpinspector sweep mul --gpu` over a range with denormal products: the file reloads,
    and --fail-on-nonconformant exits 1 exactly when the GPU broke a rule (F32-FTZ here
    when the driver keeps denormals, as llvmpipe does)."""
    from fpinspector.cli import main
    from fpinspector.model.sweep import load_npz

    out = tmp_path / "mul.npz"
    rc = main(["sweep", "mul", "-d", "log:1e-40:1e-30:64", "--domain-b", "lin:0.5:2:32", "--gpu",
               "--out", str(out), "-q", "--fail-on-nonconformant"])
    res = load_npz(out)
    assert "gpu" in res.columns and res.meta["renderer"] == cap.info["renderer"]
    bad = res.summary.nonconformant_count()
    assert rc == (1 if bad else 0)
    a, b = res.domain.operands(0, res.domain.size)
    assert np.array_equal(res.columns["gpu"], cap("mul", a, b, format="f32"))
    assert bad == int(np.sum(~res.columns["ok_gpu"]))
    assert "ok_gpu" in capsys.readouterr().out


def test_gpu_verdicts_on_differing_elements_equal_whole_chunk_F32_SQRT_RCP(cap):
    """On real llvmpipe results, the compare stage's shortcut (verdicts re-evaluated only
    where the GPU pattern differs from the model's) equals evaluating the whole chunk
    against the GPU result (F32-SQRT-RCP tolerance, F32-FTZ, F32-NANOUT)."""
    from fpinspector.model import evaluate
    from fpinspector.model.sweep import ModelStage, ulp_distance

    ops = (np.arange(0, 1 << 32, 4099 * 97, dtype=np.uint64).astype(np.uint32),)
    for op in ("sqrt", "rcp"):
        out = ModelStage(op, "f32", gpu=cap)(ops)
        ev = evaluate(op, *ops, format="f32")
        g = out["gpu"]
        assert np.array_equal(g, cap(op, *ops, format="f32"))
        assert np.array_equal(out["err_gpu"], ev.ulp_error(g), equal_nan=True)
        assert np.array_equal(out["ok_gpu"], ev.allowed(g))
        assert np.array_equal(out["err_gpu_model"], ulp_distance(g, ev.bits, "f32"),
                              equal_nan=True)


def test_mad_with_fixed_c_and_itof_codes_capture_like_single_calls_F32_FUSED(cap):
    """The GPU sees the fixed C of a mad grid and integer codes of itof exactly as a
    direct capture with the same operands does (sampled cells)."""
    from fpinspector.model.sweep import ModelStage

    c = np.uint32(0x3EAAAAAB)
    dom = GridDomain(Axis.linear("f32", -3, 3, 33), Axis.log("f32", 1e-3, 7, 29))
    res = run_sweep(dom, ModelStage("mad", "f32", gpu=cap, fixed=(c,)), result_format="f32")
    for k in (0, 17, 500, dom.size - 1):
        a, b = (np.array([v], np.uint32) for v in res.operands_at(k))
        assert int(res.columns["gpu"][k]) == int(cap("mad", a, b, np.array([c]))[0])
    codes = UnaryDomain(Axis.bit_range("i32", -(1 << 31), (1 << 31) - 1, 4097))
    res2 = run_sweep(codes, ModelStage("itof", "i32", gpu=cap), result_format="f32")
    ints = codes.axis.patterns()
    assert res2.columns["gpu"].view(np.float32).tolist() == ints.astype(np.float32).tolist()
    assert res2.summary.nonconformant_count() == 0


def test_cli_gpu_process_gives_the_same_sweep(cap, tmp_path):
    """`--gpu-process` (GL context in a child process) captures the same patterns and the
    same verdicts as the in-process GPU (F32-SQRT-RCP window on llvmpipe's sqrt)."""
    from fpinspector.cli import main
    from fpinspector.model.sweep import load_npz

    paths = []
    for extra in ([], ["--gpu-process", "--workers", "1"]):
        out = tmp_path / f"sqrt{len(extra)}.npz"
        assert main(["sweep", "sqrt", "-d", "bits:0x00000000:0x3F900000:20000", "--gpu",
                     "--out", str(out), "-q"] + extra) == 0
        paths.append(load_npz(out))
    a, b = paths
    assert np.array_equal(a.columns["gpu"], b.columns["gpu"])
    assert a.summary.to_dict() == b.summary.to_dict()
