"""The "why" view: the model's step-by-step walk through one evaluation (input flush, exact op,
rounding, output flush, NaN/zero rules), with the fired rules in plain words."""

from __future__ import annotations

from PySide6 import QtWidgets

__all__ = ["WhyView"]


class WhyView(QtWidgets.QWidget):
    """Numbered steps from ``Evaluation.steps_at`` and the explanations from ``explain_at``."""

    def __init__(self, parent=None) -> None:
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
