"""The paste box: a line that takes any text (debugger output, hex, decimals, a state string)."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ..model.state import InspectorState
from . import bridge

__all__ = ["PasteBox"]


class PasteBox(QtWidgets.QWidget):
    """Line edit + button; errors appear inline in a label, never in a dialog.

    Signals
    -------
    submitted(str) : the text to paste (a bound state receives it, :meth:`paste`).
    """

    submitted = QtCore.Signal(str)

    def __init__(self, state: InspectorState | None = None, parent=None) -> None:
        super().__init__(parent)
        self.edit = QtWidgets.QLineEdit()
        self.edit.setPlaceholderText("Paste values here (Ctrl+V anywhere): 0x3f800000, 1.5f, "
                                     "asfloat(0x...), -0x1p-149, debugger output, or a state string")
        self.edit.setToolTip("Several values fill operands A, B, C, … in order.")
        self.button = QtWidgets.QPushButton("Paste")
        self.message = QtWidgets.QLabel()
        self.message.setObjectName("paste-message")
        self.message.setWordWrap(True)
        # never let a long message (one unbreakable garbage word) widen the window
        self.message.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                                   QtWidgets.QSizePolicy.Policy.Preferred)
        lay = QtWidgets.QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.edit, 1)
        lay.addWidget(self.button)
        lay.addWidget(self.message, 1)
        self.edit.returnPressed.connect(self._submit)
        self.button.clicked.connect(self._submit)
        self.state = state
        if state is not None:
            self.submitted.connect(self.paste)

    def paste(self, text: str) -> bool:
        """Paste ``text`` into the state (``model.state.edits.paste``): a state string, values
        for the inspector and operands, or codes; the outcome or the error shows inline."""
        try:
            self.show_result(bridge.paste(self.state, text))
        except ValueError as exc:
            self.show_error(str(exc))
            return False
        return True

    def _submit(self) -> None:
        text = self.edit.text()
        if text.strip():
            self.submitted.emit(text)

    def show_error(self, message: str, prefix: str = "Cannot paste: ") -> None:
        """Show ``message`` inline: control characters escaped, at most a few lines long."""
        self.message.setStyleSheet("color: #c62828;")
        self.message.setText(f"{prefix}{_printable(message)}")

    def show_pasted(self, text: str) -> None:
        """Put clipboard text in the line (what Ctrl+V pasted); huge text is not copied in."""
        if len(text) > self.edit.maxLength():
            self.edit.clear()
            self.edit.setPlaceholderText(f"(clipboard: {len(text):,} characters, too long)")
        else:
            self.edit.setText(text)

    def show_result(self, message: str) -> None:
        self.message.setStyleSheet("")
        self.message.setText(message)

    def is_error(self) -> bool:
        return self.message.text().startswith("Cannot paste")


_MAX_MESSAGE = 400


def _printable(message: str) -> str:
    """Escape what a label cannot show (NULs, other control bytes) and cap the length, so
    garbage on the clipboard reads as a short, clear message."""
    out = "".join(ch if ch.isprintable() or ch == "\n" else f"\\x{ord(ch):02x}"
                  if ord(ch) < 0x100 else "\ufffd" for ch in message)
    lines = out.split("\n")[:4]
    out = "\n".join(line[:160] for line in lines)
    return out if len(out) <= _MAX_MESSAGE else out[: _MAX_MESSAGE - 1] + "…"
