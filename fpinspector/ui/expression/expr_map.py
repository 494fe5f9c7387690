"""Error maps over an expression: two of its variables as axes (the others as bound in the
panel), the whole expression's error per cell; clicking a cell loads its values back.

The map is the project's :class:`~fpinspector.ui.maps.error_map.ErrorMapWidget`, told the
variables' names; the sweep runs off the UI thread with progress and cancel.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...model.expr.sweep import ExprStage, expr_sweep_setup
from ...model.sweep import COMPARES, GridDomain, UnaryDomain, parse_axis, run_sweep
from ...model.sweep.live_fill import BlockFeed
from ...model.sweep.map_blocks import BlockMap
from ...model.sweep.runner import KEEP_LIMIT, default_workers
from ..maps.error_map import ErrorMapWidget
from ..maps.map_runner import MapRunner

__all__ = ["ExprErrorMap", "ExprMapPanel"]

_NONE = "(none)"


class ExprErrorMap(ErrorMapWidget):
    """The error map with the swept variables' names; a click emits their patterns.

    Signals
    -------
    cell_requested(dict) : {variable: pattern} of the clicked cell (the worst element of
    its block where a cell stands for several).
    """

    cell_requested = Signal(object)

    def title_head(self) -> str:
        if "expression" not in self.meta:
            return super().title_head()
        return (f"{self.meta['expression']} ({self.meta.get('rules', '')}): "
                f"{COMPARES[self.compare][1]}")

    def axis_labels(self, arity: int) -> list[str]:
        names = self.meta.get("variables")
        return list(names) if names and len(names) == arity else super().axis_labels(arity)

    def operand_names(self) -> list[str]:
        return list(self.meta.get("variables") or super().operand_names())

    def describe(self, k: int) -> str:
        text = super().describe(k)
        res = self.result
        if (res is not None and self.blocks is not None and self.blocks.exact
                and "first_bad" in res.columns):
            fb = int(res.columns["first_bad"][k])
            text += ("  GPU conformant at every step" if fb < 0 else
                     f"  GPU first leaves the allowed set at r{fb}")
        return text + ("  (click: load into the expression)" if self.blocks is not None
                       and self.blocks.exact else "")

    def request_inspect(self, k: int) -> None:
        t = self.target(k)
        names = self.meta.get("variables")
        if t < 0 or not names:
            return
        ops = (int(o[0]) for o in self._domain().operands(t, t + 1))
        self.cell_requested.emit(dict(zip(names, ops)))


class ExprMapPanel(QWidget):
    """Axis pickers, domains, compare, Run/Cancel and the map.

    Signals
    -------
    cell_requested(dict) : a clicked cell's {variable: pattern}.
    """

    cell_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context: dict[str, Any] = {}
        self.result = None
        self._gpu: Any = None
        self.axis_a, self.axis_b = QComboBox(), QComboBox()
        self.domain_a, self.domain_b = QLineEdit("log:1e-3:1e3:256"), QLineEdit("lin:-2:2:256")
        for w in (self.domain_a, self.domain_b):
            w.setToolTip("all | bits:LO:HI[:N] | lin:A:B[:N] | log:A:B[:N]")
        self.compare = QComboBox()
        for key, (_, label) in COMPARES.items():
            self.compare.addItem(label, key)
        self.compare.setCurrentIndex(list(COMPARES).index("model_vs_exact"))
        self.component = QComboBox()
        self.component.addItems(["worst", "x", "y", "z", "w"])
        self.use_gpu = QCheckBox("GPU")
        self.run_button, self.cancel_button = QPushButton("Run map"), QPushButton("Cancel")
        self.progress = QProgressBar()
        self.map = ExprErrorMap()
        # the running map's (feed, meta) is set by its job once the domain is parsed
        self.runner = MapRunner(self, self.progress, self.run_button, self.cancel_button,
                                self.map.show_blocks)
        self.runner.done.connect(self._on_done)
        self.runner.failed.connect(self._on_failed)
        # an axis, its range and a compare choice a row (in a dock 330-460 px high, six
        # rows left the map a sliver; three rows of two left it ~120 px at 1920x1080)
        form = QGridLayout()
        form.setContentsMargins(0, 0, 0, 0)
        for row, pairs in enumerate(((("axis A (rows)", self.axis_a), ("range", self.domain_a),
                                      ("compare", self.compare)),
                                     (("axis B (columns)", self.axis_b), ("range", self.domain_b),
                                      ("vector result", self.component)))):
            for k, (label, w) in enumerate(pairs):
                form.addWidget(QLabel(label), row, 2 * k)
                form.addWidget(w, row, 2 * k + 1)
        form.setColumnStretch(1, 1)
        form.setColumnStretch(3, 2)
        form.setColumnStretch(5, 1)
        buttons = QHBoxLayout()
        for w in (self.use_gpu, self.run_button, self.cancel_button, self.progress):
            buttons.addWidget(w)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(form)
        lay.addLayout(buttons)
        lay.addWidget(self.map, 1)
        self.run_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)  # (each map has its own event)
        self.compare.currentIndexChanged.connect(
            lambda _i: self.map.set_compare(self.compare.currentData()))
        self.map.cell_requested.connect(self.cell_requested)

    def set_context(self, text: str, bindings: dict[str, Any], variables: list[str],
                    format: str, rules: str, gpu: bool) -> None:
        """The expression the next map sweeps, with the panel's bindings."""
        self.context = {"text": text, "bindings": dict(bindings), "format": format,
                        "rules": rules}
        self.use_gpu.setEnabled(gpu)
        if not gpu:
            self.use_gpu.setChecked(False)
        for combo, extra, pick in ((self.axis_a, [], 0), (self.axis_b, [_NONE], 2)):
            old = combo.currentText()
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(extra + variables)
            i = combo.findText(old)
            combo.setCurrentIndex(i if i >= 0 else (pick if pick < combo.count() else 0))
            combo.blockSignals(False)

    def start(self) -> bool:
        """Start the map on a worker thread (False when one runs or the input is bad)."""
        if self.runner.is_running() or not self.context.get("text"):
            return False
        axes = [self.axis_a.currentText()] + (
            [self.axis_b.currentText()] if self.axis_b.currentText() not in ("", _NONE) else [])
        ctx, gpu_on = dict(self.context), self.use_gpu.isChecked()
        specs = [self.domain_a.text(), self.domain_b.text()][: len(axes)]
        component, rules = self.component.currentText(), ctx["rules"]

        def job(progress, cancel):
            fixed = {k: v for k, v in ctx["bindings"].items() if k not in axes}
            program, slots_ax, slots = expr_sweep_setup(ctx["text"], axes, fixed, ctx["format"])
            ax = [parse_axis(s, program.format) for s in specs]
            domain = UnaryDomain(ax[0]) if len(ax) == 1 else GridDomain(ax[0], ax[1])
            gpu = self._open_gpu(program) if gpu_on else None
            stage = ExprStage(program, slots_ax, slots, rules, None, gpu,
                              component if len(program.outputs) > 1 else "worst")
            meta = {"op": "expr", "expression": ctx["text"], "variables": axes,
                    "format": program.format, "rules": rules, "gpu": gpu is not None}
            # the map is its blocks, reduced where each chunk is computed: any domain (all
            # 2^32 f32 patterns) in bounded memory; per-element columns only for small ones.
            # Big maps without the GPU run in worker processes, on every core
            blocks = BlockMap(domain, stage.result_format)
            feed = BlockFeed(blocks)
            self.runner.live = (feed, {**meta, "result_format": stage.result_format})
            res = run_sweep(domain, stage, result_format=stage.result_format, meta=meta,
                            progress=progress, cancel=cancel,
                            keep_elements=domain.size <= KEEP_LIMIT, chunk_size=1 << 16,
                            workers=default_workers(), chunk_part=feed.chunk_part,
                            on_part=feed.on_part)
            return res, blocks

        self.runner.start(job)
        self.progress.setFormat("starting …")
        if not gpu_on and self.compare.currentData() != "model_vs_exact":
            self.compare.setCurrentIndex(list(COMPARES).index("model_vs_exact"))
        self.map.set_compare(self.compare.currentData(), redraw=False)  # (the live drawing's)
        self.map.info.setText(f"mapping {ctx['text']} over {' x '.join(axes)} …")
        return True

    def _open_gpu(self, program: Any) -> Any:
        from ...gpu.devices import selected_device  # noqa: PLC0415

        if self._gpu is not None and self._gpu.choice != selected_device():
            self._gpu.close()  # GPU ▸ Device switched since: the map runs on the new one
            self._gpu = None
        if self._gpu is None:  # in this process, or a GPU process for another Mesa driver
            from ...gpu.expr_child import open_expr_gpu  # noqa: PLC0415

            self._gpu = open_expr_gpu()
        why = self._gpu.unsupported_reason(program)
        if why:
            raise ValueError(f"GPU: {why} (untick GPU to map the model alone)")
        return self._gpu

    def cancel(self) -> None:
        """Ask the running map to stop after the chunks in flight (it keeps what was done)."""
        self.runner.cancel()

    def is_running(self) -> bool:
        return self.runner.is_running()

    def _on_done(self, done: tuple[Any, BlockMap]) -> None:
        res, blocks = done
        self.result = res
        if not res.meta.get("gpu") and self.compare.currentData() != "model_vs_exact":
            self.compare.setCurrentIndex(list(COMPARES).index("model_vs_exact"))
        self.map.set_result(res, self.compare.currentData(), blocks)
        s = res.summary
        text = (f"{s.total:,} cells; max |model vs exact| {s.max_error('err_model'):g} ULP"
                + (f"; GPU leaves the allowed set in {s.nonconformant_count():,} cells"
                   if res.meta.get("gpu") else "")
                + ". Hover for a cell, click to load it into the expression"
                + ("." if blocks.exact else " (a cell: its block's worst element)."))
        self.map.info.setText(text if res.complete else f"cancelled after {res.n_done:,} "
                              "cells. " + text)
        if res.complete:
            self.progress.setValue(1000)
        self.progress.setFormat(f"{res.n_done:,} of {res.domain.size:,}")

    def _on_failed(self, msg: str) -> None:
        self.map.info.setText(f"error: {msg}")

    def shutdown(self) -> None:
        self.runner.shutdown()
        if self._gpu is not None:
            self._gpu.close()
            self._gpu = None
