"""The model's and the GPU's result values write their exact expansion into the tooltip
when hovered, not on every operand click (issue 36's latency goal: two expansions, up to
hundreds of digits each, per click); a hover still shows the exact value of the pattern
in view, never an earlier one's.

Oracle: the f32 pattern's value as a Fraction (numpy's float32 decode is exact in a
double; Fraction of that double is exact)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from _qt_probes import hover_tip

from fpinspector.ui import bridge


def _f32(x: float) -> int:
    return int(np.float32(x).view(np.uint32))


def _value(bits: int) -> Fraction:
    return Fraction(float(np.uint32(bits).view(np.float32)))


def _digits(tip: str) -> Fraction:
    """The exact decimal of a value tooltip ("f32 0x... is exactly\\n<digits>\\n= <hex>")."""
    return Fraction(tip.split("is exactly\n")[1].split("\n=")[0].replace("\n", ""))


def test_an_operand_edit_works_out_no_result_expansion(make_window, monkeypatch) -> None:
    """mul 0.1 x 3.0, then A = 0.2: the model's results (0.3000000119 and 0.6000000238)
    are shown, and no exact expansion of them is asked for until a hover."""
    win = make_window()
    asked: list[tuple[str, int]] = []
    real = bridge.exact_tip
    monkeypatch.setattr(bridge, "exact_tip", lambda f, b: asked.append((f, int(b))) or real(f, b))
    box = win.ops_view.model_box
    for a in (0.1, 0.2):
        win.state.update(op="mul", op_format="f32", operands=[_f32(a), _f32(3.0)])
        res = win.ctl.outcome.bits
        assert box.value.text().startswith(f"0x{res:08X} = ")
        assert ("f32", res) not in asked  # (the operand editors' own tips may be asked)
        assert box.value.toolTip() == ""  # not an earlier result's expansion
        tip = hover_tip(box.value)
        assert tip.startswith(f"f32 0x{res:X} is exactly")
        assert _digits(tip) == _value(res)
        assert ("f32", res) in asked


def test_the_gpu_result_hover_shows_the_pattern_in_view(make_window) -> None:
    """The GPU box: a result shown, hovered, then another result: before the second
    hover the tooltip is blank (the box's own explanation shows), after it the second
    pattern's exact value; a cleared box has no value tooltip."""
    win = make_window()
    ops = win.ops_view
    gpu = ops.gpu_box
    for x in (1.0 / 3.0, 1e-40):  # a normal and a denormal (a long expansion)
        bits = _f32(x)
        ops.show_gpu("f32", bits, None, "test answer")
        assert gpu.value.text().startswith(f"0x{bits:08X}")
        assert gpu.value.toolTip() == ""
        tip = hover_tip(gpu.value)
        assert _digits(tip) == _value(bits)
    ops.show_gpu(None, None, None, "no GPU")
    assert gpu.value.text() == "—"
    assert hover_tip(gpu.value) == ""


def test_special_values_say_what_they_are(make_window) -> None:
    """INF and NaN results: the hover names the pattern and the special value."""
    win = make_window()
    ops = win.ops_view
    ops.show_gpu("f32", 0x7F800000, None, "")
    assert hover_tip(ops.gpu_box.value) == "f32 0x7F800000: inf"
    ops.show_gpu("f32", 0x7FC00000, None, "")
    assert hover_tip(ops.gpu_box.value) == "f32 0x7FC00000: nan"
