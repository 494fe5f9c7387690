"""Labels whose text can be selected and copied, made selectable only while the pointer is
over them (or they hold the focus).

Why: a QLabel with selectable text keeps a text document and lays it out again for every
new text (about 50 µs a label, and it paints slower too). The Decode panel and the All
formats rule lists change fifteen such labels per edit (about 0.7 ms of a 6 ms format
switch), an operand edit four in the results. Rich text (the verdict) needs a document
anyway. Text is only ever selected with the pointer on it, so the document is made when
the pointer arrives and dropped when it leaves, unless the label holds the focus (a
selection waiting for Ctrl+C) or a popup is open (the label's Copy menu works through that
document). The text looks the same either way: same font, same place, same wrapping.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["select_on_hover", "SELECTABLE"]

SELECTABLE = QtCore.Qt.TextInteractionFlag.TextSelectableByMouse
_PLAIN = QtCore.Qt.TextInteractionFlag.NoTextInteraction
_E = QtCore.QEvent.Type


class _HoverSelect(QtCore.QObject):
    """Event filter of one label (its child: it goes with the label)."""

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:  # noqa: N802
        kind = event.type()
        if kind == _E.Enter:
            obj.setTextInteractionFlags(SELECTABLE)  # type: ignore[attr-defined]
        elif kind in (_E.Leave, _E.FocusOut) and not self._in_use(obj):
            obj.setTextInteractionFlags(_PLAIN)  # type: ignore[attr-defined]
        return False

    @staticmethod
    def _in_use(label: QtCore.QObject) -> bool:
        """The pointer is on it, it has the focus, or a popup (its Copy menu) is open."""
        assert isinstance(label, QtWidgets.QLabel)
        return (label.underMouse() or label.hasFocus()
                or QtWidgets.QApplication.activePopupWidget() is not None)


def select_on_hover(label: QtWidgets.QLabel) -> QtWidgets.QLabel:
    """Make ``label``'s text selectable by mouse while the pointer is over it (see the
    module's docstring); returns the label."""
    label.setTextInteractionFlags(_PLAIN)
    label.installEventFilter(_HoverSelect(label))
    return label
