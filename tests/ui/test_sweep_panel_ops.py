"""The Sweep panel covers mad (A x B grid, C fixed) and the ops on integer
codes (itof, utof, from_unorm8/16, from_snorm8/16, from_srgb8), model only (no GPU).

Oracles: Python floats/struct and fractions. The grids are chosen so every exact result
is representable in f32 (small integers, + 0.5; codes / 255), so the D3D rules allow only
that one pattern and the expected bits are known without the engine.
"""

from __future__ import annotations

import struct
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import numpy as np
import pytest

from fpinspector.ui.maps.sweep_panel import SweepPanel


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _val(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


@pytest.fixture
def panel(qtbot):
    p = SweepPanel()
    qtbot.addWidget(p)
    p.use_gpu.setChecked(False)
    yield p
    p.shutdown()


def _run(qtbot, panel):
    assert panel.start_sweep(), panel.map.info.text()
    qtbot.waitUntil(lambda: not panel.is_running(), timeout=30000)
    return panel.result


def test_op_list_has_mad_and_code_ops(panel) -> None:
    """F32-FUSED (mad) and CONV-ITOF/UNORM/SNORM/SRGB ops are offered by the map's op picker."""
    ops = {panel.op.itemText(i) for i in range(panel.op.count())}
    assert {"mad", "itof", "utof", "from_unorm8", "from_unorm16", "from_snorm8",
            "from_snorm16", "from_srgb8", "mul", "sqrt"} <= ops


def test_mad_grid_with_fixed_c_and_click_loads_a_b_c(qtbot, panel) -> None:
    """F32-FUSED (mad): A x B grid of integers -4..4 with C = 0.5: every a*b + c is exact in f32."""
    from fpinspector.model.state import InspectorState

    panel.op.setCurrentText("mad")
    assert panel.c_value.isEnabled() and panel.domain_b.isEnabled()
    panel.domain_a.setText("lin:-4:4:9")
    panel.domain_b.setText("lin:-4:4:9")
    panel.c_value.setText("0x3F000000")  # 0.5 as a pattern
    res = _run(qtbot, panel)
    assert res.complete and res.domain.shape == (9, 9)
    assert res.meta["fixed"] == {"c": "0x3F000000"}
    for k in range(81):
        a, b = (_val(o) for o in res.operands_at(k))
        assert (a, b) == (float(k // 9 - 4), float(k % 9 - 4))
        assert res.columns["exact"][k] == a * b + 0.5
        assert int(res.columns["model"][k]) == _f32(a * b + 0.5)
    assert "C=0x3F000000 (0.5)" in panel.map.describe(10)
    state = InspectorState()
    panel.bind_state(state)
    panel.map.request_inspect(10)  # A = -3, B = -3
    assert state.op == "mad"
    assert state.operands[:3] == (_f32(-3.0), _f32(-3.0), 0x3F000000)


def test_mad_bad_c_is_a_clear_error(qtbot, panel) -> None:
    """Bad input: C with two values or none is refused with a message, no sweep starts."""
    panel.op.setCurrentText("mad")
    for text, words in (("1 2", "one value"), ("", "give C (the C field)")):
        panel.c_value.setText(text)
        assert not panel.start_sweep()
        assert words in panel.map.info.text() and not panel.is_running()


def test_from_unorm8_sweeps_every_code(qtbot, panel) -> None:
    """CONV-UNORM: code c reads as c / 255; the panel switches the format to unorm8, all codes."""
    panel.op.setCurrentText("from_unorm8")
    assert panel.format.currentText() == "unorm8" and not panel.format.isEnabled()
    assert panel.domain_a.text() == "all"
    res = _run(qtbot, panel)
    codes = np.array([res.operands_at(k)[0] for k in range(res.domain.size)])
    assert np.array_equal(codes, np.arange(256))
    want = np.array([float(Fraction(c, 255)) for c in range(256)])
    assert np.array_equal(res.columns["exact"], want)
    model = res.columns["model"].view(np.float32).astype(np.float64)
    assert np.all(np.abs(model - want) <= np.spacing(np.float32(want)).astype(np.float64))
    assert "A=unorm8 code 255" in panel.map.describe(255)


@pytest.mark.parametrize("op,spec,lo,hi", [("itof", "bits:-1000:1000", -1000, 1000),
                                           ("utof", "bits:0:4095", 0, 4095)])
def test_itof_utof_over_a_code_range(qtbot, panel, op, spec, lo, hi) -> None:
    """CONV-ITOF: every integer code in the range converts to the same-valued f32 (exact)."""
    panel.op.setCurrentText(op)
    assert panel.format.currentText() == ("i32" if op == "itof" else "u32")
    panel.domain_a.setText(spec)
    res = _run(qtbot, panel)
    codes = list(range(lo, hi + 1))
    assert [res.operands_at(k)[0] for k in range(res.domain.size)] == codes
    assert [int(m) for m in res.columns["model"]] == [_f32(float(c)) for c in codes]
    panel.op.setCurrentText("sqrt")  # back to a float op: float formats again
    assert panel.format.currentText() == "f32" and panel.format.isEnabled()


def test_code_cell_click_explains_instead_of_raising(qtbot, panel) -> None:
    """Click on an itof cell: the inspector holds float patterns, so the map says so."""
    from fpinspector.model.state import InspectorState

    panel.op.setCurrentText("itof")
    panel.domain_a.setText("bits:-4:4")
    _run(qtbot, panel)
    state = InspectorState()
    before = state.snapshot
    panel.bind_state(state)
    panel.map.request_inspect(0)
    assert state.snapshot == before
    assert "i32 codes" in panel.map.info.text()


class _FakeCapture:
    """A GpuCapture stand-in whose session refuses f16 with its own reason."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(1)
        self.info = {"renderer": "fake"}

        class S:
            @staticmethod
            def unsupported_reason(op, fmt):
                return f"fake driver: no {fmt} {op}" if fmt == "f16" else None

        self.session = S()

    def close(self) -> None:
        self._pool.shutdown()


def test_sweep_gpu_error_names_the_session_reason(panel) -> None:
    """GPU column (no docs/rules.md rule: driver capability): a GPU sweep the driver
    cannot capture shows the session's reason."""
    panel.backend._gpu = _FakeCapture()
    panel.use_gpu.setChecked(True)
    panel.op.setCurrentText("mul")
    panel.format.setCurrentText("f16")
    panel.domain_a.setText("bits:0:15")
    panel.domain_b.setText("bits:0:15")
    assert not panel.start_sweep()
    assert "fake driver: no f16 mul" in panel.map.info.text()


def test_unary_plot_y_range_fits_the_curve_after_a_map(qtbot, panel) -> None:
    """CONV-UNORM plot: after a 2D map (rows 0..9), a 1D curve's y range is its own data,
    so a curve under 1 ULP is visible (was stuck at the map's 0..rows range)."""
    panel.op.setCurrentText("mad")
    panel.domain_a.setText("lin:1:64:64")
    panel.domain_b.setText("lin:1:64:64")
    _run(qtbot, panel)
    panel.op.setCurrentText("from_unorm8")
    panel.compare.setCurrentIndex(panel.compare.findData("model_vs_exact"))
    res = _run(qtbot, panel)
    (y0, y1) = panel.map.plot.vb.viewRange()[1]
    z = np.log2(1 + np.abs(res.columns["err_model"]))  # |error| < 1 ULP here: z < 1
    assert z.max() < 1
    assert -1.1 <= y0 <= -1.0 and 1.0 <= y1 <= 1.1


def test_the_finished_sweep_says_its_rate_and_error_units(qtbot, panel) -> None:
    """Numbers that say what they measure (issue 36): from_unorm8 over its 256 codes said
    "(0.0 M/s)" and "max |model vs exact| 0.498039" without a unit. The rate now has a
    unit that shows it and agrees with the elements and time printed beside it; the max
    error is in ULP (model vs exact), as the map's hover says. Oracle for the max: the
    largest |c/255 - f32(c/255)| over the codes, in ULP of f32 at c/255 (Fraction)."""
    import re

    panel.op.setCurrentText("from_unorm8")
    panel.domain_a.setText("all")
    panel.compare.setCurrentIndex(panel.compare.findData("model_vs_exact"))
    _run(qtbot, panel)
    fmt = panel.progress.format()
    m = re.fullmatch(r"256 elements in (\d+) ms \(([\d,.]+) (M )?elements/s\)", fmt)
    assert m, fmt
    rate = float(m[2].replace(",", "")) * (1e6 if m[3] else 1)
    assert rate > 0  # (was 0.0)
    assert abs(rate - 256 / (int(m[1]) / 1e3)) / rate < 0.6 or int(m[1]) < 2  # ms rounded
    worst = Fraction(0)
    for c in range(256):
        exact = Fraction(c, 255)
        got = Fraction(_val(_f32(c / 255)))  # nearest f32 (the d3d11 model allows it)
        if exact:
            e = int(np.floor(np.log2(float(exact))))
            worst = max(worst, abs(exact - got) / Fraction(2) ** (e - 23))
    info = panel.map.info.text()
    m = re.search(r"max \|model vs exact\| ([\d.e+-]+) ULP\.", info)
    assert m, info
    assert abs(float(m[1]) - float(worst)) < 1e-4
