"""The "GPUs" view: the model, the live GPU and loaded GPU reports side by side, for the
current operation and for the rules report (rows where the GPUs differ stand out)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets

from .. import palette
from ..qt_utils import FitColumns

__all__ = ["GpusView", "LoadedReport", "current_rows"]


@dataclass
class LoadedReport:
    """A report in the view: its label (A, B, ... or "live"), where it came from, the data."""

    label: str
    source: str
    report: Any  # fpinspector.gpu.report_data.GpuReport


def current_rows(model: Any, gpu: tuple[str, int] | None, gpu_note: str, fmt: str,
                 op: str, operands: list[int], reports: list[LoadedReport]
                 ) -> list[tuple[str, str, str, str]]:
    """(source, result, verdict, how) rows for the current operation. ``model`` is the
    controller's OpOutcome (None when the model could not evaluate)."""
    from ...gpu.expected import expected_result

    def verdict(bits: int | None) -> str:
        if bits is None or model is None:
            return "—"
        try:
            ok, err = model.judge(bits)
        except ValueError as exc:
            return str(exc)
        return ("conformant" if ok else "NOT conformant") + (
            "" if err != err else f" ({err:g} ULP vs exact)")

    rows = []
    if model is None:
        rows.append(("model (d3d11 rules)", "—", "—", "the model cannot evaluate this"))
    else:
        rows.append(("model", f"0x{model.bits:X}", "—", "rule engine: " +
                     (", ".join(model.rules) or "no rule fired")))
    if gpu is None:
        rows.append(("live GPU", "—", "—", gpu_note))
    else:
        rows.append(("live GPU", f"0x{gpu[1]:X}", verdict(gpu[1]), gpu_note))
    for r in reports:
        if model is None:
            rows.append((f"{r.label}: {r.report.label}", "—", "—", "no model result"))
            continue
        e = expected_result(r.report, op, fmt, operands, model.bits)
        bits = "—" if e.bits is None else f"0x{e.bits & ((1 << 64) - 1):X}"
        rows.append((f"{r.label}: {r.report.label}", bits,
                     verdict(e.bits) if e.bits is not None else "—", e.text))
    return rows


class GpusView(QtWidgets.QWidget):
    """Two tables: the current operation (model, live GPU, each report) and the rules report
    (every probe: model, then the live report and each loaded report).

    Signals
    -------
    open_requested() : the user wants to open a report file (the menu owns the dialog).
    example_requested(str) : open a shipped example report by name.
    measure_requested() : measure the live device's rules report.
    """

    open_requested = QtCore.Signal()
    example_requested = QtCore.Signal(str)
    measure_requested = QtCore.Signal()

    def __init__(self, examples: list[str] | None = None,
                 parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.reports: list[LoadedReport] = []
        self.live: LoadedReport | None = None
        self.open_button = QtWidgets.QPushButton("Open report…")
        self.open_button.clicked.connect(self.open_requested)
        self.example_button = QtWidgets.QToolButton()
        self.example_button.setText("Example reports")
        self.example_button.setPopupMode(QtWidgets.QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QtWidgets.QMenu(self.example_button)
        for name in examples or []:
            menu.addAction(name, lambda n=name: self.example_requested.emit(n))
        self.example_button.setMenu(menu)
        self.measure_button = QtWidgets.QPushButton("Measure live report")
        self.measure_button.setToolTip("Run the rules report on the live device (a second or "
                                       "two; the GPU column waits meanwhile)")
        self.measure_button.clicked.connect(self.measure_requested)
        self.remove_button = QtWidgets.QPushButton("Remove report")
        self.remove_button.clicked.connect(self._remove_selected)
        self.only_diff = QtWidgets.QCheckBox("only rows where the GPUs differ")
        self.only_diff.setChecked(True)
        self.only_diff.toggled.connect(self._fill_rules)
        self.status = QtWidgets.QLabel("")
        self.status.setWordWrap(True)
        bar = QtWidgets.QHBoxLayout()
        for w in (self.open_button, self.example_button, self.measure_button,
                  self.remove_button):
            bar.addWidget(w)
        bar.addStretch(1)
        self.current = self._table(["source", "result", "verdict (d3d11)", "how"])
        self.rules = self._table(["rule", "path", "probe", "model"])
        # the filter beside the table it filters: on the buttons' row it made the row wider
        # than a dock at 1280x720
        rules_head = QtWidgets.QHBoxLayout()
        title = QtWidgets.QLabel("<b>Rules report</b> (probe results; ok / NO under d3d11; "
                                 "[deviation] names what explains a NO; then each path's capture "
                                 "fidelity: f32/f64 and f16 raw moves)")
        title.setWordWrap(True)
        rules_head.addWidget(title, 1)
        rules_head.addWidget(self.only_diff)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(bar)
        lay.addWidget(self.status)
        lay.addWidget(QtWidgets.QLabel("<b>Current operation</b>"))
        lay.addWidget(self.current, 1)
        lay.addLayout(rules_head)
        lay.addWidget(self.rules, 3)

    @staticmethod
    def _table(headers: list[str]) -> QtWidgets.QTableWidget:
        t = QtWidgets.QTableWidget(0, len(headers))
        t.setHorizontalHeaderLabels(headers)
        t.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectColumns)
        t.verticalHeader().setVisible(False)
        t.fitter = FitColumns(t)  # every report's column inside the dock (wrapped)
        return t

    # -- reports ----------------------------------------------------------------------
    def add_report(self, report: Any, source: str) -> LoadedReport:
        used = {r.label for r in self.reports}
        label = next(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in used)
        item = LoadedReport(label, source, report)
        self.reports.append(item)
        self._fill_rules()
        return item

    def set_live(self, report: Any | None) -> None:
        self.live = None if report is None else LoadedReport("live", "live device", report)
        self._fill_rules()

    def _remove_selected(self) -> None:
        cols = {i.column() for i in self.rules.selectedIndexes()}
        labels = {self.rules.horizontalHeaderItem(c).text().split(":")[0] for c in cols
                  if c >= 4}
        if not labels and self.reports:
            labels = {self.reports[-1].label}  # nothing selected: the last one opened
        self.reports = [r for r in self.reports if r.label not in labels]
        self._fill_rules()

    # -- tables -----------------------------------------------------------------------
    def show_current(self, rows: list[tuple[str, str, str, str]]) -> None:
        c = palette.colors()
        self.current.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                item = QtWidgets.QTableWidgetItem(text)
                item.setToolTip(text)
                if j == 2 and text.startswith("NOT"):
                    item.setForeground(QtGui.QColor(c.bad))
                self.current.setItem(i, j, item)
        self.current.fitter.fit()

    def columns(self) -> list[LoadedReport]:
        return ([self.live] if self.live else []) + self.reports

    def _fill_rules(self) -> None:
        from ...gpu.compare import compare_reports

        cols = self.columns()
        self.rules.setColumnCount(4 + len(cols))
        self.rules.setHorizontalHeaderLabels(
            ["rule", "path", "probe", "model"] + [f"{r.label}: {r.report.label}" for r in cols])
        if not cols:
            self.rules.setRowCount(0)
            self.status.setText("No reports yet: measure the live device, or open a saved "
                                "report (fpinspector gpu-report --json --out FILE).")
            return
        reports = [r.report for r in cols]
        # one report alone is compared with itself: the rows are the same, only cells[:1] shown
        cmp = compare_reports(reports * (2 if len(reports) == 1 else 1))
        # probes, then each path's capture fidelity (f32/f64 raw move, f16 raw move)
        rows = [r for r in cmp.rows if r.kind in ("probe", "fidelity")]
        if self.only_diff.isChecked() and len(reports) > 1:
            rows = [r for r in rows if r.status in ("verdicts differ", "same verdict, other bits")]
        models = {(p.path, p.id): p.model for rep in reports for p in rep.probes}
        models.update({(r.path, r.key): "raw bits" for r in rows if r.kind == "fidelity"})
        c = palette.colors()
        self.rules.setRowCount(len(rows))
        for i, row in enumerate(rows):
            cells = row.cells[:len(reports)]
            texts = [row.rule, row.path, row.key, models.get((row.path, row.key), "")]
            texts += ["— (not measured)" if x is None else
                      f"{x.observed} {'ok' if x.ok else 'NO'}"
                      + (f" [{x.deviation}]" if x.deviation else "") + (" (!)" if x.note else "")
                      for x in cells]
            for j, text in enumerate(texts):
                item = QtWidgets.QTableWidgetItem(text)
                item.setToolTip(row.question if j < 4 else text)
                if j >= 4 and cells[j - 4] is not None and not cells[j - 4].ok:
                    item.setForeground(QtGui.QColor(c.bad))
                self.rules.setItem(i, j, item)
        self.rules.fitter.fit()
        n = len(reports)
        s = cmp.summary() if n > 1 else {}
        self.status.setText(
            f"{n} report(s). " + (f"{s['verdicts differ']} probe(s) with different verdicts, "
                                  f"{s['same verdict, other bits']} with other bits."
                                  if n > 1 else "Open a second report to compare."))
