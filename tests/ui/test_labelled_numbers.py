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
        # (the cell's A is a denormal the d3d11 rules flush: each error against the exact
        # value after input flush and of the raw inputs)
        for who in ("GPU", "model"):
            assert re.search(rf"{who} \S+ ULP vs exact after input flush, \S+ ULP vs exact "
                             r"of the raw inputs", text), text
    finally:
        p.shutdown()


class _ModelBackend:
    """The sweep panel on the real model stage (ModelStage) with numpy's float32 product as
    the GPU (no flush): the map's columns are the engine's."""

    def pool_for(self, size):
        return None

    def ops(self):
        return ["mul"]

    def arity(self, op):
        return 2

    def close(self):
        pass

    def make(self, op, fmt, rules, gpu):
        from fpinspector.model.sweep.stages import ModelStage

        return ModelStage(op, fmt, rules, gpu=_numpy_mul if gpu else None), "f32", {}


def test_one_cell_gives_the_same_labelled_numbers_in_hover_panel_and_cli(make_window, qtbot,
                                                                         capsys) -> None:
    """The issue's "must hold": a map cell whose input the d3d11 rules flush (F32-FTZ) says
    the same in the map's hover, the panel (after a click loads it) and `fpinspector eval`:
    the exact value after input flush and of the raw inputs, the GPU's ULP error against
    each, and its steps from the model, each labelled. The raw inputs' exact product is
    checked against Fraction."""
    import json

    from fpinspector import cli
    from fpinspector.ui.maps.sweep_panel import SweepPanel

    p = SweepPanel(backend=_ModelBackend())
    qtbot.addWidget(p)
    try:
        p.use_gpu.setChecked(True)
        p.domain_a.setText("log:1e-42:1e-30:8")
        p.domain_b.setText("lin:0.25:4:6")
        assert p.start_sweep()
        qtbot.waitUntil(lambda: not p.is_running(), timeout=20000)
        res = p.map.result
        gpu_col = res.columns["gpu"]
        cells = [k for k in range(res.domain.size)
                 if "of the raw inputs" in p.map.describe(k) and gpu_col[k] != res.columns[
                     "model"][k]]
        assert cells, p.map.describe(0)
        k = cells[len(cells) // 2]
        a, b = (int(o) for o in res.operands_at(k))
        gpu = int(gpu_col[k])
        hover = p.map.describe(k)
    finally:
        p.shutdown()
    f32 = r"(\S+)"
    m = re.search(rf"exact={f32} after input flush, {f32} of the raw inputs", hover)
    h_exact, h_raw_exact = float(m[1]), float(m[2])
    m = re.search(rf"GPU {f32} ULP vs exact after input flush, {f32} ULP vs exact of the raw "
                  rf"inputs", hover)
    assert m, hover
    h_err, h_raw_err = float(m[1]), float(m[2])
    h_steps = float(re.search(rf"GPU vs model {f32} steps", hover)[1])
    raw_exact = Fraction(float(np.uint32(a).view(np.float32))) * Fraction(
        float(np.uint32(b).view(np.float32)))
    assert Fraction(h_raw_exact) == raw_exact  # (a float64 holds this product exactly)

    win = make_window()
    win.state.update(op="mul", op_format="f32", operands=[a, b, 0, 0])
    exact = win.ops_view.exact_label.text()
    m = re.match(rf"{f32} after input flush; {f32} of the raw inputs", exact)
    assert m and (float(m[1]), float(m[2])) == (h_exact, h_raw_exact), exact
    _gpu_answers(win, gpu)
    detail = win.ops_view.verdict_text().split("\n")[1]
    m = re.match(rf"ULP error {f32} vs exact after input flush, {f32} vs exact of the raw "
                 rf"inputs; {f32} steps from the model", detail)
    assert m, detail
    assert (float(m[1]), float(m[2]), float(m[3])) == (h_err, h_raw_err, h_steps)

    assert cli.main(["eval", "mul", hex(a), hex(b), "--gpu-result", hex(gpu), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    g = d["gpu_result"]
    assert g["ulp_vs"] == "exact after input flush"
    assert (d["exact"], d["exact_raw"]) == (h_exact, h_raw_exact)
    cli_figures = tuple(float(f"{x:.6g}") for x in (g["ulp_error"], g["ulp_error_raw"],
                                                    g["steps_from_model"]))
    assert cli_figures == (h_err, h_raw_err, h_steps)
    assert cli.main(["eval", "mul", hex(a), hex(b), "--gpu-result", hex(gpu)]) == 0
    text = capsys.readouterr().out
    assert (f"ULP error {h_err:g} vs exact after input flush, {h_raw_err:g} vs exact of the "
            f"raw inputs; {h_steps:+g} steps from the model") in text, text
    assert "of the raw inputs" in next(ln for ln in text.splitlines()
                                       if ln.startswith("              "))
