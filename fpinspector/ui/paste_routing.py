"""Ctrl+V anywhere: a focused field pastes into itself only when the clipboard text fits
it (one value); anything else (several values, a debugger dump, a state string) goes to
the inspector, as if pasted into the paste box."""

from __future__ import annotations

import re

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["PasteRouter", "fits_field"]

_ONE_TOKEN = re.compile(r"^\S{1,80}$")


def fits_field(widget: QtWidgets.QWidget, text: str) -> bool:
    """Whether ``text`` is a paste for the field ``widget`` itself: a single word (a hex
    pattern, one number) and, for a field with a length limit, not longer than it."""
    t = text.strip()
    if not _ONE_TOKEN.match(t):
        return False
    if isinstance(widget, QtWidgets.QLineEdit):
        return len(t) <= widget.maxLength()
    return True


class PasteRouter(QtCore.QObject):
    """Installed on the application for one main window (``win.paste_box``, the window's
    Paste action): when a text field of the window has the focus and the clipboard does not
    fit it, the paste goes to the inspector instead of into the field."""

    def __init__(self, win: QtWidgets.QMainWindow) -> None:
        super().__init__(win)
        self.win = win
        app = QtWidgets.QApplication.instance()
        if app is not None:
            app.installEventFilter(self)
        win.destroyed.connect(self._remove)

    def _remove(self) -> None:
        app = QtWidgets.QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if event.type() != QtCore.QEvent.Type.ShortcutOverride:
            return False
        if not event.matches(QtGui.QKeySequence.StandardKey.Paste):
            return False
        w = QtWidgets.QApplication.focusWidget()
        if w is None or w is not obj or w.window() is not self.win:
            return False
        if w is self.win.paste_box.edit:  # the paste box takes any text as typed
            return False
        if not isinstance(w, (QtWidgets.QLineEdit, QtWidgets.QAbstractSpinBox)):
            return False
        if fits_field(w, QtWidgets.QApplication.clipboard().text()):
            return False  # the field's own paste
        event.ignore()  # not the field's: the window's Paste action (the inspector) fires
        return True
