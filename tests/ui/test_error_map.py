"""Error map and sweep panel, offscreen with pytest-qt.

The backend here is plain numpy float32 arithmetic (IEEE 754, denormals kept) for the
"model" and the same product with F32-FTZ applied to the output standing in for a second
implementation, so the expected map (which cells differ, where the denormal band lies)
is known independently of the widgets under test.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from _sweep_fakes import ThreadsOnlyBackend
from PySide6.QtCore import QPointF, Qt

from fpinspector.model.formats import F32
from fpinspector.model.sweep import load_npz
from fpinspector.ui.maps.error_map import OVERLAY_COLORS, signed_log
from fpinspector.ui.maps.sweep_panel import SweepPanel


class NumpyBackend(ThreadsOnlyBackend):
    ARITY = {"mul": 2, "sqrt": 1}

    def __init__(self, delay: float = 0.0):
        self.delay = delay

    def make(self, op, fmt, rules, gpu):
        def stage(ops):
            time.sleep(self.delay)
            x = [o.view(np.float32) for o in ops]
            with np.errstate(all="ignore"):
                r = (x[0] * x[1]) if op == "mul" else np.sqrt(x[0])
                exact = (x[0].astype(np.float64) * x[1]) if op == "mul" else np.sqrt(
                    x[0].astype(np.float64))
            model = r.view(np.uint32)
            ftz = np.where(F32.is_denormal(model), model & np.uint32(0x80000000), model)
            out = {"model": model, "exact": exact,
                   "err_model": np.zeros(len(model)), "ok_model": np.ones(len(model), bool)}
            if gpu:
                d = ftz.astype(np.int64) - model.astype(np.int64)
                out.update(gpu=ftz, err_gpu=np.zeros(len(model)), err_gpu_model=d.astype(float),
                           ok_gpu=d == 0, fired={"F32-FTZ": d != 0})
            return out

        return stage, "f32", {}


def _run(qtbot, panel):
    assert panel.start_sweep()
    qtbot.waitUntil(lambda: not panel.is_running(), timeout=10000)
    return panel.result


@pytest.fixture
def panel(qtbot):
    p = SweepPanel(backend=NumpyBackend())
    qtbot.addWidget(p)
    p.resize(1000, 700)
    p.show()
    qtbot.waitExposed(p)
    p.domain_a.setText("log:1e-42:1e-30:40")
    p.domain_b.setText("lin:0.25:4:30")
    return p


def test_map_renders_known_sweep_with_denormal_band_F32_FTZ(qtbot, panel):
    """The image holds signed-log errors in grid layout; non-conformant overlay cells are
    exactly the products that are f32 denormals (flushed by F32-FTZ in the second result)."""
    res = _run(qtbot, panel)
    assert res.complete and res.domain.shape == (40, 30)
    z = panel.map.values
    assert z.shape == (40, 30)  # rows = A, columns = B
    assert panel.map.image.image.shape == (30, 40, 4)  # drawn x = B, y = A, RGBA
    a, b = res.domain.operands(0, res.domain.size)
    prod = a.view(np.float32) * b.view(np.float32)
    den = (prod != 0) & (np.abs(prod) < np.float32(2.0**-126))
    assert den.any() and not den.all()
    assert np.array_equal(z != 0, den.reshape(40, 30))
    green = np.all(panel.map.rgba == OVERLAY_COLORS["nonconformant"], axis=-1)
    assert np.array_equal(green, den.reshape(40, 30))  # opaque: exactly the legend colour
    lo, hi = panel.map.colorbar.levels()
    assert lo == -hi and hi >= np.nanmax(np.abs(signed_log(res.columns["err_gpu_model"])))
    # axis labels are values, not indices
    labels = panel.map._x_axis.tickStrings([0.5, 29.5], 1, 1)
    assert labels == ["0.25", "4"]


def test_click_on_a_cell_emits_its_operand_bits(qtbot, panel):
    res = _run(qtbot, panel)
    row, col = 7, 11
    view = panel.map.graphics
    scene_pt = panel.map.plot.vb.mapViewToScene(QPointF(col + 0.5, row + 0.5))
    pt = view.mapFromScene(scene_pt)
    with qtbot.waitSignal(panel.inspect_requested, timeout=2000) as sig:
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=pt)
    a, b = res.domain.operands(row * 30 + col, row * 30 + col + 1)
    assert sig.args == ["mul", "f32", "d3d11", (int(a[0]), int(b[0]))]
    assert "A=0x" in panel.map.describe(row * 30 + col)


def test_compare_selector_switches_the_column(qtbot, panel):
    _run(qtbot, panel)
    panel.compare.setCurrentIndex(2)  # model vs exact: all zero here
    assert panel.map.compare == "model_vs_exact"
    assert np.all(panel.map.values == 0)


def test_unary_sweep_draws_a_curve(qtbot, panel):
    panel.op.setCurrentText("sqrt")
    assert not panel.domain_b.isEnabled()
    panel.domain_a.setText("log:1e-40:1e-36:200")
    res = _run(qtbot, panel)
    x, y = panel.map.curve.getData()
    assert len(x) == 200 and res.domain.arity == 1


@pytest.mark.slow
def test_cancel_keeps_ui_responsive_and_marks_incomplete(qtbot):
    p = SweepPanel(backend=NumpyBackend(delay=0.05))
    qtbot.addWidget(p)
    p.domain_a.setText("all")
    p.format.setCurrentText("f32")
    p.op.setCurrentText("sqrt")
    p.domain_a.setText("bits:0:0xFFFFF")  # 16 chunks of 65536, 50 ms each
    with qtbot.waitSignal(p.sweep_finished, timeout=10000) as sig:
        assert p.start_sweep()
        qtbot.waitUntil(lambda: p.progress.value() > 0, timeout=5000)
        p.cancel_sweep()
    res = sig.args[0]
    assert not res.complete and 0 < res.n_done < res.domain.size
    assert p.run_button.isEnabled() and not p.is_running()
    # the progress bar says where it stopped, not how long the rest would have taken
    stopped = f"cancelled after {res.n_done:,} of {res.domain.size:,} elements"
    assert p.progress.format() == stopped and "left" not in p.progress.format()
    assert p.map.info.text().startswith(stopped)


def test_exports_write_figure_and_loadable_data(qtbot, panel, tmp_path):
    _run(qtbot, panel)
    for kind in ("png", "svg", "npz", "csv"):
        panel.export(str(tmp_path / f"m.{kind}"), kind)
        assert (tmp_path / f"m.{kind}").stat().st_size > 100
    back = load_npz(tmp_path / "m.npz")
    assert np.array_equal(back.columns["gpu"], panel.result.columns["gpu"])


def test_bad_domain_shows_error_not_traceback(qtbot, panel):
    panel.domain_a.setText("log:-1:1:5")
    assert not panel.start_sweep()
    assert "same sign" in panel.map.info.text()


def test_real_engine_backend_model_only_map_F32_FTZ(qtbot):
    """Default backend (rule engine), GPU off: the map shows model vs exact, and the
    clicked cell's operands re-evaluate to the stored model bits."""
    from fpinspector.model import evaluate

    p = SweepPanel()
    qtbot.addWidget(p)
    p.use_gpu.setChecked(False)
    p.op.setCurrentText("mul")
    p.domain_a.setText("log:1e-42:1e-36:24")
    p.domain_b.setText("lin:0.5:8:16")
    res = _run(qtbot, p)
    assert p.map.compare == "model_vs_exact" and res.domain.shape == (24, 16)
    k = 5 * 16 + 9
    with qtbot.waitSignal(p.inspect_requested, timeout=2000) as sig:
        p.map.request_inspect(k)
    op, fmt, rules, (a, b) = sig.args
    ev = evaluate(op, np.array([a], np.uint32), np.array([b], np.uint32), format=fmt, rules=rules)
    assert int(np.asarray(ev.bits).ravel()[0]) == int(res.columns["model"][k])
    # F32-FTZ: denormal inputs flush, so the model's whole denormal-A block is +-0
    den_rows = F32.is_denormal(res.domain.a.patterns())
    assert den_rows.any()
    block = res.grid("model")[den_rows]
    assert np.all((block & np.uint32(0x7FFFFFFF)) == 0)


def test_hover_shows_operands_and_results(qtbot, panel):
    res = _run(qtbot, panel)
    row, col = 2, 3
    scene_pt = panel.map.plot.vb.mapViewToScene(QPointF(col + 0.5, row + 0.5))
    with qtbot.waitSignal(panel.map.hovered, timeout=2000) as sig:
        panel.map._on_move(scene_pt)
    k = row * 30 + col
    assert sig.args == [k]
    a, b = res.operands_at(k)
    text = panel.map.info.text()
    assert f"A=0x{a:08X}" in text and f"B=0x{b:08X}" in text
    assert f"model=0x{int(res.columns['model'][k]):X}" in text and "GPU vs model" in text


def test_bind_state_loads_clicked_cell_into_inspector_state(qtbot, panel):
    """Click-to-inspect lands in the inspector's state: op, format, rules, operands A/B."""
    from fpinspector.model.state import InspectorState

    state = InspectorState()
    panel.bind_state(state)
    res = _run(qtbot, panel)
    k = 4 * 30 + 17
    panel.map.request_inspect(k)
    a, b = res.operands_at(k)
    assert (state.op, state.op_format, state.rule_set) == ("mul", "f32", "d3d11")
    assert state.operands[:2] == (a, b)
    assert state.can_undo()
    panel.shutdown()
    assert not panel.is_running()


def test_bottom_row_click_after_a_long_hover_text(qtbot, panel):
    """The status line has a fixed height: a hover text of any length never shrinks the
    plot, so a click on the bottom row (A's first sample) loads that row, not the axis."""
    res = _run(qtbot, panel)
    h = panel.map.graphics.height()
    panel.map.info.setText("x " * 2000)  # a very long hover text
    qtbot.wait(50)
    assert panel.map.graphics.height() == h
    view = panel.map.graphics
    scene_pt = panel.map.plot.vb.mapViewToScene(QPointF(3 + 0.5, 0 + 0.1))
    with qtbot.waitSignal(panel.inspect_requested, timeout=2000) as sig:
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.mapFromScene(scene_pt))
    a, b = res.domain.operands(3, 4)
    assert sig.args[3] == (int(a[0]), int(b[0]))


def test_log_axes_are_labelled_at_the_decades(qtbot, panel):
    """A log:1e-42:1e-30 axis: ticks at the powers of ten inside it, labelled 1e-42 ... ."""
    _run(qtbot, panel)
    ax = panel.map._y_axis
    (spacing, positions), = ax.tickValues(0, 40, 1000)  # room for every decade
    labels = ax.tickStrings(positions, 1, spacing)
    # f32 rounds the ends (1e-42 is a denormal): the decades strictly inside the samples
    assert labels[0] in ("1e-42", "1e-41") and labels[-1] == "1e-30"
    exps = [int(lab[2:]) for lab in labels]
    assert exps == list(range(exps[0], -29))  # one tick per decade
    (spacing, positions), = ax.tickValues(0, 40, 300)  # less room: every 2nd or 5th decade
    thin = [int(lab[2:]) for lab in ax.tickStrings(positions, 1, spacing)]
    assert len(set(np.diff(thin))) == 1 and np.diff(thin)[0] in (2, 5)


def _marks_in(res) -> dict[str, bool]:
    """Which marks the sweep holds, from its own columns and operands (numpy, not the map):
    a result that is not conformant, NaN, infinite; a denormal input."""
    model = res.columns["model"].view(np.float32)
    ops = res.domain.operands(0, res.domain.size)
    return {"nonconformant": not res.columns["ok_gpu"].all(),
            "nan": bool(np.isnan(model).any()), "inf": bool(np.isinf(model).any()),
            "denormal": any(bool(F32.is_denormal(o).any()) for o in ops)}


def _legend_texts(panel) -> list[str]:
    return [label.text for _, label in panel.map.legend.items]


def test_legend_names_every_mark_colour_the_map_holds(qtbot, panel):
    """A legend lists only what is drawn: a grid with every mark (64 f32 patterns over
    all of them by 64 values from a denormal to 1e30: INF and NaN inputs, denormal ones,
    products that overflow or flush) names
    all four; the default grid (positive finite inputs) no NaN and no infinity."""
    from fpinspector.ui.maps.error_map import OVERLAY_TEXT

    panel.overlay_boxes["denormal"].setChecked(True)
    res = _run(qtbot, panel)
    held = _marks_in(res)
    assert held == {"nonconformant": True, "nan": False, "inf": False, "denormal": True}
    assert _legend_texts(panel) == [OVERLAY_TEXT[n] for n in OVERLAY_COLORS if held[n]]
    panel.domain_a.setText("bits:0:0xFFFFFFFF:64")
    panel.domain_b.setText("log:1e-42:1e30:64")
    held = _marks_in(_run(qtbot, panel))
    assert all(held.values())
    assert _legend_texts(panel) == [OVERLAY_TEXT[n] for n in OVERLAY_COLORS]
    panel.overlay_boxes["nan"].setChecked(False)  # a mark turned off leaves the legend
    assert OVERLAY_TEXT["nan"] not in _legend_texts(panel)


@pytest.mark.parametrize("domain, names", [
    # sqrt of positive values: nothing marked; the legend's one line says so
    ("lin:1:4:64", ["no non-conformant, NaN or infinite result"]),
    # sqrt of negative values is NaN (numpy): that mark alone
    ("lin:-4:4:64", ["NaN result"]),
    # denormal inputs: a curve has no cell to grey, so no "denormal input" entry
    ("log:1e-42:1e-36:64", ["no non-conformant, NaN or infinite result"]),
])
def test_a_curves_legend_lists_only_the_marks_it_draws(qtbot, panel, domain, names):
    """A unary curve draws non-conformant, NaN and infinite points, never a denormal
    mark: its legend lists the marks its points hold (before, all four always)."""
    panel.overlay_boxes["denormal"].setChecked(True)
    panel.op.setCurrentText("sqrt")
    panel.domain_a.setText(domain)
    res = _run(qtbot, panel)
    assert res.domain.arity == 1
    held = _marks_in(res)
    assert held["nan"] == ("NaN result" in names) and not held["inf"]
    assert _legend_texts(panel) == names


def test_a_narrow_map_shows_its_whole_title_and_colour_bar(qtbot, panel):
    """At the width of a docked panel on a 1280x720 screen (~420 px), a long title (an
    expression and a device name) wraps inside the view instead of widening the plot
    past it: the title and the colour bar are both inside the visible viewport, and the
    title keeps every word."""
    from fpinspector.ui.maps.error_map import ErrorMapWidget

    res = _run(qtbot, panel)
    w = ErrorMapWidget()
    qtbot.addWidget(w)
    w.resize(420, 420)
    w.show()
    qtbot.waitExposed(w)
    long_op = "saturate(a * b + c) * rsqrt(a) - b + sqrt(abs(a)) * 3.0"
    res.meta.update(op=long_op, gpu=True,
                    device="NVIDIA GeForce RTX 4090/PCIe/SSE2 (driver 560.94, Windows 11)")
    w.set_result(res, "gpu_vs_model")
    view = w.graphics

    def visible(item) -> bool:
        r = view.mapFromScene(item.sceneBoundingRect()).boundingRect()
        return view.viewport().rect().contains(r)

    title = w.plot.titleLabel
    qtbot.wait(100)  # (the scene lays out on the next events)
    assert visible(title) and visible(w.colorbar)
    assert title.item.toPlainText().startswith(long_op)
    assert "RTX 4090" in title.item.toPlainText()
    assert w.plot.vb.sceneBoundingRect().width() > 150  # the map keeps most of the width
    narrow_height = title.sceneBoundingRect().height()
    w.resize(1200, 600)  # wide again: one line per part, so the title is lower
    qtbot.wait(100)
    assert visible(title) and visible(w.colorbar)
    assert title.sceneBoundingRect().height() < narrow_height


def test_a_narrow_short_panel_gives_the_map_the_height(qtbot, panel):
    """In a dock 590 x 620 px (the Sweep tab at 1280x720) the controls go above the plots
    two a row, and the map and histogram are tabs: the map has most of the height (it was a
    few pixels high under a column of controls and the histogram). Wide and short, the
    controls are beside the plots, which are tabs (no room for the histogram under the
    controls); wide and tall, the histogram is under the controls and the map alone beside
    them; narrow and STACKED_FROM high, the map over the histogram. Every control and plot
    is still there."""
    _run(qtbot, panel)
    panel.resize(590, 620)
    qtbot.wait(100)
    assert panel.controls.columns == 2
    assert panel.plot_tabs.currentWidget() is panel.map and panel.map.isVisible()
    assert panel.map.graphics.height() >= 250
    panel.plot_tabs.setCurrentWidget(panel.histogram)
    assert panel.histogram.isVisible()
    panel.resize(1000, 400)
    qtbot.wait(100)
    assert panel.controls.columns == 1 and not panel.histogram_beside_controls()
    assert panel.plot_tabs.currentWidget() is panel.histogram  # (the tab the user chose)
    panel.plot_tabs.setCurrentWidget(panel.map)
    qtbot.wait(50)
    assert panel.map.graphics.height() >= 250
    panel.resize(1000, 700)
    qtbot.wait(100)
    assert panel.controls.columns == 1 and panel.histogram_beside_controls()
    assert panel.map.isVisible() and panel.histogram.isVisible()
    assert panel.map.graphics.height() >= 550
    panel.resize(700, panel.STACKED_FROM)
    qtbot.wait(100)
    assert panel.controls.columns == 2
    assert panel.map.isVisible() and panel.histogram.isVisible()
    assert panel.map.parent() is panel.plots and panel.plot_tabs.count() == 0
    for w in (panel.controls.op, panel.controls.compare, panel.controls.domain_b):
        assert w.isVisible()


@pytest.mark.parametrize("size", [(1300, 720), (1800, 1000), (1000, 500)])
def test_beside_the_map_the_controls_column_has_no_empty_room(qtbot, panel, size):
    """The Sweep panel undocked on a 1366x768 screen (1300x720), and larger: under the
    controls the histogram takes the rest of the column (there were ~430 px of nothing),
    and the map has the whole height beside them."""
    _run(qtbot, panel)
    panel.resize(*size)
    qtbot.wait(100)
    assert panel.histogram_beside_controls() and panel.histogram.isVisible()
    side = panel.split.widget(0)
    below = side.height() - panel.histogram.geometry().bottom()
    above = panel.histogram.geometry().top() - panel.progress.geometry().bottom()
    assert below <= 16 and above <= 16, (above, below)
    assert panel.histogram.height() >= panel.HISTOGRAM_UNDER_CONTROLS_FROM - 20
    assert panel.map.height() >= size[1] - 20


@pytest.mark.parametrize("width", [420, 700, 1200])
def test_histogram_labels_never_run_together(qtbot, width):
    """Under the controls the histogram is ~420 px wide: a bin's label is written where it
    has its width and a gap from the last one (a fixed dozen labels read "2^102^132^16"
    there); wider, more of them."""
    from PySide6.QtCore import QPointF

    from fpinspector.model.sweep import hist_labels
    from fpinspector.ui.maps.map_axes import HistogramWidget, _short_label

    h = HistogramWidget()
    qtbot.addWidget(h)
    h.resize(width, 300)
    h.show()
    qtbot.waitExposed(h)
    h.set_counts(np.arange(1, len(hist_labels()) + 1))
    qtbot.wait(50)
    major = h.getAxis("bottom")._tickLevels[0]
    fm = h.fontMetrics()
    xs = [h.plotItem.vb.mapViewToScene(QPointF(float(i), 0.0)).x() for i, _ in major]
    widths = [fm.horizontalAdvance(text) for _, text in major]
    assert [t for _, t in major] == [_short_label(hist_labels()[i]) for i, _ in major]
    for k in range(1, len(major)):
        room = xs[k] - xs[k - 1]
        assert room >= (widths[k] + widths[k - 1]) / 2 + 4, (major[k - 1], major[k], room)
    if width >= 1200:
        assert len(major) >= 14  # (more than the fixed dozen: 10 of these 37 bins)


def test_a_short_narrow_panel_puts_the_controls_beside_the_map(qtbot, panel):
    """The Sweep dock of a 1280x720 window is ~590x440: under the controls (two fields a
    row) the map had 29 px of data. There the controls go beside it, one field a row and
    the mark boxes 2 x 2 (a narrow column), and the map has the height; every control is
    whole inside its column."""
    _run(qtbot, panel)
    panel.resize(590, 440)
    qtbot.wait(150)
    assert panel.split.orientation() == Qt.Horizontal and panel.controls.columns == 1
    data = panel.map.plot.vb.sceneBoundingRect()
    # (the floors tier's PySide6 6.8 gives the map 275 px of its 280: frame metrics)
    assert data.height() >= 150 and panel.map.width() >= panel.BESIDE_MAP_WIDTH - 8, data
    side = panel.split.widget(0)
    for w in [*panel.overlay_boxes.values(), panel.run_button, panel.cancel_button,
              panel.export_button, panel.controls.op, panel.controls.compare]:
        r = w.geometry().translated(w.parentWidget().mapTo(side, w.parentWidget().rect().topLeft()))
        assert side.rect().contains(r) and w.width() >= w.minimumSizeHint().width(), w
    panel.resize(590, 620)  # taller: under the controls again, the map wide
    qtbot.wait(150)
    assert panel.split.orientation() == Qt.Vertical and panel.controls.columns == 2
