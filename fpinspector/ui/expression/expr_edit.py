"""The expression text field: completion of intrinsic names at the cursor, and the inline
error line (message and a caret under the offending text)."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QCompleter, QLabel, QLineEdit, QWidget

from ...model.expr import CONSTRUCTORS, INTRINSICS

__all__ = ["ExpressionEdit", "ErrorLine", "NAMES"]

#: What the field completes: intrinsics, then constructors.
NAMES = sorted(INTRINSICS) + sorted(CONSTRUCTORS)


class ExpressionEdit(QLineEdit):
    """A line edit that completes the identifier at the cursor with intrinsic names.

    Signals
    -------
    completed(str) : a completion was inserted (its name).
    """

    completed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText("e.g. n * rsqrt(dot(n, n))   or   saturate(a * b + c)")
        self.setToolTip("An HLSL-like expression: + - * / ?: comparisons, mad dot min max "
                        "sqrt rsqrt rcp exp2 log2 frac floor ceil round trunc abs saturate "
                        "lerp asfloat asuint f32tof16 f16tof32, float2-4(...), swizzles. "
                        "Ctrl+Space completes the name at the cursor.")
        self.completer_ = QCompleter(QStringListModel(NAMES, self), self)
        self.completer_.setWidget(self)
        self.completer_.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer_.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer_.activated.connect(self.insert_completion)
        self.textEdited.connect(lambda _t: self.complete_at_cursor(minimum=2))

    def word_at_cursor(self) -> tuple[int, str]:
        """(start, text) of the identifier ending at the cursor."""
        text, end = self.text(), self.cursorPosition()
        start = end
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        return start, text[start:end]

    def completions(self, prefix: str) -> list[str]:
        """Intrinsic/constructor names starting with ``prefix`` (case-insensitive)."""
        p = prefix.lower()
        return [n for n in NAMES if n.lower().startswith(p)] if p else []

    def complete_at_cursor(self, minimum: int = 1) -> bool:
        """Open the popup for the word at the cursor; False when nothing matches."""
        _, word = self.word_at_cursor()
        if len(word) < minimum or word[0].isdigit() or not self.completions(word) or (
                word in NAMES and len(self.completions(word)) == 1):
            self.completer_.popup().hide()
            return False
        self.completer_.setCompletionPrefix(word)
        rect = self.cursorRect()
        rect.setWidth(200)
        self.completer_.complete(rect)
        return True

    def insert_completion(self, name: str) -> None:
        """Replace the word at the cursor with ``name(`` (the call's opening bracket)."""
        start, word = self.word_at_cursor()
        text, end = self.text(), self.cursorPosition()
        tail = "" if text[end:end + 1] == "(" else "("
        self.setText(text[:start] + name + tail + text[end:])
        self.setCursorPosition(start + len(name) + len(tail))
        self.completed.emit(name)
        self.textEdited.emit(self.text())

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.key() == Qt.Key.Key_Space and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.complete_at_cursor(minimum=1)
            return
        super().keyPressEvent(event)


class ErrorLine(QLabel):
    """The inline error: the message, then the expression with a caret line under the span
    (monospace, so the caret lines up)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        font: QFont = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.setFont(font)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setWordWrap(False)
        self.setStyleSheet("color: #c0392b;")
        self.hide()

    def show_error(self, message: str, caret: str = "") -> None:
        self.setText(message + (f"\n{caret}" if caret else ""))
        self.show()

    def clear_error(self) -> None:
        self.setText("")
        self.hide()
