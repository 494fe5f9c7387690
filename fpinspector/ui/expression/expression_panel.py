"""The Expression panel: type an expression, bind its variables (typed or from the
inspector's operands), see every D3D step (model vs GPU, allowed set, rules, the first
divergence highlighted), the Why of any step, and error maps over the expression."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...model.expr import BindingError, ExprError, evaluate_expr, judge_gpu, variables_in
from ...model.expr.report import attach_deviations, element_report
from ...model.formats import get_format
from ..operation.why_view import WhyView
from ..qt_utils import turn_splitter
from .expr_bindings import BindingsTable
from .expr_edit import ErrorLine, ExpressionEdit
from .expr_gpu_bridge import ExprGpuBridge
from .expr_map import ExprMapPanel
from .expr_steps import StepTable, result_text

__all__ = ["ExpressionPanel"]

DEFAULT = "saturate(a * b + c)"


def gpu_label(info: dict, gpu: Any = None) -> str:
    """Which device ran the expression: its renderer, the device as GPU ▸ Device names it
    (a GL device and driver, or a WebGPU adapter), the capture path, and "GPU process"
    where it ran in one (a driver this process cannot switch to)."""
    choice = getattr(gpu, "choice", None)
    where = [choice.label()] if choice is not None else []
    if info.get("path"):
        where.append(f"{info['path']} path")
    if info.get("process") == "child":
        where.append("GPU process")
    return f"GPU: {info.get('renderer', '?')}" + (f" ({', '.join(where)})" if where else "")


class ExpressionPanel(QWidget):
    """Expression, bindings, steps, result, Why and maps.

    Parameters
    ----------
    state : InspectorState, optional
        The inspector's state: bindings may read its operands A, B, C, ...
    gpu : bool
        Run expressions on the local GPU too (off: the model alone, said so).
    gpu_process : bool, optional
        True: run them in a GPU child process from the start (no GL in this process);
        None: in this process where Mesa allows the device, else in a GPU process.
    """

    def __init__(self, state: Any = None, gpu: bool = True, parent: QWidget | None = None,
                 gpu_process: bool | None = None):
        super().__init__(parent)
        self.state = state
        self.evaluation = None
        self.report: dict[str, Any] | None = None
        self._gpu_words: tuple | None = None
        self._req = 0
        self.bridge = ExprGpuBridge(process=gpu_process) if gpu else None
        self.edit = ExpressionEdit()
        self.format = QComboBox()
        self.format.addItems(["f32", "f16"])
        self.rules = QComboBox()
        self.rules.addItems(["d3d11", "d3d10", "ieee754"])
        self.use_gpu = QCheckBox("GPU")
        self.use_gpu.setChecked(gpu)
        self.use_gpu.setEnabled(gpu)
        self.error = ErrorLine()
        self.bindings = BindingsTable()
        self.steps = StepTable()
        self.result = QLabel()
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # wrapped: one long line (a GPU result with its free variant) otherwise set the
        # panel's minimum width to ~1200 px, and a docked panel was cut at 1280x720
        self.result.setWordWrap(True)
        self.gpu_status = QLabel("GPU: off for this session" if not gpu else "GPU: not run yet")
        # wrapped too: a long reason (a driver this process cannot switch to) set the
        # panel's minimum width to ~2200 px
        self.gpu_status.setWordWrap(True)
        self.why = WhyView()
        self.map_panel = ExprMapPanel()
        self._build()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(120)  # evaluate once typing pauses
        self._timer.timeout.connect(self.evaluate)
        self.edit.textEdited.connect(lambda _t: self._timer.start())
        self.edit.returnPressed.connect(self.evaluate)
        self.format.currentIndexChanged.connect(lambda _i: self._on_format())
        self.rules.currentIndexChanged.connect(lambda _i: self.evaluate())
        self.use_gpu.toggled.connect(lambda _on: self.evaluate())
        self.bindings.changed.connect(self.evaluate)
        self.steps.step_selected.connect(self.show_why)
        self.map_panel.cell_requested.connect(self.load_cell)
        if self.bridge is not None:
            self.bridge.captured.connect(self._on_gpu)
            self.bridge.failed.connect(self._on_gpu_failed)
            self.bridge.unavailable.connect(lambda m: self.gpu_status.setText(f"No GPU: {m}"))
            self.bridge.reopening.connect(self._on_device_switched)
        if state is not None:
            state.connect(self._on_state)
            self._pull_operands()
        self.edit.setText(DEFAULT)
        self.evaluate()

    def _build(self) -> None:
        head = QHBoxLayout()
        head.addWidget(QLabel("expression"))
        head.addWidget(self.edit, 1)
        for w in (QLabel("format"), self.format, QLabel("rules"), self.rules, self.use_gpu):
            head.addWidget(w)
        steps_tab = QSplitter(Qt.Orientation.Vertical)
        top = QWidget()
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.steps, 1)
        tl.addWidget(self.result)
        tl.addWidget(self.gpu_status)
        steps_tab.addWidget(top)
        steps_tab.addWidget(self.why)
        steps_tab.setSizes([400, 160])
        self.tabs = QTabWidget()
        self.tabs.addTab(steps_tab, "Steps")
        self.tabs.addTab(self.map_panel, "Error map")
        self._fitted = False  # (the split is fitted on the first resize and each turn)
        # above the map (a narrow dock) the variables keep fewer rows: the map needs them
        self.tabs.currentChanged.connect(lambda _i: QTimer.singleShot(0, self, self._fit_bindings))
        self._side = side = QSplitter(Qt.Orientation.Horizontal)
        side.addWidget(self.bindings)
        side.addWidget(self.tabs)
        side.setSizes([260, 900])
        side.setStretchFactor(0, 0)  # (a resize goes to the steps and the map)
        side.setStretchFactor(1, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(head)
        lay.addWidget(self.error)
        lay.addWidget(side, 1)

    #: Below this width the variables go above the steps and the map (a narrow dock)
    SIDE_BY_SIDE_FROM = 760

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        turned = turn_splitter(self._side, event.size().width(), self.SIDE_BY_SIDE_FROM)
        if turned or not self._fitted:
            self._fitted = True
            QTimer.singleShot(0, self, self._fit_bindings)  # (once the splitter has its size)

    def _fit_bindings(self) -> None:
        """The variables table as wide (beside) or high (above, at most 6 rows, 2 over the
        map) as its
        names, sources and values need; the steps and the map have the rest."""
        hint = self.bindings.sizeHint()
        total = max(1, sum(self._side.sizes()))
        if self._side.orientation() == Qt.Orientation.Horizontal:
            first = hint.width()
        else:
            shown = 2 if self.tabs.currentWidget() is self.map_panel else 6
            rows = shown * self.bindings.verticalHeader().defaultSectionSize()
            first = min(hint.height(), self.bindings.horizontalHeader().height() + rows)
        self._side.setSizes([first, max(1, total - first)])

    def _on_format(self) -> None:
        """The operands bound by pattern or by value in the new format, then evaluated."""
        self.bindings.set_format(self.format.currentText())
        self.evaluate()

    # -- model --------------------------------------------------------------------------
    def evaluate(self) -> bool:
        """Evaluate the expression now (model at once, GPU when it answers)."""
        self._timer.stop()
        text = self.edit.text()
        try:
            names = variables_in(text)
        except ExprError as exc:
            return self._fail(str(exc), exc.caret(text))
        rows = self.bindings.rowCount()
        self.bindings.set_variables(names)
        if self._fitted and self.bindings.rowCount() != rows:
            QTimer.singleShot(0, self, self._fit_bindings)  # (a variable more or fewer)
        try:
            ev = evaluate_expr(text, self.bindings.bindings(), self.format.currentText(),
                               self.rules.currentText())
        except ExprError as exc:
            return self._fail(str(exc), exc.caret(text))
        except BindingError as exc:
            return self._fail(f"binding {exc}")
        except ValueError as exc:  # anything else the engine refuses: shown, never raised
            return self._fail(str(exc))
        self.error.clear_error()
        self.evaluation = ev
        self._gpu_words = None
        self._show()
        self.map_panel.set_context(text, self.bindings.bindings(), names,
                                   self.format.currentText(), self.rules.currentText(),
                                   self.bridge is not None)
        if self.bridge is not None and self.use_gpu.isChecked():
            self._req = self.bridge.request(ev.program, ev.slots)
            self.gpu_status.setText("GPU: running…")
        return True

    def _fail(self, message: str, caret: str = "") -> bool:
        self.error.show_error(message, caret)
        return False

    def _show(self) -> None:
        ev = self.evaluation
        judge = free = info = None
        if self._gpu_words is not None:
            words, free = self._gpu_words
            judge = judge_gpu(ev, words)
            info = dict(self.bridge.info) if self.bridge is not None else {}
        self.report = element_report(ev, 0, judge, free, info)
        if judge is not None and info.get("renderer"):
            from ...gpu.expr_deviations import step_deviations  # noqa: PLC0415

            attach_deviations(self.report, step_deviations(ev, judge, info["renderer"],
                                                           info.get("path", "")))
        self.steps.show_report(self.report)
        self.result.setText(result_text(self.report))
        r = self.steps.currentRow()
        self.show_why(r if r >= 0 else len(ev.steps) - 1)

    def show_why(self, k: int) -> None:
        """The Why view for step ``k``: the engine's walk and every rule's sentence."""
        if self.evaluation is None or not 0 <= k < len(self.evaluation.steps):
            return
        se = self.evaluation.steps[k]
        s = self.report["steps"][k]
        head = f"r{k} = {s['instruction']} {', '.join(s['operands'])}   — {s['label']}"
        extra = [f"allowed: {s['allowed']['text']}"] if s["allowed"] else []
        if "gpu" in s:
            extra.append(f"GPU: {s['gpu']['hex']} ({s['gpu']['text']}) — "
                         + ("allowed" if s["gpu_allowed"] else "NOT allowed")
                         + f" for the GPU's own inputs (model there: {s['gpu_fed_model']['hex']})"
                         + (f" — known deviation {s['gpu_deviation']}" if "gpu_deviation" in s
                            else ""))
            if "gpu_why" in s:
                extra.append(f"why: {s['gpu_why']}")
        self.why.show_steps(head, se.steps_at(0) + extra, se.explain_at(0))

    # -- GPU ----------------------------------------------------------------------------
    def _on_gpu(self, req: int, words: Any, free: Any) -> None:
        if req != self._req or self.evaluation is None:
            return  # a stale answer to an older expression
        self._gpu_words = (words, free)
        self._show()
        self.gpu_status.setText(gpu_label(self.bridge.info, self.bridge.gpu))

    def _on_device_switched(self, choice: Any) -> None:
        """GPU ▸ Device switched: the GPU column goes (it was the old device's) and the
        expression runs again on the new one."""
        self._gpu_words = None
        if self.evaluation is not None:
            self._show()
        self.gpu_status.setText(f"GPU: switching to {choice.label()}…" if choice is not None
                                else "GPU: switching…")
        if self.evaluation is not None and self.use_gpu.isChecked():
            self._req = self.bridge.request(self.evaluation.program, self.evaluation.slots)

    def _on_gpu_failed(self, req: int, message: str) -> None:
        if req == self._req:
            self.gpu_status.setText(f"GPU: {message}")

    # -- bindings from the inspector and the map --------------------------------------------
    def _pull_operands(self) -> None:
        snap = self.state.snapshot
        self.bindings.set_operands(tuple(snap.operands), snap.op_format)

    def _on_state(self, changed: frozenset) -> None:
        if changed & {"operands", "op_format"}:
            self._pull_operands()
            if any(self.bindings.source(n) != "typed" for n in self.bindings.names()):
                self._timer.start()

    def load_cell(self, values: dict[str, int]) -> None:
        """Type a map cell's patterns into the bindings and evaluate that point."""
        fmt_digits = self._pattern_digits()
        for name, bits in values.items():
            var = name.partition(".")[0]
            if "." in name:  # one component of a vector: keep the others
                continue_vector = self._vector_text(name, bits)
                self.bindings.set_typed(var, continue_vector)
            else:
                self.bindings.set_typed(var, f"0x{bits:0{fmt_digits}X}")
        self.tabs.setCurrentIndex(0)
        self.evaluate()

    def _vector_text(self, name: str, bits: int) -> str:
        var, _, comp = name.partition(".")
        ev = self.evaluation
        comps = [int(ev.slots[k]) if ev.slots[k].ndim == 0 else 0
                 for k, i in enumerate(ev.program.inputs) if i.name == var] if ev else []
        comps["xyzw".index(comp)] = bits
        digits = self._pattern_digits()
        return f"float{len(comps)}(" + ", ".join(f"0x{c:0{digits}X}" for c in comps) + ")"

    def _pattern_digits(self) -> int:
        """Hex digits of a pattern of the expression's format (the parser reads a pattern's
        format from its digit count: 4 for f16, 8 for f32)."""
        return (get_format(self.format.currentText()).bits + 3) // 4

    def shutdown(self) -> None:
        """Stop the map and the GPU (call on exit)."""
        self.map_panel.shutdown()
        if self.bridge is not None:
            self.bridge.shutdown()
