"""Numbers that say what they measure: where an input flush (F32-FTZ) changed the exact
value, the panel shows the exact value after the flush and of the raw inputs, each
labelled; every ULP error says what it is measured against, and the panel's figures for a
cell are the error map's (model.sweep's ModelStage columns for the same operands and GPU
answer). Before, 1e-45 x 1.0 showed "exact 0" and "ULP error 1" for a GPU that returned the
true product, unlabelled, and the map's hover said "GPU vs model" with another figure.

Oracles: the exact product of the raw inputs by Fraction; the GPU's answer is numpy's
float32 product (no flush)."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np

F32_ONE = 0x3F800000


def _gpu_answers(win, bits: int) -> None:
    """Deliver ``bits`` as the GPU's answer to the current op (as the GPU worker would)."""
    win.ctl._gpu_req = req = 20_000 + bits % 1000
    win.ctl._gpu_captured(req, np.array([bits], dtype=np.uint32))


def _numpy_mul(op, a, b, format="f32"):
    with np.errstate(all="ignore"):
        return (np.asarray(a).view(np.float32) * np.asarray(b).view(np.float32)).view(np.uint32)


def test_flushed_and_raw_exact_values_and_errors_are_labelled_F32_FTZ(make_window) -> None:
    from fpinspector.model.sweep.stages import ModelStage

    win = make_window()
    win.state.update(op="mul", op_format="f32", operands=[1, F32_ONE, 0, 0])
    raw_exact = Fraction(2) ** -149 * 1  # the true product of the raw inputs
    gpu = int(_numpy_mul("mul", np.uint32(1), np.uint32(F32_ONE)))
    assert Fraction(float(np.uint32(gpu).view(np.float32))) == raw_exact  # (gpu = 0x1)
    exact = win.ops_view.exact_label.text()
    assert exact.startswith("0.0 after input flush") and "of the raw inputs" in exact, exact
    raw_shown = exact.split("; ")[1].split(" of the raw")[0]
    assert Fraction(float(raw_shown)) == raw_exact
    _gpu_answers(win, gpu)
    detail = win.ops_view.verdict_text().split("\n")[1]
    m = re.match(r"ULP error (\S+) vs exact after input flush, (\S+) vs exact of the raw "
                 r"inputs; ([+-]\S+) steps from the model", detail)
    assert m, detail
    flushed_err, raw_err, steps = (float(g) for g in m.groups())
    assert raw_err == 0  # the GPU returned the true product
    # the error map's columns for the same cell and GPU answer: the same figures
    stage = ModelStage("mul", "f32", "d3d11", gpu=_numpy_mul)
    cols = stage((np.array([1], np.uint32), np.array([F32_ONE], np.uint32)))
    assert int(cols["gpu"][0]) == gpu
    assert float(cols["err_gpu"][0]) == flushed_err == 1
    assert float(cols["err_gpu_model"][0]) == steps == 1


def test_without_a_flush_one_exact_value_and_the_error_vs_exact(make_window) -> None:
    win = make_window()
    three, seven = (int(np.float32(x).view(np.uint32)) for x in (3.0, 7.0))
    win.state.update(op="div", op_format="f32", operands=[three, seven, 0, 0])
    exact = win.ops_view.exact_label.text()
    assert "flush" not in exact and "raw" not in exact
    model = win.ctl.outcome.bits
    _gpu_answers(win, model + 1)
    detail = win.ops_view.verdict_text().split("\n")[1]
    assert re.match(r"ULP error \S+ vs exact; \+1 steps from the model \(\d+ bits? differs?\)",
                    detail), detail


def test_the_map_hover_labels_every_error(qtbot) -> None:
    from fpinspector.ui.maps.sweep_panel import SweepPanel
    from tests.ui.test_error_map import NumpyBackend

    p = SweepPanel(backend=NumpyBackend())
    qtbot.addWidget(p)
    try:
        p.use_gpu.setChecked(True)
        p.compare.setCurrentIndex(p.compare.findData("gpu_vs_model"))
        p.domain_a.setText("log:1e-42:1e-30:8")
        p.domain_b.setText("lin:0.25:4:6")
        assert p.start_sweep()
        qtbot.waitUntil(lambda: not p.is_running(), timeout=10000)
        text = p.map.describe(3)
        assert re.search(r"error: .*GPU vs model \S+ steps", text), text
        assert re.search(r"GPU vs exact \S+ ULP", text) and re.search(r"model vs exact \S+ ULP",
                                                                      text), text
    finally:
        p.shutdown()
