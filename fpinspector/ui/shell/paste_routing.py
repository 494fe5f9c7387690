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
    """For one main window (``win.paste_box``, the window's Paste action): when a text
    field of the window has the focus and the clipboard does not fit it, the paste goes to
    the inspector instead of into the field.

    Only the focused field is watched (the filter moves with the focus): an application-
    wide filter would run Python for every event of every widget."""

    def __init__(self, win: QtWidgets.QMainWindow) -> None:
        super().__init__(win)
        self.win = win
        self._watched: QtWidgets.QWidget | None = None
        app = QtWidgets.QApplication.instance()
        if app is not None:
            app.focusChanged.connect(self._focus_changed)

    def _focus_changed(self, old: QtWidgets.QWidget | None, new: QtWidgets.QWidget | None) -> None:
        if self._watched is not None:
            try:
                self._watched.removeEventFilter(self)
            except RuntimeError:  # the widget is gone
                pass
            self._watched = None
        if isinstance(new, (QtWidgets.QLineEdit, QtWidgets.QAbstractSpinBox)) \
                and new.window() is self.win and new is not self.win.paste_box.edit:
            new.installEventFilter(self)
            self._watched = new

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if event.type() != QtCore.QEvent.Type.ShortcutOverride:
            return False
        if not event.matches(QtGui.QKeySequence.StandardKey.Paste):
            return False
        if fits_field(obj, QtWidgets.QApplication.clipboard().text()):
            return False  # the field's own paste
        event.ignore()  # not the field's: the window's Paste action (the inspector) fires
        return True
