"""The bindings table: one row per variable of the expression, its value typed or taken
from one of the inspector's operands (A, B, C, ...)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from ...model.describe import hex_float
from ...model.formats import FloatFormat, OperandType, get_format, operand_format

__all__ = ["BindingsTable", "OPERAND_NAMES"]

OPERAND_NAMES = "ABCDEFGH"
_TYPED = "typed"
#: The value column's least width in the table's size hint: a pattern ("0x3F800000") shows
#: whole ("float3(1e-20, 0, 0)" scrolls)
_VALUE_WIDTH = 120


class BindingsTable(QTableWidget):
    """Rows: variable, source (typed or operand A..H), value.

    Signals
    -------
    changed() : a value or a source changed (re-evaluate).
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 3, parent)
        self.setHorizontalHeaderLabels(["variable", "from", "value"])
        header = self.horizontalHeader()
        # names and sources as wide as they are, the value the rest: with three 100 px
        # columns a dock's table showed no value at all
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.verticalHeader().hide()
        self.setToolTip("Each variable's value: typed (1.5, 0x00000001, -0, nan, "
                        "float3(1e-20, 0, 0), uint(0x3c00)) or one of the inspector's operands")
        self._rows: dict[str, tuple[str, str]] = {}  # name -> (source, typed text)
        self._operands: tuple[int, ...] = ()
        self._op_format: OperandType = get_format("f32")
        self._expr_format: FloatFormat = get_format("f32")
        self._filling = False
        self.itemChanged.connect(self._on_item)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """Every name, source and a value column of _VALUE_WIDTH, and every row."""
        frame = 2 * self.frameWidth()
        width = sum(max(self.columnWidth(c), self.sizeHintForColumn(c)) for c in (0, 1))
        width += _VALUE_WIDTH
        rows = sum(self.rowHeight(r) for r in range(self.rowCount()))
        return QSize(width + frame + 4, self.horizontalHeader().height() + rows + frame + 4)

    # -- content --------------------------------------------------------------------
    def set_operands(self, operands: tuple[int, ...], op_format: str) -> None:
        """The inspector's operands (patterns of ``op_format``) that rows may read."""
        self._operands, self._op_format = tuple(operands), operand_format(op_format)
        self._refresh_values()

    def set_format(self, expr_format: str) -> None:
        """The expression's float format: an operand of another format is bound by value."""
        self._expr_format = get_format(expr_format)
        self._refresh_values()

    def set_variables(self, names: list[str]) -> None:
        """Show ``names``; a name seen before keeps its source and text; a new one takes the
        next operand not used yet (A, B, C, ... in order of appearance)."""
        used = {src for src, _ in (self._rows.get(n, ("", "")) for n in names)}
        for n in names:
            if n not in self._rows:
                free = [c for c in OPERAND_NAMES if c not in used]
                src = free[0] if free else _TYPED
                used.add(src)
                self._rows[n] = (src, "1.0")
        self._filling = True
        self.setRowCount(len(names))
        for r, n in enumerate(names):
            item = QTableWidgetItem(n)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.setItem(r, 0, item)
            combo = QComboBox()
            combo.addItems([_TYPED] + [f"operand {c}" for c in OPERAND_NAMES])
            src = self._rows[n][0]
            combo.setCurrentIndex(0 if src == _TYPED else 1 + OPERAND_NAMES.index(src))
            combo.currentIndexChanged.connect(lambda i, name=n: self._on_source(name, i))
            self.setCellWidget(r, 1, combo)
            self.setItem(r, 2, QTableWidgetItem(""))
        self._filling = False
        self._refresh_values()

    def names(self) -> list[str]:
        return [self.item(r, 0).text() for r in range(self.rowCount())]

    def set_typed(self, name: str, text: str) -> None:
        """Type ``text`` as ``name``'s value (e.g. a map cell's pattern)."""
        self._rows[name] = (_TYPED, text)
        if name in self.names():
            r = self.names().index(name)
            combo = self.cellWidget(r, 1)
            combo.blockSignals(True)
            combo.setCurrentIndex(0)
            combo.blockSignals(False)
        self._refresh_values()
        self.changed.emit()

    def bindings(self) -> dict[str, Any]:
        """name -> value for :func:`fpinspector.model.evaluate_expr` (operands as patterns)."""
        out: dict[str, Any] = {}
        for n in self.names():
            src, text = self._rows[n]
            out[n] = text if src == _TYPED else self._operand(src)
        return out

    def source(self, name: str) -> str:
        """``typed`` or the operand letter."""
        return self._rows[name][0]

    # -- internals ------------------------------------------------------------------
    def _operand(self, letter: str) -> Any:
        i = OPERAND_NAMES.index(letter)
        bits = self._operands[i] if i < len(self._operands) else 0
        if self._op_format == self._expr_format:  # the expression's own pattern
            return int(bits)
        if not isinstance(self._op_format, FloatFormat):  # an integer code: its number
            return str(int(self._op_format.values(int(bits))))
        # another format's pattern (an f16 operand, an f11 one): its value as a hex float,
        # which the parser rounds once into the expression's format. The pattern's hex was
        # read as a pattern of the expression's format: f16 1.0 (0x3C00) bound 2.15e-41
        return hex_float(int(bits), self._op_format.name)

    def _pattern_text(self, v: Any) -> str:
        """An operand's binding as shown: a pattern in the expression format's width."""
        if not isinstance(v, int):
            return str(v)
        return f"0x{v:0{(self._expr_format.bits + 3) // 4}X}"

    def _refresh_values(self) -> None:
        self._filling = True
        for r, n in enumerate(self.names()):
            src, text = self._rows[n]
            item = self.item(r, 2)
            if src == _TYPED:
                item.setText(text)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            else:
                item.setText(self._pattern_text(self._operand(src)))
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
        self._filling = False

    def _on_source(self, name: str, index: int) -> None:
        src = _TYPED if index == 0 else OPERAND_NAMES[index - 1]
        old = self._rows[name]
        text = old[1]
        if src == _TYPED and old[0] != _TYPED:  # keep the operand's value as the typed one
            text = self._pattern_text(self._operand(old[0]))
        self._rows[name] = (src, text)
        self._refresh_values()
        self.changed.emit()

    def _on_item(self, item: QTableWidgetItem) -> None:
        if self._filling or item.column() != 2:
            return
        n = self.item(item.row(), 0).text()
        src, _ = self._rows[n]
        if src == _TYPED:
            self._rows[n] = (src, item.text())
            self.changed.emit()
