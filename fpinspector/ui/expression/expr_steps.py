"""The step table of an expression (instruction, inputs, model, GPU, allowed set, rules),
the first GPU divergence highlighted, and the result line; drawn from
:func:`fpinspector.model.expr.report.element_report`."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QTableWidget, QTableWidgetItem, QWidget

from ..qt_utils import FitColumns

__all__ = ["StepTable", "COLUMNS", "DIVERGENCE_COLOR", "result_text"]

COLUMNS = ("#", "instruction", "inputs", "model", "GPU", "allowed", "rules")
#: background of the first step where the GPU leaves the allowed set
DIVERGENCE_COLOR = QColor(255, 200, 120)
_BAD = QColor(220, 60, 40)


def _cell(v: dict[str, Any]) -> str:
    return v["hex"] if v["hex"] in ("true", "false") else f"{v['hex']} ({v['text']})"


class StepTable(QTableWidget):
    """One row per step.

    Signals
    -------
    step_selected(int) : the row (step index) the user picked.
    """

    step_selected = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.setHorizontalHeaderLabels(list(COLUMNS))
        self.verticalHeader().hide()
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.fitter = FitColumns(self)  # GPU and allowed never behind horizontal scrolling
        self.divergence: int | None = None
        self.itemSelectionChanged.connect(self._on_select)

    def show_report(self, rep: dict[str, Any]) -> None:
        """Fill from an element report (with GPU columns when it has them)."""
        steps = rep["steps"]
        gpu = "gpu" in rep
        self.divergence = rep["gpu"]["first_divergence"] if gpu else None
        keep = self.currentRow()
        self.blockSignals(True)
        self.setRowCount(len(steps))
        for r, s in enumerate(steps):
            cells = [
                f"r{s['index']}",
                f"{s['instruction']} {', '.join(s['operands'])}",
                ", ".join(_cell(v) for v in s["inputs"]),
                _cell(s["model"]),
                (_cell(s["gpu"]) + ("" if s["gpu_allowed"] else "  ✗ not allowed")
                 + (f" ({s['gpu_deviation']})" if "gpu_deviation" in s else "")) if gpu
                else "",
                s["allowed"]["text"] if s["allowed"] is not None else _cell(s["model"]),
                " ".join(s["rules"]),
            ]
            tips = [s["label"] + (f" ({s['note']})" if s["note"] else ""),
                    s["label"], "", f"exact {s['exact']}",
                    (f"model on the GPU's own inputs: {_cell(s['gpu_fed_model'])}" if gpu
                     else "no GPU run"), "", "\n".join(s["explain"])]
            for c, (text, tip) in enumerate(zip(cells, tips)):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{text}\n{tip}" if tip else text)  # (a wrapped cell)
                if gpu and c == 4 and not s["gpu_allowed"]:
                    item.setForeground(QBrush(_BAD))
                if r == self.divergence:
                    item.setBackground(QBrush(DIVERGENCE_COLOR))
                    f = QFont(item.font())
                    f.setBold(True)
                    item.setFont(f)
                self.setItem(r, c, item)
        self.fitter.fit()
        self.blockSignals(False)
        if 0 <= keep < len(steps):
            self.selectRow(keep)
        elif self.divergence is not None:
            self.selectRow(self.divergence)

    def row_text(self, r: int) -> list[str]:
        return [self.item(r, c).text() for c in range(self.columnCount())]

    def _on_select(self) -> None:
        r = self.currentRow()
        if r >= 0:
            self.step_selected.emit(r)


def result_text(rep: dict[str, Any]) -> str:
    """The result, component by component: model, exact, error; GPU and the free compile."""
    res = rep["result"]
    lines = []
    comps = res["components"]
    for k, c in enumerate(comps):
        name = f".{'xyzw'[k]} " if len(comps) > 1 else ""
        # (the expression's exact value is of the raw inputs: a flush is one of the errors
        # it measures, model/expr/exact.py)
        line = (f"{name}model {_cell(c['model'])}   exact {c['exact']}   "
                f"error {c['ulp_error']} ULP vs exact of the raw inputs ({c['format']})")
        if "gpu" in c:
            line += (f"\n{' ' * len(name)}GPU {_cell(c['gpu'])} ({c['gpu_ulp_error']} ULP vs "
                     f"exact);  compiled freely (no precise): {_cell(c['free'])} "
                     f"({c['free_ulp_error']} ULP vs exact): {c['free_note']}")
        lines.append(line)
    if "gpu" in rep:
        g = rep["gpu"]
        where = ("every GPU step is allowed" if g["conformant"] else
                 f"the GPU first leaves the allowed set at r{g['first_divergence']}")
        lines.append(f"{g.get('renderer', 'GPU')} ({g.get('path', '')} path): {where}")
    return f"result ({res['type']}):\n" + "\n".join(lines)
