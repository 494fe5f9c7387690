"""The Expression panel: completion, inline errors with position, bindings from the
inspector's operands, the step table and Why view, the GPU columns with the first
divergence highlighted, and expression maps with click-to-load."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from fpinspector.model.expr import evaluate_expr
from fpinspector.model.state import InspectorState
from fpinspector.ui.expression.expr_steps import DIVERGENCE_COLOR
from fpinspector.ui.expression.expression_panel import ExpressionPanel


@pytest.fixture
def panel(expression_panel):
    return expression_panel


def type_expr(p, text):
    p.edit.setText(text)
    return p.evaluate()


def test_default_expression_shows_every_step(panel):
    rep = panel.report
    assert rep["listing"] == ["r0 = mul a, b", "r1 = add_sat r0, c"]
    assert panel.steps.rowCount() == 2
    assert panel.steps.row_text(1)[1] == "add_sat r0, c"
    assert "result (float)" in panel.result.text()
    assert "off for this session" in panel.gpu_status.text()


def test_completion_of_intrinsic_names(panel, qtbot):
    assert panel.edit.completions("sat") == ["saturate"]
    assert panel.edit.completions("r") == ["rcp", "round", "rsqrt"]
    panel.edit.setText("x + rsq")
    panel.edit.setCursorPosition(7)
    panel.edit.insert_completion("rsqrt")
    assert panel.edit.text() == "x + rsqrt(" and panel.edit.cursorPosition() == 10


@pytest.mark.parametrize("text, words, caret", [
    ("a +", "ends here (at column 4)", "   ^"),
    ("foo(a)", "unknown function 'foo'", "^~~"),
    ('__import__("os")', "'__'", "^~~~~~~~~~"),
    ("a.real", "not a swizzle", " ^~~~~"),
])
def test_bad_input_is_shown_inline_with_its_position(panel, text, words, caret):
    before = panel.report
    assert type_expr(panel, text) is False
    assert panel.error.isVisibleTo(panel)
    lines = panel.error.text().splitlines()
    assert words in lines[0] and lines[1] == text and lines[2].rstrip() == caret
    assert panel.report is before  # the last good evaluation stays on screen
    assert type_expr(panel, "a * b")
    assert not panel.error.isVisibleTo(panel)


def test_type_errors_in_bindings_and_dot(panel):
    type_expr(panel, "dot(p, q)")
    panel.bindings.set_typed("p", "float2(1, 2)")
    panel.bindings.set_typed("q", "float3(1, 2, 3)")
    assert "dot(float2, float3): both operands must have the same size" in panel.error.text()
    panel.bindings.set_typed("q", "float3(1, 2")
    assert "binding q:" in panel.error.text()


def test_bindings_follow_the_inspectors_operands(panel, wait_for):
    state = panel.state
    type_expr(panel, "a * b")
    assert [panel.bindings.source(n) for n in ("a", "b")] == ["A", "B"]
    state.update(operands=[0x40000000, 0x40400000])
    assert wait_for(lambda: int(panel.evaluation.bits) == 0x40C00000)  # 2 * 3
    panel.bindings.set_typed("b", "0.5")
    assert int(panel.evaluation.bits) == 0x3F800000


def test_why_view_for_a_step(panel):
    type_expr(panel, "n * rsqrt(dot(n, n))")
    panel.bindings.set_typed("n", "float3(1e-20, 0, 0)")
    panel.steps.selectRow(0)
    lines = panel.why.lines()
    assert any("dp3" in x for x in lines) and any("F32-FTZ" in x for x in lines)
    assert any("allowed:" in x for x in lines)
    assert "r0 = dp3" in panel.why.heading.text()


@pytest.mark.gpu
def test_gpu_columns_and_the_first_divergence(qtbot, wait_for):
    p = ExpressionPanel(InspectorState(), gpu=True)
    qtbot.addWidget(p)
    try:
        type_expr(p, "n * rsqrt(dot(n, n))")
        p.bindings.set_typed("n", "float3(1e-20, 0, 0)")
        ok = wait_for(lambda: p.report is not None and "gpu" in p.report
                      or "No GPU" in p.gpu_status.text(), 20000)
        if "No GPU" in p.gpu_status.text():
            pytest.skip(p.gpu_status.text())
        assert ok
        rep = p.report
        fb = rep["gpu"]["first_divergence"]
        assert p.steps.divergence == fb
        assert all(p.steps.item(r, 4).text() for r in range(p.steps.rowCount()))
        if fb is not None:
            assert p.steps.item(fb, 0).background().color() == DIVERGENCE_COLOR
            assert "not allowed" in p.steps.item(fb, 4).text()
        assert "compiled freely" in p.result.text()
        # the long result lines wrap: a docked panel fits a 1280x720 window's dock
        assert p.minimumSizeHint().width() < 640
    finally:
        p.shutdown()


def test_expression_map_and_click_to_load(panel, wait_for):
    type_expr(panel, "saturate(a * b + c)")
    panel.bindings.set_typed("c", "0.25")
    m = panel.map_panel
    assert [m.axis_a.itemText(i) for i in range(m.axis_a.count())] == ["a", "b", "c"]
    m.axis_a.setCurrentText("a")
    m.axis_b.setCurrentText("b")
    m.domain_a.setText("lin:-2:2:16")
    m.domain_b.setText("lin:-2:2:8")
    assert m.start()
    assert wait_for(lambda: m.result is not None and not m.is_running(), 20000)
    res = m.result
    assert res.domain.shape == (16, 8) and res.meta["variables"] == ["a", "b"]
    k = 5 * 8 + 3
    a, b = res.operands_at(k)
    assert "a=0x" in m.map.describe(k) and "b=0x" in m.map.describe(k)
    m.map.request_inspect(k)
    assert panel.bindings.bindings()["a"] == f"0x{a:08X}"
    want = evaluate_expr("saturate(a * b + c)", {"a": a, "b": b, "c": "0.25"}).bits
    assert int(panel.evaluation.bits) == int(want) == int(res.columns["model"][k])


def test_map_errors_are_inline(panel, wait_for):
    m = panel.map_panel
    m.domain_a.setText("lin:bad")
    assert m.start()
    assert wait_for(lambda: not m.is_running(), 10000)
    assert m.map.info.text().startswith("error: bad domain")


def test_main_window_has_the_expression_dock(make_window, wait_for):
    win = make_window()
    assert "expression" in win.docks and win.expression_panel is None  # built when shown
    assert win._load_expression_panel() is win.expression_panel
    assert win.docks["expression"].widget().widget() is win.expression_panel  # in a scroll area
    assert win.expression_panel.report["listing"][0] == "r0 = mul a, b"
    win.state.update(operands=[0x3F800000, 0x40000000, 0])
    assert wait_for(lambda: int(np.asarray(win.expression_panel.evaluation.bits)) == 0x3F800000)


def _start_a_map_over_a(panel, text, domain, compare="model_vs_exact"):
    """Type ``text`` and start its map over ``a`` alone on ``domain``."""
    type_expr(panel, text)
    m = panel.map_panel
    m.axis_a.setCurrentText("a")
    m.axis_b.setCurrentText("(none)")
    m.domain_a.setText(domain)
    m.compare.setCurrentIndex(m.compare.findData(compare))
    assert m.start()
    assert m.map.compare == m.compare.currentData()  # what the map draws while it fills
    return m


def test_a_map_too_big_to_keep_shows_blocks_and_a_click_loads_the_worst_cell(panel, wait_for):
    """A domain past KEEP_LIMIT (4,194,305 patterns) keeps no per-element column: the map is
    its blocks, the hover names the variables, and a click loads the block's worst element,
    whose model bits the expression then gives (oracle: evaluate_expr on that element)."""
    m = _start_a_map_over_a(panel, "sqrt(a) * 3.0", "bits:0x3F800000:0x3FC00000")
    assert wait_for(lambda: m.result is not None and not m.is_running(), 60000)
    res = m.result
    assert res.complete and res.domain.size == 0x400001 and not res.columns
    bm = m.map.blocks
    assert not bm.exact and int(bm.count.sum()) == res.domain.size
    title = m.map.plot.titleLabel.text
    assert title.startswith("sqrt(a) * 3.0 (d3d11)") and "the worst of 65 patterns" in title
    assert m.map.plot.getAxis("bottom").labelText == "a"
    k = 1_000_003
    text = m.map.describe(k)
    assert text.startswith("elements ") and "a=0x" in text and "A=0x" not in text
    w = bm.worst_element("err_model", bm.block_at(k))
    span = bm.elements_of(bm.block_at(k))
    (ops,) = res.domain.operands(span.start, span.stop)
    errs = np.abs(evaluate_expr("sqrt(a) * 3.0", {"a": ops}, exact="map").ulp_error()[0])
    assert errs[w - span.start] == errs.max() > 0  # the block's worst element
    m.map.request_inspect(k)
    a = int(ops[w - span.start])
    assert panel.bindings.bindings()["a"] == f"0x{a:08X}"
    assert int(panel.evaluation.bits) == int(evaluate_expr("sqrt(a) * 3.0", {"a": a}).bits)
    assert "cells" in m.map.info.text() and "block's worst" in m.map.info.text()


def test_a_map_of_every_f32_pattern_starts_in_bounded_memory_and_cancels(panel, wait_for):
    """All 2^32 patterns: no per-element array of 2^32 (a 32 GiB allocation), the
    map fills while it runs, and Cancel keeps what was done."""
    m = _start_a_map_over_a(panel, "a * 2.0", "all", compare="gpu_vs_model")  # (no GPU: the
    assert m.start() is False  # start resets it to model vs exact); one map at a time
    assert wait_for(lambda: m.runner.live is not None and m.runner.live[0].done() > 0, 60000)
    assert wait_for(lambda: m.map.blocks is not None and m.map.blocks.count.any(), 10000)
    assert m.map.compare == "model_vs_exact" and "has no" not in m.map.info.text()
    assert " of 4,294,967,296 (" in m.progress.format()
    m.cancel_button.click()
    assert wait_for(lambda: not m.is_running(), 60000)
    res = m.result
    assert res is not None and not res.complete and 0 < res.n_done < 1 << 32
    assert not res.columns and m.map.blocks.count.sum() == res.n_done
    assert m.map.info.text().startswith("cancelled after ")
    assert m.progress.value() < 1000 and m.progress.format() == f"{res.n_done:,} of 4,294,967,296"
    axis = m.map.plot.getAxis("bottom")
    assert axis.labelText == "a" and "x1e" not in axis.labelString()  # no scale factor


def test_the_variables_show_every_name_source_and_value_at_dock_widths(panel, qtbot):
    """In a dock 590 px wide (1280x720) the variables go above the steps and the map, every
    row shown; 940 px wide (1920x1080) they stay beside them. Either way the value column
    shows (a typed 0.5, an operand's pattern) without scrolling: with three 100 px columns
    beside the steps, no value showed at all."""
    type_expr(panel, "a * b + c")
    panel.bindings.set_typed("c", "0.5")
    table = panel.bindings

    def value_column_shown() -> bool:
        header = table.horizontalHeader()
        return (header.length() <= table.viewport().width() + 1
                and table.columnWidth(2) >= 100)

    panel.resize(590, 620)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: panel._side.orientation() == Qt.Orientation.Vertical
                    and value_column_shown(), timeout=3000)
    rows = sum(table.rowHeight(r) for r in range(table.rowCount()))
    assert table.viewport().height() >= rows  # a, b and c, no vertical scrolling
    panel.resize(940, 620)
    qtbot.waitUntil(lambda: panel._side.orientation() == Qt.Orientation.Horizontal
                    and value_column_shown(), timeout=3000)
    assert panel.tabs.width() >= 600  # the steps and the map keep the rest
