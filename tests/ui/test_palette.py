"""Light/dark bit colours follow the application palette (palettes follow the system)."""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets

from fpinspector.ui import palette


def test_bit_colours_follow_a_dark_palette(qtbot) -> None:
    app = QtWidgets.QApplication.instance()
    old = app.palette()
    try:
        dark = QtGui.QPalette()
        dark.setColor(QtGui.QPalette.ColorRole.Window, QtGui.QColor("#202020"))
        app.setPalette(dark)
        scheme = QtGui.QGuiApplication.styleHints().colorScheme()
        if scheme == palette.QtCore.Qt.ColorScheme.Light:  # the platform states a scheme
            assert palette.colors() is palette.LIGHT
        else:
            assert palette.colors() is palette.DARK
        light = QtGui.QPalette()
        light.setColor(QtGui.QPalette.ColorRole.Window, QtGui.QColor("#f0f0f0"))
        app.setPalette(light)
        if scheme != palette.QtCore.Qt.ColorScheme.Dark:
            assert palette.colors() is palette.LIGHT
    finally:
        app.setPalette(old)


def test_sign_exponent_fraction_are_distinct_in_both_palettes() -> None:
    for c in (palette.LIGHT, palette.DARK):
        assert len({c.sign, c.exp, c.frac}) == 3
        assert c.diff not in (c.sign, c.exp, c.frac)
