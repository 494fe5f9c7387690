"""The paste box: a line that takes any text (debugger output, hex, decimals, a state string)."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["PasteBox"]


class PasteBox(QtWidgets.QWidget):
    """Line edit + button; errors appear inline in a label, never in a dialog.

    Signals
    -------
    submitted(str) : the text to paste.
    """

    submitted = QtCore.Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.edit = QtWidgets.QLineEdit()
        self.edit.setPlaceholderText("Paste values here (Ctrl+V anywhere): 0x3f800000, 1.5f, "
                                     "asfloat(0x...), -0x1p-149, debugger output, or a state string")
        self.edit.setToolTip("Several values fill operands A, B, C, … in order.")
        self.button = QtWidgets.QPushButton("Paste")
        self.message = QtWidgets.QLabel()
        self.message.setObjectName("paste-message")
        self.message.setWordWrap(True)
        lay = QtWidgets.QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.edit, 1)
        lay.addWidget(self.button)
        lay.addWidget(self.message, 1)
        self.edit.returnPressed.connect(self._submit)
        self.button.clicked.connect(self._submit)

    def _submit(self) -> None:
        text = self.edit.text()
        if text.strip():
            self.submitted.emit(text)

    def show_error(self, message: str) -> None:
        self.message.setStyleSheet("color: #c62828;")
        self.message.setText(f"Cannot paste: {message}")

    def show_result(self, message: str) -> None:
        self.message.setStyleSheet("")
        self.message.setText(message)

    def is_error(self) -> bool:
        return self.message.text().startswith("Cannot paste")
