"""The sweep panel's inputs (op, format, rules, A, B, C, compare, GPU), bound to a Qt-free
:class:`~fpinspector.model.sweep.state.SweepState`: each control writes its field into the
state, and the state's changes (including what an op change implies) come back here."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QGridLayout, QLabel, QLineEdit, QWidget

from ...model.engine import RULE_SETS
from ...model.sweep import COMPARES
from ...model.sweep.state import FLOAT_FORMATS, SweepSettings, SweepState
from ..qt_utils import signals_blocked

__all__ = ["SweepControls"]


class SweepControls(QWidget):
    """Form of the sweep inputs; ``use_gpu`` is laid out by the panel next to Run."""

    def __init__(self, state: SweepState, ops: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.op = QComboBox(editable=True)
        self.op.addItems(ops)
        self.format = QComboBox()
        self.format.setToolTip("Operand format. Ops on integer codes (itof, from_unorm8, ...) "
                               "sweep their own code type, shown here.")
        self.rules = QComboBox()
        self.rules.addItems(list(RULE_SETS))
        self.domain_a, self.domain_b = QLineEdit(), QLineEdit()
        for w in (self.domain_a, self.domain_b):
            w.setToolTip("all | bits:LO:HI[:N] | lin:A:B[:N] | log:A:B[:N]; integer codes "
                         "(itof, from_unorm8, ...): all | bits:LO:HI[:N] over the codes")
        self.c_value = QLineEdit()
        self.c_value.setToolTip("Fixed third operand of mad (the map covers A x B): a value "
                                "or pattern, e.g. 1.5 or 0x3F800000")
        self.compare = QComboBox()
        for key, (_, label) in COMPARES.items():
            self.compare.addItem(label, key)
        self.use_gpu = QCheckBox("GPU")
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._fields = [(QLabel(label), w) for label, w in (
            ("op", self.op), ("format", self.format), ("rules", self.rules),
            ("A", self.domain_a), ("B", self.domain_b), ("C", self.c_value),
            ("compare", self.compare))]
        self.columns = 0
        self.arrange(1)
        self._push_edits()
        state.connect(self._pull)
        self._pull(frozenset(SweepSettings.__dataclass_fields__))

    def arrange(self, columns: int) -> None:
        """One field a row (beside the map), or ``columns`` a row (above it, in a short
        dock: the map keeps the height)."""
        if columns == self.columns:
            return
        self.columns = columns
        for label, w in self._fields:
            self._grid.removeWidget(label)
            self._grid.removeWidget(w)
        fields = self._fields
        if columns == 2:  # rules beside compare, A beside B
            fields = [fields[i] for i in (0, 1, 2, 6, 3, 4, 5)]
        for i, (label, w) in enumerate(fields):
            row, col = divmod(i, columns)
            self._grid.addWidget(label, row, 2 * col)
            self._grid.addWidget(w, row, 2 * col + 1)
        for col in range(4):
            self._grid.setColumnStretch(col, 1 if col % 2 and col // 2 < columns else 0)

    def _push_edits(self) -> None:
        st = self.state
        self.op.currentTextChanged.connect(lambda t: st.update(op=t))
        self.format.currentTextChanged.connect(lambda t: t and st.update(fmt=t))
        self.rules.currentTextChanged.connect(lambda t: st.update(rules=t))
        self.domain_a.textChanged.connect(lambda t: st.update(domain_a=t))
        self.domain_b.textChanged.connect(lambda t: st.update(domain_b=t))
        self.c_value.textChanged.connect(lambda t: st.update(c=t))
        self.use_gpu.toggled.connect(lambda on: st.update(gpu=on))
        self.compare.currentIndexChanged.connect(
            lambda i: st.update(compare=self.compare.itemData(i)))

    def _pull(self, changed: frozenset) -> None:
        """Show the state (without echoing it back); B and C only where the op has them."""
        st, s = self.state, self.state.settings
        with signals_blocked(self.op, self.format, self.rules, self.domain_a, self.domain_b,
                             self.c_value, self.use_gpu, self.compare):
            if self.op.currentText() != s.op:
                self.op.setCurrentText(s.op)
            if {"fmt", "op"} & changed:
                shown = [s.fmt] if st.fmt_fixed else list(FLOAT_FORMATS)
                if [self.format.itemText(i) for i in range(self.format.count())] != shown:
                    self.format.clear()
                    self.format.addItems(shown)
                self.format.setCurrentText(s.fmt)
                self.format.setEnabled(not st.fmt_fixed)
            self.rules.setCurrentText(s.rules)
            for edit, text in ((self.domain_a, s.domain_a), (self.domain_b, s.domain_b),
                               (self.c_value, s.c)):
                if edit.text() != text:  # the edit being typed in keeps its cursor
                    edit.setText(text)
            self.use_gpu.setChecked(s.gpu)
            self.compare.setCurrentIndex(self.compare.findData(s.compare))
        self.domain_b.setEnabled(st.b_used)
        self.c_value.setEnabled(st.c_used)
