"""The bit colours are kept between paints, and still follow every palette change."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from fpinspector.ui import palette


def _expected() -> palette.BitColors:
    """Oracle: the scheme the platform states, else the window colour's lightness (Qt's)."""
    scheme = QtGui.QGuiApplication.styleHints().colorScheme()
    if scheme == QtCore.Qt.ColorScheme.Dark:
        return palette.DARK
    if scheme == QtCore.Qt.ColorScheme.Light:
        return palette.LIGHT
    app = QtWidgets.QApplication.instance()
    return palette.DARK if app.palette().color(QtGui.QPalette.ColorRole.Window).lightness() < 128 \
        else palette.LIGHT


def test_colours_follow_each_palette_switch_with_colours_asked_between(qtbot) -> None:
    """Dark, light, dark again, and a palette changed in place and set again: after each,
    colors() names the palette's variant, though it was asked (and kept) just before."""
    app = QtWidgets.QApplication.instance()
    old = app.palette()
    try:
        for window in ("#202020", "#f0f0f0", "#202020", "#f0f0f0"):
            pal = QtGui.QPalette(app.palette())
            pal.setColor(QtGui.QPalette.ColorRole.Window, QtGui.QColor(window))
            palette.colors()  # (kept for the palette before)
            app.setPalette(pal)
            assert palette.colors() is _expected()
            assert palette.colors() is _expected()  # (and kept)
        if QtGui.QGuiApplication.styleHints().colorScheme() == QtCore.Qt.ColorScheme.Unknown:
            assert palette.colors() is palette.LIGHT  # (the last window colour, light)
            dark = QtGui.QPalette(app.palette())
            dark.setColor(QtGui.QPalette.ColorRole.Window, QtGui.QColor("#101010"))
            app.setPalette(dark)
            assert palette.colors() is palette.DARK
    finally:
        app.setPalette(old)
