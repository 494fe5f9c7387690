"""The window's one place for messages: a line of fixed height under the paste line.

What a paste read and where its values went, a field that cannot read its text, a workspace
opened, a device switched to, an error: all of them appear here, and only here (the window's
status bar keeps the GPU's state). Why one fixed place: the same paste message was shown in
the paste box, beside the operands and in the status bar, and each copy that wrapped moved
the operand editors down by up to ~60 px.

A message describes the state as it was when it was shown; the values or the op changing
afterwards (an edit, undo, a workspace opened) clear it, and a new message replaces it.
Picking which of the values to inspect (A, B, the model or GPU result) changes none of
them: the message stays.

A parse error's caret excerpt (its reason, then the text and a caret under the character it
could not read: ``model/parse/tokens.py``) is three lines, one more than the bar has: it is
shown as two lines of a monospaced font, the text, and the caret under its character with
the reason beside it (as a compiler puts it), cut around the caret to the bar's width.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

from ...model.state import InspectorState
from ..qt_utils import ERROR_STYLE, set_style

__all__ = ["MessageBar", "ERROR_STYLE", "CaretMessage", "caret_message", "caret_lines"]



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
        self._message = ""  # the message as given (a caret one is shown laid out again)
        self._caret: CaretMessage | None = None
        self._plain_font = QtGui.QFont(self.font())
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
        self._message = text
        self._caret = caret_message(text)
        self._lay_out()
        # (a caret in the tooltip too stays under its character: a monospaced block)
        self.setToolTip(f"<pre>{_html(text)}</pre>" if self._caret else text)
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
            self._message, self._caret = "", None
            self._lay_out()
            self.setToolTip("")
            self._error = False
            self.message_changed.emit("")

    def message(self) -> str:
        """The message as given (:meth:`text` is as shown: a caret message laid out)."""
        return self._message

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if self._message:
            self._lay_out()  # cut to the new width

    def _lay_out(self) -> None:
        """Show the message: plain and wrapped, or a caret message in two monospaced lines
        of the bar's width (in a font small enough for two lines in the bar's height)."""
        if self._caret is None:
            if self.font() != self._plain_font:
                self.setFont(self._plain_font)
            self.setWordWrap(True)
            # cut to the bar's lines with "…" (the whole message is the tooltip): clipped,
            # a longer one showed half of a third line (the first-run intro at 1280x720)
            text = fit_lines(self._message, self._plain_font,
                             max(1, self.contentsRect().width()), self.LINES)
        else:
            mono = _mono_font(self._plain_font, self.height() - 4)
            if self.font() != mono:
                self.setFont(mono)
            self.setWordWrap(False)
            per = QtGui.QFontMetrics(mono).horizontalAdvance("0" * 64) / 64  # (not rounded)
            columns = int(self.contentsRect().width() // max(1.0, per))
            text = "\n".join(caret_lines(self._caret, columns))
        if self.text() != text:
            self.setText(text)

    def is_error(self) -> bool:
        """The message shown is an error."""
        return bool(self.text()) and self._error

    def _state_changed(self, changed: frozenset) -> None:
        if not self.text() or self._state is None:
            return
        now = _described(self._state)
        if now == self._describes:
            return
        if getattr(self._state, "only_showing", False):
            # another of the same values inspected (the picker, the GPU's answer shown):
            # what the message says of them still holds; it now describes this state
            self._describes = now
            return
        self.clear_message()


def fit_lines(text: str, font: QtGui.QFont, width: int, lines: int) -> str:
    """``text`` as it wraps (at words) into ``lines`` lines of ``width`` pixels: whole
    where it fits, else cut in its last line with "…"."""
    out: list[str] = []
    fm = QtGui.QFontMetrics(font)
    paragraphs = text.split("\n")
    for k, para in enumerate(paragraphs):
        layout = QtGui.QTextLayout(para, font)
        option = QtGui.QTextOption()
        option.setWrapMode(QtGui.QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(option)
        layout.beginLayout()
        starts = []
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            starts.append(line.textStart())
        layout.endLayout()
        starts = starts or [0]
        room = lines - len(out)
        if len(starts) > room or (len(starts) == room and k < len(paragraphs) - 1):
            cut = starts[room - 1]  # (where the last line shown starts)
            rest = " ".join([para[cut:], *paragraphs[k + 1:]])
            out.append(para[:cut] + fm.elidedText(rest, QtCore.Qt.TextElideMode.ElideRight,
                                                  width))
            return "\n".join(out)
        out.append(para)
    return text


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
        return self.messages.message()

    def clearMessage(self) -> None:  # noqa: N802 (Qt's name)
        self.messages.clear_message()


@dataclass(frozen=True)
class CaretMessage:
    """A message with a caret excerpt: ``head`` (the reason and where), the ``excerpt``
    line and the caret's column in it."""

    head: str
    excerpt: str
    column: int


_CARET = re.compile(r"(?s)(?P<head>.*):\n  (?P<excerpt>[^\n]*)\n  (?P<pad> *)\^")


def caret_message(text: str) -> CaretMessage | None:
    """The parts of a caret message (``ParseError``'s "reason at …:\\n  excerpt\\n  ^"),
    or None for any other text."""
    m = _CARET.fullmatch(text)
    if m is None or len(m["pad"]) > len(m["excerpt"]):
        return None
    # "at index 45 (line 1, column 46)": the caret shows where; the line and column say it
    head = re.sub(r" at index \d+ \(line", " (line", m["head"], count=1)
    return CaretMessage(head, m["excerpt"], len(m["pad"]))


#: The least excerpt kept before the caret when the head goes on its left.
_CONTEXT = 8


def caret_lines(msg: CaretMessage, columns: int) -> tuple[str, str]:
    """Two lines of at most ``columns`` characters: the excerpt, and under it the caret
    below its character with the head beside it: right of the caret where it fits, else
    left of it, else the excerpt is cut on its left so that the head fits beside the
    caret. "…" stands for a part of the excerpt left out; a head too long for the line is
    cut with "…" (the whole message is the bar's tooltip)."""
    columns = max(columns, 2 * _CONTEXT + 4)
    head = _elide(msg.head, columns - _CONTEXT - 2)
    h, col = len(head), msg.column
    if col + 2 + h <= columns:  # "   ^ head"
        return _cut(msg.excerpt, 0, columns), " " * col + "^ " + head
    if h + 1 <= col <= columns - 2:  # "head ^"
        return _cut(msg.excerpt, 0, columns), " " * (col - h - 1) + head + " ^"
    if col >= h + 2:  # the caret far right: cut so that it comes right after the head
        start = col - h - 1
        return _cut(msg.excerpt, start, columns), head + " ^"
    start = col - (columns - 2 - h)  # room for neither: cut so that the head fits after it
    return _cut(msg.excerpt, start, columns), " " * (col - start) + "^ " + head


def _cut(text: str, start: int, columns: int) -> str:
    """``text`` from ``start``, at most ``columns`` characters, with "…" where it is cut."""
    piece = text[start:start + columns]
    if start > 0:
        piece = "…" + piece[1:]
    if start + columns < len(text):
        piece = piece[:-1] + "…"
    return piece


def _elide(text: str, n: int) -> str:
    return text if len(text) <= n else text[:max(0, n - 1)] + "…"


def _mono_font(like: QtGui.QFont, height: int) -> QtGui.QFont:
    """The system's fixed-pitch font at ``like``'s size, smaller where two of its lines
    would not fit in ``height`` pixels."""
    mono = QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont)
    size = like.pointSizeF() if like.pointSizeF() > 0 else 9.0
    mono.setPointSizeF(size)
    while size > 6 and QtGui.QFontMetrics(mono).lineSpacing() * 2 > height:
        size -= 0.5
        mono.setPointSizeF(size)
    return mono


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
