"""Sweep panel: choose op/format/rules/domain, run the sweep off the UI thread with a
progress bar and cancel, show the error map and histogram, export figure and data.

Wire it into a window with ``panel.inspect_requested.connect(...)``: the signal carries
``(op, format, rules, operand_bits)`` of the clicked cell.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from PySide6.QtCore import QObject, QThread, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFileDialog, QFormLayout, QHBoxLayout, QLineEdit, QMessageBox,
    QProgressBar, QPushButton, QSplitter, QVBoxLayout, QWidget,
)
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPixmap

from ..model.sweep import COMPARES, parse_domain, run_sweep, save_npz, write_csv_summary
from ..model.sweep.runner import SweepResult
from ..gpu.sweep_capture import SweepBackend
from .error_map import OVERLAY_COLORS, ErrorMapWidget, HistogramWidget

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


class SweepPanel(QWidget):
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
        self.backend = backend or SweepBackend()
        self.result: SweepResult | None = None
        self._thread: QThread | None = None
        self._cancel = threading.Event()
        self.op = QComboBox(editable=True)
        self.op.addItems(self.backend.ops())
        self.op.setCurrentText("mul")
        self.format = QComboBox()
        self.format.addItems(["f32", "f16", "f64"])
        self.rules = QComboBox()
        self.rules.addItems(["d3d11", "d3d10", "ieee754"])
        self.domain_a = QLineEdit("log:1e-40:1e3:512")
        self.domain_b = QLineEdit("log:1e-3:1e3:512")
        for w in (self.domain_a, self.domain_b):
            w.setToolTip("all | bits:LO:HI[:N] | lin:A:B[:N] | log:A:B[:N]")
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
        self.map.inspect_requested.connect(self.inspect_requested)
        self._pull_arity()

    # -- controls --------------------------------------------------------------------
    def _arity(self) -> int:
        try:
            return int(self.backend.arity(self.op.currentText()))
        except ValueError:
            return 2

    def _pull_arity(self) -> None:
        self.domain_b.setEnabled(self._arity() == 2)

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
        try:
            arity = int(self.backend.arity(op))
            spec = self.domain_a.text() if arity == 1 else (
                f"{self.domain_a.text()} x {self.domain_b.text()}")
            domain = parse_domain(spec, fmt, arity)
            stage, result_format, extra = self.backend.make(op, fmt, rules, self.use_gpu.isChecked())
        except ValueError as exc:
            self._error(str(exc))
            return False
        meta = {"op": op, "format": fmt, "rules": rules, "gpu": self.use_gpu.isChecked(), **extra}
        if not self.use_gpu.isChecked() and self.compare.currentData() != "model_vs_exact":
            self.compare.setCurrentIndex(list(COMPARES).index("model_vs_exact"))

        def job(progress, cancel):
            return run_sweep(domain, stage, result_format=result_format, progress=progress,
                             cancel=cancel, meta=meta, keep_elements=True, chunk_size=1 << 16)

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
        return True

    def cancel_sweep(self) -> None:
        """Ask the running sweep to stop after the chunk in flight."""
        self._cancel.set()

    def is_running(self) -> bool:
        return self._thread is not None

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.setValue(int(1000 * done / max(total, 1)))

    def _finish_thread(self) -> None:
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

    # -- export ----------------------------------------------------------------------
    def export(self, path: str, kind: str) -> None:
        """Write the figure (``png``/``svg``) or the data (``npz``/``csv``) to ``path``."""
        import pyqtgraph.exporters as ex  # noqa: PLC0415

        if kind == "png":
            ex.ImageExporter(self.map.graphics.scene()).export(str(path))
            return
        if kind == "svg":  # QSvgGenerator: pyqtgraph's SVGExporter trips on Qt 6.12 paths
            self._export_svg(str(path))
            return
        if self.result is None:
            raise ValueError("nothing to export: run a sweep first")
        if kind == "npz":
            save_npz(path, self.result)
        elif kind == "csv":
            write_csv_summary(path, self.result)
        else:
            raise ValueError(f"unknown export kind {kind!r}")

    def _export_svg(self, path: str) -> None:
        from PySide6.QtCore import QRect, QSize  # noqa: PLC0415
        from PySide6.QtGui import QPainter  # noqa: PLC0415
        from PySide6.QtSvg import QSvgGenerator  # noqa: PLC0415

        view = self.map.graphics
        gen = QSvgGenerator()
        gen.setFileName(path)
        gen.setSize(QSize(view.width(), view.height()))
        gen.setViewBox(QRect(0, 0, view.width(), view.height()))
        gen.setTitle("fpinspector error map")
        painter = QPainter(gen)
        try:
            view.render(painter)
        finally:
            painter.end()

    def _export_dialog(self, kind: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, f"Export {kind.upper()}", f"sweep.{kind}",
                                              f"{kind.upper()} (*.{kind})")
        if path:
            try:
                self.export(path, kind)
            except (ValueError, OSError) as exc:
                self._error(str(exc))

    def bind_state(self, state: Any) -> None:
        """Load clicked cells into an :class:`~fpinspector.model.state.InspectorState`
        (op, op format, rule set and operands, as one undo step)."""

        def load(op: str, fmt: str, rules: str, bits: tuple) -> None:
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
