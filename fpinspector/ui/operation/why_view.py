"""The "why" view: the model's step-by-step walk through one evaluation (input flush, exact op,
rounding, output flush, NaN/zero rules), with the fired rules in plain words."""

from __future__ import annotations

from PySide6 import QtWidgets

from ...model.state import OP_FIELDS, InspectorState, Snapshot
from .. import bridge_ops
from ..qt_utils import DeferWhileUnseen

__all__ = ["WhyView"]


class WhyView(DeferWhileUnseen, QtWidgets.QWidget):
    """Numbered steps from ``Evaluation.steps_at`` and the explanations from ``explain_at``."""

    def __init__(self, state: InspectorState | None = None, parent=None) -> None:
        super().__init__(parent)
        self.heading = QtWidgets.QLabel()
        self.heading.setWordWrap(True)
        self.steps = QtWidgets.QListWidget()
        self.steps.setWordWrap(True)
        self.steps.setToolTip("How the model reached its result, one step per line.")
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.heading)
        lay.addWidget(self.steps, 1)
        if state is not None:
            self.bind(state)

    def bind(self, state: InspectorState) -> None:
        """Walk through the evaluation of ``state``'s op from now on."""
        self.state = state
        state.connect(self._pull_steps)
        self._pull_steps(frozenset(Snapshot.__dataclass_fields__))

    def _pull_steps(self, changed: frozenset) -> None:
        if not OP_FIELDS & changed or self.defer(changed):
            return
        s = self.state.snapshot
        try:
            o = bridge_ops.evaluate(s.op, s.operands, s.op_format, s.rule_set, s.options)
        except ValueError as exc:
            self.show_steps(f"{s.op}: no evaluation", [str(exc)])
            return
        head = (f"<b>{s.op}</b> on {s.op_format} under <b>{s.rule_set}</b> → "
                f"0x{o.bits:X} = {bridge_ops.result_text(o.result_format, o.bits)}")
        self.show_steps(head + f"<br>rules: {', '.join(o.rules) or 'none'}", o.steps)

    pull = _pull_steps

    def show_steps(self, heading: str, steps: list[str], explain: list[str] | None = None) -> None:
        """Replace the content: ``steps`` numbered, then the fired rules' sentences."""
        self.heading.setText(heading)
        self.steps.clear()
        for i, step in enumerate(steps, 1):
            self.steps.addItem(f"{i}. {step}")
        for sentence in explain or []:
            item = QtWidgets.QListWidgetItem(f"• {sentence}")
            item.setForeground(self.palette().color(self.palette().ColorRole.Link))
            self.steps.addItem(item)

    def lines(self) -> list[str]:
        return [self.steps.item(i).text() for i in range(self.steps.count())]
