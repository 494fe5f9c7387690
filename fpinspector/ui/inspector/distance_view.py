"""Distance between operands A and B: ULPs apart in each format, and the values in between."""

from __future__ import annotations

import numpy as np
from PySide6 import QtWidgets

from ...model.describe import ulp_distance, values_between
from ...model.formats import FORMATS, FloatFormat, get_format, operand_format
from ...model.state import InspectorState, Snapshot
from .. import bridge
from ..qt_utils import DeferWhileUnseen

__all__ = ["DistanceView"]

#: Values shown at each end of a gap too wide to list in full.
EDGE = 4


class DistanceView(DeferWhileUnseen, QtWidgets.QWidget):
    """Table: for every format, A and B converted (D3D rules) and how many patterns apart."""

    def __init__(self, state: InspectorState | None = None, parent=None) -> None:
        super().__init__(parent)
        self.heading = QtWidgets.QLabel()
        self.table = QtWidgets.QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["format", "A", "B", "ULPs apart",
                                              "values in between"])
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setToolTip("Patterns between A and B in each format (after converting both "
                              "with the D3D rules); values in between = distance - 1, all "
                              "of them up to 8, else the first and last 4.")
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.heading)
        lay.addWidget(self.table, 1)
        if state is not None:
            self.bind(state)

    def bind(self, state: InspectorState) -> None:
        """Show the distance between ``state``'s operands A and B (float operands only:
        ULP distances are between float patterns)."""
        self.state = state
        state.connect(self._pull_pair)
        self._pull_pair(frozenset(Snapshot.__dataclass_fields__))

    def _pull_pair(self, changed: frozenset) -> None:
        s = self.state.snapshot
        if {"op", "op_format", "operands", "rule_set", "options"} & changed \
                and isinstance(operand_format(s.op_format), FloatFormat) \
                and not self.defer(changed):
            self.show_pair(s.op_format, s.operands[0], s.operands[1])

    def pull(self, changed: frozenset) -> None:
        self._pull_pair(changed)

    def distances(self) -> dict[str, str]:
        return {self.table.item(r, 0).text(): self.table.item(r, 3).text()
                for r in range(self.table.rowCount())}

    @staticmethod
    def _between(a: int, b: int, dst: str, d) -> str:
        if abs(int(d)) > 9:  # the first and last EDGE values, the count of the rest
            return DistanceView._edges(a, b, dst, int(d))
        try:
            pats = [int(p) for p in np.asarray(values_between(a, b, dst, limit=16)).reshape(-1)[1:-1]]
        except (ValueError, OverflowError) as exc:  # the model refuses: say why, never crash
            return f"({exc})"
        return ", ".join(bridge.value_text(dst, p) for p in pats)

    @staticmethod
    def _edges(a: int, b: int, dst: str, d: int) -> str:
        """Why: a wide gap still shows where it starts and ends (next_up from the lower
        end, next_down from the upper), with how many values are left out."""
        f = FORMATS[dst]
        lo, hi = (a, b) if d > 0 else (b, a)
        first, last = [], []
        for _ in range(EDGE):
            lo = int(f.next_up(np.asarray(lo, dtype=f.dtype)))
            hi = int(f.next_down(np.asarray(hi, dtype=f.dtype)))
            first.append(lo)
            last.insert(0, hi)
        text = lambda pats: ", ".join(bridge.value_text(dst, p) for p in pats)  # noqa: E731
        return f"{text(first)}, … {abs(d) - 1 - 2 * EDGE:,} more …, {text(last)}"

    def show_pair(self, fmt: str, a: int, b: int) -> None:
        """Refresh for operands ``a`` and ``b`` of format ``fmt``."""
        src = get_format(fmt)
        self.heading.setText(f"A = {bridge.value_text(src.name, a)}, B = {bridge.value_text(src.name, b)}"
                             f" ({src.name})")
        self.table.setRowCount(len(FORMATS))
        for r, dst in enumerate(FORMATS):
            try:
                ca = a if dst == src.name else bridge.convert_bits(a, src.name, dst)
                cb = b if dst == src.name else bridge.convert_bits(b, src.name, dst)
                d = ulp_distance(np.asarray(ca, dtype=FORMATS[dst].dtype),
                         np.asarray(cb, dtype=FORMATS[dst].dtype), FORMATS[dst])
                d = np.asarray(d).reshape(-1)[0]
                text = "NaN involved" if np.issubdtype(np.asarray(d).dtype, np.floating) and np.isnan(d) \
                    else f"{int(d)} ({max(abs(int(d)) - 1, 0)} in between)"
                row = [dst, bridge.value_text(dst, ca), bridge.value_text(dst, cb), text,
                       self._between(ca, cb, dst, d)]
            except ValueError as exc:
                row = [dst, "", "", str(exc), ""]
            for c, t in enumerate(row):  # in place: a new item re-lays the table out
                item = self.table.item(r, c)
                if item is None:
                    self.table.setItem(r, c, QtWidgets.QTableWidgetItem(t))
                elif item.text() != t:
                    item.setText(t)
        self.table.resizeColumnsToContents()
