"""GPU sweeps (issue 6): chunks fed to llvmpipe give what per-element captures give.

Oracles: numpy float32 arithmetic (IEEE 754, denormals kept) and the session's own
per-element capture on sampled cells (the sweep adapter must not change what the GPU says).
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from fpinspector.model.sweep import Axis, GridDomain, UnaryDomain, run_sweep

gpu = pytest.importorskip("fpinspector.gpu")
from fpinspector.gpu.sweep_capture import GpuCapture, gpu_only_stage  # noqa: E402

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def cap():
    try:
        c = GpuCapture()
    except gpu.GpuUnavailable as exc:
        pytest.skip(exc.message)
    yield c
    c.close()


def test_grid_sweep_equals_per_element_capture_on_sampled_cells(cap):
    """Sampled cells of a mul map equal single-element captures (and IEEE mul away from
    denormals: F32-PREC d3d11 correct rounding)."""
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
    normal = np.abs(ieee) >= np.float32(2.0**-126)
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
    model = pytest.importorskip("fpinspector.model")
    if not hasattr(model, "evaluate"):
        pytest.skip("rule engine not merged yet")
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
