"""Sweep panel: choose op/format/rules/domain, run the sweep off the UI thread with a
progress bar and cancel, show the error map and histogram, export figure and data.

Wire it into a window with ``panel.inspect_requested.connect(...)``: the signal carries
``(op, format, rules, operand_bits)`` of the clicked cell.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..gpu.sweep_capture import SweepBackend
from ..model.sweep import COMPARES, parse_domain, run_sweep
from ..model.sweep.runner import SweepResult
from .error_map import OVERLAY_COLORS, ErrorMapWidget, HistogramWidget
from .live_fill import LiveChunks, draw_partial
from .sweep_backend import PanelSweepBackend, parse_fixed
from .sweep_controls import FLOAT_FORMATS, SweepControlsMixin
from .sweep_export import SweepExportMixin

__all__ = ["SweepPanel", "SweepBackend"]

class _Worker(QObject):
    progress = Signal(int, int)
    done = Signal(object)
    failed = Signal(str)

    def __init__(self, job: Callable[[Callable, threading.Event], SweepResult],
                 cancel: threading.Event) -> None:
        super().__init__()
        self._job, self._cancel = job, cancel

    @Slot()
    def run(self) -> None:
        try:
            res = self._job(lambda d, t: self.progress.emit(int(d), int(t)), self._cancel)
        except Exception as exc:  # shown to the user, never a traceback
            self.failed.emit(str(exc))
            return
        self.done.emit(res)


class SweepPanel(SweepControlsMixin, SweepExportMixin, QWidget):
    """Controls + error map + histogram for sweeps.

    Signals
    -------
    inspect_requested(op: str, format: str, rules: str, operand_bits: tuple)
        A map cell was clicked: load these operands into the inspector.
    sweep_finished(result: SweepResult)
        A sweep ended (``result.complete`` is False when it was cancelled).
    """

    inspect_requested = Signal(str, str, str, object)
    sweep_finished = Signal(object)

    def __init__(self, backend: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.backend = backend or PanelSweepBackend()
        self.result: SweepResult | None = None
        self._thread: QThread | None = None
        self._cancel = threading.Event()
        self._live: LiveChunks | None = None
        self._fill_timer = QTimer(self)
        self._fill_timer.setInterval(100)
        self._fill_timer.timeout.connect(self._draw_live)
        self.op = QComboBox(editable=True)
        self.op.addItems(self.backend.ops())
        self.op.setCurrentText("mul")
        self.format = QComboBox()
        self.format.addItems(list(FLOAT_FORMATS))
        self.format.setToolTip("Operand format. Ops on integer codes (itof, from_unorm8, ...) "
                               "sweep their own code type, shown here.")
        self._float_format = "f32"  # restored when leaving a code op
        self.rules = QComboBox()
        self.rules.addItems(["d3d11", "d3d10", "ieee754"])
        self.domain_a = QLineEdit("log:1e-40:1e3:512")
        self.domain_b = QLineEdit("log:1e-3:1e3:512")
        for w in (self.domain_a, self.domain_b):
            w.setToolTip("all | bits:LO:HI[:N] | lin:A:B[:N] | log:A:B[:N]; integer codes "
                         "(itof, from_unorm8, ...): all | bits:LO:HI[:N] over the codes")
        self.c_value = QLineEdit("1.0")
        self.c_value.setToolTip("Fixed third operand of mad (the map covers A x B): a value "
                                "or pattern, e.g. 1.5 or 0x3F800000")
        self.compare = QComboBox()
        for key, (_, label) in COMPARES.items():
            self.compare.addItem(label, key)
        self.use_gpu = QCheckBox("GPU")
        self.use_gpu.setChecked(True)
        self.run_button, self.cancel_button = QPushButton("Run"), QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.map = ErrorMapWidget()
        self.histogram = HistogramWidget()
        self.overlay_boxes = {}
        form = QFormLayout()
        form.addRow("op", self.op)
        form.addRow("format", self.format)
        form.addRow("rules", self.rules)
        form.addRow("A", self.domain_a)
        form.addRow("B", self.domain_b)
        form.addRow("C", self.c_value)
        form.addRow("compare", self.compare)
        row = QHBoxLayout()
        for name, rgba in OVERLAY_COLORS.items():
            box = QCheckBox(name)
            swatch = QPixmap(12, 12)  # the overlay legend: each box shows its colour
            swatch.fill(QColor(*rgba[:3], max(rgba[3], 160)))
            box.setIcon(QIcon(swatch))
            box.setChecked(True)
            box.toggled.connect(lambda on, n=name: self.map.set_overlay(n, on))
            self.overlay_boxes[name] = box
            row.addWidget(box)
        buttons = QHBoxLayout()
        for w in (self.use_gpu, self.run_button, self.cancel_button):
            buttons.addWidget(w)
        exports = QHBoxLayout()
        for label, fn in (("PNG", "png"), ("SVG", "svg"), ("NPZ", "npz"), ("CSV", "csv")):
            b = QPushButton(f"Export {label}")
            b.clicked.connect(lambda _=False, f=fn: self._export_dialog(f))
            exports.addWidget(b)
        controls = QVBoxLayout()
        controls.addLayout(form)
        controls.addLayout(row)
        controls.addLayout(buttons)
        controls.addWidget(self.progress)
        controls.addLayout(exports)
        controls.addStretch(1)
        side = QWidget()
        side.setLayout(controls)
        plots = QSplitter(Qt.Vertical)
        plots.addWidget(self.map)
        plots.addWidget(self.histogram)
        plots.setSizes([600, 200])
        split = QSplitter(Qt.Horizontal)
        split.addWidget(side)
        split.addWidget(plots)
        split.setSizes([260, 800])
        lay = QVBoxLayout(self)
        lay.addWidget(split)
        self.run_button.clicked.connect(self.start_sweep)
        self.cancel_button.clicked.connect(self.cancel_sweep)
        self.compare.currentIndexChanged.connect(self._push_compare)
        self.op.currentTextChanged.connect(self._pull_arity)
        self.format.currentTextChanged.connect(self._remember_format)
        self.map.inspect_requested.connect(self.inspect_requested)
        self._pull_arity()

    def _push_compare(self) -> None:
        self.map.set_compare(self.compare.currentData())
        self._show_histogram()

    def _show_histogram(self) -> None:
        if self.result is None:
            return
        col, label = COMPARES[self.compare.currentData()]
        self.histogram.set_counts(self.result.summary.hist.get(col), f"|{label}| histogram")

    # -- running ---------------------------------------------------------------------
    def start_sweep(self) -> bool:
        """Build the sweep from the controls and start it on a worker thread."""
        if self._thread is not None:
            return False
        op, fmt, rules = self.op.currentText(), self.format.currentText(), self.rules.currentText()
        fixed: tuple = ()
        try:
            arity = int(self.backend.arity(op))
            if arity == 3:
                fixed = (parse_fixed(self.c_value.text(), fmt),)
            elif arity > 3:
                raise ValueError(f"{op} takes {arity} operands; a map sweeps 1, 2 or mad's "
                                 "A x B with C fixed")
            swept = arity - len(fixed)
            spec = self.domain_a.text() if swept == 1 else (
                f"{self.domain_a.text()} x {self.domain_b.text()}")
            domain = parse_domain(spec, fmt, swept)
            extra_args = {"fixed": fixed} if fixed else {}
            stage, result_format, extra = self.backend.make(
                op, fmt, rules, self.use_gpu.isChecked(), **extra_args)
        except ValueError as exc:
            self._error(str(exc))
            return False
        meta = {"op": op, "format": fmt, "rules": rules, "gpu": self.use_gpu.isChecked(),
                "result_format": result_format, **extra}
        if fixed:
            meta["fixed"] = {"c": f"0x{int(fixed[0]):0{2 * fixed[0].dtype.itemsize}X}"}
        if not self.use_gpu.isChecked() and self.compare.currentData() != "model_vs_exact":
            self.compare.setCurrentIndex(list(COMPARES).index("model_vs_exact"))

        # the map fills as chunks finish (LiveChunks needs chunks in order: workers=1)
        self._live = LiveChunks(COMPARES[self.compare.currentData()][0])
        self._live_domain, self._live_z = domain, None
        live_stage = self._live.wrap(stage)

        def job(progress, cancel):
            return run_sweep(domain, live_stage, result_format=result_format,
                             progress=progress, cancel=cancel, meta=meta, keep_elements=True,
                             chunk_size=1 << 16, workers=1)

        self._cancel = threading.Event()
        self._thread = QThread(self)
        self._worker = _Worker(job, self._cancel)
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.run)
        self._worker.progress.connect(self._on_progress)
        self._worker.done.connect(self._on_done)
        self._worker.failed.connect(self._on_failed)
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self._thread.start()
        self._fill_timer.start()
        return True

    def _draw_live(self) -> None:
        """Draw the chunks finished since the last tick (the map fills while it runs)."""
        chunks = self._live.take() if self._live is not None else []
        if chunks:
            self._live_z = draw_partial(self.map, self._live_domain, self._live_z, chunks)

    def cancel_sweep(self) -> None:
        """Ask the running sweep to stop after the chunk in flight."""
        self._cancel.set()

    def is_running(self) -> bool:
        return self._thread is not None

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.setValue(int(1000 * done / max(total, 1)))
        self.map.info.setText(f"running: {done:,} of {total:,} elements; the map fills as "
                              "chunks finish (Cancel stops after the chunk in flight)")

    def _finish_thread(self) -> None:
        self._fill_timer.stop()
        self._live = None
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait()
            self._worker.deleteLater()
            self._thread.deleteLater()
            self._thread = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _on_done(self, res: SweepResult) -> None:
        self._finish_thread()
        self.show_result(res)
        self.sweep_finished.emit(res)

    def _on_failed(self, msg: str) -> None:
        self._finish_thread()
        self._error(msg)

    def show_result(self, res: SweepResult) -> None:
        """Display a (possibly loaded) sweep."""
        self.result = res
        self.map.set_result(res, self.compare.currentData())
        self._show_histogram()
        s = res.summary
        col, label = COMPARES[self.compare.currentData()]
        text = (f"{s.total} elements; {s.nonconformant_count()} non-conformant under "
                f"{res.meta.get('rules', '')}; max |{label}| {s.max_error(col):g}. "
                "Hover for a cell's bits, click to inspect it.")
        if not res.complete:
            text = f"cancelled after {res.n_done} of {res.domain.size} elements. " + text
        else:
            self.progress.setValue(self.progress.maximum())
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
        (op, op format, rule set and operands, as one undo step)."""

        def load(op: str, fmt: str, rules: str, bits: tuple) -> None:
            if fmt not in FLOAT_FORMATS:  # the inspector's editors hold float patterns
                self.map.info.setText(f"{op} takes {fmt} codes: the inspector edits float "
                                      f"patterns, so this cell ({', '.join(map(str, bits))}) "
                                      "is shown here only")
                return
            ops = list(state.operands)
            ops[: len(bits)] = [int(b) for b in bits]
            try:
                state.update(op=op, op_format=fmt, rule_set=rules, operands=ops)
            except ValueError as exc:
                self._error(str(exc))

        self.inspect_requested.connect(load)

    def shutdown(self) -> None:
        """Cancel a running sweep, wait for its thread, release the GPU (call on app exit)."""
        self.cancel_sweep()
        self._finish_thread()
        if hasattr(self.backend, "close"):
            self.backend.close()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.shutdown()
        super().closeEvent(event)
