"""Labels whose text can be selected and copied, made selectable only while the pointer is
over them (or they hold the focus).

Why: a QLabel with selectable text keeps a text document and lays it out again for every
new text (about 50 µs a label, and it paints slower too). The Decode panel and the All
formats rule lists change fifteen such labels per edit (about 0.7 ms of a 6 ms format
switch), an operand edit six in the results and the verdict. Text is only ever selected
with the pointer on it, so the document is made when
the pointer arrives and dropped when it leaves, unless the label holds the focus (a
selection waiting for Ctrl+C) or a popup is open (the label's Copy menu works through that
document). The text looks the same either way: same font, same place, same wrapping.

A subclass, not an event filter: a Python event filter runs for every event of the label
(its paints, tooltip and text changes: about 7 µs each), the overridden handlers only for
the pointer and the focus.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["HoverSelectLabel", "SELECTABLE"]

SELECTABLE = QtCore.Qt.TextInteractionFlag.TextSelectableByMouse
_PLAIN = QtCore.Qt.TextInteractionFlag.NoTextInteraction


class HoverSelectLabel(QtWidgets.QLabel):
    """A label whose text is selectable by mouse while the pointer is over it (see the
    module's docstring)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.setTextInteractionFlags(_PLAIN)

    def enterEvent(self, event: QtGui.QEnterEvent) -> None:  # noqa: N802 (Qt override)
        self.setTextInteractionFlags(SELECTABLE)
        super().enterEvent(event)

    def leaveEvent(self, event: QtCore.QEvent) -> None:  # noqa: N802 (Qt override)
        if not self._in_use():
            self.setTextInteractionFlags(_PLAIN)
        super().leaveEvent(event)

    def focusOutEvent(self, event: QtGui.QFocusEvent) -> None:  # noqa: N802 (Qt override)
        if not self._in_use():
            self.setTextInteractionFlags(_PLAIN)
        super().focusOutEvent(event)

    def _in_use(self) -> bool:
        """The pointer is on it, it has the focus, or a popup (its Copy menu) is open."""
        return (self.underMouse() or self.hasFocus()
                or QtWidgets.QApplication.activePopupWidget() is not None)
