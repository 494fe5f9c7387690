"""Sweep panel: choose op/format/rules/domain, run the sweep off the UI thread with a
progress bar and cancel, show the error map and histogram, export figure and data.

Wire it into a window with ``panel.inspect_requested.connect(...)``: the signal carries
``(op, format, rules, operand_bits)`` of the clicked cell.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...gpu.map_backend import PanelSweepBackend
from ...gpu.sweep_capture import SweepBackend
from ...model.formats import CodeFormat, operand_format
from ...model.sweep import COMPARES, SweepResult, SweepState
from ...model.sweep.live_fill import BlockFeed
from ...model.sweep.map_blocks import BlockMap
from ...model.sweep.runner import KEEP_LIMIT
from ..background import wait_in_event_loop
from .error_map import DEFAULT_OVERLAYS, OVERLAY_COLORS, OVERLAY_TEXT, ErrorMapWidget
from .map_axes import HistogramWidget, axis_samples
from .map_runner import MapRunner, progress_text
from .sweep_controls import SweepControls
from .sweep_export import SweepExportMixin

__all__ = ["SweepPanel", "SweepBackend", "progress_text"]


class SweepPanel(SweepExportMixin, QWidget):
    """Controls + error map + histogram for sweeps; the controls show and edit a Qt-free
    :class:`~fpinspector.model.sweep.state.SweepState` (``self.sweep``).

    Signals
    -------
    inspect_requested(op: str, format: str, rules: str, operand_bits: tuple)
        A map cell was clicked: load these operands into the inspector.
    sweep_finished(result: SweepResult)
        A sweep ended (``result.complete`` is False when it was cancelled).
    """

    inspect_requested = Signal(str, str, str, object)
    sweep_finished = Signal(object)

    def __init__(self, backend: Any = None, parent: QWidget | None = None,
                 state: SweepState | None = None) -> None:
        super().__init__(parent)
        self.backend = backend or PanelSweepBackend()
        self.sweep = state or SweepState()
        self.result: SweepResult | None = None
        self._starting = False
        self._controls_heights: dict[int, int] = {}  # columns a row -> the column's height
        self._side_min = 0  # the controls' column's least width beside the map
        self.controls = SweepControls(self.sweep, self.backend.ops())
        c = self.controls  # the inputs, by the names callers and tests use
        self.op, self.format, self.rules, self.compare = c.op, c.format, c.rules, c.compare
        self.domain_a, self.domain_b, self.c_value = c.domain_a, c.domain_b, c.c_value
        self.use_gpu = c.use_gpu
        self.run_button, self.cancel_button = QPushButton("Run"), QPushButton("Cancel")
        self.progress = QProgressBar()
        # its text never widens the controls' column (a finished run's rate is long):
        # beside the map that column takes CONTROLS_WIDTH where there is room
        self.progress.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.runner = MapRunner(self, self.progress, self.run_button, self.cancel_button,
                                lambda blocks, meta: self.map.show_blocks(blocks, meta))
        self.runner.progressed.connect(self._on_progress)
        self.runner.done.connect(self._on_done)
        self.runner.failed.connect(self._on_failed)
        self.map = ErrorMapWidget()
        self.histogram = HistogramWidget()
        self.overlay_boxes = {}
        self._marks = row = QGridLayout()  # the mark boxes: one row, or 2 x 2 beside the map
        for name, rgba in OVERLAY_COLORS.items():
            box = QCheckBox(name)
            swatch = QPixmap(12, 12)  # the overlay legend: each box shows its colour
            swatch.fill(QColor(*rgba))
            box.setIcon(QIcon(swatch))
            box.setToolTip(f"Mark cells with a {OVERLAY_TEXT[name]} in this colour (opaque)")
            box.setChecked(DEFAULT_OVERLAYS[name])
            box.toggled.connect(lambda on, n=name: self.map.set_overlay(n, on))
            self.overlay_boxes[name] = box
            row.addWidget(box, 0, len(self.overlay_boxes) - 1)
        buttons = QHBoxLayout()
        for w in (self.use_gpu, self.run_button, self.cancel_button):
            buttons.addWidget(w)
        # the four exports as one menu on the Run row: a row of their own took the height
        # of the map in a short dock (1280x720)
        self.export_button = QToolButton()
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        exports = QMenu(self.export_button)
        for label, fn in (("PNG image…", "png"), ("SVG image…", "svg"), ("NPZ data…", "npz"),
                          ("CSV data…", "csv")):
            exports.addAction(label, lambda f=fn: self._export_dialog(f))
        self.export_button.setMenu(exports)
        buttons.addWidget(self.export_button)
        self._side_lay = controls = QVBoxLayout()
        controls.addWidget(self.controls)
        controls.addLayout(row)
        controls.addLayout(buttons)
        controls.addWidget(self.progress)
        controls.addStretch(1)  # (under the histogram, when it is here, it takes nothing)
        self._side = side = QWidget()
        side.setLayout(controls)
        # beside the controls, the map over the histogram; under them (a narrow dock), the
        # two as tabs: stacked under a column of controls the map was a few pixels high
        self.plots = plots = QSplitter(Qt.Vertical)
        plots.addWidget(self.map)
        plots.addWidget(self.histogram)
        plots.setSizes([600, 200])
        self.plot_tabs = QTabWidget()
        self._plot_area = QStackedWidget()
        self._plot_area.addWidget(plots)
        self._plot_area.addWidget(self.plot_tabs)
        self.split = split = QSplitter(Qt.Horizontal)
        split.addWidget(side)
        split.addWidget(self._plot_area)
        split.setSizes([260, 800])
        split.setChildrenCollapsible(False)
        split.setStretchFactor(0, 0)  # (a resize goes to the plots: the controls keep theirs)
        split.setStretchFactor(1, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(split)
        self.run_button.clicked.connect(self.start_sweep)
        self.cancel_button.clicked.connect(self.cancel_sweep)
        self.map.inspect_requested.connect(self.inspect_requested)
        self.sweep.connect(self._pull_compare)
        self.map.set_compare(self.sweep.settings.compare, redraw=False)

    #: Below this width the controls go above the map (a narrow dock) instead of beside it.
    SIDE_BY_SIDE_FROM = 900
    #: From this height on the map is over the histogram; below it the two are tabs (the
    #: map had ~140 px of a 454 px dock at 1920x1080 over the histogram).
    STACKED_FROM = 900
    #: Beside the map, the histogram goes under the controls when it gets this many pixels
    #: of height there: the controls' column had ~430 px of nothing under them (1300x720),
    #: and the map the whole height beside it.
    HISTOGRAM_UNDER_CONTROLS_FROM = 160
    #: The histogram's least height in the plots (a tab, or under the map).
    HISTOGRAM_LEAST = 150

    #: Under this height left to the plots under the controls, the controls go beside the
    #: map even in a narrow panel, where the map keeps BESIDE_MAP_WIDTH: under them, the
    #: 590x440 Sweep dock of a 1280x720 window left the map 29 px of data.
    SHORT_UNDER = 330
    BESIDE_MAP_WIDTH = 280
    #: The controls' column beside the map where there is room: a finished run's rate
    #: ("262,144 elements in 334 ms (0.8 M elements/s)") reads whole in the progress bar.
    CONTROLS_WIDTH = 360

    def _wants_beside(self, width: int, height: int) -> bool:
        if width >= self.SIDE_BY_SIDE_FROM:
            return True
        return (height - self._controls_height(2) < self.SHORT_UNDER
                and width - self._side_width() >= self.BESIDE_MAP_WIDTH
                and height >= self._controls_height(1))

    def _side_width(self) -> int:
        """The controls' column beside the map: as narrow as its fields allow."""
        if 1 not in self._controls_heights:
            self._controls_height(1)
        return self._side_min

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        size = event.size()
        want = Qt.Horizontal if self._wants_beside(size.width(), size.height()) else Qt.Vertical
        if self.split.orientation() != want:
            self.split.setOrientation(want)
        beside = self.split.orientation() == Qt.Horizontal
        if beside:
            room = event.size().height() - self._controls_height(1)
            mode = ("beside", room >= self.HISTOGRAM_UNDER_CONTROLS_FROM)
        else:
            mode = ("above", event.size().height() >= self.STACKED_FROM)
        if mode != getattr(self, "_mode", None):
            self._mode = mode
            self._lay_out_plots(beside=beside, stacked=mode[1])

    def _arrange(self, columns: int) -> None:
        """The fields ``columns`` a row; the mark boxes 2 x 2 beside the map (one field a
        row: the column stays narrow), else in one row."""
        self.controls.arrange(columns)
        per_row = 2 if columns == 1 else 4
        for k, box in enumerate(self.overlay_boxes.values()):
            self._marks.removeWidget(box)
            self._marks.addWidget(box, *divmod(k, per_row))

    def _controls_height(self, columns: int) -> int:
        """The height the controls' column needs (its fields ``columns`` a row), the
        histogram left out: from the parts' own hints (the column's cached hint still
        held the other arrangement's height right after a turn). Measured once per
        arrangement (laid out to be measured, then back)."""
        cache = self._controls_heights
        if columns in cache:
            return cache[columns]
        was = self.controls.columns
        self._arrange(columns)  # (the mark boxes too: at first they are one row)
        lay = self._side_lay
        m = lay.contentsMargins()
        parts = [lay.itemAt(i) for i in range(lay.count())]
        parts = [it for it in parts if it.widget() is not self.histogram and not it.spacerItem()]
        # (a widget's own hint: its layout item caches the hint until a later event)
        for it in parts:
            if it.layout() is not None:
                it.layout().invalidate()
        hint = [it.widget().sizeHint() if it.widget() else it.sizeHint() for it in parts]
        cache[columns] = (m.top() + m.bottom() + lay.spacing() * (len(parts) - 1)
                          + sum(h.height() for h in hint))
        if columns == 1:
            self._side_min = m.left() + m.right() + max(
                (it.widget().minimumSizeHint() if it.widget() else it.minimumSize()).width()
                for it in parts)
        if was != columns:
            self._arrange(was)
        return cache[columns]

    def histogram_beside_controls(self) -> bool:
        """The histogram is under the controls (and the map alone beside them)."""
        return self.histogram.parent() is self._side

    def _lay_out_plots(self, beside: bool, stacked: bool = False) -> None:
        """Controls beside the plots: one field a row; above them (a narrow dock: at
        1280x720 the map was a few pixels high under a column of controls and the
        histogram): two fields a row. Beside: the histogram under the controls when it
        has room there (``stacked``), the map alone the whole height; else the two as
        tabs. Above: the map over the histogram in a tall panel (``stacked``), else the
        two as tabs (the map the whole height)."""
        self._arrange(1 if beside else 2)
        if beside and stacked:
            if not self.histogram_beside_controls():
                self._side_lay.insertWidget(self._side_lay.count() - 1, self.histogram, 1)
                # (no least height of its own there: the panel's would be the controls'
                # and the histogram's, and a shorter dock could not turn it back to tabs)
                self.histogram.setMinimumHeight(0)
            self._side_lay.setStretch(self._side_lay.count() - 1, 0)
            self.plots.insertWidget(0, self.map)
            for w in (self.map, self.histogram):  # (the tab behind was hidden)
                w.show()
            self._plot_area.setCurrentWidget(self.plots)
        elif stacked:
            self.plots.insertWidget(0, self.map)
            self.plots.insertWidget(1, self.histogram)
            for w in (self.map, self.histogram):
                w.show()
            self.plots.setSizes([600, 200])
            self._plot_area.setCurrentWidget(self.plots)
        else:
            if self.plot_tabs.indexOf(self.map) < 0:
                self.plot_tabs.insertTab(0, self.map, "Error map")
            if self.plot_tabs.indexOf(self.histogram) < 0:
                self.plot_tabs.addTab(self.histogram, "Histogram")
            self._plot_area.setCurrentWidget(self.plot_tabs)
        if not self.histogram_beside_controls():
            self._side_lay.setStretch(self._side_lay.count() - 1, 1)
            self.histogram.setMinimumHeight(self.HISTOGRAM_LEAST)
        if beside:  # (once the boxes' new rows are laid out: the column's least width)
            QTimer.singleShot(0, self, self._fit_side)
        else:  # the controls as high as they need (once re-arranged), the plots the rest
            QTimer.singleShot(0, self, self._fit_controls)

    def _fit_side(self) -> None:
        """Beside the map: the controls' column CONTROLS_WIDTH wide where the map keeps
        BESIDE_MAP_WIDTH, else as narrow as its fields allow; the map the rest."""
        if self.split.orientation() == Qt.Horizontal:
            total = sum(self.split.sizes())
            side = max(self._side_width(),
                       min(self.CONTROLS_WIDTH, total - self.BESIDE_MAP_WIDTH))
            self.split.setSizes([side, max(1, total - side)])

    def _fit_controls(self) -> None:
        if self.split.orientation() == Qt.Vertical:
            need = self.split.widget(0).minimumSizeHint().height()
            self.split.setSizes([need, max(1, sum(self.split.sizes()) - need)])

    def _pull_compare(self, changed: frozenset) -> None:
        if "compare" in changed:
            self.map.set_compare(self.sweep.settings.compare)
            self._show_histogram()

    def _show_histogram(self) -> None:
        if self.result is None:
            return
        col, label = COMPARES[self.sweep.settings.compare]
        self.histogram.set_counts(self.result.summary.hist.get(col), f"|{label}| histogram")

    # -- running ---------------------------------------------------------------------
    def start_sweep(self) -> bool:
        """Build the sweep from the state (:meth:`SweepState.plan`) and start it on a worker
        thread; False, with the reason shown, when it cannot start."""
        if self.runner.is_running() or self._starting:
            return False
        s = self.sweep.settings
        self._starting = True
        try:
            plan = self.sweep.plan()
            extra_args = {"fixed": plan.fixed} if plan.fixed else {}
            # opening the GPU and building the stage take a while the first time: on a
            # thread, while the window keeps running
            stage, _, extra = wait_in_event_loop(lambda: self.backend.make(
                plan.op, plan.fmt, plan.rules, s.gpu, **extra_args))
        except ValueError as exc:
            self._error(str(exc))
            return False
        finally:
            self._starting = False
        if not s.gpu and s.compare != "model_vs_exact":
            self.sweep.update(compare="model_vs_exact")

        # the map fills as chunks finish: each chunk is reduced to its blocks where it was
        # computed and merged in element order (BlockFeed); per-element columns only where
        # the domain is small enough to hold them. Maps of 2^20+ elements (all 2^32 f32
        # patterns included) run in the backend's worker processes, on every core.
        blocks = BlockMap(plan.domain, plan.result_format)
        feed = BlockFeed(blocks)
        self.runner.live = (feed, plan.meta(gpu=s.gpu, **extra))
        keep = plan.domain.size <= KEEP_LIMIT
        pool = self.backend.pool_for(plan.domain.size)

        def job(progress: Callable, cancel: threading.Event) -> SweepResult:
            for axis in plan.domain.axes:  # the map's axis labels, decoded here, not on the UI
                axis_samples(axis)
            res = plan.run(stage, meta={"gpu": s.gpu, **extra}, progress=progress,
                           cancel=cancel, keep_elements=keep, chunk_size=1 << 16,
                           workers=pool.n if pool is not None else 1, pool=pool,
                           chunk_part=feed.chunk_part, on_part=feed.on_part)
            return res, blocks

        self.runner.start(job)
        where = (f"in {pool.n} worker processes" if pool is not None else "on a stage thread")
        self.map.info.setText(f"running: starting {plan.domain.size:,} elements {where}; the "
                              "map fills as chunks finish (Cancel stops after the chunk in "
                              "flight)")
        return True

    def cancel_sweep(self) -> None:
        """Ask the running sweep to stop after the chunk in flight."""
        self.runner.cancel()

    def is_running(self) -> bool:
        return self.runner.is_running()

    def _on_progress(self, text: str) -> None:
        self.progress.setToolTip(text)
        self.map.info.setText(f"running: {text}; the map fills as chunks finish (Cancel "
                              "stops after the chunk in flight)")

    def _on_done(self, done: tuple[SweepResult, BlockMap]) -> None:
        res, blocks = done
        self.show_result(res, blocks)
        self.sweep_finished.emit(res)

    def _on_failed(self, msg: str) -> None:
        self._error(msg)

    def show_result(self, res: SweepResult, blocks: BlockMap | None = None) -> None:
        """Display a (possibly loaded) sweep; ``blocks`` is its map summary (made from its
        per-element columns when not given)."""
        self.result = res
        self.map.set_result(res, self.sweep.settings.compare, blocks)
        self._show_histogram()
        s = res.summary
        col, label = COMPARES[self.sweep.settings.compare]
        text = (f"{s.total:,} elements; {s.nonconformant_count():,} non-conformant under "
                f"{res.meta.get('rules', '')}; max |{label}| {s.max_error(col):g} "
                f"{'steps' if col == 'err_gpu_model' else 'ULP'}. "
                "Hover for a cell's bits, click to inspect it.")
        if not res.complete:
            stopped = f"cancelled after {res.n_done:,} of {res.domain.size:,} elements"
            text = f"{stopped}. " + text
            self.progress.setValue(int(self.progress.maximum() * res.n_done
                                       // max(res.domain.size, 1)))
            self.progress.setFormat(stopped)  # (no "time left" of a sweep that stopped)
            self.progress.setToolTip(stopped)
        else:
            self.progress.setValue(self.progress.maximum())
            took = res.timings.get("total")
            if took:
                spent = f"{took:.1f} s" if took >= 1 else f"{took * 1e3:.0f} ms"
                rate = res.domain.size / max(took, 1e-9)  # (256 in 8 ms read "0.0 M/s")
                unit = f"{rate / 1e6:.1f} M " if rate >= 1e5 else f"{rate:,.0f} "
                self.progress.setFormat(f"{res.domain.size:,} elements in {spent} "
                                        f"({unit}elements/s)")
        self.map.info.setText(text)

    def _error(self, msg: str) -> None:
        self.map.info.setText(f"error: {msg}")
        if self.isVisible():  # non-blocking: open(), never exec()
            box = QMessageBox(QMessageBox.Warning, "Sweep", msg, parent=self)
            box.setAttribute(Qt.WA_DeleteOnClose)
            box.open()
            self.last_message_box = box

    def bind_state(self, state: Any) -> None:
        """Load clicked cells into an :class:`~fpinspector.model.state.InspectorState`
        (op, op format, rule set and operands, as one undo step); a linked state
        (ui/inspected.LinkedState) inspects the cell's A where it inspected a value of its
        own."""

        def load(op: str, fmt: str, rules: str, bits: tuple) -> None:
            if isinstance(operand_format(fmt), CodeFormat):  # the editors hold float patterns
                self.map.info.setText(f"{op} takes {fmt} codes: the inspector edits float "
                                      f"patterns, so this cell ({', '.join(map(str, bits))}) "
                                      "is shown here only")
                return
            ops = list(state.operands)
            ops[: len(bits)] = [int(b) for b in bits]
            try:
                with state.batch():  # (one undo step)
                    state.update(op=op, op_format=fmt, rule_set=rules, operands=ops)
                    # the inspector and its docks show the cell too: its A unless a result
                    # or another operand is the value inspected (ui/inspected.py)
                    if getattr(state, "selection", None) == "value":
                        state.select(0)
            except ValueError as exc:
                self._error(str(exc))

        self.inspect_requested.connect(load)

    def shutdown(self) -> None:
        """Cancel a running sweep, wait for its thread, release the GPU (call on app exit)."""
        self.runner.shutdown()
        self.backend.close()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.shutdown()
        super().closeEvent(event)
