"""An operand edit asks the rule engine for the op once, and for the raw inputs' exact
value once more only where an input flush (F32-FTZ) changes it; the GPU's answer is judged
without another evaluation. Before, a flushed operand cost three evaluations (the op, the
op again under another cache key, the op on the raw inputs with its allowed set and
sentences), and the GPU answer's raw-input figure a full verdict of its own.

The numbers shown are unchanged: the raw inputs' exact value and the GPU's ULP error
against it are checked against Fraction oracles written here (F32-FTZ), and the verdict
line against the one the full raw evaluation gives (the old path)."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest

F32_ONE = 0x3F800000
F32_THREE = 0x40400000


@pytest.fixture
def engine_calls(monkeypatch):
    """Counts the rule engine's evaluations made through the UI (bridge_ops and the raw
    inputs' module), by rule set."""
    from fpinspector.model.engine import raw_inputs
    from fpinspector.ui import bridge_ops

    calls: list[str] = []

    def counting(real):
        def evaluate(*a, **k):
            calls.append(k.get("rules", "d3d11"))
            return real(*a, **k)
        return evaluate

    monkeypatch.setattr(bridge_ops, "evaluate_op", counting(bridge_ops.evaluate_op))
    monkeypatch.setattr(raw_inputs, "evaluate", counting(raw_inputs.evaluate))
    return calls


def _gpu_answers(win, bits: int) -> None:
    """Deliver ``bits`` as the GPU's answer to the current op (as the GPU worker would)."""
    win.ctl._gpu_req = req = 30_000 + bits % 1000
    win.ctl._gpu_captured(req, np.array([bits], dtype=np.uint32))


def _f32(p: int) -> Fraction:
    return Fraction(float(np.uint32(p).view(np.float32)))


def _ulp(x: Fraction) -> Fraction:
    """The spacing of f32 values in x's binade (2^-149 below 2^-126)."""
    k = -126
    while Fraction(2) ** (k + 1) <= abs(x):
        k += 1
    return Fraction(2) ** (k - 23)


def test_a_normal_operand_edit_evaluates_the_op_once(make_window, engine_calls) -> None:
    from fpinspector.ui import bridge_ops

    win = make_window()
    win.state.update(op="mul", op_format="f32", operands=[F32_THREE, F32_ONE, 0, 0])
    bridge_ops.clear_caches()
    engine_calls.clear()
    win.state.set_operand(1, 0x40000000)  # B = 2.0: nothing to flush
    assert engine_calls == ["d3d11"]
    _gpu_answers(win, 0x40C00000)  # the GPU's 6.0, judged from the outcome shown
    assert engine_calls == ["d3d11"]
    assert win.ops_view.verdict_text().startswith("CONFORMANT")


@pytest.mark.parametrize("a,b,gpu", [
    (0x00000003, F32_THREE, 0x00000009),  # 3*2^-149 * 3: the GPU kept the denormal
    (0x80000005, 0x4B000000, 0x80000000),  # -5*2^-149 * 2^23, the GPU flushed it
    (0x007FFFFF, 0x3FC00000, 0x00BFFFFE),  # the largest denormal * 1.5
])
def test_a_flushed_operand_edit_evaluates_the_raw_inputs_once_F32_FTZ(
        make_window, engine_calls, a: int, b: int, gpu: int) -> None:
    """F32-FTZ: one evaluation under the rule set, one of the raw inputs' exact value;
    the exact value of the raw inputs and the GPU's ULP error against it are the
    Fraction figures."""
    from fpinspector.model.engine.raw_inputs import raw_evaluation
    from fpinspector.ui import bridge_ops

    win = make_window()
    win.state.update(op="mul", op_format="f32", operands=[F32_ONE, b, 0, 0])
    bridge_ops.clear_caches()
    engine_calls.clear()
    win.state.set_operand(0, a)
    assert sorted(engine_calls) == ["d3d11", "ieee754"]
    raw_exact = _f32(a) * _f32(b)
    text = win.ops_view.exact_label.text()
    m = re.match(r"(\S+) after input flush; (\S+) of the raw inputs", text)
    assert m, text
    assert Fraction(float(m[2])) == raw_exact
    _gpu_answers(win, gpu)
    assert sorted(engine_calls) == ["d3d11", "ieee754"]  # the verdicts: no evaluation
    detail = win.ops_view.verdict_text().split("\n")[1]
    m = re.match(r"ULP error (\S+) vs exact after input flush, (\S+) vs exact of the raw "
                 r"inputs", detail)
    assert m, detail
    assert float(m[2]) == float(f"{float((_f32(gpu) - raw_exact) / _ulp(raw_exact)):.6g}")
    # the old path: the full raw evaluation's verdict gives the same figure
    old = raw_evaluation("mul", (a, b), "f32", "d3d11").verdict(0, gpu).ulp_error
    assert float(m[2]) == float(f"{old:.6g}")
