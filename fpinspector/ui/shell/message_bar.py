"""The window's one place for messages: a line of fixed height under the paste line.

What a paste read and where its values went, a field that cannot read its text, a workspace
opened, a device switched to, an error: all of them appear here, and only here (the window's
status bar keeps the GPU's state). Why one fixed place: the same paste message was shown in
the paste box, beside the operands and in the status bar, and each copy that wrapped moved
the operand editors down by up to ~60 px.

A message describes the state as it was when it was shown; the values or the op changing
afterwards (an edit, undo, a workspace opened) clear it, and a new message replaces it.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from ...model.state import InspectorState
from ..qt_utils import set_style

__all__ = ["MessageBar", "ERROR_STYLE"]

#: How an error reads (the paste box's colour for a failed paste).
ERROR_STYLE = "color: #c62828;"


class MessageBar(QtWidgets.QLabel):
    """A label as high as :attr:`LINES` lines whatever it shows (empty included): a message
    never moves another widget. Longer text is cut at the last line; the whole of it is
    the tooltip and can be selected and copied.

    Signals
    -------
    message_changed(str) : the message now shown ("" once cleared).
    """

    message_changed = QtCore.Signal(str)
    #: The lines a message may take (a paste's reading and where its values went).
    LINES = 2

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("message-bar")
        self.setWordWrap(True)
        self.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setAlignment(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignTop)
        # never wider than its place (one unbreakable garbage word), never higher
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored,
                           QtWidgets.QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self.fontMetrics().lineSpacing() * self.LINES + 4)
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.clear_message)
        self._error = False
        self._state: InspectorState | None = None
        self._describes: object = None  # the state's snapshot when the message was shown

    def bind(self, state: InspectorState) -> None:
        """Clear the message when ``state`` changes after it was shown."""
        self._state = state
        state.connect(self._state_changed)

    def show_message(self, text: str, timeout_ms: int = 0, error: bool = False) -> None:
        """Show ``text`` (replacing any message) for ``timeout_ms`` (0: until replaced or
        the state changes)."""
        self._error = bool(error)
        set_style(self, ERROR_STYLE if error else "")
        if self.text() != text:
            self.setText(text)
        self.setToolTip(text)
        self._describes = _described(self._state)
        if timeout_ms > 0:
            self._timer.start(timeout_ms)
        else:
            self._timer.stop()
        self.message_changed.emit(text)

    def clear_message(self) -> None:
        self._timer.stop()
        self._describes = None
        if self.text():
            self.setText("")
            self.setToolTip("")
            self._error = False
            self.message_changed.emit("")

    def is_error(self) -> bool:
        """The message shown is an error."""
        return bool(self.text()) and self._error

    def _state_changed(self, changed: frozenset) -> None:
        if self.text() and self._state is not None and \
                _described(self._state) != self._describes:
            self.clear_message()


def _described(state: InspectorState | None) -> tuple | None:
    """What a message can describe of the state: the values and the op, not the rule set
    or its options ("A = 1.0; not used (mad takes 3): 4.0" is as true under d3d10)."""
    if state is None:
        return None
    s = state.snapshot
    return (s.fmt, s.bits, s.word, s.op, s.op_format, s.operands)


class MessageStatusBar(QtWidgets.QStatusBar):
    """A status bar whose temporary messages go to the window's :class:`MessageBar`: every
    ``statusBar().showMessage(...)`` in the app lands in the one place for messages, and
    ``currentMessage()`` reads it back. The bar itself keeps its permanent widgets (the
    GPU's state)."""

    def __init__(self, messages: MessageBar, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.messages = messages

    def showMessage(self, text: str, timeout: int = 0) -> None:  # noqa: N802 (Qt's name)
        error = text.startswith(("Cannot", "cannot", "internal error"))
        self.messages.show_message(text, timeout, error=error)

    def currentMessage(self) -> str:  # noqa: N802 (Qt's name)
        return self.messages.text()

    def clearMessage(self) -> None:  # noqa: N802 (Qt's name)
        self.messages.clear_message()
